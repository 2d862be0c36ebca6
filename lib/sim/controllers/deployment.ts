/**
 * Deployments and ReplicaSets: `replicas` pods of the current template. A template change replaces
 * every pod (a Recreate-style rollout, enough for a simulation); scale-down removes the least ready
 * pods first.
 */
import type { Obj } from './context.ts';
import { conditionTrue } from './context.ts';
import type { WorkloadKind } from './workload-kind.ts';

export const replicaSets: WorkloadKind = {
  component: 'replicaset-controller',

  async pods({ w, spec, hash, live, create, remove, suffix }) {
    const desired = Number(spec.replicas ?? 1);
    // A template change replaces every pod (a Recreate-style rollout, enough for a simulation).
    for (const p of live.filter((p) => p.metadata.labels?.['pod-template-hash'] !== hash)) await remove(p);
    const current = live.filter((p) => p.metadata.labels?.['pod-template-hash'] === hash);
    for (let i = current.length; i < desired; i++) await create(`${w.metadata.name}-${hash}-${suffix()}`);
    // Scale down removes the pods that are least ready first.
    const surplus = [...current]
      .sort((a, b) => Number(conditionTrue(a, 'Ready')) - Number(conditionTrue(b, 'Ready')))
      .slice(0, Math.max(0, current.length - desired));
    for (const p of surplus) await remove(p);
  },

  status({ w, spec, hash, live, ready, condition }) {
    const gen = w.metadata.generation;
    const desired = Number(spec.replicas ?? 1);
    const updated = live.filter((p) => p.metadata.labels?.['pod-template-hash'] === hash).length;
    const maxUnavailable = Math.floor(desired * 0.25);
    const status: Obj = {
      observedGeneration: gen,
      replicas: live.length,
      ...(updated ? { updatedReplicas: updated } : {}),
      ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
      ...(desired - ready > 0 ? { unavailableReplicas: desired - ready } : {}),
    };
    if (w.kind === 'Deployment') {
      const available = ready >= desired - maxUnavailable;
      status.conditions = [
        condition(
          'Available',
          available,
          available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
          available ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
        ),
        condition(
          'Progressing',
          true,
          updated === desired && ready === desired ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
          `ReplicaSet "${w.metadata.name}-${hash}" ${updated === desired && ready === desired ? 'has successfully progressed.' : 'is progressing.'}`,
        ),
      ];
    } else {
      status.fullyLabeledReplicas = live.length;
    }
    return status;
  },
};
