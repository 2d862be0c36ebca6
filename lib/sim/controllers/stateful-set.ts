/**
 * StatefulSets: pods `<name>-<ordinal>`, created in order (each waits for the previous one to be
 * Ready) unless `podManagementPolicy: Parallel`; pods past `replicas` or of an old template go.
 */
import { conditionTrue } from './context.ts';
import type { WorkloadKind } from './workload-kind.ts';

export const statefulSets: WorkloadKind = {
  component: 'statefulset-controller',

  async pods({ w, spec, hash, live, create, remove }) {
    const desired = Number(spec.replicas ?? 1);
    const parallel = spec.podManagementPolicy === 'Parallel';
    const byOrdinal = new Map(live.map((p) => [Number(p.metadata.name!.slice(w.metadata.name!.length + 1)), p]));
    for (const [ordinal, pod] of byOrdinal)
      if (ordinal >= desired || pod.metadata.labels?.['controller-revision-hash'] !== hash) await remove(pod);
    for (let i = 0; i < desired; i++) {
      const existing = byOrdinal.get(i);
      if (existing && existing.metadata.labels?.['controller-revision-hash'] === hash) {
        if (!parallel && !conditionTrue(existing, 'Ready')) break;
        continue;
      }
      await create(`${w.metadata.name}-${i}`, {
        labels: { 'statefulset.kubernetes.io/pod-name': `${w.metadata.name}-${i}` },
      });
      if (!parallel) break;
    }
  },

  status({ w, hash, live, ready }) {
    const updated = live.filter((p) => p.metadata.labels?.['controller-revision-hash'] === hash).length;
    return {
      observedGeneration: w.metadata.generation,
      replicas: live.length,
      ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
      currentReplicas: updated,
      updatedReplicas: updated,
      currentRevision: `${w.metadata.name}-${hash}`,
      updateRevision: `${w.metadata.name}-${hash}`,
      collisionCount: 0,
    };
  },
};
