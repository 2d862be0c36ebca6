/**
 * Which kinds expire: Events, as kube-apiserver keeps them for `--event-ttl` after their last
 * update. Everything else a user stores is kept until deleted.
 */
import type { GroupKind } from '../api/object.ts';

/** The per-kind TTL function a RowObjectStore takes: `seconds` for Events, none for the rest. */
export function eventTtl(seconds: number): (gk: GroupKind) => number | undefined {
  return (gk) => (gk.kind === 'Event' && (gk.group === '' || gk.group === 'events.k8s.io') ? seconds : undefined);
}
