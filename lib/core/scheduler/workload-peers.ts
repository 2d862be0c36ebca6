/**
 * The peers a binding's workload affinity filters look at (Karmada ≥ 1.17 `obeyAffinityGroup` /
 * `obeyAntiAffinityGroup` over the scheduler's affinity-group index): the other bindings of its
 * namespace in the same affinity or anti-affinity group, with where they are placed. Affinity peers not
 * placed yet do not count (the first workload of a group is free to go anywhere).
 */
import type { ResourceBinding } from '../model/types.ts';
import type { WorkloadPeer, WorkloadPeers } from './framework/interface.ts';

/**
 * `stored`: the bindings of the namespace as read; `assigning`: results the scheduler decided a moment
 * ago, by `namespace/name`, which count in place of the stored ones (Karmada prefers its assigning
 * bindings when newer).
 */
export function workloadPeersOf(
  binding: ResourceBinding,
  stored: Iterable<ResourceBinding>,
  assigning: ReadonlyMap<string, ResourceBinding> = new Map(),
): WorkloadPeers | undefined {
  const groups = binding.spec.workloadAffinityGroups;
  if (!groups?.affinityGroup && !groups?.antiAffinityGroup) return undefined;
  const others = new Map<string, ResourceBinding>();
  for (const b of stored) others.set(`${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`, b);
  for (const [key, b] of assigning) others.set(key, b);
  const affinity: WorkloadPeer[] = [];
  const antiAffinity: WorkloadPeer[] = [];
  for (const other of others.values()) {
    if (other.metadata.name === binding.metadata.name) continue;
    if ((other.metadata.namespace ?? '') !== (binding.metadata.namespace ?? '')) continue;
    const theirs = other.spec.workloadAffinityGroups;
    const clusters = (other.spec.clusters ?? []).map((c) => c.name);
    const peer = { name: other.metadata.name ?? '', clusters };
    if (groups.affinityGroup && theirs?.affinityGroup === groups.affinityGroup && clusters.length > 0)
      affinity.push(peer);
    if (groups.antiAffinityGroup && theirs?.antiAffinityGroup === groups.antiAffinityGroup) antiAffinity.push(peer);
  }
  return { affinity, antiAffinity };
}
