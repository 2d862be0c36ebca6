/**
 * The layers, pinned in a test: the import graph of lib/, functions/ and infra/ (static imports and
 * re-exports, type-only ones included) against the rules docs/architecture.md states, and no import
 * cycle between files or between folders. A checker that only ever passes proves nothing, so the
 * second half runs it on small fixture graphs that break each kind of rule.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  againstAllowlist,
  checkImportGraph,
  FILE_CYCLE,
  FOLDER_CYCLE,
  type ImportGraph,
  type ImportRule,
  type KnownViolation,
  readImportGraph,
  under,
} from '../support/import-graph.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const ROOTS = ['lib', 'functions', 'infra'];

const CORE = 'core-imports-only-core-api-util';
const AWS_SDK = 'aws-sdk-only-in-adapters';
const INFRA = 'infra-not-on-local';
const CONTROLLERS = 'controllers-not-on-adapters-apiserver-local';
const KUBE = 'kube-not-on-karmada';

/** What may import what (cycles are checked apart from these). */
const RULES: readonly ImportRule[] = [
  {
    name: CORE,
    why: 'the decision core is published on its own (serverless-karmada/core) and stays pure, so it builds only on the API object model and utilities (its packages are checked by test/unit/core/package.test.ts)',
    appliesTo: (file) => under(file, 'lib/core'),
    forbids: (imported, isFile) => isFile && !under(imported, 'lib/core', 'lib/api', 'lib/util'),
  },
  {
    name: AWS_SDK,
    why: 'only lib/adapters talks to AWS; everything else works through ports, so it runs locally and in tests unchanged',
    appliesTo: (file) => !under(file, 'lib/adapters'),
    forbids: (imported, isFile) => !isFile && imported.startsWith('@aws-sdk/'),
  },
  {
    name: INFRA,
    why: 'the stacks describe AWS; what they share with local mode lives in the layers both use (specs, queue settings, table schema)',
    appliesTo: (file) => under(file, 'infra'),
    forbids: (imported, isFile) => isFile && under(imported, 'lib/local'),
  },
  {
    name: CONTROLLERS,
    why: 'controllers receive ports; the composition root (lib/wiring) picks adapters, and the API and local mode sit above them',
    appliesTo: (file) => under(file, 'lib/controllers'),
    forbids: (imported, isFile) => isFile && under(imported, 'lib/adapters', 'lib/apiserver', 'lib/local'),
  },
  {
    name: KUBE,
    why: 'the Kubernetes REST layer is generic (the member simulator serves it too); Karmada builds on it, not the other way round',
    appliesTo: (file) => under(file, 'lib/kube'),
    forbids: (imported, isFile) => isFile && under(imported, 'lib/karmada'),
  },
];

/**
 * Accepted offenders, each the import and the rule it breaks (`{ importer, imported, rule }`): none
 * today. The test fails on any violation not listed here and on any entry that no longer occurs, so
 * the list can only shrink: delete an entry when its import goes.
 */
const KNOWN_VIOLATIONS: readonly KnownViolation[] = [];

describe('architecture: the import graph of lib/, functions/ and infra/', () => {
  const graph = readImportGraph(REPO, ROOTS);
  const found = checkImportGraph(graph, RULES);

  it('walks every source file', () => {
    for (const file of ['lib/core/index.ts', 'lib/wiring/runtime.ts', 'functions/api.ts', 'infra/app.ts']) {
      assert.ok(graph.has(file), file);
    }
    assert.ok(graph.size > 250, `only ${graph.size} files`);
  });

  it('has no forbidden import and no import cycle beyond the known violations', () => {
    assert.deepEqual(
      againstAllowlist(found, KNOWN_VIOLATIONS).unexpected.map((v) => v.message),
      [],
    );
  });

  it('still has every known violation (a fixed one leaves KNOWN_VIOLATIONS)', () => {
    assert.deepEqual(againstAllowlist(found, KNOWN_VIOLATIONS).resolved, []);
  });

  it('would fail on one forbidden import added to the tree', () => {
    const broken = new Map(graph);
    broken.set('lib/controllers/binder.ts', [...graph.get('lib/controllers/binder.ts')!, 'lib/local/runtime.ts']);
    const { unexpected } = againstAllowlist(checkImportGraph(broken, RULES), KNOWN_VIOLATIONS);
    assert.deepEqual(
      unexpected.filter((v) => v.rule === CONTROLLERS).map((v) => [v.importer, v.imported]),
      [['lib/controllers/binder.ts', 'lib/local/runtime.ts']],
    );
  });
});

describe('the import-graph checker', () => {
  it('reports a forbidden import and a file cycle, naming the importer, the imported file and the rule', () => {
    const fixture: ImportGraph = new Map([
      ['lib/core/decide.ts', ['lib/api/object.ts', 'lib/util/json.ts', 'lib/kube/patch.ts', 'yaml']],
      ['lib/api/object.ts', []],
      ['lib/util/json.ts', []],
      ['lib/kube/patch.ts', ['lib/kube/schema.ts']],
      ['lib/kube/schema.ts', ['lib/kube/patch.ts']],
    ]);
    const found = checkImportGraph(fixture, RULES);
    assert.deepEqual(
      found.map((v) => [v.rule, v.importer, v.imported]),
      [
        [CORE, 'lib/core/decide.ts', 'lib/kube/patch.ts'],
        [FILE_CYCLE, 'lib/kube/patch.ts', 'lib/kube/schema.ts'],
        [FILE_CYCLE, 'lib/kube/schema.ts', 'lib/kube/patch.ts'],
      ],
    );
    for (const v of found) {
      assert.ok(
        v.message.includes(v.importer) && v.message.includes(v.imported) && v.message.includes(v.rule),
        v.message,
      );
    }
  });

  it('reports a cycle between folders that no two files close', () => {
    const fixture: ImportGraph = new Map([
      ['lib/store/codec.ts', ['lib/api/object.ts']],
      ['lib/api/object.ts', []],
      ['lib/api/keys.ts', ['lib/store/layout.ts']],
      ['lib/store/layout.ts', []],
    ]);
    const found = checkImportGraph(fixture, RULES);
    assert.deepEqual(
      found.map((v) => [v.rule, v.importer, v.imported]),
      [
        [FOLDER_CYCLE, 'lib/api', 'lib/store'],
        [FOLDER_CYCLE, 'lib/store', 'lib/api'],
      ],
    );
    assert.match(found[0]!.message, /lib\/api\/keys\.ts imports lib\/store\/layout\.ts/);
  });

  it('allows the AWS SDK in lib/adapters only, and keeps infra off lib/local and lib/kube off lib/karmada', () => {
    const fixture: ImportGraph = new Map([
      ['lib/adapters/sqs/transport.ts', ['@aws-sdk/client-sqs']],
      ['lib/local/queues.ts', ['@aws-sdk/client-sqs']],
      ['infra/constructs/queues.ts', ['lib/local/queues.ts', 'aws-cdk-lib']],
      ['lib/kube/catalog.ts', ['lib/karmada/kinds.ts']],
      ['lib/karmada/kinds.ts', []],
      ['lib/controllers/gc.ts', ['lib/apiserver/triggers.ts', 'lib/controllers/specs.ts']],
      ['lib/controllers/specs.ts', []],
      ['lib/apiserver/triggers.ts', []],
    ]);
    assert.deepEqual(
      checkImportGraph(fixture, RULES).map((v) => [v.rule, v.importer, v.imported]),
      [
        [AWS_SDK, 'lib/local/queues.ts', '@aws-sdk/client-sqs'],
        [INFRA, 'infra/constructs/queues.ts', 'lib/local/queues.ts'],
        [KUBE, 'lib/kube/catalog.ts', 'lib/karmada/kinds.ts'],
        [CONTROLLERS, 'lib/controllers/gc.ts', 'lib/apiserver/triggers.ts'],
      ],
    );
  });

  it('tells known violations still present from those that are gone', () => {
    const fixture: ImportGraph = new Map([
      ['lib/core/a.ts', ['lib/kube/b.ts']],
      ['lib/kube/b.ts', []],
    ]);
    const known = [
      { importer: 'lib/core/a.ts', imported: 'lib/kube/b.ts', rule: CORE },
      { importer: 'lib/core/a.ts', imported: 'lib/clusters/c.ts', rule: CORE },
    ];
    const { unexpected, resolved } = againstAllowlist(checkImportGraph(fixture, RULES), known);
    assert.deepEqual(unexpected, []);
    assert.deepEqual(resolved, [known[1]]);
  });
});
