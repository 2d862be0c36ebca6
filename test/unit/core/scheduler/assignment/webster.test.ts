import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fnv32a,
  nameOrderForSeed,
  websterAllocate,
  type WebsterParty,
} from '../../../../../lib/core/scheduler/assignment/webster.ts';

/** Karmada `pkg/util/helper/binding_test.go` constants. */
const EVEN_UID = '4858ca61-3ff8-4095-8267-f3d059d8074c';
const ODD_UID = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';

const seats = (parties: { name: string; seats: number }[]) => Object.fromEntries(parties.map((p) => [p.name, p.seats]));
const votes = (v: Record<string, number>, initial: Record<string, number> = {}): WebsterParty[] => {
  const out: WebsterParty[] = Object.entries(initial).map(([name, s]) => ({ name, weight: 0, seats: s }));
  for (const [name, weight] of Object.entries(v)) {
    const prior = out.findIndex((p) => p.name === name);
    if (prior >= 0) out[prior] = { name, weight, seats: out[prior]!.seats ?? 0 };
    else out.push({ name, weight });
  }
  return out;
};

describe('fnv32a (Go hash/fnv New32a, seeds the Webster tie-break)', () => {
  const vectors: [string, number][] = [
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ];
  for (const [text, hash] of vectors) {
    it(`FNV-1a 32 of ${JSON.stringify(text)} is 0x${hash.toString(16)}`, () => assert.equal(fnv32a(text), hash));
  }
  it('hashes UTF-8 bytes, not UTF-16 code units', () => {
    assert.equal(fnv32a('é'), fnv32a('\u00e9'));
    assert.notEqual(fnv32a('é'), fnv32a('e'));
  });
});

describe('nameOrderForSeed (Karmada tieBreakerByUID)', () => {
  const rows: [string, string, 'asc' | 'desc'][] = [
    ['an empty UID sorts names ascending', '', 'asc'],
    ['a UID with an even FNV-32a sorts names ascending (binding_test.go evenUID)', EVEN_UID, 'asc'],
    ['a UID with an odd FNV-32a sorts names descending (binding_test.go oddUID)', ODD_UID, 'desc'],
  ];
  for (const [name, uid, order] of rows) it(name, () => assert.equal(nameOrderForSeed(uid), order));
});

describe('websterAllocate (Karmada ≥ 1.16 AllocateWebsterSeats)', () => {
  const classic = { PartyA: 100000, PartyB: 80000, PartyC: 30000, PartyD: 20000 };
  const rows: {
    name: string;
    newSeats: number;
    parties: WebsterParty[];
    seed?: string;
    want: Record<string, number>;
  }[] = [
    {
      name: 'ExampleAllocateWebsterSeats: 4 seats over 1200:900:400 go 2:1:1',
      newSeats: 4,
      parties: votes({ Alpha: 1200, Beta: 900, Gamma: 400 }),
      want: { Alpha: 2, Beta: 1, Gamma: 1 },
    },
    ...[
      { PartyA: 1, PartyB: 0, PartyC: 0, PartyD: 0 },
      { PartyA: 1, PartyB: 1, PartyC: 0, PartyD: 0 },
      { PartyA: 2, PartyB: 1, PartyC: 0, PartyD: 0 },
      { PartyA: 2, PartyB: 1, PartyC: 1, PartyD: 0 },
      { PartyA: 2, PartyB: 2, PartyC: 1, PartyD: 0 },
      { PartyA: 2, PartyB: 2, PartyC: 1, PartyD: 1 },
      { PartyA: 3, PartyB: 2, PartyC: 1, PartyD: 1 },
      { PartyA: 3, PartyB: 3, PartyC: 1, PartyD: 1 },
    ].map((want, i) => ({
      name: `TestAllocateWebsterSeats "classic example, round ${i + 1}": Wikipedia's Sainte-Laguë rounds`,
      newSeats: i + 1,
      parties: votes(classic),
      want,
    })),
    {
      name: 'TestAllocateWebsterSeats "empty party votes": no parties, no result',
      newSeats: 1,
      parties: [],
      want: {},
    },
    {
      name: 'TestAllocateWebsterSeats "newSeats is 0": every party listed with 0 seats',
      newSeats: 0,
      parties: votes({ PartyA: 100, PartyB: 200 }),
      want: { PartyA: 0, PartyB: 0 },
    },
    {
      name: 'TestAllocateWebsterSeats "break tie by seats": equal priority goes to the party with fewer seats',
      newSeats: 1,
      parties: votes({ PartyA: 3, PartyB: 1 }, { PartyA: 1, PartyB: 0 }),
      want: { PartyA: 1, PartyB: 1 },
    },
    {
      name: 'TestAllocateWebsterSeats "break tie by name": equal priority and seats go to the smaller name (empty UID)',
      newSeats: 1,
      parties: votes({ PartyA: 1, PartyB: 1 }),
      want: { PartyA: 1, PartyB: 0 },
    },
    {
      name: 'TestAllocateWebsterSeats "only new party gets new seats": a 0-vote party keeps its seats and gets none',
      newSeats: 2,
      parties: votes({ NewParty1: 1, NewParty2: 1 }, { OldParty: 0 }),
      want: { NewParty1: 1, NewParty2: 1, OldParty: 0 },
    },
    {
      name: 'TestAllocateWebsterSeats "both new and old parties compete": initial seats lower a party\'s priority',
      newSeats: 2,
      parties: votes({ OldParty: 1, NewParty: 1 }, { OldParty: 1 }),
      want: { NewParty: 2, OldParty: 1 },
    },
    {
      name: 'TestAllocateWebsterSeats "initialAssignments party not in partyVotes": it keeps 3 seats, gets no new ones',
      newSeats: 2,
      parties: votes({ PartyA: 100 }, { PartyB: 3 }),
      want: { PartyA: 2, PartyB: 3 },
    },
    // Test_dispenser_AllocateByWeight (binding_test.go): the dispenser's initial result is the initial seats.
    {
      name: 'Test_dispenser_AllocateByWeight "Scale up 6 replicas": 1:2:3 from 1/2/3 to 2/4/6',
      newSeats: 6,
      parties: votes({ A: 1, B: 2, C: 3 }, { A: 1, B: 2, C: 3 }),
      want: { A: 2, B: 4, C: 6 },
    },
    {
      name: 'Test_dispenser_AllocateByWeight "Scale up 3 replicas": 1:2:3 from 1/2/3 to 2/3/4',
      newSeats: 3,
      parties: votes({ A: 1, B: 2, C: 3 }, { A: 1, B: 2, C: 3 }),
      want: { A: 2, B: 3, C: 4 },
    },
    {
      name: 'Test_dispenser_AllocateByWeight "Scale up 2 replicas": 1:2:3 from 1/2/3 to 1/3/4',
      newSeats: 2,
      parties: votes({ A: 1, B: 2, C: 3 }, { A: 1, B: 2, C: 3 }),
      want: { A: 1, B: 3, C: 4 },
    },
    ...[
      { A: 1, B: 0 },
      { A: 1, B: 1 },
      { A: 2, B: 1 },
    ].map((want, i) => ({
      name: `Test_dispenser_AllocateByWeight "HA scenario with weight 2:1: assign ${i + 1}": the smaller cluster gets its replica early`,
      newSeats: i + 1,
      parties: votes({ A: 2, B: 1 }),
      want,
    })),
    {
      name: 'Test_dispenser_AllocateByWeight "brand new assign 5 replicas": 170:110:60 gives 2:2:1',
      newSeats: 5,
      parties: votes({ A: 170, B: 110, C: 60 }),
      want: { A: 2, B: 2, C: 1 },
    },
    {
      name: 'Test_dispenser_AllocateByWeight "brand new assign 6 replicas": 170:110:60 gives 3:2:1',
      newSeats: 6,
      parties: votes({ A: 170, B: 110, C: 60 }),
      want: { A: 3, B: 2, C: 1 },
    },
    {
      name: 'Test_dispenser_AllocateByWeight "with odd uuid": 5 over 1:1 leaves the extra one to the larger name',
      newSeats: 5,
      parties: votes({ A: 1, B: 1 }),
      seed: ODD_UID,
      want: { A: 2, B: 3 },
    },
    {
      name: 'Test_dispenser_AllocateByWeight "with even uuid": 5 over 1:1 leaves the extra one to the smaller name',
      newSeats: 5,
      parties: votes({ A: 1, B: 1 }),
      seed: EVEN_UID,
      want: { A: 3, B: 2 },
    },
    // TestDispenseReplicasByTargetClusters (binding_test.go, Karmada ≥ 1.16), empty UID.
    {
      name: 'TestDispenseReplicasByTargetClusters "1 cluster, 5 replicas, 10 sum": one cluster takes everything',
      newSeats: 10,
      parties: votes({ member1: 5 }),
      want: { member1: 10 },
    },
    {
      name: 'TestDispenseReplicasByTargetClusters "3 cluster, 1:1:1, 12 sum": even split',
      newSeats: 12,
      parties: votes({ member1: 5, member2: 5, member3: 5 }),
      want: { member1: 4, member2: 4, member3: 4 },
    },
    {
      name: 'TestDispenseReplicasByTargetClusters "3 cluster, 1:1:1, 10 sum": the leftover goes to the first name',
      newSeats: 10,
      parties: votes({ member1: 5, member2: 5, member3: 5 }),
      want: { member1: 4, member2: 3, member3: 3 },
    },
    {
      name: 'TestDispenseReplicasByTargetClusters "3 cluster, 1:2:3, 13 sum": 2:4:7',
      newSeats: 13,
      parties: votes({ member1: 1, member2: 2, member3: 3 }),
      want: { member1: 2, member2: 4, member3: 7 },
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(seats(websterAllocate(row.newSeats, row.parties, row.seed ?? '')), row.want));
  }

  it('returns every party sorted by name ascending, whatever the input order', () => {
    const got = websterAllocate(3, votes({ zeta: 1, alpha: 1, mid: 1 }), ODD_UID);
    assert.deepEqual(
      got.map((p) => p.name),
      ['alpha', 'mid', 'zeta'],
    );
  });

  it('is deterministic: the same input and seed give the same result every time', () => {
    const parties = votes({ a: 3, b: 3, c: 3, d: 1 });
    const first = websterAllocate(7, parties, ODD_UID);
    for (let i = 0; i < 20; i++) assert.deepEqual(websterAllocate(7, parties, ODD_UID), first);
  });

  it('is monotone on scale-up: N+1 seats never give any party fewer than N (no Alabama paradox, Karmada #6735)', () => {
    // A small deterministic PRNG so the property runs over many weight lists reproducibly.
    let state = 42;
    const next = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    for (let trial = 0; trial < 60; trial++) {
      const count = 1 + next(6);
      const parties = Array.from({ length: count }, (_, i) => ({
        name: `c${i}`,
        weight: next(4) === 0 ? 1 : next(50),
      }));
      const seed = trial % 2 === 0 ? EVEN_UID : ODD_UID;
      let before = seats(websterAllocate(0, parties, seed));
      for (let n = 1; n <= 40; n++) {
        const after = seats(websterAllocate(n, parties, seed));
        for (const p of parties) {
          assert.ok(after[p.name]! >= before[p.name]!, `trial ${trial}: ${p.name} lost a seat going to ${n}`);
        }
        assert.equal(
          Object.values(after).reduce((s, v) => s + v, 0),
          n,
        );
        before = after;
      }
    }
  });

  it('counts the 2:1 weights of the HA case exactly: 3 replicas 2:1, 4 replicas 3:1', () => {
    assert.deepEqual(seats(websterAllocate(3, votes({ a: 2, b: 1 }), '')), { a: 2, b: 1 });
    assert.deepEqual(seats(websterAllocate(4, votes({ a: 2, b: 1 }), '')), { a: 3, b: 1 });
  });
});
