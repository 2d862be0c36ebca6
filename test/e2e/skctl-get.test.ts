/**
 * `skctl get` against the local control plane and a simulated member: the server's columns,
 * kubectl's output formats, and the errors a user sees.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { runGet } from '../../lib/cli/get.ts';
import { UsageError } from '../../lib/cli/args.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { defaultSimulation } from '../../lib/sim/config.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const SAMPLES = new URL('../fixtures/karmada/samples/', import.meta.url).pathname;

let rt: LocalRuntime;
let kubectl: ReturnType<typeof kubectlRunner>;

before(async () => {
  rt = await startLocalRuntime({
    inMemory: true,
    apiPort: 0,
    logLevel: 'SILENT',
    simulation: { ...defaultSimulation(1), podStartupMs: 50 },
  });
  kubectl = kubectlRunner(rt.kubeconfig);
  await kubectl.ok(['apply', '-f', `${SAMPLES}nginx/deployment.yaml`]);
  await kubectl.ok(['apply', '-f', `${SAMPLES}nginx/propagationpolicy.yaml`]);
});
after(async () => {
  kubectl.cleanup();
  await rt.stop();
});

async function get(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const hasConfig = args.includes('--kubeconfig');
  const code = await runGet(
    [...args, ...(hasConfig ? [] : ['--kubeconfig', rt.kubeconfig])],
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('skctl get', () => {
  it('prints the server’s table, as kubectl does', async () => {
    const r = await get('deployments');
    assert.equal(r.code, 0, r.err);
    // The columns, not the rollout: the members' status may or may not have come back yet.
    assert.match(r.out, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nnginx\s+[0-2]\/2\s+[0-2]\s+[0-2]\s+\d+s$/);
    const pp = await get('pp', '-A');
    assert.match(
      pp.out,
      /^NAMESPACE\s+NAME\s+CONFLICT-RESOLUTION\s+PRIORITY\s+AGE\ndefault\s+nginx-propagation\s+Abort\s+0\s+\d+s$/,
    );
  });

  it('resolves short names, kinds and group-qualified names', async () => {
    for (const name of ['deploy', 'Deployment', 'deployments.apps', 'deployment.v1.apps']) {
      assert.match((await get(name, '-o', 'name')).out, /^deployment\.apps\/nginx$/, name);
    }
    assert.match(
      (await get('propagationpolicies.policy.karmada.io', '-o', 'name')).out,
      /^propagationpolicy\.policy\.karmada\.io\/nginx-propagation$/,
    );
  });

  it('prints YAML and JSON of one object and of lists', async () => {
    const one = parse((await get('deploy', 'nginx', '-o', 'yaml')).out);
    assert.equal(one.kind, 'Deployment');
    assert.equal(one.spec.replicas, 2);
    const list = JSON.parse((await get('deploy,pp', '-o', 'json')).out);
    assert.equal(list.kind, 'List');
    assert.deepEqual(
      list.items.map((i: { kind: string }) => i.kind),
      ['Deployment', 'PropagationPolicy'],
    );
  });

  it('prints several types one after another with qualified names', async () => {
    const r = await get('deploy,pp');
    assert.match(r.out, /^NAME\s+READY.*\ndeployment\.apps\/nginx\s+[0-2]\/2.*\n\nNAME\s+CONFLICT-RESOLUTION/);
  });

  it('filters by label and field selectors', async () => {
    assert.match((await get('deploy', '-l', 'app=nginx', '-o', 'name')).out, /nginx/);
    const none = await get('deploy', '-l', 'app=other');
    assert.equal(none.out, '');
    assert.equal(none.err, 'No resources found in default namespace.');
    const byField = await get('ns', '--field-selector', 'metadata.name=default', '--no-headers');
    assert.match(byField.out, /^default\s+Active\s+\d+s$/);
  });

  it('pages through long lists, as kubectl does', async () => {
    const store = rt.runtime.store;
    await store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paged' } });
    const names = Array.from({ length: 520 }, (_, i) => `cm-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 40)
      await Promise.all(
        names
          .slice(i, i + 40)
          .map((name) =>
            store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'paged' }, data: {} }),
          ),
      );
    const table = await get('cm', '-n', 'paged', '--no-headers');
    assert.equal(table.out.split('\n').length, 520);
    const list = JSON.parse((await get('cm', '-n', 'paged', '-o', 'json')).out);
    assert.equal(list.items.length, 520);
  });

  it('works against a simulated member with its kubeconfig, including wide columns', async () => {
    const r = await get('nodes', '-o', 'wide', '--kubeconfig', rt.members.get('member1')!.kubeconfig);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP/);
    assert.match(r.out, /^member1-node-1\s+Ready\s/m);
  });

  it('reports what the server says, and a usage error for a bad request', async () => {
    const missing = await get('deploy', 'nope');
    assert.equal(missing.code, 1);
    assert.equal(missing.err, 'Error from server (NotFound): deployments.apps "nope" not found');
    const unknown = await get('widgets');
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /the server doesn't have a resource type "widgets"/);
    await assert.rejects(
      get('deploy', '-o', 'xml'),
      (e: Error) => e instanceof UsageError && /--output must be one of/.test(e.message),
    );
    await assert.rejects(
      get('--kubeconfig', '/nonexistent/kubeconfig', 'deploy'),
      /no kubeconfig at \/nonexistent\/kubeconfig/,
    );
  });

  it('refuses a token the server does not know', async () => {
    const { readFileSync, writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const bad = join(mkdtempSync(join(tmpdir(), 'skctl-get-')), 'kubeconfig');
    writeFileSync(bad, readFileSync(rt.kubeconfig, 'utf8').replace(/token: \S+/, 'token: skt_nope_nope'));
    const r = await get('deploy', '--kubeconfig', bad);
    assert.equal(r.code, 1);
    assert.equal(r.err, 'error: You must be logged in to the server (Unauthorized)');
  });
});
