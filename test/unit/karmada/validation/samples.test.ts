/**
 * Karmada's own YAML must be accepted: every sample under test/fixtures/karmada/samples and every
 * Appendix D example of the behaviour reference (test/fixtures/karmada/appendix-d.yaml), taken
 * through defaulting and validation as the API would on create, then on an unchanged update.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { defaultKarmadaObject, validateKarmadaObject } from '../../../../lib/karmada/validation/index.ts';
import { context, messages } from './support.ts';

/** Fixtures copied from the shared reference material (see test/fixtures/karmada/README.md). */
const REFERENCE = new URL('../../../fixtures/karmada/', import.meta.url).pathname;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(entry) ? [path] : [];
    });
}

function documents(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((obj): obj is KubeObject => obj !== null);
}

function appendixD(): KubeObject[] {
  return documents(readFileSync(join(REFERENCE, 'appendix-d.yaml'), 'utf8'));
}

const examples: [string, KubeObject][] = [
  ...yamlFiles(join(REFERENCE, 'samples')).flatMap((file) =>
    documents(readFileSync(file, 'utf8')).map((obj): [string, KubeObject] => [relative(REFERENCE, file), obj]),
  ),
  ...appendixD().map((obj): [string, KubeObject] => ['karmada-behaviour.md Appendix D', obj]),
];

describe("Karmada's sample objects are accepted", () => {
  it('finds the samples and all Appendix D kinds', () => {
    const kinds = new Set(examples.map(([, o]) => o.kind));
    for (const kind of [
      'PropagationPolicy',
      'ClusterPropagationPolicy',
      'OverridePolicy',
      'Cluster',
      'FederatedResourceQuota',
      'ResourceInterpreterCustomization',
    ]) {
      assert.ok(kinds.has(kind), kind);
    }
  });

  for (const [source, obj] of examples) {
    it(`${source}: ${obj.kind} ${obj.metadata.name}`, () => {
      const created = defaultKarmadaObject(obj, context('CREATE'));
      assert.deepEqual(messages(validateKarmadaObject(created, undefined)), []);
      const updated = defaultKarmadaObject(created, context('UPDATE'));
      assert.deepEqual(messages(validateKarmadaObject(updated, created)), []);
    });
  }

  it('Appendix D objects are accepted as written, where Karmada needs no defaulting first', () => {
    for (const obj of appendixD().filter((o) =>
      ['OverridePolicy', 'FederatedResourceQuota', 'ResourceInterpreterCustomization'].includes(o.kind),
    )) {
      assert.deepEqual(messages(validateKarmadaObject(obj, undefined)), [], obj.kind);
    }
  });
});
