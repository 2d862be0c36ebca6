/**
 * Builds a preset dictionary for the store's row codec (lib/store/codec.ts): the JSON of one object of
 * each kind the control plane writes most, from a small scenario run on the simulated control plane
 * (three members, an nginx Deployment divided by weight, a ConfigMap dependency, a Service, an
 * override), with what is unique to an object (uids, timestamps, resource versions, hashes) blanked.
 * Deflate finds the field names, label and annotation keys and value shapes every object repeats in
 * the dictionary instead of in each row.
 *
 * A dictionary, once rows are written with it, is part of the stored format forever: this prints a
 * candidate to stdout; freezing it means adding it as a new version in lib/store/codec-dictionary.ts
 * and a new format tag in the codec, never editing an existing one. The scenario is deliberately not
 * the cost bench's (bench/cost.bench.ts), so the bench does not measure the dictionary's own sample.
 *
 *   node --import tsx scripts/codec-dictionary.ts > /tmp/dictionary.json
 */
import { CostWorld } from '../bench/cost-world.ts';
import type { Row } from '../lib/store/rows.ts';
import { decodeBody } from '../lib/store/codec.ts';

const world = await CostWorld.create(3);
const clusters = [...world.members.keys()];
const written = new Map<string, Row>();
const rows = world.rows as unknown as { put: (row: Row, condition: unknown) => Promise<unknown> };
const put = rows.put.bind(rows);
rows.put = (row, condition) => {
  written.set(row.pk, row);
  return put(row, condition);
};

async function ok(method: string, path: string, body: unknown, contentType?: string): Promise<void> {
  const answer = await world.api(method, path, body, contentType);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status}`);
  await world.deliver();
}

await ok('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies', {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    resourceSelectors: [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' },
      { apiVersion: 'v1', kind: 'Service', name: 'nginx' },
    ],
    propagateDeps: true,
    placement: {
      clusterAffinity: { clusterNames: clusters },
      replicaScheduling: {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: {
          staticWeightList: clusters.map((c, i) => ({ targetCluster: { clusterNames: [c] }, weight: i + 1 })),
        },
      },
    },
  },
});
await ok('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/default/overridepolicies', {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'OverridePolicy',
  metadata: { name: 'registry', namespace: 'default' },
  spec: {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
    overrideRules: [
      {
        targetCluster: { clusterNames: [clusters[0]!] },
        overriders: { imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'registry.example.com' }] },
      },
    ],
  },
});
await ok('POST', '/api/v1/namespaces/default/configmaps', {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'nginx-conf', namespace: 'default' },
  data: { 'nginx.conf': 'worker_processes 1;' },
});
await ok('POST', '/api/v1/namespaces/default/services', {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
  spec: { selector: { app: 'nginx' }, ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }] },
});
await ok('POST', '/apis/apps/v1/namespaces/default/deployments', {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
  spec: {
    replicas: 6,
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80 }],
            resources: { requests: { cpu: '100m', memory: '64Mi' } },
            volumeMounts: [{ name: 'conf', mountPath: '/etc/nginx' }],
          },
        ],
        volumes: [{ name: 'conf', configMap: { name: 'nginx-conf' } }],
      },
    },
  },
});
await world.run(3 * 60_000);
await ok(
  'PATCH',
  '/apis/apps/v1/namespaces/default/deployments/nginx',
  { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } },
  'application/strategic-merge-patch+json',
);
await world.run(2 * 60_000);

// The largest object of each kind (the most fields), the most frequently written kinds last (deflate
// reaches the end of its window with the shortest distances).
const latest = new Map<string, string>();
for (const row of written.values()) {
  const json = JSON.stringify(decodeBody(row.body));
  const kind = JSON.parse(json).kind as string;
  if (json.length > (latest.get(kind)?.length ?? 0)) latest.set(kind, json);
}
const ORDER = [
  'Namespace',
  'ClusterHealth',
  'ClusterReservation',
  'PropagationPolicy',
  'OverridePolicy',
  'Cluster',
  'Service',
  'ConfigMap',
  'Deployment',
  'Event',
  'ResourceBinding',
  'Work',
];
const kinds = [...latest.keys()].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
const blank = (json: string) =>
  json
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '')
    .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":""')
    .replace(/"generation":\d+/g, '"generation":1');
const dictionary = kinds.map((k) => blank(latest.get(k)!)).join('\n');
process.stderr.write(`${kinds.join(', ')}: ${dictionary.length} characters\n`);
process.stdout.write(`${JSON.stringify(dictionary)}\n`);
process.exit(0);
