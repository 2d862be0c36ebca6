import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/index.ts';
import { DEFAULT_CLUSTER_TIMINGS } from '../../../lib/config/runtime.ts';
import { createClusterStatusController } from '../../../lib/controllers/cluster-status.ts';
import { LocalKeyCipher } from '../../../lib/crypto/local-key.ts';
import { sealCredentialSecret } from '../../../lib/members/credentials.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';

const logger = createLogger({ format: 'json', level: 'SILENT', service: 't', write: () => {} });

describe('cluster-status controller', () => {
  it('reports an unusable endpoint as StatusCollectionFailed instead of failing the message', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 21));
    const store = new RowObjectStore(new MemoryRowStore(), { clock });
    const cipher = new LocalKeyCipher(randomBytes(32));
    await store.create(
      await sealCredentialSecret(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'plain', namespace: 'karmada-cluster' },
          data: { token: Buffer.from('t0ken').toString('base64') },
        },
        undefined,
        cipher,
      ),
    );
    await store.create({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'plain' },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'http://10.0.0.1:6443',
        secretRef: { namespace: 'karmada-cluster', name: 'plain' },
      },
    });
    const controller = createClusterStatusController({
      store,
      workQueue: { enqueue: async () => {} },
      cipher,
      timings: DEFAULT_CLUSTER_TIMINGS,
    });
    await controller.reconcile(
      { key: 'Cluster.cluster.karmada.io/plain', lane: 'priority', reasons: [] },
      { logger, reconcileId: 'r', now: clock.now() },
    );
    const cluster = await store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'plain' });
    const ready = (
      cluster?.status as { conditions: { type: string; status: string; reason: string; message: string }[] }
    ).conditions[0]!;
    assert.equal(ready.status, 'False');
    assert.equal(ready.reason, 'StatusCollectionFailed');
    assert.match(ready.message, /must be https/);
    assert.doesNotMatch(JSON.stringify(cluster), /t0ken/);
    assert.deepEqual(
      (cluster?.spec as { taints: { key: string }[] }).taints.map((t) => t.key),
      ['cluster.karmada.io/not-ready'],
    );
  });
});
