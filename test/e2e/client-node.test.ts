/**
 * @kubernetes/client-node's KubernetesObjectApi, unchanged, against the local control plane and a
 * simulated member: read, list, create, server-side apply, delete — what the executor (which
 * applies Works to members) and any Node tool will do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KubeConfig, type KubernetesObject, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { defaultSimulation } from '../../lib/sim/config.ts';

let rt: LocalRuntime;

before(async () => {
  rt = await startLocalRuntime({ inMemory: true, apiPort: 0, logLevel: 'SILENT', simulation: defaultSimulation(1) });
});
after(() => rt.stop());

const cm = (data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'from-client-node', namespace: 'default' },
  data,
});

for (const target of ['control plane', 'simulated member']) {
  let client: KubernetesObjectApi;

  describe(`@kubernetes/client-node against the ${target}`, () => {
    before(() => {
      const kc = new KubeConfig();
      kc.loadFromFile(target === 'control plane' ? rt.kubeconfig : rt.members.get('member1')!.kubeconfig);
      client = KubernetesObjectApi.makeApiClient(kc);
    });

    it('creates, reads and lists', async () => {
      const created = await client.create<KubernetesObject>(cm({ a: '1' }));
      assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
      const read = await client.read({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'from-client-node', namespace: 'default' },
      });
      assert.deepEqual((read as { data?: unknown }).data, { a: '1' });
      const list = await client.list('v1', 'ConfigMap', 'default');
      assert.ok(list.items.some((i) => i.metadata?.name === 'from-client-node'));
    });

    it('server-side applies a change with a field manager', async () => {
      const applied = await client.patch<KubernetesObject>(
        cm({ a: '2', b: '3' }),
        undefined,
        undefined,
        'my-tool',
        true,
        PatchStrategy.ServerSideApply,
      );
      assert.deepEqual((applied as { data?: unknown }).data, { a: '2', b: '3' });
      assert.ok(applied.metadata?.managedFields?.some((m) => m.manager === 'my-tool' && m.operation === 'Apply'));
    });

    it('reports a Kubernetes error for a missing object', async () => {
      await assert.rejects(
        client.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'missing', namespace: 'default' } }),
        (err: { code?: number; body?: string }) => {
          const status = JSON.parse(String(err.body)) as { reason: string; message: string; details: { kind: string } };
          return (
            err.code === 404 &&
            status.reason === 'NotFound' &&
            status.message === 'configmaps "missing" not found' &&
            status.details.kind === 'configmaps'
          );
        },
      );
    });

    it('deletes', async () => {
      await client.delete({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'from-client-node', namespace: 'default' },
      });
      await assert.rejects(
        client.read({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'from-client-node', namespace: 'default' },
        }),
      );
    });
  });
}
