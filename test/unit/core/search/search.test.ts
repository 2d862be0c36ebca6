/**
 * karmada-search's decisions: which clusters and kinds ResourceRegistries select
 * (`pkg/search/controller.go`, `util.ClusterMatches`), the multi-cluster resourceVersion and continue
 * tokens (`pkg/search/proxy/store/util.go`), what the cache serves and sends back to a member
 * (`cache-source` annotation, `RecoverClusterResourceVersion`), and how a page of a member's list
 * reconciles the cache.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import {
  CHUNK_EVERY,
  chunkFingerprint,
  chunkRecord,
  isChunkBoundary,
  cacheSyncPlan,
  type Cluster,
  type ClusterCacheRecord,
  clusterSyncPlan,
  collectionsFor,
  decodeMultiClusterContinue,
  decodeMultiClusterResourceVersion,
  encodeMultiClusterContinue,
  encodeMultiClusterResourceVersion,
  pageRange,
  registryCondition,
  type ResourceRegistryLike,
  servedFromCache,
  servingClusters,
  toCached,
  towardMember,
} from '../../../../lib/core/index.ts';

const cluster = (name: string, labels: Record<string, string> = {}, extra: Partial<Cluster> = {}): Cluster =>
  ({ metadata: { name, labels }, spec: {}, ...extra }) as Cluster;
const rr = (
  name: string,
  targetCluster: ResourceRegistryLike['spec'] extends infer S
    ? S extends { targetCluster?: infer T }
      ? T
      : never
    : never,
  selectors: { apiVersion: string; kind: string; namespace?: string }[],
  generation = 1,
): ResourceRegistryLike & { metadata: { generation: number } } => ({
  metadata: { name, generation },
  spec: { targetCluster, resourceSelectors: selectors },
});
const pod = (namespace: string, name: string, rv: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace, name, resourceVersion: rv, labels },
});

const CLUSTERS = [
  cluster('member1', { env: 'prod' }),
  cluster('member2', { env: 'prod' }),
  cluster('member3', { env: 'dev' }),
];

describe('servingClusters / collectionsFor (ResourceRegistry selection)', () => {
  const rows: {
    name: string;
    registries: ReturnType<typeof rr>[];
    kind: { apiVersion: string; kind: string };
    namespace?: string;
    want: string[];
  }[] = [
    {
      name: 'clusterNames select those clusters, sorted (karmada-search walks clusters by name)',
      registries: [rr('a', { clusterNames: ['member3', 'member1'] }, [{ apiVersion: 'v1', kind: 'Pod' }])],
      kind: { apiVersion: 'v1', kind: 'Pod' },
      want: ['member1', 'member3'],
    },
    {
      name: 'a label selector on clusters (ClusterAffinity.labelSelector)',
      registries: [rr('a', { labelSelector: { matchLabels: { env: 'prod' } } }, [{ apiVersion: 'v1', kind: 'Pod' }])],
      kind: { apiVersion: 'v1', kind: 'Pod' },
      want: ['member1', 'member2'],
    },
    {
      name: 'exclude removes a cluster an empty affinity would select',
      registries: [rr('a', { exclude: ['member2'] }, [{ apiVersion: 'v1', kind: 'Pod' }])],
      kind: { apiVersion: 'v1', kind: 'Pod' },
      want: ['member1', 'member3'],
    },
    {
      name: 'kinds match by exact apiVersion and kind: apps/v1 Deployment is not selected by a Pod selector',
      registries: [rr('a', {}, [{ apiVersion: 'v1', kind: 'Pod' }])],
      kind: { apiVersion: 'apps/v1', kind: 'Deployment' },
      want: [],
    },
    {
      name: 'a selector with a namespace serves that namespace only',
      registries: [rr('a', {}, [{ apiVersion: 'v1', kind: 'Pod', namespace: 'team-a' }])],
      kind: { apiVersion: 'v1', kind: 'Pod' },
      namespace: 'team-b',
      want: [],
    },
    {
      name: 'registries add up: one per cluster group',
      registries: [
        rr('a', { clusterNames: ['member1'] }, [{ apiVersion: 'v1', kind: 'Pod' }]),
        rr('b', { clusterNames: ['member3'] }, [{ apiVersion: 'v1', kind: 'Pod' }]),
      ],
      kind: { apiVersion: 'v1', kind: 'Pod' },
      want: ['member1', 'member3'],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(servingClusters(row.registries, CLUSTERS, row.kind, row.namespace), row.want);
    });
  }

  it('a kind selected without a namespace by any registry is collected in every namespace', () => {
    const collections = collectionsFor(
      [
        rr('a', {}, [
          { apiVersion: 'v1', kind: 'Pod', namespace: 'team-a' },
          { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'b' },
        ]),
        rr('b', {}, [
          { apiVersion: 'v1', kind: 'Pod' },
          { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a' },
        ]),
      ],
      CLUSTERS[0]!,
    );
    assert.deepEqual(collections, [
      { apiVersion: 'v1', kind: 'ConfigMap', namespaces: ['a', 'b'] },
      { apiVersion: 'v1', kind: 'Pod' },
    ]);
  });

  it('a cluster being deleted collects nothing; a registry being deleted selects nothing', () => {
    const deleting = cluster('member1', {}, {
      metadata: { name: 'member1', deletionTimestamp: '2026-01-01T00:00:00Z' },
    } as Partial<Cluster>);
    assert.deepEqual(collectionsFor([rr('a', {}, [{ apiVersion: 'v1', kind: 'Pod' }])], deleting), []);
    const gone = {
      ...rr('a', {}, [{ apiVersion: 'v1', kind: 'Pod' }]),
      metadata: { name: 'a', generation: 1, deletionTimestamp: 'x' },
    };
    assert.deepEqual(collectionsFor([gone], CLUSTERS[0]!), []);
  });
});

describe('clusterSyncPlan', () => {
  const record = (kinds: ClusterCacheRecord['kinds']): ClusterCacheRecord => ({ kinds, reachable: true });
  it('drops kinds no registry selects any more, and kinds whose namespaces changed', () => {
    const plan = clusterSyncPlan(
      CLUSTERS[0],
      [rr('a', {}, [{ apiVersion: 'v1', kind: 'Pod', namespace: 'x' }])],
      record([
        { apiVersion: 'v1', kind: 'Pod' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ]),
    );
    assert.deepEqual(plan.collect, [{ apiVersion: 'v1', kind: 'Pod', namespaces: ['x'] }]);
    assert.deepEqual(plan.drop, [
      { apiVersion: 'v1', kind: 'Pod' },
      { apiVersion: 'apps/v1', kind: 'Deployment' },
    ]);
  });
  it('a deleted cluster keeps nothing', () => {
    const plan = clusterSyncPlan(
      undefined,
      [rr('a', {}, [{ apiVersion: 'v1', kind: 'Pod' }])],
      record([{ apiVersion: 'v1', kind: 'Pod' }]),
    );
    assert.deepEqual(plan, { collect: [], drop: [{ apiVersion: 'v1', kind: 'Pod' }] });
  });
});

describe('registryCondition (Karmada sets none; this says what is collected from where)', () => {
  const reg = rr('a', { clusterNames: ['member1', 'member2'] }, [{ apiVersion: 'v1', kind: 'Pod' }], 3);
  const ok: ClusterCacheRecord = { kinds: [{ apiVersion: 'v1', kind: 'Pod' }], reachable: true };
  it('True when every selected cluster was read', () => {
    const c = registryCondition(
      reg,
      CLUSTERS,
      new Map([
        ['member1', ok],
        ['member2', ok],
      ]),
    );
    assert.deepEqual(c, {
      type: 'Synced',
      status: 'True',
      reason: 'Synced',
      message: 'collecting v1/Pod from member1, member2',
      observedGeneration: 3,
    });
  });
  it('False naming an unreachable cluster, whose objects are served as last collected', () => {
    const c = registryCondition(
      reg,
      CLUSTERS,
      new Map([
        ['member1', ok],
        ['member2', { ...ok, reachable: false, message: 'the cluster is not Ready' }],
      ]),
    );
    assert.equal(c.reason, 'ClustersUnreachable');
    assert.match(c.message, /served as last collected: member2 \(the cluster is not Ready\)/);
  });
  it('False (Pending) before a cluster was collected, and NoClusters when none matches', () => {
    assert.equal(registryCondition(reg, CLUSTERS, new Map([['member1', ok]])).reason, 'Pending');
    assert.equal(registryCondition(rr('b', { clusterNames: ['nope'] }, []), CLUSTERS, new Map()).reason, 'NoClusters');
  });
});

describe('multi-cluster resourceVersion and continue tokens (pkg/search/proxy/store/util.go)', () => {
  it('a resourceVersion is base64url JSON with clusters sorted, as Karmada builds it', () => {
    const rv = encodeMultiClusterResourceVersion({ c2: '456', c1: '123' });
    assert.equal(Buffer.from(rv, 'base64url').toString('utf8'), '{"c1":"123","c2":"456"}');
    assert.equal(rv.includes('='), false, 'no padding (RawURLEncoding)');
    assert.deepEqual(decodeMultiClusterResourceVersion(rv), { c1: '123', c2: '456' });
    assert.equal(encodeMultiClusterResourceVersion({}), '');
  });
  it('"0", "" and a single-cluster version are not multi-cluster versions', () => {
    for (const text of ['0', '', '12345', 'not base64!'])
      assert.equal(decodeMultiClusterResourceVersion(text), undefined, text);
  });
  it('a continue token carries rv, cluster and that cluster’s continue; none when no cluster follows', () => {
    const token = encodeMultiClusterContinue({ rv: 'abc', cluster: 'member2', continue: 'default/p' });
    assert.equal(
      Buffer.from(token, 'base64url').toString('utf8'),
      '{"rv":"abc","cluster":"member2","continue":"default/p"}',
    );
    assert.deepEqual(decodeMultiClusterContinue(token), { rv: 'abc', cluster: 'member2', continue: 'default/p' });
    assert.equal(encodeMultiClusterContinue({ rv: 'abc', cluster: '', continue: '' }), '');
  });
  it('a token this server did not issue is refused (Karmada ignores it and restarts the list)', () => {
    for (const bad of [
      '!!!',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('{"rv":"x"}').toString('base64url'),
    ]) {
      assert.equal(typeof decodeMultiClusterContinue(bad), 'string', bad);
    }
  });
});

describe('cached objects: served with their cluster, sent back as the member had them', () => {
  it('a GET serves the one-cluster multi-cluster resourceVersion; a LIST the member’s own', () => {
    const cached = toCached(
      {
        ...pod('default', 'p', '42'),
        metadata: { ...pod('default', 'p', '42').metadata, managedFields: [{}] },
      } as KubeObject,
      'v1',
      'Pod',
    );
    assert.equal('managedFields' in cached.metadata, false);
    const listed = servedFromCache(cached, 'member1');
    assert.equal(listed.metadata.resourceVersion, '42');
    assert.equal(listed.metadata.annotations?.['resource.karmada.io/cached-from-cluster'], 'member1');
    const got = servedFromCache(cached, 'member1', { singleGet: true });
    assert.deepEqual(decodeMultiClusterResourceVersion(got.metadata.resourceVersion!), { member1: '42' });
  });
  it('an update through the proxy loses the annotation and gets the member’s resourceVersion back', () => {
    const got = servedFromCache(pod('default', 'p', '42', { a: 'b' }), 'member1', { singleGet: true });
    const back = towardMember(got, 'member1');
    assert.equal(back.metadata.resourceVersion, '42');
    assert.equal(back.metadata.annotations, undefined);
    const untouched = pod('default', 'p', '7');
    assert.equal(towardMember(untouched, 'member1'), untouched);
  });
});

describe('cacheSyncPlan and pageRange (one page of a member list against the cache)', () => {
  const entry = (key: string, resourceVersion: string, version = 1) => ({ key, resourceVersion, version });
  it('writes new and changed objects, removes what the member no longer has, leaves the rest', () => {
    const plan = cacheSyncPlan(
      [entry('default/a', '1', 11), entry('default/b', '2', 12), entry('default/c', '3', 13)],
      [pod('default', 'a', '1'), pod('default', 'b', '5'), pod('default', 'd', '9')],
    );
    assert.deepEqual(
      plan.put.map((p) => [p.key, p.version]),
      [
        ['default/b', 12],
        ['default/d', undefined],
      ],
    );
    assert.deepEqual(plan.remove, [{ key: 'default/c', version: 13 }]);
  });
  it('an unchanged page costs no write', () => {
    assert.deepEqual(cacheSyncPlan([entry('ns/a', '1')], [pod('ns', 'a', '1')]), { put: [], remove: [] });
  });
  it('a page covers the keys after the previous page up to its last key; the last page to the end', () => {
    const items = [pod('b', 'z', '1'), pod('a', 'y', '1')];
    assert.deepEqual(pageRange(undefined, items, false), { through: 'b/z' });
    assert.deepEqual(pageRange('b/z', items, true), { after: 'b/z' });
  });
});

describe('content-defined chunks (a quiet member is not read from the cache)', () => {
  const keys = Array.from({ length: 5000 }, (_, i) => `ns/pod-${String(i).padStart(5, '0')}`);
  const cut = (list: string[]) => {
    const chunks: string[][] = [];
    let current: string[] = [];
    for (const k of list) {
      current.push(k);
      if (isChunkBoundary(k)) {
        chunks.push(current);
        current = [];
      }
    }
    chunks.push(current);
    return chunks.map((c) => chunkFingerprint(c.map((key) => ({ key, resourceVersion: '1' }))));
  };
  it('about one key in CHUNK_EVERY ends a chunk', () => {
    const n = keys.filter(isChunkBoundary).length;
    assert.ok(n > 5000 / CHUNK_EVERY / 3 && n < (5000 / CHUNK_EVERY) * 3, String(n));
  });
  it('inserting an object changes one chunk’s fingerprint, not the others’ (boundaries depend on keys only)', () => {
    const before = cut(keys);
    const after = cut([...keys.slice(0, 2500), 'ns/pod-02499x', ...keys.slice(2500)].sort());
    assert.equal(after.length, before.length);
    assert.equal(after.filter((f, i) => f !== before[i]).length, 1);
  });
  it('a changed resourceVersion changes the fingerprint; the chunk record names its range', () => {
    assert.notEqual(
      chunkFingerprint([{ key: 'a/b', resourceVersion: '1' }]),
      chunkFingerprint([{ key: 'a/b', resourceVersion: '2' }]),
    );
    assert.equal(chunkRecord({ prefix: 'a/', after: 'a/b', through: 'a/z' }, 'fp'), 'a/\ta/b\ta/z\tfp');
  });
});
