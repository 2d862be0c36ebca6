import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deployment } from '../../support/factories.ts';
import { apiHarness } from '../../support/api.ts';

describe('control-plane API (in process) — smoke', () => {
  it('creates, gets, lists, patches, applies and deletes a Deployment', async () => {
    const h = await apiHarness();
    const created = await h.call(
      'POST',
      '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict',
      {
        body: deployment('nginx', { replicas: 2 }),
      },
    );
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json.metadata.generation, 1);
    assert.equal(created.json.spec.strategy.type, 'RollingUpdate');
    assert.equal(created.json.metadata.managedFields[0].manager, 'kubectl-client-side-apply');

    const got = await h.call('GET', '/apis/apps/v1/namespaces/default/deployments/nginx');
    assert.equal(got.status, 200);
    const table = await h.call('GET', '/apis/apps/v1/namespaces/default/deployments', {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    assert.equal(table.json.kind, 'Table');
    assert.deepEqual(table.json.rows[0].cells.slice(0, 2), ['nginx', '0/2']);

    const patched = await h.call('PATCH', '/apis/apps/v1/namespaces/default/deployments/nginx', {
      contentType: 'application/strategic-merge-patch+json',
      body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] } } } },
    });
    assert.equal(patched.status, 200, patched.body);
    assert.equal(patched.json.spec.template.spec.containers[0].image, 'nginx:1.28');
    assert.equal(patched.json.metadata.generation, 2);

    const applied = await h.call(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/nginx?fieldManager=kubectl&force=false',
      {
        contentType: 'application/apply-patch+yaml',
        rawBody: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\nspec:\n  replicas: 5\n',
      },
    );
    assert.equal(applied.status, 409, applied.body);
    assert.match(applied.json.message, /conflict/);

    const deleted = await h.call('DELETE', '/apis/apps/v1/namespaces/default/deployments/nginx');
    assert.equal(deleted.status, 200);
    assert.equal((await h.call('GET', '/apis/apps/v1/namespaces/default/deployments/nginx')).status, 404);
  });
});

describe('deletion propagation', () => {
  it('marks a Foreground or Orphan delete for the garbage collector and tells it', async () => {
    const h = await apiHarness();
    for (const [name, policy, finalizer] of [
      ['fg', 'Foreground', 'foregroundDeletion'],
      ['orphan', 'Orphan', 'orphan'],
    ] as const) {
      await h.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment(name) });
      const res = await h.call('DELETE', `/apis/apps/v1/namespaces/default/deployments/${name}`, {
        body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy },
      });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers.warning, undefined);
      assert.deepEqual(res.json.metadata.finalizers, [finalizer], 'returned marked, as kube-apiserver does');
      assert.ok(res.json.metadata.deletionTimestamp);
      assert.ok(
        h.enqueued.some(
          (e) => e.controller === 'garbage-collector' && e.key.startsWith(`Deployment.apps/default/${name}@`),
        ),
      );
    }
    const stale = await h.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment('stale') });
    const conflict = await h.call('DELETE', '/apis/apps/v1/namespaces/default/deployments/stale', {
      body: { propagationPolicy: 'Foreground', preconditions: { resourceVersion: '1' } },
    });
    assert.equal(conflict.status, 409, conflict.body);
    const wrongUid = await h.call('DELETE', '/apis/apps/v1/namespaces/default/deployments/stale', {
      body: { propagationPolicy: 'Orphan', preconditions: { uid: 'someone-else' } },
    });
    assert.equal(wrongUid.status, 409, wrongUid.body);
    assert.match(wrongUid.json.message, /the UID in the precondition \(someone-else\) does not match/);
    const untouched = await h.call('GET', '/apis/apps/v1/namespaces/default/deployments/stale');
    assert.equal(untouched.json.metadata.resourceVersion, stale.json.metadata.resourceVersion, 'nothing was written');
    assert.equal(untouched.json.metadata.finalizers, undefined);

    // A stale orphan finalizer (from a failed earlier attempt) yields to an explicit Background delete.
    await h.call('PATCH', '/apis/apps/v1/namespaces/default/deployments/stale', {
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: ['orphan'] } },
    });
    const background = await h.call('DELETE', '/apis/apps/v1/namespaces/default/deployments/stale', {
      body: { propagationPolicy: 'Background' },
    });
    assert.equal(background.status, 200, background.body);
    assert.equal((await h.call('GET', '/apis/apps/v1/namespaces/default/deployments/stale')).status, 404);
  });
});

describe('the other built-in kinds Karmada users propagate', () => {
  it('serves RBAC (names with colons), storage and scheduling kinds, with their required fields checked', async () => {
    const h = await apiHarness();
    const role = await h.call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'system:app-reader' },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
      },
    });
    assert.equal(role.status, 201, role.body);
    const binding = await h.call('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'app-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'app', namespace: 'default' }],
      },
    });
    assert.equal(binding.status, 422, binding.body);
    assert.match(binding.json.message, /roleRef: Required value/);
    for (const [path, body] of [
      [
        '/apis/storage.k8s.io/v1/storageclasses',
        {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'StorageClass',
          metadata: { name: 'fast' },
          provisioner: 'ebs.csi.aws.com',
        },
      ],
      [
        '/apis/scheduling.k8s.io/v1/priorityclasses',
        { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
      ],
      [
        '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies',
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'NetworkPolicy',
          metadata: { name: 'deny' },
          spec: { podSelector: {} },
        },
      ],
    ] as const) {
      const res = await h.call('POST', path, { body });
      assert.equal(res.status, 201, `${path}: ${res.body}`);
    }
    const table = await h.call('GET', '/apis/storage.k8s.io/v1/storageclasses', {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    assert.deepEqual(table.json.rows[0].cells.slice(0, 5), ['fast', 'ebs.csi.aws.com', 'Delete', 'Immediate', false]);
  });
});

describe('warnings', () => {
  it('escapes characters a header cannot carry, and the write still succeeds', async () => {
    const h = await apiHarness();
    const res = await h.call('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Warn', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' }, 'a✓': 1 },
    });
    assert.equal(res.status, 201, res.body);
    assert.match(res.headers.warning ?? '', /^299 - "unknown field \\"a\\u2713\\""$/);
    assert.doesNotMatch(res.headers.warning ?? '', /[^\x20-\x7e]/);
  });
});

describe('viewers', () => {
  it('may read objects but not Secrets, as Kubernetes’ view role', async () => {
    const h = await apiHarness();
    const list = await h.call('GET', '/api/v1/namespaces/default/configmaps', { token: h.viewer.token });
    assert.equal(list.status, 200);
    const secrets = await h.call('GET', '/api/v1/namespaces/kube-system/secrets', { token: h.viewer.token });
    assert.equal(secrets.status, 403);
    assert.match(secrets.json.message, /viewers may not read secrets/);
  });
});
