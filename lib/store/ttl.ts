/**
 * Which kinds expire: Events, as kube-apiserver keeps them for `--event-ttl` after their last
 * update, and the webhook nonces kept for replay protection. Everything else a user stores is kept
 * until deleted.
 */
import type { GroupKind } from '../api/object.ts';

/** Webhook nonces outlive the accepted clock skew (5 minutes) either way. */
const NONCE_TTL_SECONDS = 600;

/** The per-kind TTL function a RowObjectStore takes: `seconds` for Events, 10 min for nonces. */
export function eventTtl(seconds: number): (gk: GroupKind) => number | undefined {
  return (gk) => {
    if (gk.kind === 'Event' && (gk.group === '' || gk.group === 'events.k8s.io')) return seconds;
    if (gk.kind === 'WebhookNonce' && gk.group === 'auth.serverless-karmada.io') return NONCE_TTL_SECONDS;
    return undefined;
  };
}
