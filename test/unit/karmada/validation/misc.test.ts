import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { parseGoUrl } from '../../../../lib/karmada/validation/go-url.ts';
import {
  defaultKarmadaObject,
  validateClusterTaintPolicy,
  validateKarmadaObject,
  validateResourceInterpreterCustomization,
} from '../../../../lib/karmada/validation/index.ts';
import { formatQuantity, isQuantityError, parseQuantity } from '../../../../lib/api/quantity.ts';
import { context, messages } from './support.ts';

const ric = (name: string, customizations: Record<string, unknown>, kind = 'Workload'): KubeObject => ({
  apiVersion: 'config.karmada.io/v1alpha1',
  kind: 'ResourceInterpreterCustomization',
  metadata: { name },
  spec: { target: { apiVersion: 'example.io/v1', kind }, customizations },
});
const lua = (fn: string) => ({ luaScript: `function ${fn}(obj) return obj end` });

describe('ResourceInterpreterCustomization validation (Karmada v1.15 webhook, without Lua compilation)', () => {
  const existing = [
    ric('a', { replicaResource: lua('GetReplicas'), dependencyInterpretation: lua('GetDependencies') }),
  ];
  const cases: { rule: string; obj: KubeObject; errors: string[] }[] = [
    {
      rule: 'an operation already customised for the same target conflicts',
      obj: ric('b', { healthInterpretation: lua('InterpretHealth'), replicaResource: lua('GetReplicas') }),
      errors: [
        'spec.customizations.replicaResource: Forbidden: conflicting with InterpreterOperation(InterpretReplica) of existing ResourceInterpreterCustomization(a)',
      ],
    },
    {
      rule: 'dependency interpretation may be customised several times',
      obj: ric('b', { dependencyInterpretation: lua('GetDependencies') }),
      errors: [],
    },
    {
      rule: 'another target does not conflict',
      obj: ric('b', { replicaResource: lua('GetReplicas') }, 'Other'),
      errors: [],
    },
    {
      rule: 'an update of the same customization does not conflict with itself',
      obj: ric('a', { replicaResource: lua('GetReplicas') }),
      errors: [],
    },
    {
      rule: 'an empty script leaves the operation undefined (no conflict)',
      obj: ric('b', { replicaResource: { luaScript: '' } }),
      errors: [],
    },
  ];
  for (const c of cases) {
    it(c.rule, () => {
      assert.deepEqual(messages(validateResourceInterpreterCustomization(c.obj, undefined, existing)), c.errors);
    });
  }
  it('without the other customizations, validateKarmadaObject has nothing to reject', () => {
    assert.deepEqual(validateKarmadaObject(ric('b', { replicaResource: { luaScript: '' } }), undefined), []);
  });
});

describe('ClusterTaintPolicy validation (Karmada v1.15 webhook)', () => {
  const policy = (taints: unknown[]): KubeObject => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterTaintPolicy',
    metadata: { name: 'p' },
    spec: { taints },
  });
  it('rejects NoExecute taints unless allowed by the webhook flag', () => {
    const p = policy([{ key: 'a', effect: 'NoExecute' }]);
    assert.deepEqual(messages(validateKarmadaObject(p, undefined)), [
      'spec.taints[0]: Forbidden: Configuring taint with NoExecute effect is not allowed, this capability must be explicitly enabled by administrators through command-line flags',
    ]);
    assert.deepEqual(validateClusterTaintPolicy(p, undefined, { allowNoExecute: true }), []);
  });
  it('rejects a duplicate key and effect, reported on the first occurrence', () => {
    assert.deepEqual(
      messages(
        validateKarmadaObject(
          policy([
            { key: 'a', effect: 'NoSchedule' },
            { key: 'a', effect: 'NoSchedule' },
          ]),
          undefined,
        ),
      ),
      ['spec.taints[0]: Duplicate value: "Duplicate taint with the same key(a) and effect(NoSchedule) is not allowed"'],
    );
  });
});

describe('dispatch', () => {
  it('returns no errors for kinds Karmada does not validate, and a copy for kinds it does not default', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    assert.deepEqual(validateKarmadaObject(cm, undefined), []);
    const rb: KubeObject = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', metadata: { name: 'r' } };
    assert.deepEqual(validateKarmadaObject(rb, undefined), []);
    const copy = defaultKarmadaObject(cm, context());
    assert.deepEqual(copy, cm);
    assert.notEqual(copy, cm);
  });
  it('dispatches on group, not version', () => {
    const pp: KubeObject = {
      apiVersion: 'policy.karmada.io/v1beta9',
      kind: 'PropagationPolicy',
      metadata: { name: 'p' },
      spec: {},
    };
    assert.equal(validateKarmadaObject(pp, undefined).length, 1);
    assert.deepEqual(validateKarmadaObject({ ...pp, apiVersion: 'other.io/v1' }, undefined), []);
  });
});

describe('resource.Quantity as Kubernetes prints it', () => {
  const cases: [string | number, string][] = [
    ['0', '0'],
    ['1000', '1k'],
    ['1k', '1k'],
    ['1.5', '1500m'],
    [0.5, '500m'],
    ['4096Mi', '4Gi'],
    ['1536Mi', '1536Mi'],
    ['1.5Gi', '1536Mi'],
    ['1024Gi', '1Ti'],
    ['12e-1', '1200e-3'],
    ['1e3', '1e3'],
    ['0.0000000001', '1n'],
    ['9223372036854775807', '9223372036854775807'],
    ['0.5Ki', '512'],
    ['-1Gi', '-1Gi'],
  ];
  for (const [input, printed] of cases) {
    it(`${JSON.stringify(input)} prints as ${printed}`, () => {
      const q = parseQuantity(input);
      assert.ok(!isQuantityError(q));
      assert.equal(formatQuantity(q), printed);
    });
  }
  for (const bad of ['', 'abc', '1.2.3', '1Qi', '--1']) {
    it(`${JSON.stringify(bad)} does not parse`, () => assert.ok(isQuantityError(parseQuantity(bad))));
  }
});

describe("Go's url.Parse, as Cluster validation sees it", () => {
  const cases: [string, unknown][] = [
    ['https://10.0.0.1:6443', { scheme: 'https', host: '10.0.0.1:6443', user: undefined, rawQuery: '', fragment: '' }],
    ['localhost:6443', { scheme: 'localhost', host: '', user: undefined, rawQuery: '', fragment: '' }],
    ['https://u@h/p?q=1#f', { scheme: 'https', host: 'h', user: 'u', rawQuery: 'q=1', fragment: 'f' }],
    ['10.0.0.1:6443', { error: 'parse "10.0.0.1:6443": first path segment in URL cannot contain colon' }],
    ['https://h:port', { error: 'parse "https://h:port": invalid port ":port" after host' }],
    ['https://[::1', { error: `parse "https://[::1": missing ']' in host` }],
    [':6443', { error: 'parse ":6443": missing protocol scheme' }],
    ['https://h/%zz', { error: 'parse "https://h/%zz": invalid URL escape "%zz"' }],
  ];
  for (const [raw, expected] of cases) {
    it(raw, () => assert.deepEqual(parseGoUrl(raw), expected));
  }
});
