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
  it('warns that a Foreground delete cannot wait on dependents (no garbage collector yet)', async () => {
    const h = await apiHarness();
    await h.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment('nginx') });
    const res = await h.call('DELETE', '/apis/apps/v1/namespaces/default/deployments/nginx', {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' },
    });
    assert.equal(res.status, 200, res.body);
    assert.match(
      res.headers.warning ?? '',
      /^299 - "foreground deletion is not supported yet: there is no garbage collector/,
    );
    const background = await h.call('DELETE', '/api/v1/namespaces/default/configmaps/none');
    assert.equal(background.headers.warning, undefined);
  });
});
