/**
 * Every policy example of Karmada's documentation (test/fixtures/karmada/docs, copied from
 * karmada-io/website `docs/`, including the v1.16–v1.19 fields) is created through the API as kubectl
 * sends it (`fieldValidation=Strict`): the CRD schema and Karmada's webhook rules accept what Karmada
 * accepts. Examples the docs elide or mis-indent are rejected, each with the message that says why.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../lib/api/object.ts';
import { karmadaResourceDefs } from '../../../lib/karmada/kinds.ts';
import { apiHarness } from '../../support/api.ts';

const DOCS = new URL('../../fixtures/karmada/docs/', import.meta.url).pathname;

/** Where each Karmada kind is served (plural and scope), from the catalog the API serves. */
const DEFS = new Map(karmadaResourceDefs().map((d) => [`${d.group}/${d.version}/${d.kind}`, d]));

/**
 * Documents the docs do not show whole (`#...` in place of the rest of the spec) or show broken, by
 * `file#index` (0-based), with what the API answers. Karmada's API answers the same: its CRD schemas
 * and webhook make these checks.
 */
const ERRATA: Record<string, RegExp> = {
  // the docs elide the rest of the spec (#...)
  'userguide-failover-application-failover.yaml#0': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-failover-application-failover.yaml#1': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-failover-application-failover.yaml#2': /spec\.resourceSelectors: Required value/,
  // Karmada's webhook rejects this example too
  'userguide-failover-application-failover.yaml#3': /application failover is set, propagateDeps must be true/,
  // the docs elide the rest of the spec (#...)
  'userguide-failover-cluster-failover.yaml#0': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-failover-cluster-taint-management.yaml#1': /spec\.taints: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-failover-cluster-taint-management.yaml#2': /spec\.taints: Required value/,
  // --allow-no-execute-taint-policy is off by default, as in Karmada
  'userguide-failover-cluster-taint-management.yaml#3': /Configuring taint with NoExecute effect is not allowed/,
  // Karmada's webhook rejects this example too
  'userguide-scheduling-propagation-policy.yaml#25': /name cannot be empty if preemption is Always/,
  // mis-indented in the docs
  'userguide-scheduling-propagation-policy.yaml#33': /unknown field "spec\.clusterAffinity"/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#2': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#3': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#4': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#5': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#6': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#7': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#8': /spec\.resourceSelectors: Required value/,
  // `Effect` capitalised in the docs
  'userguide-scheduling-resource-propagating.yaml#9':
    /unknown field "spec\.placement\.clusterTolerations\[0\]\.Effect"/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#10': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#11': /spec\.resourceSelectors: Required value/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#12': /spec\.resourceSelectors: Required value/,
  // mis-indented in the docs
  'userguide-scheduling-resource-propagating.yaml#23': /unknown field "spec\.placement\.suspension"/,
  // mis-indented in the docs
  'userguide-scheduling-resource-propagating.yaml#24': /unknown field "spec\.placement\.suspension"/,
  // the docs elide the rest of the spec (#...)
  'userguide-scheduling-resource-propagating.yaml#25': /spec\.resourceSelectors: Required value/,
};

const examples: { id: string; obj: KubeObject }[] = readdirSync(DOCS)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(DOCS, file), 'utf8'))
      .map((d) => d.toJS() as KubeObject | null)
      .filter((o): o is KubeObject => o !== null && typeof o === 'object')
      .map((obj, i) => ({ id: `${file}#${i}`, obj })),
  );

describe("Karmada's documentation examples through the API (kubectl's strict field validation)", () => {
  it('finds the examples, the v1.17–v1.19 fields among them', () => {
    assert.ok(examples.length >= 80, String(examples.length));
    const text = JSON.stringify(examples);
    for (const field of ['workloadAffinity', 'schedulePriority', 'statePreservation'])
      assert.ok(text.includes(field), field);
  });

  for (const { id, obj } of examples) {
    it(`${id}: ${obj.kind} ${obj.metadata?.name}`, async () => {
      const { call } = await apiHarness();
      const [group, version] = String(obj.apiVersion).split('/');
      const def = DEFS.get(`${group}/${version}/${obj.kind}`);
      assert.ok(def, `no served kind ${obj.apiVersion} ${obj.kind}`);
      const namespace = obj.metadata?.namespace ?? 'default';
      if (def.namespaced && namespace !== 'default') {
        await call('POST', '/api/v1/namespaces', {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
        });
      }
      const base = `/apis/${group}/${version}`;
      const path = def.namespaced ? `${base}/namespaces/${namespace}/${def.plural}` : `${base}/${def.plural}`;
      const res = await call('POST', `${path}?fieldValidation=Strict`, { body: obj });
      const erratum = ERRATA[id];
      if (erratum) {
        assert.ok(res.status >= 400, `expected a rejection, got ${res.status}`);
        assert.match(String(res.json?.message), erratum);
      } else {
        assert.equal(res.status, 201, `${res.status}: ${res.json?.message}`);
      }
    });
  }
});
