import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignReplicas } from '../../../../../lib/core/scheduler/assignment/index.ts';
import { assignByStaticWeight, staticWeights } from '../../../../../lib/core/scheduler/assignment/static-weight.ts';
import type { ClusterDetail } from '../../../../../lib/core/scheduler/framework/types.ts';
import type { ClusterPreferences } from '../../../../../lib/core/model/types.ts';
import { asRecord, candidate, candidates, placement, staticByName, weighted } from './factories.ts';

const ODD_UID = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';
const three = () => candidates({ member1: 0, member2: 0, member3: 0 });

/** Three clusters: gold (weight 2 by label), silver (weight 1 by name), bronze matched by no rule. */
const goldSilverBronze = (): ClusterDetail[] => [
  candidate('bronze', 100, { labels: { tier: 'bronze' } }),
  candidate('gold', 0, { labels: { tier: 'gold' } }),
  candidate('silver', 0, { labels: { tier: 'silver' } }),
];
const twoToOne: ClusterPreferences = {
  staticWeightList: [
    { targetCluster: { labelSelector: { matchLabels: { tier: 'gold' } } }, weight: 2 },
    { targetCluster: { clusterNames: ['silver'] }, weight: 1 },
  ],
};

describe('static weight assignment (Karmada assignByStaticWeightStrategy, Webster since v1.16)', () => {
  const rows: {
    name: string;
    clusters: ClusterDetail[];
    preference?: ClusterPreferences;
    replicas: number;
    uid?: string;
    want: Record<string, number>;
  }[] = [
    {
      name: 'Test_assignByStaticWeightStrategy "replica 12, weight 3:2:1": 6:4:2',
      clusters: three(),
      preference: staticByName({ member1: 3, member2: 2, member3: 1 }),
      replicas: 12,
      want: { member1: 6, member2: 4, member3: 2 },
    },
    {
      name: 'Test_assignByStaticWeightStrategy "replica 12, default weight": no weightPreference weighs every cluster 1',
      clusters: three(),
      replicas: 12,
      want: { member1: 4, member2: 4, member3: 4 },
    },
    {
      name: 'Test_assignByStaticWeightStrategy "replica 13, weight 3:2:1" (v1.16): 7:4:2',
      clusters: three(),
      preference: staticByName({ member1: 3, member2: 2, member3: 1 }),
      replicas: 13,
      want: { member1: 7, member2: 4, member3: 2 },
    },
    {
      name: 'Test_assignByStaticWeightStrategy "replica 14, weight 3:2:1" (v1.16): Webster gives 7:5:2 where v1.15 gave 8:4:2',
      clusters: three(),
      preference: staticByName({ member1: 3, member2: 2, member3: 1 }),
      replicas: 14,
      want: { member1: 7, member2: 5, member3: 2 },
    },
    {
      name: 'Test_assignByStaticWeightStrategy "selected cluster without weight should be ignored"',
      clusters: candidates({ member1: 0, member2: 0 }),
      preference: staticByName({ member1: 1 }),
      replicas: 2,
      want: { member1: 2 },
    },
    {
      name: 'Test_assignByStaticWeightStrategy "cluster with multiple weights": the MAX matching rule weight counts',
      clusters: candidates({ member1: 0, member2: 0 }),
      preference: {
        staticWeightList: [
          { targetCluster: { clusterNames: ['member1'] }, weight: 1 },
          { targetCluster: { clusterNames: ['member2'] }, weight: 1 },
          { targetCluster: { clusterNames: ['member1'] }, weight: 2 },
        ],
      },
      replicas: 3,
      want: { member1: 2, member2: 1 },
    },
    {
      name: 'TestAssignReplicas "Assign replicas to single cluster": Divided+Weighted without preference',
      clusters: candidates({ member1: 0 }),
      replicas: 3,
      want: { member1: 3 },
    },
    {
      name: '2:1 over three clusters, the third matched by no rule is dropped: 3 replicas go 2:1',
      clusters: goldSilverBronze(),
      preference: twoToOne,
      replicas: 3,
      want: { gold: 2, silver: 1 },
    },
    {
      name: '2:1 over three clusters, the third matched by no rule is dropped: 4 replicas go 3:1',
      clusters: goldSilverBronze(),
      preference: twoToOne,
      replicas: 4,
      want: { gold: 3, silver: 1 },
    },
    {
      name: 'a rule with weight 0 drops the cluster it matches',
      clusters: three(),
      preference: staticByName({ member1: 1, member2: 0, member3: 1 }),
      replicas: 4,
      want: { member1: 2, member3: 2 },
    },
    {
      name: 'rules that match no candidate (all weights 0) fall back to weight 1 for every candidate',
      clusters: three(),
      preference: staticByName({ elsewhere: 5 }),
      replicas: 3,
      want: { member1: 1, member2: 1, member3: 1 },
    },
    {
      name: 'an empty weightPreference (no list, no dynamicWeight) weighs every candidate 1',
      clusters: three(),
      preference: {},
      replicas: 6,
      want: { member1: 2, member2: 2, member3: 2 },
    },
    {
      name: 'capacity is not checked: clusters that can take nothing still get their share',
      clusters: candidates({ member1: 0, member2: 0 }),
      preference: staticByName({ member1: 1, member2: 1 }),
      replicas: 10,
      want: { member1: 5, member2: 5 },
    },
    {
      name: 'the leftover of equal weights goes to the smaller name when the UID hash is even (or empty)',
      clusters: candidates({ a: 0, b: 0 }),
      replicas: 5,
      want: { a: 3, b: 2 },
    },
    {
      name: 'the leftover of equal weights goes to the larger name when the UID hash is odd (tieBreakerByUID)',
      clusters: candidates({ a: 0, b: 0 }),
      replicas: 5,
      uid: ODD_UID,
      want: { a: 2, b: 3 },
    },
    {
      name: 'one replica over 1:1 is placed once and the empty cluster dropped from the result',
      clusters: candidates({ a: 0, b: 0 }),
      replicas: 1,
      want: { a: 1 },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const out = assignReplicas({
        spec: { replicas: row.replicas, placement: placement(weighted(row.preference)) },
        candidates: row.clusters,
        uid: row.uid ?? '',
      });
      assert.ok(out.ok, JSON.stringify(out));
      assert.deepEqual(asRecord(out.value), row.want);
      assert.ok(out.value.every((t) => (t.replicas ?? 0) > 0));
    });
  }

  it('Test_assignByStaticWeightStrategy "insufficient replica assignment should get 0 replica": 0 over 1:1 lists both with 0', () => {
    assert.deepEqual(
      asRecord(
        assignByStaticWeight(
          candidates({ member1: 0, member2: 0 }),
          0,
          staticByName({ member1: 1, member2: 1 }),
          [],
          '',
        ),
      ),
      { member1: 0, member2: 0 },
    );
  });

  it('is monotone on scale-up with the 2:1 example: no cluster ever loses a replica from 1 to 30', () => {
    let before: Record<string, number> = {};
    for (let n = 1; n <= 30; n++) {
      const now = asRecord(assignByStaticWeight(goldSilverBronze(), n, twoToOne, [], ODD_UID));
      for (const [name, r] of Object.entries(before))
        assert.ok((now[name] ?? 0) >= r, `${name} lost a replica at ${n}`);
      before = now;
    }
  });

  it('ignores previous replicas: the same weights give the same split whatever ran before', () => {
    const fresh = assignByStaticWeight(three(), 7, undefined, [], 'uid');
    const after = assignByStaticWeight(three(), 7, undefined, [{ name: 'member3', replicas: 7 }], 'uid');
    assert.deepEqual(after, fresh);
  });
});

describe('staticWeights (Karmada getStaticWeightInfoList)', () => {
  it('records lastReplicas from the previous result and drops clusters no rule matches', () => {
    assert.deepEqual(staticWeights(goldSilverBronze(), twoToOne, [{ name: 'gold', replicas: 4 }]), [
      { name: 'gold', weight: 2, lastReplicas: 4 },
      { name: 'silver', weight: 1, lastReplicas: 0 },
    ]);
  });
  it('weighs every candidate 1 without a weightPreference', () => {
    assert.deepEqual(
      staticWeights(candidates({ a: 0, b: 0 }), undefined, []).map((w) => w.weight),
      [1, 1],
    );
  });
});
