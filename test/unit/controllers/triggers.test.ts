/**
 * Accepted writes enqueue their key on the priority queue of each controller whose spec triggers on
 * the kind — how the detector hears of templates and policies.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONTROLLER_SPECS } from '../../../lib/controllers/specs.ts';
import { apiHarness } from '../../support/api.ts';
import { deployment } from '../../support/factories.ts';

const policy = {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'web' },
  spec: {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    placement: { clusterAffinity: { clusterNames: ['member1'] } },
  },
};

describe('accepted writes enqueue the triggered controllers', () => {
  it('sends templates and policies to the detector’s priority queue, with why', async () => {
    const h = await apiHarness({ specs: CONTROLLER_SPECS });
    assert.equal(
      (await h.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment('web') })).status,
      201,
    );
    assert.equal(
      (
        await h.call('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies', {
          body: policy,
        })
      ).status,
      201,
    );
    assert.equal((await h.call('DELETE', '/apis/apps/v1/namespaces/default/deployments/web')).status, 200);
    assert.deepEqual(
      h.enqueued.map((e) => [e.controller, e.lane, e.key.replace(/@[0-9a-f-]{36}$/, '@<uid>'), e.reason]),
      [
        ['detector', 'priority', 'Deployment.apps/default/web', 'api-create'],
        ['detector', 'priority', 'PropagationPolicy.policy.karmada.io/default/web', 'api-create'],
        ['detector', 'priority', 'Deployment.apps/default/web', 'api-delete'],
        ['garbage-collector', 'priority', 'Deployment.apps/default/web@<uid>', 'api-delete'],
      ],
    );
  });

  it('does not for dry runs, status writes, bookkeeping kinds or Karmada’s own objects', async () => {
    const h = await apiHarness({ specs: CONTROLLER_SPECS });
    const dry = await h.call('POST', '/apis/apps/v1/namespaces/default/deployments?dryRun=All', {
      body: deployment('web'),
    });
    assert.equal(dry.status, 201);
    const created = await h.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment('web') });
    await h.call('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'karmada-es-member1' } },
    });
    h.enqueued.length = 0;
    const status = await h.call('PUT', '/apis/apps/v1/namespaces/default/deployments/web/status', {
      body: { ...created.json, status: { readyReplicas: 1 } },
    });
    assert.equal(status.status, 200, status.body);
    const event = await h.call('POST', '/api/v1/namespaces/default/events', {
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'e' },
        involvedObject: { kind: 'Deployment', name: 'web', namespace: 'default' },
        reason: 'Test',
      },
    });
    assert.equal(event.status, 201, event.body);
    const work = await h.call('POST', '/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-member1/works', {
      body: { apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work', metadata: { name: 'w' }, spec: {} },
    });
    assert.equal(work.status, 201, work.body);
    // A Work written through the API (a user, or a tool) is the executor's to apply.
    assert.deepEqual(
      h.enqueued.map((e) => e.controller),
      ['executor'],
    );
  });

  it('sends a WorkloadRebalancer write (not its status) to the workload-rebalancer', async () => {
    const h = await apiHarness({ specs: CONTROLLER_SPECS });
    const path = '/apis/apps.karmada.io/v1alpha1/workloadrebalancers';
    const body = {
      apiVersion: 'apps.karmada.io/v1alpha1',
      kind: 'WorkloadRebalancer',
      metadata: { name: 'move-back' },
      spec: { workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }] },
    };
    const created = await h.call('POST', path, { body });
    assert.equal(created.status, 201, created.body);
    const status = await h.call('PUT', `${path}/move-back/status`, {
      body: { ...created.json, status: { observedGeneration: 1 } },
    });
    assert.equal(status.status, 200, status.body);
    assert.deepEqual(
      h.enqueued.map((e) => [e.controller, e.lane, e.key, e.reason]),
      [['workload-rebalancer', 'priority', 'WorkloadRebalancer.apps.karmada.io/move-back', 'api-create']],
    );
  });
});
