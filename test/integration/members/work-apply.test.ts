/**
 * A Work's manifests on a member that runs the Kubernetes API's own apply and ownership rules (the
 * simulated member): a new object is one POST; its first update folds the creation's ownership into
 * the apply's, so a field the Work drops is pruned; later updates are one apply; an object nobody gave
 * to Karmada is refused under Abort.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { manifestStatusOf } from '../../../lib/core/status/index.ts';
import { MemberClient } from '../../../lib/members/client.ts';
import { applyWork } from '../../../lib/members/work-apply.ts';
import { inProcessMember } from '../../support/sim-member.ts';

async function member() {
  const m = await inProcessMember();
  const requests: string[] = [];
  const inner = m.client({ server: 'https://m1.invalid', token: 'member-token' }, () => Date.now());
  const client = new MemberClient(
    { server: 'https://m1.invalid', token: 'member-token' },
    {
      now: () => Date.now(),
      transport: async (method, path, options) => {
        if (
          !path.startsWith('/api?') &&
          path !== '/api' &&
          path !== '/apis' &&
          !/^\/apis?\/[^/]+(\/[^/]+)?$/.test(path)
        )
          requests.push(`${method} ${path.split('?')[0]}`);
        return inner.raw(method, path, options);
      },
    },
  );
  return { m, client, requests };
}

function configMapWork(data: Record<string, string>, manifestStatuses?: unknown[]): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: { name: 'settings-x', namespace: 'karmada-es-m1' },
    spec: {
      workload: {
        manifests: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'settings', namespace: 'default', labels: { 'karmada.io/managed': 'true' } },
            data,
          },
        ],
      },
    },
    ...(manifestStatuses ? { status: { manifestStatuses } } : {}),
  } as KubeObject;
}

const CM = { group: '', kind: 'ConfigMap', namespace: 'default', name: 'settings' };

describe('applyWork on a member with the API server’s apply rules', () => {
  it('creates with one request, prunes a dropped field after its first update, then applies with one', async () => {
    const { m, client, requests } = await member();
    const first = await applyWork(client, configMapWork({ a: '1', b: '2' }), 'm1');
    assert.equal(first.failure, undefined);
    assert.deepEqual(requests, ['POST /api/v1/namespaces/default/configmaps']);

    const reported = [manifestStatusOf(0, (await m.store.get(CM))!)];
    requests.length = 0;
    const second = await applyWork(client, configMapWork({ a: '1' }, reported), 'm1');
    assert.equal(second.failure, undefined);
    assert.deepEqual(((await m.store.get(CM)) as KubeObject & { data: unknown }).data, { a: '1' }, 'b pruned');
    assert.equal(requests.length, 3, `apply, fold the creation's ownership, apply: ${requests.join(', ')}`);
    const owners = ((await m.store.get(CM))!.metadata.managedFields as { manager: string; operation: string }[]).map(
      (e) => `${e.manager}/${e.operation}`,
    );
    assert.deepEqual(owners, ['execution-controller/Apply']);

    requests.length = 0;
    await applyWork(client, configMapWork({ a: '3' }, reported), 'm1');
    assert.deepEqual(requests, ['PATCH /api/v1/namespaces/default/configmaps/settings']);
    assert.deepEqual(((await m.store.get(CM)) as KubeObject & { data: unknown }).data, { a: '3' });
  });

  it('refuses an object Karmada does not manage under Abort, leaving it untouched', async () => {
    const { m, client, requests } = await member();
    await m.store.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'default' },
      data: { a: 'mine' },
    } as KubeObject);
    const result = await applyWork(client, configMapWork({ a: '1' }), 'm1');
    assert.match(result.failure ?? '', /already exists in the cluster m1/);
    assert.deepEqual(requests, [
      'POST /api/v1/namespaces/default/configmaps',
      'GET /api/v1/namespaces/default/configmaps/settings',
    ]);
    assert.deepEqual(((await m.store.get(CM)) as KubeObject & { data: unknown }).data, { a: 'mine' });
  });
});
