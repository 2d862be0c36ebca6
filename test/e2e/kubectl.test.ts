/**
 * The real kubectl against both servers built on the REST layer — the local control plane and a
 * simulated member cluster — with Karmada's own sample YAML: what a Karmada user does on day one.
 * The shared scenario runs against each; target-specific checks follow.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueToken, VIEWER_GROUP } from '../../lib/apiserver/auth.ts';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../lib/clock/clock.ts';
import { StoreEventRecorder } from '../../lib/events/recorder.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { defaultSimulation } from '../../lib/sim/config.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const SAMPLES = new URL('../fixtures/karmada/samples/', import.meta.url).pathname;
const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

let rt: LocalRuntime;

before(async () => {
  rt = await startLocalRuntime({
    inMemory: true,
    apiPort: 0,
    logLevel: 'SILENT',
    simulation: { ...defaultSimulation(1), podStartupMs: 50, jobDurationMs: 100 },
  });
});
after(() => rt.stop());

for (const target of ['control plane', 'simulated member']) {
  const isMember = target === 'simulated member';
  let kubectl: ReturnType<typeof kubectlRunner>;

  describe(`kubectl against the ${target}`, () => {
    before(() => {
      kubectl = kubectlRunner(isMember ? rt.members.get('member1')!.kubeconfig : rt.kubeconfig);
    });
    after(() => kubectl.cleanup());

    it('applies Karmada’s nginx Deployment sample', async () => {
      const out = await kubectl.ok(['apply', '-f', `${SAMPLES}nginx/deployment.yaml`]);
      assert.match(out, /deployment.apps\/nginx created/);
    });

    it('gets it as a table, as YAML, and by label', async () => {
      const table = await kubectl.ok(['get', 'deployments']);
      assert.match(table, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\n/);
      assert.match(table, /^nginx\s+\d\/2\s+\d\s+\d\s+\d+s$/m);
      const yaml = await kubectl.ok(['get', 'deployment', 'nginx', '-o', 'yaml']);
      assert.match(yaml, /replicas: 2/);
      assert.match(yaml, /uid: [0-9a-f-]{36}/);
      assert.match(await kubectl.ok(['get', 'deploy', '-l', 'app=nginx', '-o', 'name']), /^deployment.apps\/nginx$/m);
      const none = await kubectl.run(['get', 'deploy', '-l', 'app=other']);
      assert.equal(none.code, 0);
      assert.match(none.stderr, /No resources found in default namespace/);
    });

    it('re-applies with a changed image through a strategic merge patch', async () => {
      const changed = readFileSync(`${SAMPLES}nginx/deployment.yaml`, 'utf8').replace(
        /image: \S+/,
        'image: nginx:1.27.1',
      );
      assert.match(await kubectl.ok(['apply', '-f', '-'], changed), /deployment.apps\/nginx configured/);
      const d = JSON.parse(await kubectl.ok(['get', 'deploy', 'nginx', '-o', 'json']));
      assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.27.1');
      assert.equal(d.metadata.generation, 2);
      assert.equal(d.spec.template.spec.containers.length, 1, 'the container list merged by name, not appended');
    });

    it('diffs without changing anything (server-side dry run)', async () => {
      const before = JSON.parse(await kubectl.ok(['get', 'deploy', 'nginx', '-o', 'json']));
      const scaled = readFileSync(`${SAMPLES}nginx/deployment.yaml`, 'utf8')
        .replace(/image: \S+/, 'image: nginx:1.27.1')
        .replace('replicas: 2', 'replicas: 4');
      const diff = await kubectl.run(['diff', '-f', '-'], scaled);
      assert.equal(diff.code, 1, diff.stderr);
      assert.match(diff.stdout, /^-\s+replicas: 2$/m);
      assert.match(diff.stdout, /^\+\s+replicas: 4$/m);
      const afterDiff = JSON.parse(await kubectl.ok(['get', 'deploy', 'nginx', '-o', 'json']));
      assert.equal(afterDiff.metadata.resourceVersion, before.metadata.resourceVersion);
    });

    it('server-side applies: conflicts with the client-side owner, then takes over with --force-conflicts', async () => {
      const ssa =
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\n  namespace: default\nspec:\n  replicas: 3\n';
      const conflict = await kubectl.run(['apply', '--server-side', '-f', '-'], ssa);
      assert.notEqual(conflict.code, 0);
      assert.match(
        conflict.stderr,
        /Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps\/v1: \.spec\.replicas/,
      );
      assert.match(
        await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], ssa),
        /serverside-applied/,
      );
      const d = JSON.parse(await kubectl.ok(['get', 'deploy', 'nginx', '-o', 'json', '--show-managed-fields']));
      assert.equal(d.spec.replicas, 3);
      const applyEntry = d.metadata.managedFields.find(
        (m: { manager: string; operation: string }) => m.manager === 'kubectl' && m.operation === 'Apply',
      );
      assert.equal(applyEntry.fieldsType, 'FieldsV1');
      assert.ok(applyEntry.fieldsV1['f:spec']['f:replicas']);
    });

    it('replaces the object as kubectl edit would (PUT of the full object)', async () => {
      const d = JSON.parse(await kubectl.ok(['get', 'deploy', 'nginx', '-o', 'json']));
      d.metadata.labels.edited = 'yes';
      assert.match(await kubectl.ok(['replace', '-f', '-'], JSON.stringify(d)), /deployment.apps\/nginx replaced/);
      const stale = { ...d, spec: { ...d.spec, replicas: 9 } };
      const conflict = await kubectl.run(['replace', '-f', '-'], JSON.stringify(stale));
      assert.notEqual(conflict.code, 0);
      assert.match(
        conflict.stderr,
        /Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified/,
      );
    });

    it('scales through the scale subresource and waits on a condition (watch)', async () => {
      assert.match(await kubectl.ok(['scale', 'deploy', 'nginx', '--replicas=5']), /scaled/);
      await kubectl.ok(['wait', '--for=jsonpath={.spec.replicas}=5', 'deploy/nginx', '--timeout=10s']);
    });

    it('registers a CRD, then applies the FlinkDeployment of the v1.15 release notes', async () => {
      assert.match(
        await kubectl.ok(['apply', '-f', `${EXAMPLES}flink/crd.yaml`]),
        /customresourcedefinition.apiextensions.k8s.io\/flinkdeployments.flink.apache.org created/,
      );
      assert.match(
        await kubectl.ok(['apply', '-f', `${EXAMPLES}flink/flinkdeployment.yaml`]),
        /flinkdeployment.flink.apache.org\/basic-example created/,
      );
      const table = await kubectl.ok(['get', 'flinkdeployments']);
      assert.match(table, /^NAME\s+JOB STATUS\s+LIFECYCLE STATE\n/);
      const tm = JSON.parse(
        await kubectl.ok(['get', 'flinkdep', 'basic-example', '-o', 'jsonpath={.spec.taskManager}']),
      );
      assert.deepEqual(tm, { replicas: 1, resource: { cpu: 2, memory: '2048m' } });
      const crd = JSON.parse(await kubectl.ok(['get', 'crd', 'flinkdeployments.flink.apache.org', '-o', 'json']));
      assert.ok(
        crd.status.conditions.some(
          (c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True',
        ),
      );
    });

    it('accepts kubectl’s imperative create commands (protobuf bodies)', async () => {
      assert.match(await kubectl.ok(['create', 'namespace', 'imperative']), /namespace\/imperative created/);
      await kubectl.ok(['create', 'configmap', 'settings', '-n', 'imperative', '--from-literal=mode=fast']);
      await kubectl.ok(['create', 'secret', 'generic', 'creds', '-n', 'imperative', '--from-literal=user=admin']);
      await kubectl.ok(['create', 'deployment', 'web', '-n', 'imperative', '--image=nginx:1.27', '--replicas=2']);
      await kubectl.ok(['create', 'service', 'clusterip', 'web', '-n', 'imperative', '--tcp=80:8080']);
      await kubectl.ok(['create', 'role', 'reader', '-n', 'imperative', '--verb=get,list', '--resource=pods']);
      assert.equal(
        await kubectl.ok(['get', 'configmap', 'settings', '-n', 'imperative', '-o', 'jsonpath={.data.mode}']),
        'fast',
      );
      assert.equal(
        await kubectl.ok(['get', 'secret', 'creds', '-n', 'imperative', '-o', 'jsonpath={.data.user}']),
        Buffer.from('admin').toString('base64'),
      );
      const web = JSON.parse(
        await kubectl.ok(['get', 'deployment', 'web', '-n', 'imperative', '-o', 'json', '--show-managed-fields']),
      );
      assert.equal(web.spec.replicas, 2);
      assert.equal(web.spec.template.spec.containers[0].image, 'nginx:1.27');
      assert.equal(web.metadata.managedFields[0].manager, 'kubectl-create');
      assert.match(
        await kubectl.ok(['get', 'service', 'web', '-n', 'imperative', '-o', 'jsonpath={.spec.ports[0].targetPort}']),
        /^8080$/,
      );
      await kubectl.ok(['delete', 'namespace', 'imperative', '--wait=false']);
    });

    it('deletes (waiting on a watch) and the object is gone', async () => {
      assert.match(await kubectl.ok(['delete', '-f', `${EXAMPLES}flink/flinkdeployment.yaml`]), /deleted/);
      assert.match(await kubectl.ok(['delete', 'deployment', 'nginx']), /deployment.apps "nginx" deleted/);
      const gone = await kubectl.run(['get', 'deployment', 'nginx']);
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /deployments.apps "nginx" not found/);
    });

    it('deletes a namespace with everything in it', async () => {
      await kubectl.ok(['apply', '-f', '-'], 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n');
      await kubectl.ok(
        ['apply', '-n', 'team-a', '-f', '-'],
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n',
      );
      assert.match(await kubectl.ok(['delete', 'namespace', 'team-a', '--timeout=30s']), /namespace "team-a" deleted/);
      const gone = await kubectl.run(['get', 'namespace', 'team-a']);
      assert.match(gone.stderr, /namespaces "team-a" not found/);
    });

    it('refuses bad input with the message kubectl users know, and stores nothing', async () => {
      const unknown = await kubectl.run(
        ['apply', '-f', '-'],
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\ndata: {a: b}\nimmutible: true\n',
      );
      assert.match(
        unknown.stderr,
        /ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "immutible"/,
      );
      const badName = await kubectl.run(
        ['apply', '-f', '-'],
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n',
      );
      assert.match(
        badName.stderr,
        /The ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
      );
      const listed = await kubectl.ok(['get', 'configmaps', '-o', 'name']);
      assert.doesNotMatch(listed, /typo|Bad_Name/);
    });
  });
}

describe('kubectl: control-plane specifics', () => {
  let kubectl: ReturnType<typeof kubectlRunner>;
  before(() => {
    kubectl = kubectlRunner(rt.kubeconfig);
  });
  after(() => kubectl.cleanup());

  it('applies Karmada’s PropagationPolicy sample and shows Karmada’s columns and defaults', async () => {
    assert.match(
      await kubectl.ok(['apply', '-f', `${SAMPLES}nginx/propagationpolicy.yaml`]),
      /propagationpolicy.policy.karmada.io\/nginx-propagation created/,
    );
    const pp = await kubectl.ok(['get', 'pp']);
    assert.match(pp, /^NAME\s+CONFLICT-RESOLUTION\s+PRIORITY\s+AGE\n/);
    assert.match(pp, /^nginx-propagation\s+Abort\s+0\s+/m);
    const pol = JSON.parse(await kubectl.ok(['get', 'pp', 'nginx-propagation', '-o', 'json']));
    assert.match(
      pol.metadata.labels['propagationpolicy.karmada.io/permanent-id'],
      /^[0-9a-f-]{36}$/,
      "Karmada's mutating webhook adds the permanent id",
    );
  });

  it('answers kubectl auth whoami and can-i for the admin and for a viewer', async () => {
    assert.match(
      await kubectl.ok(['auth', 'whoami']),
      /^Username\s+admin\nGroups\s+\[system:masters system:authenticated\]$/m,
    );
    assert.equal((await kubectl.ok(['auth', 'can-i', 'delete', 'propagationpolicies'])).trim(), 'yes');
    assert.equal((await kubectl.ok(['auth', 'can-i', '*', '*'])).trim(), 'yes');
    const viewer = await issueToken(rt.runtime.store, { user: 'alice', groups: [VIEWER_GROUP] });
    const config = readFileSync(rt.kubeconfig, 'utf8').replace(/token: \S+/, `token: ${viewer.token}`);
    const dir = mkdtempSync(join(tmpdir(), 'viewer-'));
    writeFileSync(join(dir, 'kubeconfig'), config, { mode: 0o600 });
    const asViewer = kubectlRunner(join(dir, 'kubeconfig'));
    try {
      assert.equal((await asViewer.run(['auth', 'can-i', 'list', 'deployments'])).stdout.trim(), 'yes');
      const denied = await asViewer.run(['auth', 'can-i', 'delete', 'deployments']);
      assert.equal(denied.stdout.trim(), 'no - viewers may only get and list');
      const del = await asViewer.run(['delete', 'deployment', 'nginx']);
      assert.notEqual(del.code, 0);
      assert.match(
        del.stderr,
        /Error from server \(Forbidden\): deployments.apps "nginx" is forbidden: User "alice" cannot delete resource "deployments"/,
      );
    } finally {
      asViewer.cleanup();
    }
  });

  it('garbage-collects dependents: background, orphan and foreground cascades', async () => {
    const ownerYaml = (name: string) =>
      readFileSync(`${SAMPLES}nginx/deployment.yaml`, 'utf8')
        .replaceAll('nginx', name)
        .replace(/image: \S+/, 'image: nginx');
    const childOf = async (owner: string, child: string) => {
      await kubectl.ok(['apply', '-f', '-'], ownerYaml(owner));
      const uid = await kubectl.ok(['get', 'deployment', owner, '-o', 'jsonpath={.metadata.uid}']);
      await kubectl.ok(
        ['apply', '-f', '-'],
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${child}\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: Deployment\n    name: ${owner}\n    uid: ${uid}\n    controller: true\n    blockOwnerDeletion: true\n`,
      );
    };

    await childOf('gc-bg', 'gc-bg-child');
    await kubectl.ok(['delete', 'deployment', 'gc-bg']);
    await kubectl.ok(['wait', '--for=delete', 'configmap/gc-bg-child', '--timeout=20s']);

    await childOf('gc-orphan', 'gc-orphan-child');
    await kubectl.ok(['delete', 'deployment', 'gc-orphan', '--cascade=orphan']);
    assert.equal((await kubectl.run(['get', 'deployment', 'gc-orphan'])).code, 1, 'the owner is gone');
    assert.equal(
      await kubectl.ok(['get', 'configmap', 'gc-orphan-child', '-o', 'jsonpath={.metadata.ownerReferences}']),
      '',
      'the dependent stays, without the reference',
    );

    await childOf('gc-fg', 'gc-fg-child');
    await kubectl.ok(['delete', 'deployment', 'gc-fg', '--cascade=foreground', '--timeout=20s']);
    assert.equal((await kubectl.run(['get', 'configmap', 'gc-fg-child'])).code, 1, 'the dependent went first');
    assert.equal((await kubectl.run(['get', 'deployment', 'gc-fg'])).code, 1);
  });

  it('shows the events controllers record in kubectl describe and kubectl get events', async () => {
    // A Deployment no policy selects, so only the events recorded here are on it.
    await kubectl.ok(['create', 'deployment', 'evdemo', '--image=nginx:1.27']);
    const evdemo = await rt.runtime.store.get({
      group: 'apps',
      kind: 'Deployment',
      namespace: 'default',
      name: 'evdemo',
    });
    const recorder = new StoreEventRecorder({
      store: rt.runtime.store,
      clock: systemClock,
      component: 'resource-detector',
    });
    await recorder.record(evdemo!, 'Normal', 'ApplyPolicySucceed', 'Apply policy(default/nginx-propagation) succeed');
    await recorder.record(evdemo!, 'Warning', 'ScheduleBindingFailed', '0/3 clusters are available');
    await recorder.record(evdemo!, 'Warning', 'ScheduleBindingFailed', '0/3 clusters are available');
    const described = await kubectl.ok(['describe', 'deployment', 'evdemo']);
    assert.match(described, /^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message$/m);
    assert.match(
      described,
      /^\s+Normal\s+ApplyPolicySucceed\s+\d+s\s+resource-detector\s+Apply policy\(default\/nginx-propagation\) succeed$/m,
    );
    assert.match(
      described,
      /^\s+Warning\s+ScheduleBindingFailed\s+\d+s \(x2 over \d+s\)\s+resource-detector\s+0\/3 clusters are available$/m,
    );
    const events = await kubectl.ok(['get', 'events', '--field-selector', 'type=Warning']);
    assert.match(events, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n/);
    assert.match(
      events,
      /^\d+s\s+Warning\s+ScheduleBindingFailed\s+deployment\/evdemo\s+0\/3 clusters are available$/m,
    );
    const v1 = await kubectl.ok([
      'get',
      'events.v1.events.k8s.io',
      '--field-selector',
      'regarding.name=evdemo',
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    assert.deepEqual(v1.split(' ').sort(), ['ApplyPolicySucceed', 'ScheduleBindingFailed']);
  });
});

describe('kubectl: simulated member specifics', () => {
  let kubectl: ReturnType<typeof kubectlRunner>;
  before(() => {
    kubectl = kubectlRunner(rt.members.get('member1')!.kubeconfig);
  });
  after(() => kubectl.cleanup());

  it('accepts the agent manifest of examples/agent (server-side dry run)', async () => {
    await kubectl.ok(['create', 'namespace', 'karmada-system']);
    const out = await kubectl.ok(['apply', '--dry-run=server', '-f', `${EXAMPLES}agent/agent.yaml`]);
    assert.match(out, /deployment\.apps\/karmada-agent created \(server dry run\)/);
  });

  it('has nodes in its region and zones', async () => {
    const nodes = await kubectl.ok(['get', 'nodes', '-L', 'topology.kubernetes.io/zone']);
    assert.match(nodes, /^member1-node-1\s+Ready\s+<none>\s+\S+\s+v1\.31\.0\s+us-east-1a$/m);
  });

  it('runs a Deployment’s pods and reports it ready', async () => {
    await kubectl.ok(['apply', '-f', `${SAMPLES}nginx/deployment.yaml`]);
    await kubectl.ok(['rollout', 'status', 'deployment/nginx', '--timeout=20s']);
    const pods = await kubectl.ok(['get', 'pods', '-l', 'app=nginx']);
    assert.equal(
      pods
        .trim()
        .split('\n')
        .filter((l) => /\s1\/1\s+Running\s/.test(l)).length,
      2,
    );
    const pod = (await kubectl.ok(['get', 'pods', '-l', 'app=nginx', '-o', 'name'])).split('\n')[0]!;
    const described = await kubectl.ok(['describe', pod]);
    assert.match(
      described,
      /^\s+Normal\s+Scheduled\s+\d+s\s+default-scheduler\s+Successfully assigned default\/nginx-\S+ to member1-node-\d$/m,
    );
    assert.match(
      await kubectl.ok(['get', 'events', '--field-selector', 'involvedObject.kind=Deployment']),
      /^\d+s\s+Normal\s+SuccessfulCreate\s+deployment\/nginx\s+Created pod: nginx-\S+$/m,
    );
  });

  it('says why a pod cannot be scheduled when the cluster is full', async () => {
    const huge = readFileSync(`${SAMPLES}nginx/deployment.yaml`, 'utf8')
      .replaceAll('nginx', 'huge')
      .replace('replicas: 2', 'replicas: 1')
      .replace(/image: \S+/, 'image: nginx\n        resources: {requests: {cpu: "1000"}}');
    await kubectl.ok(['apply', '-f', '-'], huge);
    await kubectl.ok([
      'wait',
      '--for=jsonpath={.status.conditions[0].reason}=Unschedulable',
      'pod',
      '-l',
      'app=huge',
      '--timeout=20s',
    ]);
    assert.match(
      await kubectl.ok(['describe', 'pod', '-l', 'app=huge']),
      /^\s+Warning\s+FailedScheduling\s+\d+s\s+default-scheduler\s+0\/\d+ nodes are available: \d+ Insufficient cpu\.?/m,
    );
  });

  it('gives the FlinkDeployment a running status', async () => {
    await kubectl.ok(['apply', '-f', `${EXAMPLES}flink/crd.yaml`]);
    await kubectl.ok(['apply', '-f', `${EXAMPLES}flink/flinkdeployment.yaml`]);
    await kubectl.ok([
      'wait',
      '--for=jsonpath={.status.jobStatus.state}=RUNNING',
      'flinkdeployment/basic-example',
      '--timeout=20s',
    ]);
    assert.match(await kubectl.ok(['get', 'flinkdep']), /^basic-example\s+RUNNING\s+STABLE$/m);
  });
});
