/**
 * Charges in flight (ours; Karmada has no such record). A placement's usage is charged to the quota
 * (`status.overallUsed`) before the binding is written with it, and a deleted binding gives its usage
 * back before its record is zeroed. Between the two writes, a recount from the namespace's bindings
 * would see the binding's old record and undo the charge — letting later placements past the limit
 * until the next recount. So each charge also records, in the same conditional write of the quota,
 * which binding it was for and what the quota now holds for it; the recount counts that instead of
 * what the binding shows until the binding shows it, and a record whose binding write never came
 * expires after a bound longer than any charge-to-write interval.
 */
import type { KubeObject } from '../../api/object.ts';
import { QUOTA_CHARGES_IN_FLIGHT_ANNOTATION } from '../../api/well-known.ts';
import type { ResourceList } from '../model/types.ts';
import { canonical } from '../scheduler/reschedule.ts';
import { nonZeroResources, subtractResourceLists } from './resource-list.ts';
import { overallUsedFromUsages } from './status.ts';

/** One charge in flight: the usage the quota holds for a binding, and when it was charged (RFC 3339). */
export interface ChargeInFlight {
  usage: ResourceList;
  at: string;
}

/** A quota's charges in flight, by binding name (the quota's namespace is the bindings'). */
export type ChargesInFlight = Readonly<Record<string, ChargeInFlight>>;

/**
 * How long a charge stays in flight at most: longer than a scheduler or binder invocation can run
 * (their function timeout is 2 minutes), so a record older than this belongs to a write that will
 * never come.
 */
export const CHARGE_IN_FLIGHT_BOUND_MS = 5 * 60_000;

/** The charges in flight recorded on a FederatedResourceQuota (mangled entries are ignored). */
export function chargesInFlightOf(frq: KubeObject): ChargesInFlight {
  const text = frq.metadata.annotations?.[QUOTA_CHARGES_IN_FLIGHT_ANNOTATION];
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const out: Record<string, ChargeInFlight> = {};
  for (const [name, entry] of Object.entries(parsed as Record<string, unknown>)) {
    const { usage, at } = (entry ?? {}) as { usage?: unknown; at?: unknown };
    if (typeof at !== 'string' || !usage || typeof usage !== 'object' || Array.isArray(usage)) continue;
    const list = Object.entries(usage as Record<string, unknown>);
    if (list.some(([, v]) => typeof v !== 'string')) continue;
    out[name] = { usage: Object.fromEntries(list) as ResourceList, at };
  }
  return out;
}

/** The quota with `charges` recorded (the annotation removed when there are none). */
export function withChargesInFlight(frq: KubeObject, charges: ChargesInFlight): KubeObject {
  const { [QUOTA_CHARGES_IN_FLIGHT_ANNOTATION]: _old, ...others } = frq.metadata.annotations ?? {};
  const annotations = Object.keys(charges).length
    ? { ...others, [QUOTA_CHARGES_IN_FLIGHT_ANNOTATION]: canonical(charges) }
    : others;
  const { annotations: _drop, ...metadata } = frq.metadata;
  return { ...frq, metadata: Object.keys(annotations).length ? { ...metadata, annotations } : metadata };
}

/** The record of a charge made at `now` (ms since the epoch) leaving the quota holding `usage`. */
export function chargeInFlight(usage: ResourceList, now: number): ChargeInFlight {
  return { usage, at: new Date(now).toISOString() };
}

/**
 * What the quota holds for `binding`: its charge in flight if there is one, else what the binding
 * shows (`charged`, its `chargedUsageOf`). A charge is decided from this, so a charge repeated after a
 * lost binding write is not charged twice.
 */
export function heldUsage(charges: ChargesInFlight, binding: string, charged: ResourceList): ResourceList {
  return charges[binding]?.usage ?? charged;
}

/** The same amounts per resource (`1000m` = `1`; a missing entry = zero). */
function sameUsage(a: ResourceList, b: ResourceList): boolean {
  return Object.keys(nonZeroResources(subtractResourceLists(a, b))).length === 0;
}

function expired(charge: ChargeInFlight, now: number, boundMs: number): boolean {
  const at = Date.parse(charge.at);
  return !Number.isFinite(at) || now - at > boundMs;
}

/** What {@link recountOverallUsed} recounts from. */
export interface QuotaRecount {
  /** The quota's `spec.overall`. */
  overall: ResourceList;
  /** Every ResourceBinding of the namespace as listed: its name and what it shows it was charged. */
  bindings: readonly { name: string; charged: ResourceList }[];
  /** The quota's charges in flight, as read before the bindings were listed. */
  inFlight: ChargesInFlight;
  /** ms since the epoch. */
  now: number;
  /** Default {@link CHARGE_IN_FLIGHT_BOUND_MS}. */
  boundMs?: number;
}

/**
 * `status.overallUsed` recounted from the namespace's bindings (Karmada's enforcement controller, see
 * {@link overallUsedFromUsages}), with the charges in flight: a binding that does not show the usage
 * its charge recorded yet counts the recorded usage, and so does a recorded binding the listing does
 * not show yet; a charge the binding shows, or older than the bound (its write never came), is
 * settled — dropped, the binding counting what it shows. Returns the recount and the charges still in
 * flight, to be written together in one conditional write of the quota as it was read.
 */
export function recountOverallUsed(recount: QuotaRecount): { overallUsed: ResourceList; inFlight: ChargesInFlight } {
  const boundMs = recount.boundMs ?? CHARGE_IN_FLIGHT_BOUND_MS;
  const live = (c: ChargeInFlight | undefined): c is ChargeInFlight =>
    c !== undefined && !expired(c, recount.now, boundMs);
  const usages: ResourceList[] = [];
  const inFlight: Record<string, ChargeInFlight> = {};
  const listed = new Set<string>();
  for (const { name, charged } of recount.bindings) {
    listed.add(name);
    const charge = recount.inFlight[name];
    if (live(charge) && !sameUsage(charge.usage, charged)) {
      usages.push(charge.usage);
      inFlight[name] = charge;
    } else usages.push(charged);
  }
  for (const [name, charge] of Object.entries(recount.inFlight)) {
    if (listed.has(name) || !live(charge) || Object.keys(nonZeroResources(charge.usage)).length === 0) continue;
    usages.push(charge.usage);
    inFlight[name] = charge;
  }
  return { overallUsed: overallUsedFromUsages(usages, recount.overall), inFlight };
}

/**
 * The charges in flight without those settled by what their bindings show now (`shown`: binding name →
 * its `chargedUsageOf`, or undefined when it is gone): a binding showing its charge's usage settles
 * it, and so does a gone binding whose charge holds nothing (a deletion given back). Bindings not in
 * `shown` keep their charge; an unsettled one is left to the recount, even when old (dropping it here
 * would change what the quota holds for its binding without the recount's correction).
 */
export function settledChargesInFlight(
  charges: ChargesInFlight,
  shown: ReadonlyMap<string, ResourceList | undefined>,
): ChargesInFlight {
  const out: Record<string, ChargeInFlight> = {};
  for (const [name, charge] of Object.entries(charges)) {
    if (shown.has(name)) {
      const now = shown.get(name);
      if (now === undefined ? Object.keys(nonZeroResources(charge.usage)).length === 0 : sameUsage(charge.usage, now))
        continue;
    }
    out[name] = charge;
  }
  return out;
}
