/**
 * The peers a binding's workload affinity filters look at (Karmada ≥ 1.17 `obeyAffinityGroup` /
 * `obeyAntiAffinityGroup` over the scheduler's affinity-group index): the other bindings of its
 * namespace in the same affinity or anti-affinity group, with where they are placed. Affinity peers not
 * placed yet do not count (the first workload of a group is free to go anywhere).
 */
import type { ResourceBinding } from '../model/types.ts';
import type { WorkloadPeer, WorkloadPeers } from './framework/interface.ts';

/**
 * `others`: bindings of the namespace as last known (the scheduler puts the results it has just decided
 * in this batch over the stored ones, as Karmada prefers its assigning bindings when newer).
 */
export function workloadPeersOf(
  binding: ResourceBinding,
  others: Iterable<ResourceBinding>,
): WorkloadPeers | undefined {
  const groups = binding.spec.workloadAffinityGroups;
  if (!groups?.affinityGroup && !groups?.antiAffinityGroup) return undefined;
  const affinity: WorkloadPeer[] = [];
  const antiAffinity: WorkloadPeer[] = [];
  for (const other of others) {
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
