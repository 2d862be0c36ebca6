import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import {
  MAX_UPDATE_MANAGERS,
  recordUpdate,
  type ManagedFieldsEntry,
  type RecordUpdateInput,
} from '../../../../lib/kube/apply/index.ts';
import { at, deploymentSchema, later, stored, T0, widgetConfig, widgetSchema } from './fixtures.ts';

/** A Deployment as `kubectl create -f` leaves it after defaulting. */
function defaultedDeployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
    spec: {
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { app: 'nginx' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx',
              imagePullPolicy: 'Always',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
            },
          ],
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
        },
      },
    },
    status: {},
  };
}

function record(
  input: Partial<RecordUpdateInput> & Pick<RecordUpdateInput, 'after' | 'manager'>,
): ManagedFieldsEntry[] {
  return recordUpdate({
    before: undefined,
    operation: 'Update',
    schema: deploymentSchema,
    apiVersion: 'apps/v1',
    now: T0,
    ...input,
  });
}

function withFields(obj: KubeObject, managedFields: ManagedFieldsEntry[]): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, managedFields } };
}

function edit(obj: KubeObject, change: (draft: KubeObject) => void): KubeObject {
  const draft = structuredClone(obj);
  change(draft);
  return draft;
}

const summary = (list: ManagedFieldsEntry[]) => list.map((e) => [e.manager, e.operation, e.apiVersion, e.time]);

const created = stored(
  withFields(defaultedDeployment(), record({ after: defaultedDeployment(), manager: 'kubectl-create', builtIn: true })),
);

describe('recordUpdate on create (kubectl create)', () => {
  it('owns every field of a built-in kind with `.` exactly where Kubernetes writes it (compared to the Go zero value)', () => {
    assert.deepEqual(created.metadata.managedFields, [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:progressDeadlineSeconds': {},
            'f:replicas': {},
            'f:revisionHistoryLimit': {},
            'f:selector': {},
            'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
            'f:template': {
              'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': {
                    '.': {},
                    'f:image': {},
                    'f:imagePullPolicy': {},
                    'f:name': {},
                    'f:resources': {},
                    'f:terminationMessagePath': {},
                  },
                },
                'f:dnsPolicy': {},
                'f:restartPolicy': {},
                'f:securityContext': {},
              },
            },
          },
        },
      },
    ]);
  });

  it('owns a custom resource created from an empty object: new structs carry `.`', () => {
    const after = widgetConfig({ size: 1, endpoints: [{ port: 80 }] });
    const [only] = record({ after, manager: 'kubectl-create', schema: widgetSchema, apiVersion: 'example.com/v1' });
    assert.deepEqual(only!.fieldsV1, {
      'f:spec': {
        '.': {},
        'f:endpoints': { '.': {}, 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} } },
        'f:size': {},
      },
    });
  });

  it('keeps managedFields a client sends on create and adds its own entry', () => {
    const sent = withFields(defaultedDeployment(), [
      {
        manager: 'restored',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: later(-3600),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:paused': {} } },
      },
    ]);
    assert.deepEqual(summary(record({ after: sent, manager: 'kubectl-create', builtIn: true })), [
      ['restored', 'Apply', 'apps/v1', later(-3600)],
      ['kubectl-create', 'Update', 'apps/v1', T0],
    ]);
  });
});

describe('recordUpdate on update and patch', () => {
  const scale = (obj: KubeObject, replicas: number) =>
    edit(obj, (d) => {
      (d.spec as Record<string, unknown>).replicas = replicas;
    });

  it('moves only the changed field to the updater; the creator keeps the rest and its time', () => {
    const list = record({ before: created, after: scale(created, 3), manager: 'kubectl', now: later(60) });
    assert.deepEqual(summary(list), [
      ['kubectl-create', 'Update', 'apps/v1', T0],
      ['kubectl', 'Update', 'apps/v1', later(60)],
    ]);
    assert.deepEqual(list[1]!.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.equal('f:replicas' in list[0]!.fieldsV1['f:spec']!, false);
  });

  it('merges repeated updates by the same manager into one entry', () => {
    const once = withFields(
      scale(created, 3),
      record({ before: created, after: scale(created, 3), manager: 'kubectl' }),
    );
    const paused = edit(once, (d) => {
      (d.spec as Record<string, unknown>).paused = true;
    });
    const list = record({ before: once, after: paused, manager: 'kubectl', now: later(120) });
    assert.deepEqual(list.find((e) => e.manager === 'kubectl')!.fieldsV1, {
      'f:spec': { 'f:paused': {}, 'f:replicas': {} },
    });
  });

  it('keeps separate Update entries per API version of the same manager', () => {
    const list = record({
      before: created,
      after: scale(created, 3),
      manager: 'kubectl-create',
      apiVersion: 'apps/v1beta2',
    });
    assert.deepEqual(
      list.map((e) => [e.manager, e.apiVersion]),
      [
        ['kubectl-create', 'apps/v1'],
        ['kubectl-create', 'apps/v1beta2'],
      ],
    );
  });

  it('removes deleted fields from every entry, dropping entries left empty', () => {
    const unlabeled = edit(created, (d) => {
      delete d.metadata.labels;
    });
    const [only] = record({ before: created, after: unlabeled, manager: 'kubectl-edit' });
    assert.equal(only!.manager, 'kubectl-create');
    assert.equal('f:metadata' in only!.fieldsV1, false);
  });

  it('an update that changes nothing leaves managedFields as they were', () => {
    assert.deepEqual(
      record({ before: created, after: created, manager: 'kubectl', now: later(60) }),
      created.metadata.managedFields,
    );
  });

  it('an object that was never tracked stays untracked', () => {
    const { managedFields: _none, ...metadata } = created.metadata;
    const untracked = { ...created, metadata };
    assert.deepEqual(record({ before: untracked, after: scale(untracked, 4), manager: 'kubectl' }), []);
  });

  const resets: [string, unknown[]][] = [
    ['an empty list', []],
    ['a single empty entry', [{}]],
  ];
  for (const [name, managedFields] of resets) {
    it(`resets managedFields when the update sends ${name}`, () => {
      const after = { ...scale(created, 2), metadata: { ...created.metadata, managedFields } };
      assert.deepEqual(record({ before: created, after, manager: 'kubectl' }), []);
    });
  }

  it('lets an update rewrite managedFields: the sent entries replace the stored ones', () => {
    const rewritten = withFields(scale(created, 3), [
      { ...(created.metadata.managedFields![0] as ManagedFieldsEntry), manager: 'renamed' },
    ]);
    assert.deepEqual(
      record({ before: created, after: rewritten, manager: 'kubectl', now: later(60) }).map((e) => e.manager),
      ['renamed', 'kubectl'],
    );
  });

  it(`caps Update entries at ${MAX_UPDATE_MANAGERS}, merging the oldest into ancient-changes`, () => {
    let obj = created;
    for (let i = 1; i <= MAX_UPDATE_MANAGERS + 1; i++) {
      const next = edit(obj, (d) => {
        d.metadata.annotations = { ...d.metadata.annotations, [`n${i}`]: 'x' };
      });
      obj = withFields(next, record({ before: obj, after: next, manager: `m${i}`, now: later(i) }));
    }
    const list = obj.metadata.managedFields as ManagedFieldsEntry[];
    assert.equal(list.length, MAX_UPDATE_MANAGERS);
    const ancient = list.find((e) => e.manager === 'ancient-changes')!;
    // The bucket takes the time of the newest entry merged into it (m2, on the second overflow).
    assert.equal(ancient.time, later(2));
    assert.deepEqual(ancient.fieldsV1['f:metadata']!['f:annotations'], { '.': {}, 'f:n1': {}, 'f:n2': {} });
    assert.deepEqual(
      list.map((e) => e.manager),
      ['ancient-changes', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11'],
    );
  });
});

describe('recordUpdate on the status subresource', () => {
  const withStatus = edit(created, (d) => {
    d.status = { replicas: 1, readyReplicas: 1 };
    (d.spec as Record<string, unknown>).replicas = 9;
  });

  it('records a status entry with subresource status, tracking status fields only', () => {
    const list = record({
      before: created,
      after: withStatus,
      manager: 'kube-controller-manager',
      subresource: 'status',
      now: later(5),
    });
    assert.deepEqual(list[1], {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: later(5),
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } },
      subresource: 'status',
    });
    assert.deepEqual(list[0], created.metadata.managedFields![0], 'the spec change is not the status writer’s');
  });

  it('ignores status changes made through the main resource', () => {
    const statusOnly = edit(created, (d) => {
      d.status = { replicas: 3 };
    });
    assert.deepEqual(
      record({ before: created, after: statusOnly, manager: 'kubectl' }),
      created.metadata.managedFields,
    );
    assert.equal(at(statusOnly, 'status.replicas'), 3);
  });
});
