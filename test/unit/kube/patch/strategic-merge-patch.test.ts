/**
 * Strategic merge patch semantics, one directive or strategy per row, checked against the behaviour
 * of k8s.io/apimachinery/pkg/util/strategicpatch (StrategicMergeMapPatch, as the API server runs it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStrategicMergePatch, PatchError } from '../../../../lib/kube/patch/index.ts';
import type { Schema } from '../../../../lib/kube/base/schema.ts';
import { deepFreeze, deploymentSchema } from './deployment-fixture.ts';

type Json = Record<string, unknown>;

interface Row {
  name: string;
  live: Json;
  patch: Json;
  expected: Json;
  schema?: Schema | undefined;
}

/** A pod spec under a Deployment, so rows only spell out the part they are about. */
const pod = (spec: Json): Json => ({ spec: { template: { spec } } });
const meta = (metadata: Json): Json => ({ metadata });

function apply(live: unknown, patch: unknown, schema: Schema | undefined = deploymentSchema): unknown {
  return applyStrategicMergePatch(deepFreeze(live), deepFreeze(patch), schema);
}

/** Rows default to the Deployment schema; `schema: undefined` means no schema at all. */
function applyRow(row: Row): unknown {
  const schema = 'schema' in row ? row.schema : deploymentSchema;
  return applyStrategicMergePatch(deepFreeze(row.live), deepFreeze(row.patch), schema);
}

describe('strategic merge patch: maps', () => {
  const rows: Row[] = [
    {
      name: 'maps merge recursively, keeping keys the patch does not mention',
      live: meta({ name: 'web', labels: { app: 'web', tier: 'front' } }),
      patch: meta({ labels: { tier: 'back', team: 'a' } }),
      expected: meta({ name: 'web', labels: { app: 'web', tier: 'back', team: 'a' } }),
    },
    {
      name: 'null deletes a key',
      live: meta({ name: 'web', labels: { app: 'web', tier: 'front' } }),
      patch: meta({ labels: { tier: null } }),
      expected: meta({ name: 'web', labels: { app: 'web' } }),
    },
    {
      name: 'nulls for keys that are not there are dropped, leaving a new all-null map as {}',
      live: meta({ name: 'web' }),
      patch: meta({ labels: { tier: null }, annotations: null }),
      expected: meta({ name: 'web', labels: {} }),
    },
    {
      name: '$patch: replace on a map replaces it with the patch map minus the directive',
      live: pod({ nodeSelector: { zone: 'a', disk: 'ssd' } }),
      patch: pod({ nodeSelector: { $patch: 'replace', zone: 'b' } }),
      expected: pod({ nodeSelector: { zone: 'b' } }),
    },
    {
      name: '$patch: delete on a map empties it, leaving {} as Kubernetes does',
      live: pod({ securityContext: { runAsUser: 1000 }, restartPolicy: 'Always' }),
      patch: pod({ securityContext: { $patch: 'delete' } }),
      expected: pod({ securityContext: {}, restartPolicy: 'Always' }),
    },
    {
      name: '$patch: merge on a map is the default merge',
      live: meta({ labels: { app: 'web' } }),
      patch: meta({ labels: { $patch: 'merge', tier: 'front' } }),
      expected: meta({ labels: { app: 'web', tier: 'front' } }),
    },
    {
      name: 'a map added where none existed drops nested nulls and directives',
      live: pod({}),
      patch: pod({ securityContext: { runAsUser: 1000, runAsNonRoot: null, $retainKeys: ['runAsUser'] } }),
      expected: pod({ securityContext: { runAsUser: 1000 } }),
    },
    {
      name: 'a $patch: delete map for an absent field adds nothing',
      live: pod({}),
      patch: pod({ securityContext: { $patch: 'delete' } }),
      expected: pod({}),
    },
    {
      name: 'a value of a different JSON type replaces the live one',
      live: pod({ nodeSelector: { zone: 'a' } }),
      patch: pod({ nodeSelector: 'none' }),
      expected: pod({ nodeSelector: 'none' }),
    },
    {
      name: '$retainKeys keeps only the listed keys after merging',
      live: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
      patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } },
      expected: { spec: { strategy: { type: 'Recreate' } } },
    },
    {
      name: 'the retainKeys strategy alone does not clear keys: only the directive does',
      live: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
      patch: { spec: { strategy: { type: 'Recreate' } } },
      expected: { spec: { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } } },
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(applyRow(row), row.expected));
  }

  it('the whole object patched with $patch: delete becomes {}', () => {
    assert.deepEqual(apply(meta({ name: 'web' }), { $patch: 'delete' }), {});
  });

  it('a null or absent document is patched as {}', () => {
    assert.deepEqual(apply(null, meta({ name: 'web' })), meta({ name: 'web' }));
    assert.deepEqual(apply(undefined, meta({ name: 'web' })), meta({ name: 'web' }));
  });
});

describe('strategic merge patch: lists', () => {
  const c = (name: string, fields: Json = {}): Json => ({ name, ...fields });
  const rows: Row[] = [
    {
      name: 'merge-key lists merge items by key and recurse into them',
      live: pod({ containers: [c('a', { image: 'a:1', args: ['x'] }), c('b', { image: 'b:1' })] }),
      patch: pod({ containers: [c('b', { image: 'b:2' })] }),
      expected: pod({ containers: [c('a', { image: 'a:1', args: ['x'] }), c('b', { image: 'b:2' })] }),
    },
    {
      name: 'lists without merge strategy are replaced wholesale',
      live: pod({ containers: [c('a', { args: ['--x', '--y'] })] }),
      patch: pod({ containers: [c('a', { args: ['--z'] })] }),
      expected: pod({ containers: [c('a', { args: ['--z'] })] }),
    },
    {
      name: 'without a schema every list is replaced wholesale',
      live: pod({ containers: [c('a'), c('b')] }),
      patch: pod({ containers: [c('c')] }),
      expected: pod({ containers: [c('c')] }),
      schema: undefined,
    },
    {
      name: 'the patch order wins for items it names; server-only items keep their place when anchored',
      live: pod({ containers: [c('a'), c('b', { image: 'b' }), c('c')] }),
      patch: pod({ containers: [c('c', { image: 'c' }), c('a', { image: 'a' })] }),
      expected: pod({ containers: [c('b', { image: 'b' }), c('c', { image: 'c' }), c('a', { image: 'a' })] }),
    },
    {
      name: 'primitive merge lists are a union without duplicates',
      live: meta({ finalizers: ['a', 'b'] }),
      patch: meta({ finalizers: ['b', 'c', 'c'] }),
      expected: meta({ finalizers: ['a', 'b', 'c'] }),
    },
    {
      name: '$patch: delete in a list item deletes every item with that merge key',
      live: pod({ containers: [c('a'), c('b'), c('a', { image: 'dup' })] }),
      patch: pod({ containers: [{ $patch: 'delete', name: 'a' }] }),
      expected: pod({ containers: [c('b')] }),
    },
    {
      name: '$patch: delete for a key that is not there changes nothing',
      live: pod({ containers: [c('a')] }),
      patch: pod({ containers: [{ $patch: 'delete', name: 'zzz' }] }),
      expected: pod({ containers: [c('a')] }),
    },
    {
      name: 'a { $patch: replace } item replaces the whole list with the other patch items',
      live: pod({ containers: [c('a', { image: 'a' }), c('b')] }),
      patch: pod({ containers: [c('c', { image: 'c' }), { $patch: 'replace' }] }),
      expected: pod({ containers: [c('c', { image: 'c' })] }),
    },
    {
      name: 'a lone { $patch: replace } item empties the list',
      live: pod({ containers: [c('a'), c('b')] }),
      patch: pod({ containers: [{ $patch: 'replace' }] }),
      expected: pod({ containers: [] }),
    },
    {
      name: 'a list added where none existed drops delete and replace items',
      live: pod({}),
      patch: pod({ volumes: [{ name: 'a' }, { $patch: 'delete', name: 'b' }, { $patch: 'replace' }] }),
      expected: pod({ volumes: [{ name: 'a' }] }),
    },
    {
      name: '$retainKeys inside a merge,retainKeys list item applies to that item',
      live: pod({
        volumes: [
          { name: 'a', emptyDir: {} },
          { name: 'b', emptyDir: {} },
        ],
      }),
      patch: pod({ volumes: [{ $retainKeys: ['name', 'secret'], name: 'a', secret: { secretName: 's' } }] }),
      expected: pod({
        volumes: [
          { name: 'a', secret: { secretName: 's' } },
          { name: 'b', emptyDir: {} },
        ],
      }),
    },
    {
      name: '$deleteFromPrimitiveList removes every occurrence of the values',
      live: meta({ finalizers: ['a', 'b', 'a', 'c'] }),
      patch: meta({ '$deleteFromPrimitiveList/finalizers': ['a', 'zzz'] }),
      expected: meta({ finalizers: ['b', 'c'] }),
    },
    {
      name: '$deleteFromPrimitiveList on a list without merge strategy still deletes',
      live: pod({ containers: [c('a', { args: ['x', 'y'] })] }),
      patch: pod({ containers: [c('a', { '$deleteFromPrimitiveList/args': ['x'] })] }),
      expected: pod({ containers: [c('a', { args: ['y'] })] }),
    },
    {
      name: '$deleteFromPrimitiveList never creates the list',
      live: meta({ name: 'web' }),
      patch: meta({ '$deleteFromPrimitiveList/finalizers': ['a'] }),
      expected: meta({ name: 'web' }),
    },
    {
      name: 'a value both added and deleted in one patch ends up deleted',
      live: meta({ finalizers: ['a'] }),
      patch: meta({ finalizers: ['b'], '$deleteFromPrimitiveList/finalizers': ['b'] }),
      expected: meta({ finalizers: ['a'] }),
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(applyRow(row), row.expected));
  }
});

describe('strategic merge patch: $setElementOrder', () => {
  const n = (...names: string[]): Json[] => names.map((name) => ({ name }));
  const rows: Row[] = [
    {
      name: 'orders a keyed list as given, even without a patch list',
      live: pod({ containers: n('a', 'b', 'c') }),
      patch: pod({ '$setElementOrder/containers': n('c', 'a', 'b') }),
      expected: pod({ containers: n('c', 'a', 'b') }),
    },
    {
      name: 'a server-only item goes before the first ordered item that followed it on the server',
      live: pod({ containers: n('a', 'sidecar', 'b') }),
      patch: pod({ '$setElementOrder/containers': n('b', 'a') }),
      expected: pod({ containers: n('sidecar', 'b', 'a') }),
    },
    {
      name: 'a server-only item that came last on the server stays last',
      live: pod({ containers: n('a', 'b', 'sidecar') }),
      patch: pod({ '$setElementOrder/containers': n('b', 'a') }),
      expected: pod({ containers: n('b', 'a', 'sidecar') }),
    },
    {
      name: 'names in the directive that are in neither list are ignored',
      live: pod({ containers: n('a', 'c') }),
      patch: pod({ '$setElementOrder/containers': n('c', 'b', 'a'), containers: [{ name: 'c', image: 'c' }] }),
      expected: pod({ containers: [{ name: 'c', image: 'c' }, { name: 'a' }] }),
    },
    {
      name: 'orders a primitive list by value',
      live: meta({ finalizers: ['a', 'b', 'c'] }),
      patch: meta({ '$setElementOrder/finalizers': ['c', 'b', 'a'] }),
      expected: meta({ finalizers: ['c', 'b', 'a'] }),
    },
    {
      name: 'the directive for a list in neither the object nor the patch does nothing',
      live: pod({}),
      patch: pod({ '$setElementOrder/containers': n('a') }),
      expected: pod({}),
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(applyRow(row), row.expected));
  }
});

describe('strategic merge patch: failures', () => {
  const rows: { name: string; live?: Json; patch: unknown; code: 400 | 422; message: RegExp }[] = [
    {
      name: 'a patch that is not a JSON object is a 400',
      patch: [{ op: 'add' }],
      code: 400,
      message: /a strategic merge patch must be a JSON object/,
    },
    {
      name: 'an unknown directive is a 400 naming it and where it was',
      patch: pod({ $foo: 1 }),
      code: 400,
      message: /^spec\.template\.spec: unknown strategic merge patch directive "\$foo"/,
    },
    {
      name: 'an unknown $patch value on a map is a 400',
      patch: meta({ labels: { $patch: 'upsert' } }),
      code: 400,
      message: /^metadata\.labels: unknown patch type "upsert" in \$patch/,
    },
    {
      name: 'an unknown $patch value in a list item is a 400',
      live: pod({ containers: [{ name: 'a' }] }),
      patch: pod({ containers: [{ name: 'a', $patch: 'upsert' }] }),
      code: 400,
      message: /^spec\.template\.spec\.containers\[0\]: unknown patch type "upsert"/,
    },
    {
      name: 'a malformed parallel-list directive key is a 400',
      patch: meta({ $setElementOrderfinalizers: ['a'] }),
      code: 400,
      message: /invalid patch format of setElementOrder list/,
    },
    {
      name: '$retainKeys that is not a list is a 400',
      patch: { spec: { strategy: { $retainKeys: 'type' } } },
      code: 400,
      message: /^spec\.strategy: invalid patch format of retainKeys/,
    },
    {
      name: 'a patch field missing from $retainKeys is a 400',
      live: { spec: { strategy: { type: 'RollingUpdate' } } },
      patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: { maxSurge: 1 } } } },
      code: 400,
      message: /the patch sets "rollingUpdate" but \$retainKeys \["type"\] does not list it/,
    },
    {
      name: '$deleteFromPrimitiveList that is not a list is a 400',
      patch: meta({ '$deleteFromPrimitiveList/finalizers': 'a' }),
      code: 400,
      message: /invalid patch format of primitive list/,
    },
    {
      name: 'a patch list out of the $setElementOrder order is a 400',
      live: pod({ containers: [{ name: 'a' }, { name: 'b' }] }),
      patch: pod({
        '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }],
        containers: [{ name: 'b' }, { name: 'a' }],
      }),
      code: 400,
      message: /does not follow the order of \$setElementOrder\/containers/,
    },
    {
      name: 'a merge-key list item without its merge key is a 422 naming the list and the key',
      live: pod({ containers: [{ name: 'a' }] }),
      patch: pod({ containers: [{ name: 'a' }, { image: 'nginx' }] }),
      code: 422,
      message:
        /^spec\.template\.spec\.containers\[1\]: map \{"image":"nginx"\} does not contain declared merge key "name"$/,
    },
    {
      name: 'a $patch: delete item without its merge key is a 422',
      live: pod({ containers: [{ name: 'a', ports: [{ containerPort: 80 }] }] }),
      patch: pod({ containers: [{ name: 'a', ports: [{ $patch: 'delete', name: 'http' }] }] }),
      code: 422,
      message: /containers\[0\]\.ports\[0\]: map .* does not contain declared merge key "containerPort"/,
    },
    {
      name: 'a live list item without its merge key cannot be merged into: 422',
      live: pod({ containers: [{ image: 'orphan' }] }),
      patch: pod({ containers: [{ name: 'a' }] }),
      code: 422,
      message: /containers\[0\]: the current list item .* does not contain declared merge key "name"/,
    },
    {
      name: 'a list of lists cannot be merged: 422',
      live: meta({ finalizers: [['a']] }),
      patch: meta({ finalizers: [['b']] }),
      code: 422,
      message: /^metadata\.finalizers: lists of lists are not supported$/,
    },
    {
      name: 'a merge list mixing element types is a 422',
      live: meta({ finalizers: ['a'] }),
      patch: meta({ finalizers: [1] }),
      code: 422,
      message: /list element types are not identical: string and number/,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.throws(
        () => apply(row.live ?? {}, row.patch),
        (e: unknown) => e instanceof PatchError && e.code === row.code && row.message.test(e.message),
      );
    });
  }

  it('a $-key the schema declares (e.g. $ref in a CRD validation schema) is a field, not a directive', () => {
    const schema: Schema = { type: 'object', properties: { $ref: { type: 'string' } } };
    assert.deepEqual(apply({ $ref: 'a' }, { $ref: 'b' }, schema), { $ref: 'b' });
  });
});

describe('strategic merge patch: purity', () => {
  it('never modifies its inputs and shares no structure with them', () => {
    const live = deepFreeze(
      pod({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }] }], nodeSelector: { z: 'a' } }),
    );
    const patch = deepFreeze(pod({ containers: [{ name: 'b', env: [{ name: 'Y', value: '2' }] }] }));

    const result = applyStrategicMergePatch(live, patch, deploymentSchema) as Json;
    const spec = (result.spec as { template: { spec: Json } }).template.spec;
    (spec.nodeSelector as Json).z = 'changed';
    ((spec.containers as Json[])[0]!.env as Json[]).push({ name: 'Z' });

    assert.deepEqual(
      live,
      pod({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }] }], nodeSelector: { z: 'a' } }),
    );
    assert.deepEqual(patch, pod({ containers: [{ name: 'b', env: [{ name: 'Y', value: '2' }] }] }));
  });

  it('a key named __proto__ is an ordinary key', () => {
    const result = apply(meta({ labels: {} }), JSON.parse('{"metadata":{"labels":{"__proto__":"x"}}}')) as Json;
    const labels = (result.metadata as Json).labels as Json;

    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
    assert.deepEqual(Object.keys(labels), ['__proto__']);
  });
});
