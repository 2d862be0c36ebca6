import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import {
  applyConfiguration,
  conflictCauses,
  formatConflicts,
  InvalidApplyConfigurationError,
  recordUpdate,
  type ApplyInput,
  type ApplyResult,
  type Conflict,
  type ManagedFieldsEntry,
} from '../../../../lib/kube/apply/index.ts';
import type { Schema } from '../../../../lib/kube/base/schema.ts';
import { at, deploymentConfig, deploymentSchema, later, stored, T0, widgetConfig, widgetSchema } from './fixtures.ts';

function apply(
  live: KubeObject | undefined,
  config: KubeObject,
  options: Partial<Omit<ApplyInput, 'live' | 'config'>> = {},
): ApplyResult {
  return applyConfiguration({
    live,
    config,
    manager: 'kubectl',
    force: false,
    schema: deploymentSchema,
    apiVersion: config.apiVersion,
    now: T0,
    ...options,
  });
}

function applied(result: ApplyResult): KubeObject {
  assert.ok('object' in result, `expected an object, got conflicts ${JSON.stringify(result)}`);
  return result.object;
}

function conflicts(result: ApplyResult): Conflict[] {
  assert.ok('conflicts' in result, 'expected conflicts');
  return result.conflicts;
}

function entries(obj: KubeObject): ManagedFieldsEntry[] {
  return (obj.metadata.managedFields ?? []) as ManagedFieldsEntry[];
}

function entry(obj: KubeObject, manager: string, operation: 'Apply' | 'Update'): ManagedFieldsEntry | undefined {
  return entries(obj).find((e) => e.manager === manager && e.operation === operation);
}

/** A non-apply write by `manager` (kubectl edit/scale, client-side apply, a controller). */
function update(live: KubeObject, change: (draft: KubeObject) => void, manager: string, now = later(60)): KubeObject {
  const after = structuredClone(live);
  change(after);
  const managedFields = recordUpdate({
    before: live,
    after,
    manager,
    operation: 'Update',
    schema: deploymentSchema,
    apiVersion: 'apps/v1',
    now,
  });
  return { ...after, metadata: { ...after.metadata, managedFields } };
}

function setReplicas(replicas: number) {
  return (d: KubeObject) => {
    (d.spec as Record<string, unknown>).replicas = replicas;
  };
}

const created = stored(applied(apply(undefined, deploymentConfig({ replicas: 2 }))));

describe('server-side apply of a Deployment with kubectl apply --server-side', () => {
  it('creates the object with one Apply entry owning exactly what the configuration sets', () => {
    const result = applied(apply(undefined, deploymentConfig({ replicas: 2 })));
    const { managedFields, ...metadata } = result.metadata;
    assert.deepEqual({ ...result, metadata }, deploymentConfig({ replicas: 2 }));
    assert.deepEqual(managedFields, [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
            },
          },
        },
      },
    ]);
  });

  it('re-applying with a changed image updates it, keeps ownership and stamps the entry with the new time', () => {
    const result = applied(apply(created, deploymentConfig({ replicas: 2, image: 'nginx:1.27' }), { now: later(30) }));
    assert.equal(at(result, 'spec.template.spec.containers.0.image'), 'nginx:1.27');
    assert.equal(result.metadata.uid, created.metadata.uid, 'live-only metadata survives the merge');
    assert.deepEqual(entries(result).length, 1);
    assert.equal(entries(result)[0]!.time, later(30));
    assert.deepEqual(entries(result)[0]!.fieldsV1, entries(created)[0]!.fieldsV1);
  });

  it('a re-apply that changes nothing returns the live object and keeps the entry time', () => {
    const result = applied(apply(created, deploymentConfig({ replicas: 2 }), { now: later(30) }));
    assert.deepEqual(result, created);
  });

  it('stores the request time at second precision, as metav1.Time does', () => {
    const result = applied(apply(undefined, deploymentConfig(), { now: '2024-05-01T10:00:00.789Z' }));
    assert.equal(entries(result)[0]!.time, '2024-05-01T10:00:00Z');
  });

  it('never owns status fields of the main resource', () => {
    const config = { ...deploymentConfig(), status: { replicas: 9 } };
    const fields = entries(applied(apply(undefined, config)))[0]!.fieldsV1;
    assert.equal('f:status' in fields, false);
  });
});

describe('apply conflicts with other managers', () => {
  const scaled = update(created, setReplicas(5), 'kubectl-client-side-apply');

  it('records the other write as an Update entry owning the changed field, taken from the applier, sorted after Apply entries', () => {
    const { 'f:replicas': _taken, ...applierSpec } = entries(created)[0]!.fieldsV1['f:spec']!;
    assert.deepEqual(
      entries(scaled).map((e) => [e.manager, e.operation, e.fieldsV1]),
      [
        ['kubectl', 'Apply', { ...entries(created)[0]!.fieldsV1, 'f:spec': applierSpec }],
        ['kubectl-client-side-apply', 'Update', { 'f:spec': { 'f:replicas': {} } }],
      ],
    );
  });

  it('applying a different value for a field another manager owns is a conflict, with the exact Kubernetes message', () => {
    const found = conflicts(apply(scaled, deploymentConfig({ replicas: 3 }), { now: later(90) }));
    assert.deepEqual(found, [
      { manager: 'kubectl-client-side-apply', field: '.spec.replicas', operation: 'Update', apiVersion: 'apps/v1' },
    ]);
    assert.equal(
      formatConflicts(found),
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    assert.deepEqual(conflictCauses(found), [
      {
        type: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.replicas',
      },
    ]);
  });

  it('force takes the field: the value is applied and the other entry, left empty, disappears', () => {
    const result = applied(apply(scaled, deploymentConfig({ replicas: 3 }), { force: true, now: later(90) }));
    assert.equal(at(result, 'spec.replicas'), 3);
    assert.deepEqual(
      entries(result).map((e) => [e.manager, e.operation, e.time]),
      [['kubectl', 'Apply', later(90)]],
    );
  });

  it('force takes only the conflicting fields; the other manager keeps the rest', () => {
    const twice = update(
      scaled,
      (d) => {
        (d.spec as Record<string, unknown>).paused = true;
      },
      'kubectl-client-side-apply',
    );
    const result = applied(apply(twice, deploymentConfig({ replicas: 3 }), { force: true }));
    assert.deepEqual(entry(result, 'kubectl-client-side-apply', 'Update')!.fieldsV1, { 'f:spec': { 'f:paused': {} } });
  });

  it('applying the value the field already has is no conflict: ownership is shared', () => {
    const result = applied(apply(scaled, deploymentConfig({ replicas: 5 }), { manager: 'argocd' }));
    assert.deepEqual(entry(result, 'argocd', 'Apply')!.fieldsV1['f:spec']!['f:replicas'], {});
    assert.deepEqual(entry(result, 'kubectl-client-side-apply', 'Update')!.fieldsV1, {
      'f:spec': { 'f:replicas': {} },
    });
    // A later change by one sharer still conflicts with the other.
    const found = conflicts(apply(result, deploymentConfig({ replicas: 6 }), { manager: 'argocd' }));
    assert.deepEqual(
      found.map((c) => c.manager),
      ['kubectl-client-side-apply'],
    );
  });

  it('lists several conflicts grouped by manager, managers sorted, paths in set order', () => {
    const edited = update(
      scaled,
      (d) => {
        (d.spec as Record<string, unknown>).paused = true;
        (at(d, 'spec.template.spec.containers.0') as Record<string, unknown>).image = 'nginx:edited';
      },
      'kubectl-edit',
    );
    const config = deploymentConfig({ replicas: 3, image: 'nginx:1.27' });
    (config.spec as Record<string, unknown>).paused = false;
    const found = conflicts(apply(edited, config));
    assert.equal(
      formatConflicts(found),
      'Apply failed with 3 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n' +
        '- .spec.replicas\n' +
        'conflicts with "kubectl-edit" using apps/v1:\n' +
        '- .spec.paused\n' +
        '- .spec.template.spec.containers[name="nginx"].image',
    );
  });

  it('formats conflicts with appliers and subresources as printManager does', () => {
    assert.equal(
      formatConflicts([
        { manager: 'helm', field: '.spec.replicas', operation: 'Apply' },
        { manager: 'helm', field: '.spec.paused', operation: 'Apply' },
      ]),
      'Apply failed with 2 conflicts: conflicts with "helm":\n- .spec.replicas\n- .spec.paused',
    );
    assert.equal(
      formatConflicts([
        {
          manager: 'kcm',
          field: '.status.replicas',
          operation: 'Update',
          apiVersion: 'apps/v1',
          subresource: 'status',
        },
      ]),
      'Apply failed with 1 conflict: conflict with "kcm" with subresource "status" using apps/v1: .status.replicas',
    );
  });

  it('an applier conflicts with its own Update entry: they are different managers', () => {
    const edited = update(created, setReplicas(7), 'kubectl');
    assert.deepEqual(
      conflicts(apply(edited, deploymentConfig({ replicas: 2 }))).map((c) => [c.manager, c.operation]),
      [['kubectl', 'Update']],
    );
  });

  it('an object nobody tracked yet gets a before-first-apply entry owning everything, which conflicts', () => {
    const { managedFields: _none, ...metadata } = created.metadata;
    const untracked = { ...created, metadata };
    const found = conflicts(apply(untracked, deploymentConfig({ replicas: 4 }), { manager: 'ci' }));
    assert.equal(
      formatConflicts(found),
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    );
    const result = applied(apply(untracked, deploymentConfig({ replicas: 2 }), { manager: 'ci', now: later(5) }));
    assert.deepEqual(
      entries(result).map((e) => [e.manager, e.operation, e.time]),
      [
        ['ci', 'Apply', later(5)],
        ['before-first-apply', 'Update', later(5)],
      ],
    );
  });
});

describe('apply removes what the applier stopped setting', () => {
  const base = stored(
    applied(apply(undefined, deploymentConfig({ replicas: 2, labels: { app: 'nginx', tier: 'web' } }))),
  );

  it('a field dropped from the configuration is deleted when no one else owns it', () => {
    const result = applied(apply(base, deploymentConfig({ labels: { app: 'nginx' } })));
    assert.deepEqual(result.metadata.labels, { app: 'nginx' });
    assert.equal(at(result, 'spec.replicas'), undefined);
    assert.equal(at(result, 'spec.template.spec.containers.0.name'), 'nginx');
    assert.equal(result.metadata.uid, base.metadata.uid);
  });

  it('a field co-owned by another applier stays, and stays owned by it', () => {
    const helm = applied(apply(base, labelsOnly({ tier: 'web' }), { manager: 'helm' }));
    const result = applied(apply(helm, deploymentConfig({ replicas: 2, labels: { app: 'nginx' } })));
    assert.deepEqual(result.metadata.labels, { app: 'nginx', tier: 'web' });
    assert.deepEqual(entry(result, 'helm', 'Apply')!.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
  });

  it('a field an updater owns stays when the applier drops it', () => {
    const owned = update(base, setReplicas(3), 'hpa');
    const result = applied(apply(owned, deploymentConfig({ labels: { app: 'nginx', tier: 'web' } })));
    assert.equal(at(result, 'spec.replicas'), 3);
    assert.deepEqual(entry(result, 'hpa', 'Update')!.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  });

  it('dropping a whole map-list item deletes it, other items stay', () => {
    const two = stored(
      applied(
        apply(
          undefined,
          deploymentConfig({
            containers: [
              { name: 'nginx', image: 'n' },
              { name: 'log', image: 'l' },
            ],
          }),
        ),
      ),
    );
    const result = applied(apply(two, deploymentConfig({ containers: [{ name: 'nginx', image: 'n' }] })));
    assert.deepEqual(at(result, 'spec.template.spec.containers'), [{ name: 'nginx', image: 'n' }]);
  });

  it('fields no manager ever owned (server defaults) survive removal of sibling fields', () => {
    const defaulted = structuredClone(base);
    (defaulted.spec as Record<string, unknown>).progressDeadlineSeconds = 600;
    const result = applied(apply(defaulted, deploymentConfig({ labels: { app: 'nginx' } })));
    assert.equal(at(result, 'spec.progressDeadlineSeconds'), 600);
    assert.equal(at(result, 'spec.replicas'), undefined);
  });
});

/** A config holding only metadata labels (name and namespace identify the object). */
function labelsOnly(labels: Record<string, string>): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', namespace: 'default', labels } };
}

describe('apply merges lists by their keys', () => {
  it('containers merge by name: a container added by another manager survives an apply that omits it', () => {
    const withSidecar = update(
      created,
      (d) => {
        (at(d, 'spec.template.spec.containers') as unknown[]).push({ name: 'istio-proxy', image: 'proxy:1' });
      },
      'istio-injector',
    );
    const result = applied(apply(withSidecar, deploymentConfig({ replicas: 2, image: 'nginx:1.27' })));
    assert.deepEqual(at(result, 'spec.template.spec.containers'), [
      { name: 'nginx', image: 'nginx:1.27' },
      { name: 'istio-proxy', image: 'proxy:1' },
    ]);
    assert.deepEqual(entry(result, 'istio-injector', 'Update')!.fieldsV1, {
      'f:spec': {
        'f:template': {
          'f:spec': { 'f:containers': { 'k:{"name":"istio-proxy"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
  });

  it('ports merge by containerPort (the merge key when no list-type is published)', () => {
    const one = stored(applied(apply(undefined, deploymentConfig({ ports: [{ containerPort: 80, name: 'http' }] }))));
    const both = applied(
      apply(
        one,
        deploymentConfig({
          ports: [
            { containerPort: 80, name: 'http' },
            { containerPort: 443, name: 'https' },
          ],
        }),
      ),
    );
    assert.deepEqual(at(both, 'spec.template.spec.containers.0.ports'), [
      { containerPort: 80, name: 'http' },
      { containerPort: 443, name: 'https' },
    ]);
    const onlyHttps = applied(apply(both, deploymentConfig({ ports: [{ containerPort: 443, name: 'https' }] })));
    assert.deepEqual(at(onlyHttps, 'spec.template.spec.containers.0.ports'), [{ containerPort: 443, name: 'https' }]);
  });

  it('the configuration decides the order of shared items; live-only items come before the next shared one', () => {
    const live = update(
      stored(applied(apply(undefined, deploymentConfig({ containers: [{ name: 'a' }, { name: 'b' }] })))),
      (d) => {
        (at(d, 'spec.template.spec.containers') as unknown[]).splice(1, 0, { name: 'x' });
      },
      'injector',
    );
    const result = applied(apply(live, deploymentConfig({ containers: [{ name: 'b' }, { name: 'a' }] })));
    assert.deepEqual(
      (at(result, 'spec.template.spec.containers') as { name: string }[]).map((c) => c.name),
      ['x', 'b', 'a'],
    );
  });

  it('atomic lists are replaced whole and owned as one field', () => {
    const config = (args: string[]) => deploymentConfig({ containers: [{ name: 'nginx', args }] });
    const first = stored(applied(apply(undefined, config(['--a', '--b']))));
    assert.deepEqual(
      entries(first)[0]!.fieldsV1['f:spec']!['f:template']!['f:spec']!['f:containers']!['k:{"name":"nginx"}'],
      { '.': {}, 'f:args': {}, 'f:name': {} },
    );
    const result = applied(apply(first, config(['--c'])));
    assert.deepEqual(at(result, 'spec.template.spec.containers.0.args'), ['--c']);
    const edited = update(first, (d) => (at(d, 'spec.template.spec.containers.0.args') as string[]).push('--z'), 'ed');
    assert.deepEqual(
      conflicts(apply(edited, config(['--a']))).map((c) => c.field),
      ['.spec.template.spec.containers[name="nginx"].args'],
    );
  });
});

describe('apply of a custom resource with x-kubernetes-list-type: map', () => {
  const widget = (spec: Record<string, unknown>, options: Partial<ApplyInput> = {}, live?: KubeObject) =>
    apply(live, widgetConfig(spec), { schema: widgetSchema, ...options });
  const first = stored(
    applied(
      widget({
        endpoints: [
          { port: 80, host: 'a' },
          { port: 53, protocol: 'UDP', host: 'dns' },
        ],
        tags: ['x'],
        settings: { a: '1' },
        extra: { nested: { keep: true } },
      }),
    ),
  );

  it('keys items by every list-map-key, defaulting protocol to TCP', () => {
    assert.deepEqual(entries(first)[0]!.fieldsV1['f:spec']!['f:endpoints'], {
      'k:{"port":53,"protocol":"UDP"}': { '.': {}, 'f:host': {}, 'f:port': {}, 'f:protocol': {} },
      'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:host': {}, 'f:port': {} },
    });
  });

  it('merges items by key, unions sets, replaces atomic maps and merges preserved objects granularly', () => {
    const other = applied(
      widget(
        {
          endpoints: [
            { port: 80, protocol: 'TCP', host: 'a' },
            { port: 8080, host: 'b' },
          ],
          tags: ['y'],
          settings: { b: '2' },
          extra: { nested: { add: 1 } },
        },
        { manager: 'other', force: true },
        first,
      ),
    );
    assert.deepEqual(other.spec, {
      endpoints: [
        { port: 80, protocol: 'TCP', host: 'a' },
        { port: 53, protocol: 'UDP', host: 'dns' },
        { port: 8080, host: 'b' },
      ],
      tags: ['x', 'y'],
      settings: { b: '2' },
      extra: { nested: { keep: true, add: 1 } },
    });
  });

  it('reports conflicts inside keyed items with the key in the path', () => {
    const found = conflicts(widget({ endpoints: [{ port: 80, host: 'z' }] }, { manager: 'other' }, first));
    assert.equal(
      formatConflicts(found),
      'Apply failed with 1 conflict: conflict with "kubectl": .spec.endpoints[port=80,protocol="TCP"].host',
    );
  });
});

describe('invalid apply configurations', () => {
  const invalid: [string, KubeObject, RegExp][] = [
    [
      'managedFields in the configuration',
      { ...deploymentConfig(), metadata: { name: 'nginx', managedFields: [] } },
      /^metadata\.managedFields must be nil$/,
    ],
    [
      'another API version than the request',
      { ...deploymentConfig(), apiVersion: 'apps/v1beta2' },
      /^Incorrect version specified in apply patch\. Specified patch version: apps\/v1beta2, expected: apps\/v1$/,
    ],
    [
      'two items with the same key',
      deploymentConfig({ containers: [{ name: 'a' }, { name: 'a' }] }),
      /^\.spec\.template\.spec\.containers: duplicate entries for key \[name="a"\]$/,
    ],
    [
      'an item without its key',
      deploymentConfig({ containers: [{ image: 'x' }] }),
      /element 0: associative list with keys has an element that omits key field "name" \(and doesn't have default value\)$/,
    ],
  ];
  for (const [name, config, message] of invalid) {
    it(`rejects ${name} with 400 BadRequest`, () => {
      assert.throws(
        () => apply(undefined, config, { apiVersion: 'apps/v1', schema: deploymentSchema as Schema }),
        (e: unknown) => e instanceof InvalidApplyConfigurationError && e.code === 400 && message.test(e.message),
      );
    });
  }
});
