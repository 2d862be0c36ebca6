import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fieldSetOf,
  fieldSetOfPaths,
  fieldSetPaths,
  formatFieldPath,
  fromFieldsV1,
  InvalidFieldsV1Error,
  toFieldsV1,
} from '../../../../lib/kube/apply/index.ts';
import type { Schema } from '../../../../lib/kube/base/schema.ts';
import { deploymentConfig, deploymentSchema, stored, widgetConfig, widgetSchema } from './fixtures.ts';

const fieldsOf = (obj: unknown, schema: Schema | undefined) => JSON.stringify(toFieldsV1(fieldSetOf(obj, schema)));

describe('field sets of applied objects (structured-merge-diff ToFieldSet)', () => {
  it('writes a kubectl apply --server-side Deployment as Kubernetes does: `.` only on list items, never on declared fields or maps', () => {
    const config = deploymentConfig({ replicas: 2, ports: [{ containerPort: 80 }] });
    assert.equal(
      fieldsOf(config, deploymentSchema),
      JSON.stringify({
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:selector': {},
          'f:template': {
            'f:metadata': { 'f:labels': { 'f:app': {} } },
            'f:spec': {
              'f:containers': {
                'k:{"name":"nginx"}': {
                  '.': {},
                  'f:image': {},
                  'f:name': {},
                  'f:ports': { 'k:{"containerPort":80}': { '.': {}, 'f:containerPort': {} } },
                },
              },
            },
          },
        },
      }),
    );
  });

  it('never tracks apiVersion, kind, name, namespace, server-set metadata, managedFields or status', () => {
    const obj = {
      ...stored(deploymentConfig()),
      status: { replicas: 1 },
      metadata: {
        ...stored(deploymentConfig()).metadata,
        selfLink: '/x',
        managedFields: [{ manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }],
      },
    };
    const v1 = toFieldsV1(fieldSetOf(obj, deploymentSchema));
    assert.deepEqual(Object.keys(v1), ['f:metadata', 'f:spec']);
    assert.deepEqual(Object.keys(v1['f:metadata']!), ['f:labels']);
  });

  const cases: { name: string; spec: Record<string, unknown>; expected: Record<string, unknown> }[] = [
    {
      name: 'list-type map items are keyed by all map keys, sorted, with a missing key taking its default',
      spec: { endpoints: [{ port: 80, host: 'a' }] },
      expected: { 'f:endpoints': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:host': {}, 'f:port': {} } } },
    },
    {
      name: 'set items are tracked by value',
      spec: { tags: ['b', 'a'] },
      expected: { 'f:tags': { 'v:"a"': {}, 'v:"b"': {} } },
    },
    {
      name: 'lists without list-type are atomic leaves',
      spec: { args: ['--a', '--b'] },
      expected: { 'f:args': {} },
    },
    {
      name: 'x-kubernetes-map-type: atomic maps are leaves',
      spec: { settings: { a: '1', b: '2' } },
      expected: { 'f:settings': {} },
    },
    {
      name: 'preserve-unknown-fields objects are granular (with `.` on undeclared objects), their lists atomic',
      spec: { extra: { nested: { deep: 1 }, list: [1, 2] } },
      expected: { 'f:extra': { 'f:list': {}, 'f:nested': { '.': {}, 'f:deep': {} } } },
    },
    {
      name: 'fields set to null or {} are owned as leaves; an empty list is not owned',
      spec: { extra: {}, size: null, tags: [] },
      expected: { 'f:extra': {}, 'f:size': {} },
    },
  ];
  for (const { name, spec, expected } of cases) {
    it(name, () => {
      assert.equal(fieldsOf(widgetConfig(spec), widgetSchema), JSON.stringify({ 'f:spec': expected }));
    });
  }

  it('without a schema deduces everything: objects granular, lists atomic', () => {
    const obj = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { a: 'x', b: [1] } };
    assert.equal(fieldsOf(obj, undefined), JSON.stringify({ 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }));
  });

  it('tracks metadata as ObjectMeta even when a CRD schema leaves it untyped (finalizers a set, ownerReferences keyed by uid)', () => {
    const obj = widgetConfig({});
    obj.metadata.finalizers = ['example.com/cleanup'];
    obj.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u1' }];
    assert.equal(
      fieldsOf(obj, widgetSchema),
      JSON.stringify({
        'f:metadata': {
          'f:finalizers': { 'v:"example.com/cleanup"': {} },
          'f:ownerReferences': { 'k:{"uid":"u1"}': {} },
        },
        'f:spec': {},
      }),
    );
  });

  it('escapes <, > and & inside key elements as Go does', () => {
    const obj = widgetConfig({ endpoints: [{ port: 1, protocol: 'a<b&c>' }] });
    const keys = Object.keys(toFieldsV1(fieldSetOf(obj, widgetSchema))['f:spec']!['f:endpoints']!);
    assert.deepEqual(keys, ['k:{"port":1,"protocol":"a\\u003cb\\u0026c\\u003e"}']);
  });
});

describe('fieldsV1 encoding', () => {
  const real = {
    'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} } },
    'f:spec': {
      'f:template': {
        'f:spec': {
          'f:containers': {
            'k:{"name":"nginx"}': {
              '.': {},
              'f:image': {},
              'f:name': {},
              'f:ports': {
                '.': {},
                'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
              },
            },
          },
        },
      },
    },
  };

  it('round-trips a real managedFields document byte for byte', () => {
    assert.equal(JSON.stringify(toFieldsV1(fromFieldsV1(real))), JSON.stringify(real));
  });

  it('orders field elements before key elements before value elements', () => {
    const set = fieldSetOfPaths([['v:"x"'], ['k:{"a":1}'], ['f:z'], ['f:a'], ['k:{"a":0}']]);
    assert.deepEqual(Object.keys(toFieldsV1(set)), ['f:a', 'f:z', 'k:{"a":0}', 'k:{"a":1}', 'v:"x"']);
  });

  it('normalises key order inside k: elements and skips unknown element types when reading', () => {
    const set = fromFieldsV1({ 'k:{"protocol":"TCP","port":80}': {}, 'x:future': {} });
    assert.deepEqual(Object.keys(toFieldsV1(set)), ['k:{"port":80,"protocol":"TCP"}']);
  });

  const malformed: [string, unknown][] = [
    ['a non-object document', []],
    ['a non-object subtree', { 'f:a': 1 }],
    ['an element without a colon', { fa: {} }],
    ['a key element that is not JSON', { 'k:{name}': {} }],
  ];
  for (const [name, doc] of malformed) {
    it(`rejects ${name}`, () => {
      assert.throws(() => fromFieldsV1(doc), InvalidFieldsV1Error);
    });
  }

  it('iterates members before children at each level, as conflicts are listed', () => {
    const set = fromFieldsV1({ 'f:spec': { 'f:template': { 'f:x': {} }, 'f:replicas': {}, 'f:paused': {} } });
    assert.deepEqual(fieldSetPaths(set).map(formatFieldPath), ['.spec.paused', '.spec.replicas', '.spec.template.x']);
  });

  it('prints paths as Kubernetes does in conflicts', () => {
    assert.equal(
      formatFieldPath(['f:spec', 'k:{"port":80,"protocol":"TCP"}', 'f:host']),
      '.spec[port=80,protocol="TCP"].host',
    );
    assert.equal(formatFieldPath(['f:metadata', 'f:finalizers', 'v:"a"']), '.metadata.finalizers[="a"]');
  });
});
