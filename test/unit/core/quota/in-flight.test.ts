/**
 * Charges in flight (ours; Karmada's enforcement controller recounts from the bindings alone and can
 * undo a webhook charge whose binding update has not landed): the recount counts what a quota holds
 * for a binding until the binding shows it, a charge is decided from what the quota holds, and settled
 * records are dropped. Rows name the behaviour they pin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { QUOTA_CHARGES_IN_FLIGHT_ANNOTATION } from '../../../../lib/api/well-known.ts';
import type { ResourceList } from '../../../../lib/core/model/types.ts';
import {
  CHARGE_IN_FLIGHT_BOUND_MS,
  chargeInFlight,
  type ChargesInFlight,
  chargesInFlightOf,
  heldUsage,
  recountOverallUsed,
  settledChargesInFlight,
  withChargesInFlight,
} from '../../../../lib/core/quota/index.ts';

const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
const OVERALL = { cpu: '4', pods: '10' };
/** A charge made `agoMs` before NOW, leaving the quota holding `usage`. */
const charge = (usage: ResourceList, agoMs = 1_000) => chargeInFlight(usage, NOW - agoMs);

describe('recountOverallUsed', () => {
  const rows: {
    name: string;
    bindings: { name: string; charged: ResourceList }[];
    inFlight: ChargesInFlight;
    want: { overallUsed: ResourceList; inFlight: string[] };
  }[] = [
    {
      name: "no charge in flight: Karmada's recount, the sum of what each binding was charged",
      bindings: [
        { name: 'a', charged: { cpu: '1', pods: '1' } },
        { name: 'b', charged: { cpu: '2', pods: '2' } },
      ],
      inFlight: {},
      want: { overallUsed: { cpu: '3', pods: '3' }, inFlight: [] },
    },
    {
      name: 'the race: a charged, its binding not written yet — the charge counts, not the old record, and stays',
      bindings: [
        { name: 'a', charged: {} },
        { name: 'b', charged: { cpu: '2', pods: '2' } },
      ],
      inFlight: { a: charge({ cpu: '1', pods: '1' }) },
      want: { overallUsed: { cpu: '3', pods: '3' }, inFlight: ['a'] },
    },
    {
      name: 'a scale-up charged, binding still on the old record: the new usage counts',
      bindings: [{ name: 'a', charged: { cpu: '1', pods: '1' } }],
      inFlight: { a: charge({ cpu: '3', pods: '3' }) },
      want: { overallUsed: { cpu: '3', pods: '3' }, inFlight: ['a'] },
    },
    {
      name: 'the binding shows its charge: settled (dropped), the binding counts',
      bindings: [{ name: 'a', charged: { cpu: '1', pods: '1' } }],
      inFlight: { a: charge({ cpu: '1', pods: '1' }) },
      want: { overallUsed: { cpu: '1', pods: '1' }, inFlight: [] },
    },
    {
      name: 'the same amounts in other units (1000m = 1) settle it too',
      bindings: [{ name: 'a', charged: { cpu: '1000m', pods: '1' } }],
      inFlight: { a: charge({ cpu: '1', pods: '1' }) },
      want: { overallUsed: { cpu: '1', pods: '1' }, inFlight: [] },
    },
    {
      name: 'older than the bound: its binding write never came — dropped, the binding counts (a leaked charge healed)',
      bindings: [{ name: 'a', charged: {} }],
      inFlight: { a: charge({ cpu: '1', pods: '1' }, CHARGE_IN_FLIGHT_BOUND_MS + 1) },
      want: { overallUsed: { cpu: '0', pods: '0' }, inFlight: [] },
    },
    {
      name: 'a time that does not parse counts as past the bound',
      bindings: [{ name: 'a', charged: {} }],
      inFlight: { a: { usage: { cpu: '1' }, at: 'soon' } },
      want: { overallUsed: { cpu: '0', pods: '0' }, inFlight: [] },
    },
    {
      name: 'a deletion given back, its record not zeroed yet: counts nothing (not what the binding still shows), stays',
      bindings: [{ name: 'a', charged: { cpu: '1', pods: '1' } }],
      inFlight: { a: charge({}) },
      want: { overallUsed: { cpu: '0', pods: '0' }, inFlight: ['a'] },
    },
    {
      name: 'a charged binding the listing does not show yet: its charge counts and stays',
      bindings: [],
      inFlight: { a: charge({ cpu: '1', pods: '1' }) },
      want: { overallUsed: { cpu: '1', pods: '1' }, inFlight: ['a'] },
    },
    {
      name: 'a binding gone after giving its usage back: nothing to count, dropped',
      bindings: [],
      inFlight: { a: charge({}) },
      want: { overallUsed: { cpu: '0', pods: '0' }, inFlight: [] },
    },
    {
      name: 'a charge of a binding not listed, past the bound: dropped',
      bindings: [],
      inFlight: { a: charge({ cpu: '1' }, CHARGE_IN_FLIGHT_BOUND_MS + 1) },
      want: { overallUsed: { cpu: '0', pods: '0' }, inFlight: [] },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const got = recountOverallUsed({ overall: OVERALL, bindings: row.bindings, inFlight: row.inFlight, now: NOW });
      assert.deepEqual(got.overallUsed, row.want.overallUsed);
      assert.deepEqual(Object.keys(got.inFlight).sort(), row.want.inFlight);
      for (const name of row.want.inFlight) assert.deepEqual(got.inFlight[name], row.inFlight[name]);
    });
  }
});

describe('heldUsage', () => {
  const rows: { name: string; inFlight: ChargesInFlight; charged: ResourceList; want: ResourceList }[] = [
    {
      name: 'no charge in flight: what the binding shows',
      inFlight: {},
      charged: { cpu: '1' },
      want: { cpu: '1' },
    },
    {
      name: 'a charge in flight (a binding write lost or not landed yet): what the quota was charged, so a repeat charges nothing twice',
      inFlight: { web: charge({ cpu: '3' }) },
      charged: { cpu: '1' },
      want: { cpu: '3' },
    },
    {
      name: "another binding's charge does not count",
      inFlight: { other: charge({ cpu: '3' }) },
      charged: { cpu: '1' },
      want: { cpu: '1' },
    },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(heldUsage(row.inFlight, 'web', row.charged), row.want));
});

describe('settledChargesInFlight', () => {
  const inFlight: ChargesInFlight = {
    shown: charge({ cpu: '1' }),
    pending: charge({ cpu: '2' }),
    released: charge({}),
    vanished: charge({ cpu: '1' }),
    unread: charge({ cpu: '5' }, CHARGE_IN_FLIGHT_BOUND_MS + 1),
  };
  const shown = new Map<string, ResourceList | undefined>([
    ['shown', { cpu: '1000m' }],
    ['pending', { cpu: '1' }],
    ['released', undefined],
    ['vanished', undefined],
  ]);
  const rows: { name: string; binding: string; kept: boolean }[] = [
    { name: 'the binding shows the charge (1000m = 1): settled', binding: 'shown', kept: false },
    { name: 'the binding still shows its old record: kept', binding: 'pending', kept: true },
    { name: 'a gone binding whose usage was given back ({}): settled', binding: 'released', kept: false },
    {
      name: 'a gone binding holding usage: kept (the recount decides, after the bound)',
      binding: 'vanished',
      kept: true,
    },
    {
      name: 'a binding not read: kept, even past the bound (only the recount corrects)',
      binding: 'unread',
      kept: true,
    },
  ];
  const settled = settledChargesInFlight(inFlight, shown);
  for (const row of rows) it(row.name, () => assert.equal(row.binding in settled, row.kept));
});

describe('chargesInFlightOf and withChargesInFlight', () => {
  const frq = (annotations?: Record<string, string>): KubeObject => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { name: 'team', namespace: 'default', ...(annotations ? { annotations } : {}) },
  });

  it('a round trip through the annotation (canonical JSON), other annotations kept', () => {
    const charges = { web: chargeInFlight({ pods: '1', cpu: '1' }, NOW) };
    const written = withChargesInFlight(frq({ keep: 'me' }), charges);
    assert.equal(
      written.metadata.annotations?.[QUOTA_CHARGES_IN_FLIGHT_ANNOTATION],
      '{"web":{"at":"2026-11-21T10:00:00.000Z","usage":{"cpu":"1","pods":"1"}}}',
    );
    assert.equal(written.metadata.annotations?.['keep'], 'me');
    assert.deepEqual(chargesInFlightOf(written), charges);
  });

  it('none left: the annotation goes (and an emptied annotations map with it)', () => {
    const written = withChargesInFlight(frq({ [QUOTA_CHARGES_IN_FLIGHT_ANNOTATION]: '{}' }), {});
    assert.equal(written.metadata.annotations, undefined);
  });

  const rows: { name: string; text: string | undefined; want: string[] }[] = [
    { name: 'no annotation: none', text: undefined, want: [] },
    { name: 'not JSON: none (never a failure)', text: '{oops', want: [] },
    {
      name: 'entries without a time or with a non-string amount are ignored, the rest kept',
      text: JSON.stringify({
        ok: { usage: { cpu: '1' }, at: 'x' },
        noTime: { usage: { cpu: '1' } },
        badAmount: { usage: { cpu: 1 }, at: 'x' },
      }),
      want: ['ok'],
    },
  ];
  for (const row of rows)
    it(row.name, () => {
      const got = chargesInFlightOf(
        frq(row.text === undefined ? undefined : { [QUOTA_CHARGES_IN_FLIGHT_ANNOTATION]: row.text }),
      );
      assert.deepEqual(Object.keys(got), row.want);
    });
});
