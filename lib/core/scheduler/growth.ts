/**
 * Requests raised on a kept placement (ours; Karmada has no ledger, #6783). A template edit that raises
 * the per-replica requests is no rescheduling trigger, in Karmada as here: the placement stands and the
 * members roll the larger pods out onto the same clusters. Until a member's summary shows them, its old,
 * smaller pods are what the estimate subtracts, so the growth would look free and be promised to another
 * binding (found by the deterministic simulation, seeds 494 and 1094). The scheduler reserves it in
 * its ledger as it does a placement's new replicas, and records on the binding the requests its replicas
 * are reserved at ({@link RESERVED_REQUEST_ANNOTATION}), so the growth is reserved once.
 * Pure.
 */
import { RESERVED_REQUEST_ANNOTATION } from '../../api/well-known.ts';
import type { ResourceBinding, TargetCluster } from '../model/types.ts';
import { compileRequest } from './estimate.ts';
import { canonical } from './reschedule.ts';
import type { ReservationDelta } from './snapshot.ts';

/**
 * The per-replica requests to record as reserved once `binding`'s replicas are (the annotation's
 * value): its `replicaRequirements.resourceRequest`. Undefined for a multi-template binding (component
 * sets are reserved whole, when placed).
 */
function reservedRequestOf(binding: ResourceBinding): string | undefined {
  if (binding.spec.components?.length) return undefined;
  return canonical(binding.spec.replicaRequirements?.resourceRequest ?? {});
}

/**
 * What the replicas `binding`'s current placement has and `kept` keeps (per cluster, the fewer of the
 * two) take beyond the requests they were reserved at: per resource, the growth of the per-replica
 * request times those replicas, never negative; no pods (the pods exist). Nothing when no request was
 * recorded (a binding placed before the record existed, or never placed) or for a multi-template binding.
 */
export function keptGrowth(
  binding: ResourceBinding,
  kept: readonly TargetCluster[] = binding.spec.clusters ?? [],
): ReservationDelta[] {
  const recorded = binding.metadata.annotations?.[RESERVED_REQUEST_ANNOTATION];
  if (recorded === undefined || binding.spec.components?.length) return [];
  let before: Record<string, string>;
  try {
    const parsed = JSON.parse(recorded) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
    before = parsed as Record<string, string>;
  } catch {
    return [];
  }
  const was = new Map(compileRequest(before).resources);
  const perReplica: [string, number][] = [];
  for (const [name, units] of compileRequest(binding.spec.replicaRequirements?.resourceRequest).resources) {
    const more = units - (was.get(name) ?? 0);
    if (more > 0) perReplica.push([name, more]);
  }
  if (perReplica.length === 0) return [];
  const out: ReservationDelta[] = [];
  for (const t of binding.spec.clusters ?? []) {
    const replicas = Math.min(t.replicas ?? 0, kept.find((k) => k.name === t.name)?.replicas ?? 0);
    if (replicas <= 0) continue;
    out.push({ cluster: t.name, pods: 0, units: new Map(perReplica.map(([name, n]) => [name, n * replicas])) });
  }
  return out;
}

/**
 * `binding` with its replicas recorded as reserved at its current requests: the same object when they
 * already are, or when it is placed nowhere or is a multi-template binding.
 */
export function recordReservedRequest(binding: ResourceBinding): ResourceBinding {
  const request = reservedRequestOf(binding);
  const annotations = binding.metadata.annotations;
  if (request === undefined || !binding.spec.clusters?.length || annotations?.[RESERVED_REQUEST_ANNOTATION] === request)
    return binding;
  return {
    ...binding,
    metadata: { ...binding.metadata, annotations: { ...annotations, [RESERVED_REQUEST_ANNOTATION]: request } },
  };
}

/** `a` and `b` added per cluster (in `a`'s order, then `b`'s new clusters). */
export function mergeDeltas(a: readonly ReservationDelta[], b: readonly ReservationDelta[]): ReservationDelta[] {
  if (b.length === 0) return [...a];
  const out = new Map<string, ReservationDelta>();
  for (const d of [...a, ...b]) {
    const m = out.get(d.cluster);
    if (!m) {
      out.set(d.cluster, { cluster: d.cluster, pods: d.pods, units: new Map(d.units) });
      continue;
    }
    m.pods += d.pods;
    for (const [name, n] of d.units) m.units.set(name, (m.units.get(name) ?? 0) + n);
  }
  return [...out.values()];
}
