/**
 * The cost of a rollout in store reads: a binding placed on N clusters goes through the binder and the
 * executor (members faked) until nothing is left to do. Each Work's report is aggregated from that Work
 * alone (Karmada's binding status controller), so the reads grow with N, not with N² as they did when
 * every report rendered all of the binding's Works again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { createBinderController } from '../../../lib/controllers/binder.ts';
import { createExecutorController } from '../../../lib/controllers/executor.ts';
import { BINDER_CONTROLLER_NAME, EXECUTOR_CONTROLLER_NAME } from '../../../lib/controllers/specs.ts';
import type { CredentialCipher } from '../../../lib/crypto/cipher.ts';
import type { MemberClient } from '../../../lib/members/client.ts';
import type { EnqueueItem } from '../../../lib/queue/port.ts';
import type { Controller } from '../../../lib/reconcile/controller.ts';
import { world } from './placement-harness.ts';

/** A member that creates and applies whatever it is sent. */
function member(): MemberClient {
  const objects = new Map<string, KubeObject>();
  const key = (m: KubeObject) => `${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`;
  const put = async (m: KubeObject) => {
    const stored = { ...structuredClone(m), status: {} } as KubeObject;
    objects.set(key(m), stored);
    return stored;
  };
  return { create: put, apply: put, getObject: async () => undefined } as unknown as MemberClient;
}

async function rollout(
  clusters: number,
  /** Messages per batch of the binder (SQS hands a function up to ten; two pollers split a lane's). */
  binderBatch = 10,
): Promise<{ reads: number; bindingWrites: number; fullyApplied: boolean; items: number }> {
  const w = world();
  const names = Array.from({ length: clusters }, (_, i) => `m${i + 1}`);
  for (const name of names)
    await w.seed({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: { syncMode: 'Push' },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'ok' }] },
    });
  const template = await w.store.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'default' },
    data: { mode: 'edge' },
  } as KubeObject);
  const binding = await w.store.create({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'settings-configmap', namespace: 'default' },
    spec: {
      resource: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'default',
        name: 'settings',
        uid: template.metadata.uid,
      },
      clusters: names.map((name) => ({ name })),
    },
  } as KubeObject);

  let reads = 0;
  let bindingWrites = 0;
  const counted = {
    ...w.store,
    updateStatus: (o: KubeObject, options?: Parameters<typeof w.store.updateStatus>[1]) => {
      if (o.kind === 'ResourceBinding') bindingWrites++;
      return w.store.updateStatus(o, options);
    },
    get: (ref: Parameters<typeof w.store.get>[0]) => (reads++, w.store.get(ref)),
    list: async (q: Parameters<typeof w.store.list>[0]) => {
      const page = await w.store.list(q);
      reads += page.items.length;
      return page;
    },
  };
  const members = new Map(names.map((n) => [n, member()]));
  const controllers: Record<string, Controller> = {
    [BINDER_CONTROLLER_NAME]: createBinderController({ store: counted, workQueue: w.queue, events: w.events }),
    [EXECUTOR_CONTROLLER_NAME]: createExecutorController({
      store: counted,
      workQueue: w.queue,
      cipher: {} as CredentialCipher,
      events: w.events,
      memberFor: async (c) => members.get(c.metadata.name!)!,
    }),
  };
  w.queue.items.push({
    controller: BINDER_CONTROLLER_NAME,
    lane: 'priority',
    key: `ResourceBinding.work.karmada.io/default/settings-configmap`,
  });
  // Batches of ten messages per controller, as SQS hands them to a function, until the queues are empty.
  for (let round = 0; w.queue.items.length > 0 && round < 10_000; round++) {
    const next = w.queue.items.shift()!;
    const size = next.controller === BINDER_CONTROLLER_NAME ? binderBatch : 10;
    const same = [next, ...w.queue.items.filter((i) => i.controller === next.controller).slice(0, size - 1)];
    for (const i of same.slice(1)) w.queue.items.splice(w.queue.items.indexOf(i), 1);
    const controller = controllers[next.controller];
    if (!controller) continue;
    const keys = [...new Set(same.map((i: EnqueueItem) => i.key))];
    const batch = await controller.openBatch?.({ logger: w.context().logger, now: w.clock.now(), keys });
    await Promise.all(
      keys.map((key) => controller.reconcile({ key, lane: 'priority', reasons: [] }, w.context(batch))),
    );
    await batch?.close?.();
  }
  const stored = (await w.store.get({
    group: 'work.karmada.io',
    kind: 'ResourceBinding',
    namespace: 'default',
    name: binding.metadata.name!,
  }))!;
  const status = stored.status as { aggregatedStatus?: unknown[]; conditions?: { type: string; status: string }[] };
  return {
    reads,
    bindingWrites,
    fullyApplied: (status.conditions ?? []).some((c) => c.type === 'FullyApplied' && c.status === 'True'),
    items: status.aggregatedStatus?.length ?? 0,
  };
}

describe('a rollout’s store reads grow with the clusters, not their square', () => {
  it('N = 10 and N = 50: every cluster reported, FullyApplied, reads about ×5 (not ×25), a binding write per batch not per report', async () => {
    const small = await rollout(10);
    const large = await rollout(50);
    assert.equal(small.items, 10);
    assert.equal(large.items, 50);
    assert.ok(small.fullyApplied && large.fullyApplied);
    const ratio = large.reads / small.reads;
    assert.ok(ratio < 7, `reads ${small.reads} → ${large.reads} (×${ratio.toFixed(1)}): linear is ×5, quadratic ×25`);
    assert.ok(large.reads <= 50 * 8, `${large.reads} reads for 50 clusters: at most 8 per cluster`);
    // Reports of one binding arriving in one batch of ten are folded into at most two aggregations (the
    // first report's, and the one of the reports that arrived while it was written): not one write each.
    for (const [n, run] of [
      [10, small],
      [50, large],
    ] as const)
      assert.ok(
        run.bindingWrites <= 2 * Math.ceil(n / 10) + 1,
        `${run.bindingWrites} binding status writes for ${n} reports in batches of ten`,
      );
  });

  it('reports of a first rollout split over many small batches: the first complete fold writes every item, the rest write nothing', async () => {
    const whole = await rollout(10);
    const split = await rollout(10, 2);
    assert.equal(split.items, 10);
    assert.ok(split.fullyApplied);
    // The binder's own pass writes the binding (Works created, none applied), then one aggregation
    // reads the Works that reported in other batches and writes all ten: not one write per batch of two.
    assert.equal(split.bindingWrites, 2, `${split.bindingWrites} binding status writes for 10 reports in batches of 2`);
    // More reads: the Works read to complete the fold (at most ten), and the binding and template that
    // each of the four more batches reads once.
    assert.ok(
      split.reads <= whole.reads + 10 + 2 * 4,
      `reads ${whole.reads} → ${split.reads}: at most the fill's ten and two per extra batch more`,
    );
  });
});
