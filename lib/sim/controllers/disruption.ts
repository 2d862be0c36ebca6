/**
 * PodDisruptionBudgets get a status, as kube-controller-manager's disruption controller computes it
 * (`pkg/controller/disruption`), simplified: the expected pods are the pods the selector matches (kube
 * asks their scalable controllers), healthy ones are Ready and not terminating; `minAvailable` and
 * `maxUnavailable` (integers or percentages, rounded up) give `desiredHealthy`.
 */
import { type Condition, rfc3339, setCondition } from '../../api/conditions.ts';
import type { KubeObject } from '../../api/object.ts';
import { matchesRequirements } from '../../api/labels.ts';
import { compileLabelSelector } from '../../core/placement/affinity.ts';
import { deepEqual } from '../../util/json.ts';
import type { Obj, SimContext } from './context.ts';

const PDB = { group: 'policy', kind: 'PodDisruptionBudget' } as const;

/** kube `GetScaledValueFromIntOrPercent(value, total, roundUp=true)`; undefined for a malformed value. */
function scaled(value: unknown, total: number): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const m = /^(\d+)%$/.exec(value);
    if (m) return Math.ceil((Number(m[1]) * total) / 100);
    if (/^\d+$/.test(value)) return Number(value);
  }
  return undefined;
}

const isReady = (pod: KubeObject) =>
  !pod.metadata.deletionTimestamp &&
  ((pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );

/**
 * The status the disruption controller would write for `pdb` over `pods` (all pods of the cluster); the
 * `DisruptionAllowed` condition keeps its transition time while its status stands.
 */
export function disruptionStatus(pdb: KubeObject, pods: readonly KubeObject[], now: string): Obj {
  const spec = (pdb.spec ?? {}) as { selector?: unknown; minAvailable?: unknown; maxUnavailable?: unknown };
  const requirements = spec.selector ? compileLabelSelector(spec.selector as never) : [];
  const matched =
    requirements === null
      ? []
      : pods.filter(
          (p) =>
            p.metadata.namespace === pdb.metadata.namespace &&
            !p.metadata.deletionTimestamp &&
            matchesRequirements(requirements, p.metadata.labels ?? {}),
        );
  const expectedPods = matched.length;
  const currentHealthy = matched.filter(isReady).length;
  let desiredHealthy = 0;
  if (spec.maxUnavailable !== undefined) {
    desiredHealthy = Math.max(0, expectedPods - (scaled(spec.maxUnavailable, expectedPods) ?? expectedPods));
  } else if (spec.minAvailable !== undefined) {
    desiredHealthy = scaled(spec.minAvailable, expectedPods) ?? expectedPods;
  }
  const disruptionsAllowed = Math.max(0, currentHealthy - desiredHealthy);
  const previous = (pdb.status as { conditions?: Condition[] } | undefined)?.conditions;
  return {
    observedGeneration: pdb.metadata.generation,
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods,
    conditions: setCondition(
      previous,
      disruptionsAllowed > 0
        ? { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '' }
        : { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '' },
      now,
    ),
  };
}

/** Writes every PodDisruptionBudget's status when it changed. */
export async function reportDisruptionBudgets(
  ctx: SimContext,
  pods: readonly KubeObject[],
  now: number,
): Promise<void> {
  for (const pdb of await ctx.all(PDB)) {
    if (pdb.metadata.deletionTimestamp) continue;
    const next = disruptionStatus(pdb, pods, rfc3339(now));
    if (deepEqual(pdb.status ?? {}, next)) continue;
    await ctx.status(pdb, next, true);
  }
}
