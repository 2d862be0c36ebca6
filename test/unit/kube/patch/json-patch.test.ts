/**
 * RFC 6902 JSON patch (`kubectl patch --type json`), with the 400/422 split the API server makes:
 * a patch document that does not decode is a 400, an operation that cannot apply is a 422.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyJsonPatch, applyPatch, PatchError } from '../../../../lib/kube/patch/index.ts';
import { deepFreeze } from './deployment-fixture.ts';

const deployment = () => ({
  metadata: { name: 'web', resourceVersion: '41', labels: { app: 'web' }, finalizers: ['a', 'b'] },
  spec: { replicas: 1, template: { spec: { containers: [{ name: 'web', image: 'web:1' }] } } },
});

describe('json patch operations', () => {
  const rows: { name: string; doc: unknown; patch: unknown; expected: unknown }[] = [
    {
      name: 'replace sets an existing field (kubectl scale by hand)',
      doc: { spec: { replicas: 1 } },
      patch: [{ op: 'replace', path: '/spec/replicas', value: 3 }],
      expected: { spec: { replicas: 3 } },
    },
    {
      name: 'add creates a key, ~1 escaping the "/" of a label name',
      doc: { metadata: { labels: {} } },
      patch: [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'web' }],
      expected: { metadata: { labels: { 'app.kubernetes.io/name': 'web' } } },
    },
    {
      name: '~0 escapes "~" and "~01" means the literal "~1"',
      doc: {},
      patch: [
        { op: 'add', path: '/a~0b', value: 1 },
        { op: 'add', path: '/c~01', value: 2 },
      ],
      expected: { 'a~b': 1, 'c~1': 2 },
    },
    {
      name: 'add overwrites an existing key',
      doc: { a: 1 },
      patch: [{ op: 'add', path: '/a', value: 2 }],
      expected: { a: 2 },
    },
    {
      name: 'add with "-" appends to a list (a new container)',
      doc: { containers: [{ name: 'a' }] },
      patch: [{ op: 'add', path: '/containers/-', value: { name: 'b' } }],
      expected: { containers: [{ name: 'a' }, { name: 'b' }] },
    },
    {
      name: 'add at an index inserts before that index; the length itself appends',
      doc: { list: ['a', 'c'] },
      patch: [
        { op: 'add', path: '/list/1', value: 'b' },
        { op: 'add', path: '/list/3', value: 'd' },
      ],
      expected: { list: ['a', 'b', 'c', 'd'] },
    },
    {
      name: 'remove deletes a list item by index (dropping a finalizer)',
      doc: { finalizers: ['a', 'b', 'c'] },
      patch: [{ op: 'remove', path: '/finalizers/1' }],
      expected: { finalizers: ['a', 'c'] },
    },
    {
      name: 'a null value is a value, not a deletion',
      doc: { a: 1 },
      patch: [{ op: 'replace', path: '/a', value: null }],
      expected: { a: null },
    },
    {
      name: 'move takes the value out of "from"',
      doc: { a: { x: 1 }, b: {} },
      patch: [{ op: 'move', from: '/a/x', path: '/b/y' }],
      expected: { a: {}, b: { y: 1 } },
    },
    {
      name: 'move within a list removes first, then inserts',
      doc: { list: ['a', 'b', 'c'] },
      patch: [{ op: 'move', from: '/list/0', path: '/list/2' }],
      expected: { list: ['b', 'c', 'a'] },
    },
    {
      name: 'copy duplicates a value',
      doc: { a: { x: [1] } },
      patch: [{ op: 'copy', from: '/a', path: '/b' }],
      expected: { a: { x: [1] }, b: { x: [1] } },
    },
    {
      name: 'test passes on a deep-equal value regardless of key order',
      doc: { a: { x: 1, y: [1, 2] } },
      patch: [{ op: 'test', path: '/a', value: { y: [1, 2], x: 1 } }],
      expected: { a: { x: 1, y: [1, 2] } },
    },
    {
      name: 'the empty path addresses the whole document',
      doc: { a: 1 },
      patch: [{ op: 'replace', path: '', value: { b: 2 } }],
      expected: { b: 2 },
    },
    {
      name: 'operations apply in order, each seeing the previous result',
      doc: { spec: {} },
      patch: [
        { op: 'add', path: '/spec/selector', value: {} },
        { op: 'add', path: '/spec/selector/matchLabels', value: { app: 'web' } },
      ],
      expected: { spec: { selector: { matchLabels: { app: 'web' } } } },
    },
    {
      name: 'an empty patch returns the document unchanged',
      doc: { a: 1 },
      patch: [],
      expected: { a: 1 },
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(applyJsonPatch(deepFreeze(row.doc), deepFreeze(row.patch)), row.expected));
  }

  it('a test on resourceVersion guards a change the way clients do optimistic locking', () => {
    const patch = [
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'replace', path: '/spec/replicas', value: 5 },
    ];
    const result = applyJsonPatch(deepFreeze(deployment()), patch) as ReturnType<typeof deployment>;

    assert.equal(result.spec.replicas, 5);
  });

  it('never modifies its inputs and shares no structure with them', () => {
    const doc = deepFreeze(deployment());
    const value = deepFreeze({ name: 'sidecar', env: [{ name: 'X' }] });
    const result = applyJsonPatch(doc, [{ op: 'add', path: '/spec/template/spec/containers/-', value }]) as ReturnType<
      typeof deployment
    >;

    assert.notEqual(result.spec.template.spec.containers[1], value);
    assert.notEqual(result.metadata, doc.metadata);
    assert.deepEqual(doc, deployment());
  });
});

describe('json patch failures', () => {
  const rows: { name: string; patch: unknown; code: 400 | 422; message: string | RegExp }[] = [
    {
      name: 'a patch that is not an array is a 400',
      patch: { op: 'add', path: '/a', value: 1 },
      code: 400,
      message: /^a json patch must be a JSON array of operations/,
    },
    {
      name: 'an unknown op is a 400 naming the operation index',
      patch: [
        { op: 'test', path: '/spec/replicas', value: 1 },
        { op: 'upsert', path: '/a', value: 1 },
      ],
      code: 400,
      message: 'json patch operation 1: "op" must be one of add, remove, replace, move, copy, test; got "upsert"',
    },
    {
      name: 'a missing path is a 400',
      patch: [{ op: 'remove' }],
      code: 400,
      message: 'json patch operation 0: remove needs a "path" string; it is missing',
    },
    {
      name: 'a path that is not a JSON pointer is a 400',
      patch: [{ op: 'remove', path: 'spec/replicas' }],
      code: 400,
      message:
        /^json patch operation 0: remove: invalid "path" "spec\/replicas": a JSON pointer must be empty or start/,
    },
    {
      name: 'a bad ~ escape is a 400',
      patch: [{ op: 'remove', path: '/a~2' }],
      code: 400,
      message: /"~" must be followed by 0 or 1/,
    },
    {
      name: 'a missing value on add is a 400',
      patch: [{ op: 'add', path: '/a' }],
      code: 400,
      message: 'json patch operation 0: add /a needs a "value"',
    },
    {
      name: 'a missing from on move is a 400',
      patch: [{ op: 'move', path: '/a' }],
      code: 400,
      message: 'json patch operation 0: move needs a "from" string; it is missing',
    },
    {
      name: 'a malformed operation late in the patch is a 400 even if earlier ones would fail to apply',
      patch: [{ op: 'remove', path: '/nope' }, 'add'],
      code: 400,
      message: 'json patch operation 1: must be a JSON object, got "add"',
    },
    {
      name: 'replace below a missing parent is a 422 naming the operation',
      patch: [
        { op: 'test', path: '/metadata/name', value: 'web' },
        { op: 'add', path: '/metadata/labels/tier', value: 'front' },
        { op: 'replace', path: '/spec/strategy/type', value: 'Recreate' },
      ],
      code: 422,
      message:
        'json patch operation 2 (replace /spec/strategy/type): the path does not exist (/spec/strategy is missing)',
    },
    {
      name: 'replace of an absent member is a 422 under RFC 6902 (json-patch v5, as Karmada overriders apply it)',
      patch: [{ op: 'replace', path: '/spec/paused', value: true }],
      code: 422,
      message: 'json patch operation 0 (replace /spec/paused): the path does not exist',
    },
    {
      name: 'remove below a missing parent says which part is missing',
      patch: [{ op: 'remove', path: '/status/conditions/0' }],
      code: 422,
      message: 'json patch operation 0 (remove /status/conditions/0): the path does not exist (/status is missing)',
    },
    {
      name: 'add below a missing parent does not create it',
      patch: [{ op: 'add', path: '/spec/strategy/type', value: 'Recreate' }],
      code: 422,
      message:
        'json patch operation 0 (add /spec/strategy/type): the parent of the path does not exist (/spec/strategy is missing)',
    },
    {
      name: 'an index past the end is a 422',
      patch: [{ op: 'replace', path: '/metadata/finalizers/2', value: 'c' }],
      code: 422,
      message:
        'json patch operation 0 (replace /metadata/finalizers/2): the path does not exist ' +
        '(array index 2 is out of bounds at /metadata/finalizers (length 2))',
    },
    {
      name: 'an index with a leading zero is not an array index',
      patch: [{ op: 'remove', path: '/metadata/finalizers/01' }],
      code: 422,
      message: /"01" is not an array index of \/metadata\/finalizers/,
    },
    {
      name: '"-" only means "append" for add',
      patch: [{ op: 'remove', path: '/metadata/finalizers/-' }],
      code: 422,
      message: /array index - is out of bounds/,
    },
    {
      name: 'a path through a scalar is a 422',
      patch: [{ op: 'add', path: '/spec/replicas/x', value: 1 }],
      code: 422,
      message: /\/spec\/replicas is 1, not an object or array/,
    },
    {
      name: 'a failed test is a 422 showing both values',
      patch: [{ op: 'test', path: '/metadata/resourceVersion', value: '40' }],
      code: 422,
      message: 'json patch operation 0 (test /metadata/resourceVersion): test failed: the value is "41", expected "40"',
    },
    {
      name: 'move from a missing path is a 422',
      patch: [{ op: 'move', from: '/spec/paused', path: '/spec/x' }],
      code: 422,
      message: 'json patch operation 0 (move from /spec/paused to /spec/x): the "from" path does not exist',
    },
    {
      name: 'moving a value into its own child is a 422',
      patch: [{ op: 'move', from: '/spec', path: '/spec/template/x' }],
      code: 422,
      message: /cannot move a value into one of its own children/,
    },
    {
      name: 'removing the whole document is a 422',
      patch: [{ op: 'remove', path: '' }],
      code: 422,
      message: /cannot remove the whole document/,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.throws(
        () => applyJsonPatch(deepFreeze(deployment()), row.patch),
        (e: unknown) =>
          e instanceof PatchError &&
          e.code === row.code &&
          (typeof row.message === 'string' ? e.message === row.message : row.message.test(e.message)),
      );
    });
  }

  it('a failed operation carries the Kubernetes reason for its code', () => {
    assert.throws(
      () => applyJsonPatch({}, [{ op: 'remove', path: '/a' }]),
      (e: unknown) => e instanceof PatchError && e.reason === 'Invalid' && e.name === 'PatchError',
    );
    assert.throws(
      () => applyJsonPatch({}, 'nope'),
      (e: unknown) => e instanceof PatchError && e.reason === 'BadRequest',
    );
  });
});

describe('json patch as kube-apiserver applies it (PATCH application/json-patch+json)', () => {
  const patch = (doc: unknown, ops: unknown) =>
    applyPatch('application/json-patch+json', doc, ops, undefined, { strategicAllowed: false });

  it('replace of an absent member of an existing object adds it (json-patch v4; Karmada e2e replaces /spec/propagateDeps)', () => {
    assert.deepEqual(
      patch({ spec: { resourceSelectors: [] } }, [{ op: 'replace', path: '/spec/propagateDeps', value: true }]),
      {
        spec: { resourceSelectors: [], propagateDeps: true },
      },
    );
  });

  it('still refuses a replace below a missing parent or past the end of an array', () => {
    assert.throws(
      () => patch({ spec: {} }, [{ op: 'replace', path: '/spec/placement/clusterAffinity', value: {} }]),
      (err: unknown) =>
        err instanceof PatchError && err.code === 422 && /\/spec\/placement is missing/.test(err.message),
    );
    assert.throws(
      () => patch({ a: [1] }, [{ op: 'replace', path: '/a/1', value: 2 }]),
      (err: unknown) => err instanceof PatchError && err.code === 422 && /out of bounds/.test(err.message),
    );
  });
});
