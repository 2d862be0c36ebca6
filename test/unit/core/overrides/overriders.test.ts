/**
 * commandOverrider / argsOverrider, labelsOverrider / annotationsOverrider, plaintext, and the
 * per-rule order of overriders (Karmada v1.15.9 `commandargsoverride_test.go`,
 * `labelannotationoverrider_test.go`, `overridemanager.go applyPolicyOverriders`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyOverrides,
  type CommandArgsOverrider,
  type LabelAnnotationOverrider,
} from '../../../../lib/core/overrides/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import { deployment, dig, pod, rule, workload } from './fixtures.ts';

/** Karmada's generateTestCommand*Yaml: one container `nginx` with `command: [nginx, -v, -t]`. */
function withCommand(kind: string, field: 'command' | 'args' = 'command', extra: object[] = []): KubeObject {
  const containers = [{ image: 'nginx', name: 'nginx', [field]: ['nginx', '-v', '-t'] }, ...extra];
  if (kind === 'Pod') return { ...pod(), spec: { containers } };
  return workload(kind, { containers });
}

function containers(obj: KubeObject): Record<string, unknown>[] {
  return dig(obj, obj.kind === 'Pod' ? 'spec.containers' : 'spec.template.spec.containers') as Record<
    string,
    unknown
  >[];
}

describe('commandOverrider / argsOverrider (TestParseJSONPatchesByCommandOverrider / ...ArgsOverrider)', () => {
  const cases: [
    string,
    KubeObject,
    'commandOverrider' | 'argsOverrider',
    CommandArgsOverrider,
    string,
    unknown[] | undefined,
  ][] = [
    [
      'Deployment add appends',
      withCommand('Deployment'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'add', value: ["&& echo 'hello karmada'"] },
      'command',
      ['nginx', '-v', '-t', "&& echo 'hello karmada'"],
    ],
    [
      'Deployment remove drops the value',
      withCommand('Deployment'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'remove', value: ['-t'] },
      'command',
      ['nginx', '-v'],
    ],
    [
      'remove with an empty value changes nothing',
      withCommand('Deployment'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'remove', value: [] },
      'command',
      ['nginx', '-v', '-t'],
    ],
    [
      'Pod add',
      withCommand('Pod'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'add', value: ["echo 'hello karmada'"] },
      'command',
      ['nginx', '-v', '-t', "echo 'hello karmada'"],
    ],
    [
      'StatefulSet add',
      withCommand('StatefulSet'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'add', value: ['x'] },
      'command',
      ['nginx', '-v', '-t', 'x'],
    ],
    [
      'ReplicaSet remove',
      withCommand('ReplicaSet'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'remove', value: ['-t'] },
      'command',
      ['nginx', '-v'],
    ],
    [
      'DaemonSet remove',
      withCommand('DaemonSet'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'remove', value: ['-t'] },
      'command',
      ['nginx', '-v'],
    ],
    [
      'Job add',
      withCommand('Job'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'add', value: ['x'] },
      'command',
      ['nginx', '-v', '-t', 'x'],
    ],
    [
      'args add appends',
      withCommand('Deployment', 'args'),
      'argsOverrider',
      { containerName: 'nginx', operator: 'add', value: ["&& echo 'hello karmada'"] },
      'args',
      ['nginx', '-v', '-t', "&& echo 'hello karmada'"],
    ],
    [
      'args remove',
      withCommand('Deployment', 'args'),
      'argsOverrider',
      { containerName: 'nginx', operator: 'remove', value: ['-t'] },
      'args',
      ['nginx', '-v'],
    ],
    [
      'args absent: add creates the list',
      withCommand('Deployment'),
      'argsOverrider',
      { containerName: 'nginx', operator: 'add', value: ['-t'] },
      'args',
      ['-t'],
    ],
    [
      'args absent: remove adds an empty list',
      withCommand('Deployment'),
      'argsOverrider',
      { containerName: 'nginx', operator: 'remove', value: ['-t'] },
      'args',
      [],
    ],
    [
      'remove drops every occurrence',
      {
        ...withCommand('Deployment'),
        spec: { template: { spec: { containers: [{ name: 'nginx', command: ['a', 'b', 'a'] }] } } },
      },
      'commandOverrider',
      { containerName: 'nginx', operator: 'remove', value: ['a'] },
      'command',
      ['b'],
    ],
    [
      'replace (accepted by the type, not the CRD) leaves the list as it is',
      withCommand('Deployment'),
      'commandOverrider',
      { containerName: 'nginx', operator: 'replace', value: ['x'] },
      'command',
      ['nginx', '-v', '-t'],
    ],
    [
      'another container name: nothing changes',
      withCommand('Deployment'),
      'commandOverrider',
      { containerName: 'other', operator: 'add', value: ['x'] },
      'command',
      ['nginx', '-v', '-t'],
    ],
  ];
  for (const [name, obj, field, overrider, target, want] of cases) {
    it(name, () => {
      const before = structuredClone(obj);
      const result = applyOverrides(obj, [rule({ [field]: [overrider] })]);
      assert.ok(result.ok, result.ok ? '' : result.error);
      assert.deepEqual(containers(result.object)[0]![target], want);
      assert.deepEqual(obj, before);
    });
  }

  it('more than one container: only the named one changes', () => {
    const obj = withCommand('Deployment', 'command', [{ name: 'nginx1', command: ['nginx', '-v', '-t'] }]);
    const result = applyOverrides(obj, [
      rule({ commandOverrider: [{ containerName: 'nginx', operator: 'remove', value: ['-t'] }] }),
    ]);
    assert.ok(result.ok);
    assert.deepEqual(
      containers(result.object).map((c) => c.command),
      [
        ['nginx', '-v'],
        ['nginx', '-v', '-t'],
      ],
    );
  });

  it('init containers are not touched', () => {
    const obj = {
      ...pod(),
      spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'nginx', command: ['x'] }] },
    };
    const result = applyOverrides(obj, [
      rule({ commandOverrider: [{ containerName: 'nginx', operator: 'add', value: ['y'] }] }),
    ]);
    assert.ok(result.ok);
    assert.deepEqual(result.object, obj);
  });

  it('command, then args, each on the result of the previous', () => {
    const result = applyOverrides(deployment(), [
      rule({
        commandOverrider: [{ containerName: 'nginx', operator: 'add', value: ['/bin/app'] }],
        argsOverrider: [
          { containerName: 'nginx', operator: 'add', value: ['--a', '--b'] },
          { containerName: 'nginx', operator: 'remove', value: ['--a'] },
        ],
      }),
    ]);
    assert.ok(result.ok);
    assert.deepEqual(containers(result.object)[0], {
      image: 'fictional.registry.example/imagename:v1.0.0',
      name: 'nginx',
      command: ['/bin/app'],
      args: ['--b'],
    });
  });

  it('error: a command that is not a list', () => {
    const obj = workload('Deployment', { containers: [{ name: 'nginx', command: 'nginx -t' }] });
    const result = applyOverrides(obj, [
      rule({ commandOverrider: [{ containerName: 'nginx', operator: 'add', value: ['x'] }] }),
    ]);
    assert.equal(result.ok, false);
    if (!result.ok)
      assert.match(
        result.error,
        /commandOverrider\[0\]: \/spec\/template\/spec\/containers\/0\/command is not an array/,
      );
  });
});

describe('labelsOverrider / annotationsOverrider (Test_applyLabelsOverriders, Test_applyAnnotationsOverriders)', () => {
  const withMeta = (labels?: Record<string, string>, annotations?: Record<string, string>): KubeObject => {
    const obj = deployment();
    if (labels) obj.metadata.labels = labels;
    else delete obj.metadata.labels;
    if (annotations) obj.metadata.annotations = annotations;
    return obj;
  };
  const cases: [
    string,
    'labels' | 'annotations',
    Record<string, string> | undefined,
    LabelAnnotationOverrider,
    Record<string, string> | undefined,
  ][] = [
    [
      'add to absent labels creates them',
      'labels',
      undefined,
      { operator: 'add', value: { test2: 'test2' } },
      { test2: 'test2' },
    ],
    [
      'replace only touches existing keys',
      'labels',
      { foo: 'foo', bar: 'bar' },
      { operator: 'replace', value: { foo: 'exist', 'non-exist': 'non-exist' } },
      { foo: 'exist', bar: 'bar' },
    ],
    [
      'add',
      'labels',
      { foo: 'foo', bar: 'bar' },
      { operator: 'add', value: { test: 'test' } },
      { foo: 'foo', bar: 'bar', test: 'test' },
    ],
    [
      'add overwrites an existing key',
      'labels',
      { foo: 'foo' },
      { operator: 'add', value: { foo: 'new' } },
      { foo: 'new' },
    ],
    [
      'remove ignores the value and missing keys',
      'labels',
      { foo: 'foo', bar: 'bar' },
      { operator: 'remove', value: { foo: 'anything', 'non-exist': 'non-exist' } },
      { bar: 'bar' },
    ],
    [
      'add to absent annotations creates them',
      'annotations',
      undefined,
      { operator: 'add', value: { test2: 'test2' } },
      { test2: 'test2' },
    ],
    [
      'annotations replace',
      'annotations',
      { foo: 'foo', bar: 'bar' },
      { operator: 'replace', value: { foo: 'exist', 'non-exist': 'non-exist' } },
      { foo: 'exist', bar: 'bar' },
    ],
    [
      'annotations remove',
      'annotations',
      { foo: 'foo', bar: 'bar' },
      { operator: 'remove', value: { foo: 'foo', 'non-exist': 'non-exist' } },
      { bar: 'bar' },
    ],
    [
      'annotations remain the same: remove nothing',
      'annotations',
      { foo: 'foo', bar: 'bar' },
      { operator: 'remove', value: {} },
      { foo: 'foo', bar: 'bar' },
    ],
    [
      'annotations remain the same: replace a missing key',
      'annotations',
      { foo: 'foo', bar: 'bar' },
      { operator: 'replace', value: { test: 'test' } },
      { foo: 'foo', bar: 'bar' },
    ],
    [
      'replace on absent annotations does not create them',
      'annotations',
      undefined,
      { operator: 'replace', value: { test: 'test' } },
      undefined,
    ],
    [
      'add a composed key with "/"',
      'annotations',
      { foo: 'foo' },
      { operator: 'add', value: { 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf' } },
      { foo: 'foo', 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf' },
    ],
    [
      'remove a composed key with "/"',
      'annotations',
      { 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf', foo: 'foo' },
      { operator: 'remove', value: { 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf' } },
      { foo: 'foo' },
    ],
  ];
  for (const [name, field, existing, overrider, want] of cases) {
    it(`${field}: ${name}`, () => {
      const obj = field === 'labels' ? withMeta(existing) : withMeta({ app: 'nginx' }, existing);
      const before = structuredClone(obj);
      const result = applyOverrides(obj, [rule({ [`${field}Overrider`]: [overrider] })]);
      assert.ok(result.ok, result.ok ? '' : result.error);
      assert.deepEqual(result.object.metadata[field], want);
      assert.deepEqual(obj, before);
    });
  }

  it('labels and annotations on a cluster-scoped object (Test_..._ApplyLabelAnnotationOverriderPolicies)', () => {
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'test2',
        labels: { testLabel: 'testLabel' },
        annotations: { testAnnotation: 'testAnnotation' },
      },
    };
    const result = applyOverrides(role, [
      rule({
        labelsOverrider: [{ operator: 'add', value: { testAddLabel: 'testAddLabel' } }],
        annotationsOverrider: [{ operator: 'add', value: { testAddAnnotation: 'testAddAnnotation' } }],
      }),
    ]);
    assert.ok(result.ok);
    assert.deepEqual(result.object.metadata.labels, { testLabel: 'testLabel', testAddLabel: 'testAddLabel' });
    assert.deepEqual(result.object.metadata.annotations, {
      testAnnotation: 'testAnnotation',
      testAddAnnotation: 'testAddAnnotation',
    });
  });
});

describe('plaintext (RFC 6902 on the whole object)', () => {
  it('add, replace and remove in order', () => {
    const obj = deployment();
    const result = applyOverrides(obj, [
      rule({
        plaintext: [
          { path: '/spec/replicas', operator: 'replace', value: 3 },
          { path: '/metadata/annotations', operator: 'add', value: { a: 'b' } },
          { path: '/spec/selector', operator: 'remove' },
          { path: '/spec/template/spec/containers/-', operator: 'add', value: { name: 'sidecar', image: 'envoy' } },
        ],
      }),
    ]);
    assert.ok(result.ok);
    assert.equal(dig(result.object, 'spec.replicas'), 3);
    assert.equal(dig(result.object, 'spec.selector'), undefined);
    assert.deepEqual(result.object.metadata.annotations, { a: 'b' });
    assert.deepEqual(
      containers(result.object).map((c) => c.name),
      ['nginx', 'sidecar'],
    );
    assert.equal(dig(obj, 'spec.replicas'), 1, 'input untouched');
  });

  it('add without a value adds null (apiextensionsv1.JSON marshals empty as null)', () => {
    const result = applyOverrides(deployment(), [rule({ plaintext: [{ path: '/spec/paused', operator: 'add' }] })]);
    assert.ok(result.ok);
    assert.equal(dig(result.object, 'spec.paused'), null);
  });

  const failures: [string, { path: string; operator: 'add' | 'remove' | 'replace'; value?: unknown }, RegExp][] = [
    [
      'replace a missing path',
      { path: '/spec/paused', operator: 'replace', value: true },
      /plaintext: json patch operation 1 \(replace \/spec\/paused\): the path does not exist/,
    ],
    ['remove a missing path', { path: '/metadata/annotations/x', operator: 'remove' }, /the path does not exist/],
    [
      'add under a missing parent',
      { path: '/spec/strategy/type', operator: 'add', value: 'Recreate' },
      /parent of the path does not exist/,
    ],
    ['a path that is not a JSON pointer', { path: 'spec/replicas', operator: 'replace', value: 1 }, /invalid "path"/],
  ];
  for (const [name, plaintext, message] of failures) {
    it(`error: ${name} — the whole object is rejected, earlier overriders included`, () => {
      const obj = deployment();
      const before = structuredClone(obj);
      const result = applyOverrides(obj, [
        rule({
          labelsOverrider: [{ operator: 'add', value: { x: 'y' } }],
          plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 5 }, plaintext],
        }),
      ]);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.match(result.error, message);
        assert.deepEqual(result.policy, { kind: 'OverridePolicy', name: 'test', namespace: 'default' });
        assert.equal(result.rule, 0);
      }
      assert.deepEqual(obj, before);
    });
  }
});

describe('order of overriders within one rule (applyPolicyOverriders)', () => {
  it('image → command → args → labels → annotations → field → plaintext: plaintext runs last and wins', () => {
    const obj: KubeObject = { ...deployment(), data: { 'c.json': '{"v":1}' } } as KubeObject;
    const result = applyOverrides(obj, [
      rule({
        // Listed in the opposite order on purpose: the order of keys does not matter.
        plaintext: [
          { path: '/spec/template/spec/containers/0/image', operator: 'replace', value: 'plain:1' },
          { path: '/metadata/labels/app', operator: 'replace', value: 'plain' },
          { path: '/data/c.json', operator: 'replace', value: 'plain' },
        ],
        fieldOverrider: [{ fieldPath: '/data/c.json', json: [{ subPath: '/v', operator: 'replace', value: 2 }] }],
        annotationsOverrider: [{ operator: 'add', value: { a: 'b' } }],
        labelsOverrider: [{ operator: 'replace', value: { app: 'label' } }],
        imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'v9' }],
      }),
    ]);
    assert.ok(result.ok);
    assert.equal(dig(result.object, 'spec.template.spec.containers.0.image'), 'plain:1');
    assert.equal(result.object.metadata.labels!.app, 'plain');
    assert.equal((result.object as unknown as { data: Record<string, string> }).data['c.json'], 'plain');
  });

  it('labels before plaintext: a plaintext replace of a label added by labelsOverrider succeeds', () => {
    const result = applyOverrides(deployment(), [
      rule({
        labelsOverrider: [{ operator: 'add', value: { tier: 'web' } }],
        plaintext: [{ path: '/metadata/labels/tier', operator: 'replace', value: 'edge' }],
      }),
    ]);
    assert.ok(result.ok);
    assert.equal(result.object.metadata.labels!.tier, 'edge');
  });

  it('the image overrider sees the image a previous rule set', () => {
    const result = applyOverrides(deployment(), [
      rule(
        { plaintext: [{ path: '/spec/template/spec/containers/0/image', operator: 'replace', value: 'a.io/x:1' }] },
        'first',
      ),
      rule({ imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'b.io' }] }, 'second'),
    ]);
    assert.ok(result.ok);
    assert.equal(dig(result.object, 'spec.template.spec.containers.0.image'), 'b.io/x:1');
    assert.deepEqual(
      result.applied.map((a) => a.policy.name),
      ['first', 'second'],
    );
  });
});
