/**
 * FederatedResourceQuota on the local control plane, through kubectl:
 * - the v1.15 release notes' FlinkDeployment counts exactly `cpu: "3"`, `memory: 3072m`;
 * - an nginx Deployment that would exceed `requests.cpu` is held with `QuotaExceeded` (Karmada's
 *   message) and placed as soon as another workload is deleted;
 * - a `limits.cpu`-only quota is enforced (Karmada #7864 enforced nothing for it);
 * - static assignments appear as ResourceQuotas in the named members and their usage comes back.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { runGet } from '../../lib/cli/get.ts';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import { eventually } from '../support/eventually.ts';
import { e2ePlane, getJson, installFlinkCrd } from '../support/e2e.ts';
import type { kubectlRunner } from '../support/kubectl.ts';

const MEMBERS = ['member1', 'member2'];

const plane = e2ePlane(MEMBERS, { logLevel: 'WARN' });
let rt: LocalRuntime;
let kubectl: ReturnType<typeof kubectlRunner>;
let onMember: Map<string, ReturnType<typeof kubectlRunner>>;

type Quota = KubeObject & {
  status?: {
    overall?: Record<string, string>;
    overallUsed?: Record<string, string>;
    aggregatedStatus?: { clusterName: string; hard?: Record<string, string>; used?: Record<string, string> }[];
  };
};
type Binding = KubeObject & {
  spec: { clusters?: { name: string; replicas?: number }[] };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
};

const quota = (name: string, namespace: string) =>
  getJson<Quota>(kubectl, ['federatedresourcequotas', name, '-n', namespace]);
const scheduled = async (name: string, namespace: string) =>
  (await getJson<Binding>(kubectl, ['rb', name, '-n', namespace]))?.status?.conditions?.find(
    (c) => c.type === 'Scheduled',
  );

before(async () => ({ rt, kubectl, onMember } = await plane.started()));

const nginx = (name: string, namespace: string, replicas: number, resources: string) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: nginx, image: nginx:1.27, resources: ${resources}}]
`;

const policy = (namespace: string) => `
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: ${namespace}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [member1]}
`;

describe('FederatedResourceQuota through kubectl', () => {
  it("counts the v1.15 notes' FlinkDeployment exactly: cpu 3, memory 3072m", async () => {
    await installFlinkCrd(kubectl, [...onMember.values()]);
    await kubectl.ok(['create', 'namespace', 'flink']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: flink-quota, namespace: flink}
spec:
  overall: {cpu: "10", memory: 10Gi}
`,
    );
    const flink = readFileSync('examples/flink/flinkdeployment.yaml', 'utf8').replace(
      'namespace: default',
      'namespace: flink',
    );
    const pp = readFileSync('examples/flink/propagationpolicy.yaml', 'utf8').replace(
      'namespace: default',
      'namespace: flink',
    );
    await kubectl.ok(['apply', '-f', '-'], `${pp}\n---\n${flink}`);
    const used = await eventually('the quota counts the job', async () => {
      const q = await quota('flink-quota', 'flink');
      return q?.status?.overallUsed?.cpu === '3' ? q.status.overallUsed : undefined;
    });
    assert.deepEqual(used, { cpu: '3', memory: '3072m' });
    const table = await kubectl.ok(['get', 'federatedresourcequotas', '-n', 'flink']);
    assert.match(table, /NAME\s+OVERALL\s+OVERALL_USED/);
    assert.match(table, /"cpu":"3","memory":"3072m"/);
    const lines: string[] = [];
    const code = await runGet(
      ['federatedresourcequotas', '-n', 'flink', '--kubeconfig', rt.kubeconfig],
      (l) => lines.push(l),
      (l) => lines.push(l),
    );
    assert.equal(code, 0);
    assert.match(lines.join('\n'), /OVERALL_USED[\s\S]*"cpu":"3","memory":"3072m"/, 'skctl get prints the same table');
  });

  it('holds an nginx Deployment over requests.cpu with QuotaExceeded, and places it when another workload is deleted', async () => {
    await kubectl.ok(['create', 'namespace', 'team']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: team-quota, namespace: team}
spec:
  overall: {requests.cpu: "1"}
---
${policy('team')}
---
${nginx('first', 'team', 3, '{requests: {cpu: 200m}}')}
`,
    );
    await eventually('first placed', async () => (await scheduled('first-deployment', 'team'))?.status === 'True');
    await kubectl.ok(['apply', '-f', '-'], nginx('second', 'team', 3, '{requests: {cpu: 200m}}'));
    const held = await eventually('second held for quota', async () => {
      const c = await scheduled('second-deployment', 'team');
      return c?.reason === 'QuotaExceeded' ? c : undefined;
    });
    assert.equal(
      held.message,
      'FederatedResourceQuota(team/team-quota) exceeded for resource requests.cpu: requested sum 1200m, limit 1.',
    );
    assert.equal(
      await getJson(onMember.get('member1')!, ['deploy', 'second', '-n', 'team']),
      undefined,
      'nothing reached the member',
    );
    // The quota's event is recorded after the binding's QuotaExceeded condition is written.
    const described = await eventually('QuotaExceeded on the quota', async () => {
      const text = await kubectl.ok(['describe', 'federatedresourcequota', 'team-quota', '-n', 'team']);
      return /ResourceBinding\(team\/second-deployment\) is held/.test(text) ? text : undefined;
    });
    assert.match(described, /QuotaExceeded.*ResourceBinding\(team\/second-deployment\) is held/);

    await kubectl.ok(['delete', 'deployment', 'first', '-n', 'team']);
    await eventually(
      'second placed once first is gone',
      async () => (await scheduled('second-deployment', 'team'))?.status === 'True',
    );
    await eventually(
      'second on member1',
      async () => (await getJson(onMember.get('member1')!, ['deploy', 'second', '-n', 'team'])) !== undefined,
    );
    await eventually('usage is the second one only', async () => {
      const q = await quota('team-quota', 'team');
      return q?.status?.overallUsed?.['requests.cpu'] === '600m';
    });
  });

  it('enforces a limits.cpu-only quota', async () => {
    await kubectl.ok(['create', 'namespace', 'limited']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: limits, namespace: limited}
spec:
  overall: {limits.cpu: "500m"}
---
${policy('limited')}
---
${nginx('big', 'limited', 2, '{requests: {cpu: 100m}, limits: {cpu: 300m}}')}
`,
    );
    const c = await eventually('held for limits.cpu', async () => {
      const s = await scheduled('big-deployment', 'limited');
      return s?.reason === 'QuotaExceeded' ? s : undefined;
    });
    assert.match(c.message ?? '', /exceeded for resource limits.cpu: requested sum 600m, limit 500m/);
  });

  it('static assignments become ResourceQuotas in the named members and their usage comes back', async () => {
    await kubectl.ok(['create', 'namespace', 'shared']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: shared, namespace: shared}
spec:
  overall: {cpu: "4", pods: "20"}
  staticAssignments:
    - {clusterName: member1, hard: {cpu: "3", pods: "10"}}
    - {clusterName: member2, hard: {cpu: "1", pods: "10"}}
---
${policy('shared')}
---
${nginx('app', 'shared', 2, '{requests: {cpu: 100m}}')}
`,
    );
    for (const m of MEMBERS) {
      await eventually(`the ResourceQuota on ${m}`, async () =>
        Boolean(await getJson(onMember.get(m)!, ['resourcequota', 'shared', '-n', 'shared'])),
      );
    }
    const aggregated = await eventually('usage back from the members', async () => {
      const q = await quota('shared', 'shared');
      const m1 = q?.status?.aggregatedStatus?.find((s) => s.clusterName === 'member1');
      return m1?.used?.cpu === '200m' && q?.status?.aggregatedStatus?.length === 2
        ? q.status.aggregatedStatus
        : undefined;
    });
    assert.deepEqual(
      aggregated.map((s) => [s.clusterName, s.hard?.cpu]),
      [
        ['member1', '3'],
        ['member2', '1'],
      ],
    );
  });
});
