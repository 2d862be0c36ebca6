/**
 * ResourceQuotas on a simulated member get the resource quota controller's status: `hard` as given,
 * `used` summed over the namespace's non-terminal pods (effective requests and limits) and counted
 * over its objects, in canonical quantities; usage follows scaling. The pure status function is
 * checked row by row for the pod arithmetic (init containers, sidecars, limits-only containers,
 * terminal pods) and the keys it leaves out.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import type { GroupKind, KubeObject } from '../../../lib/api/object.ts';
import { type QuotaSnapshot, resourceQuotaStatus } from '../../../lib/sim/controllers/resource-quota.ts';
import { type SimulatedMember } from '../../../lib/sim/member.ts';
import { eventually } from '../../support/eventually.ts';
import { simulatedMemberFixture } from '../../support/sim-member.ts';
import { deployment } from '../../support/factories.ts';

type Obj = Record<string, unknown>;

const fixture = simulatedMemberFixture('q');
const start = () => fixture.start();

function quota(name: string, hard: Record<string, string>, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace }, spec: { hard } };
}

function withResources(d: KubeObject, resources: Obj): KubeObject {
  (d.spec as { template: { spec: { containers: Obj[] } } }).template.spec.containers[0]!.resources = resources;
  return d;
}

/** Waits until the quota's status is `hard` as its spec and `used` exactly `want`; returns the status. */
async function usedBecomes(m: SimulatedMember, name: string, want: Record<string, string>): Promise<Obj> {
  return eventually(`quota ${name} used ${JSON.stringify(want)}`, async () => {
    const q = await m.store.get({ group: '', kind: 'ResourceQuota', namespace: 'default', name });
    const status = (q?.status ?? {}) as Obj;
    return isDeepStrictEqual(status.hard, (q?.spec as Obj | undefined)?.hard) && isDeepStrictEqual(status.used, want)
      ? status
      : undefined;
  });
}

async function scale(m: SimulatedMember, name: string, replicas: number): Promise<void> {
  const current = (await m.store.get({ group: 'apps', kind: 'Deployment', namespace: 'default', name }))!;
  await m.store.update({ ...current, spec: { ...(current.spec as Obj), replicas } });
}

describe('simulated ResourceQuota status', () => {
  it('sums requests and limits of a Deployment’s pods, counts pods and Deployments, and follows scaling', async () => {
    const m = await start();
    const hard = { 'requests.cpu': '2', 'limits.memory': '1Gi', pods: '10', 'count/deployments.apps': '5' };
    await m.store.create(quota('compute', hard));
    const empty = await usedBecomes(m, 'compute', {
      'requests.cpu': '0',
      'limits.memory': '0',
      pods: '0',
      'count/deployments.apps': '0',
    });
    assert.deepEqual(empty.hard, hard);

    await m.store.create(
      withResources(deployment('web', { replicas: 3 }), { requests: { cpu: '100m' }, limits: { memory: '128Mi' } }),
    );
    await usedBecomes(m, 'compute', {
      'requests.cpu': '300m',
      'limits.memory': '384Mi',
      pods: '3',
      'count/deployments.apps': '1',
    });

    await scale(m, 'web', 1);
    await usedBecomes(m, 'compute', {
      'requests.cpu': '100m',
      'limits.memory': '128Mi',
      pods: '1',
      'count/deployments.apps': '1',
    });
  });

  it('counts bare `cpu` and `memory` as requests, objects by legacy name, and leaves out unknown keys', async () => {
    const m = await start();
    await m.store.create(
      withResources(deployment('api', { replicas: 2 }), { requests: { cpu: '250m', memory: '64Mi' } }),
    );
    await m.store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' } });
    await m.store.create(
      quota('bare', {
        cpu: '4',
        memory: '4Gi',
        configmaps: '10',
        'count/pods': '20',
        'count/widgets.example.com': '1',
      }),
    );
    await usedBecomes(m, 'bare', {
      cpu: '500m',
      memory: '128Mi',
      configmaps: '1',
      'count/pods': '2',
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// The status function on its own: a snapshot of pods and objects, one row per behaviour

function pod(
  name: string,
  spec: Obj,
  options: { phase?: string; deleting?: boolean; namespace?: string } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: options.namespace ?? 'ns',
      ...(options.deleting ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec,
    status: { phase: options.phase ?? 'Running' },
  };
}

const container = (resources: Obj, extra: Obj = {}): Obj => ({ name: 'c', image: 'i', resources, ...extra });

function snapshot(objects: KubeObject[]): QuotaSnapshot {
  const kinds: Record<string, GroupKind> = {
    'pods/': { group: '', kind: 'Pod' },
    'deployments/apps': { group: 'apps', kind: 'Deployment' },
  };
  return {
    kindOf: (resource, group) => kinds[`${resource}/${group}`],
    objects: (gk, namespace) =>
      objects.filter(
        (o) =>
          o.kind === gk.kind &&
          o.metadata.namespace === namespace &&
          (o.apiVersion.split('/').at(-2) ?? '') === gk.group,
      ),
  };
}

const usedOf = (hard: Record<string, string>, objects: KubeObject[]) =>
  resourceQuotaStatus(quota('q', hard, 'ns'), snapshot(objects)).used;

describe('resourceQuotaStatus', () => {
  const cases: { name: string; hard: Record<string, string>; objects: KubeObject[]; used: Record<string, string> }[] = [
    {
      name: 'a pod requests the larger of its containers’ sum and its largest init container',
      hard: { 'requests.cpu': '8', 'requests.memory': '8Gi' },
      objects: [
        pod('p', {
          containers: [
            container({ requests: { cpu: '100m', memory: '1Gi' } }),
            container({ requests: { cpu: '200m' } }),
          ],
          initContainers: [container({ requests: { cpu: '1', memory: '256Mi' } })],
        }),
      ],
      used: { 'requests.cpu': '1', 'requests.memory': '1Gi' },
    },
    {
      name: 'a sidecar init container adds to the containers',
      hard: { 'requests.cpu': '8' },
      objects: [
        pod('p', {
          containers: [container({ requests: { cpu: '500m' } })],
          initContainers: [container({ requests: { cpu: '250m' } }, { restartPolicy: 'Always' })],
        }),
      ],
      used: { 'requests.cpu': '750m' },
    },
    {
      name: 'a container with only limits requests its limits',
      hard: { 'requests.cpu': '8', 'limits.cpu': '8', 'requests.memory': '8Gi' },
      objects: [pod('p', { containers: [container({ limits: { cpu: '1500m', memory: '2Gi' } })] })],
      used: { 'requests.cpu': '1500m', 'limits.cpu': '1500m', 'requests.memory': '2Gi' },
    },
    {
      name: 'terminal and deleted pods use nothing, but `count/pods` counts every pod',
      hard: { pods: '10', 'count/pods': '10', cpu: '8' },
      objects: [
        pod('running', { containers: [container({ requests: { cpu: '1' } })] }),
        pod('done', { containers: [container({ requests: { cpu: '1' } })] }, { phase: 'Succeeded' }),
        pod('failed', { containers: [container({ requests: { cpu: '1' } })] }, { phase: 'Failed' }),
        pod('leaving', { containers: [container({ requests: { cpu: '1' } })] }, { deleting: true }),
      ],
      used: { pods: '1', 'count/pods': '4', cpu: '1' },
    },
    {
      name: 'extended resources count bare and as requests; overhead adds to requests',
      hard: { 'nvidia.com/gpu': '4', 'requests.nvidia.com/gpu': '4', 'requests.cpu': '8' },
      objects: [
        pod('p', {
          containers: [container({ requests: { cpu: '100m' }, limits: { 'nvidia.com/gpu': '2' } })],
          overhead: { cpu: '50m' },
        }),
      ],
      used: { 'nvidia.com/gpu': '2', 'requests.nvidia.com/gpu': '2', 'requests.cpu': '150m' },
    },
    {
      name: 'keys nothing computes are left out; other namespaces do not count',
      hard: { 'count/widgets.example.com': '1', 'requests.cpu': '1', 'example.com': '1' },
      objects: [pod('elsewhere', { containers: [container({ requests: { cpu: '1' } })] }, { namespace: 'other' })],
      used: { 'requests.cpu': '0' },
    },
    {
      name: 'sums print canonically across units',
      hard: { 'requests.memory': '8Gi', 'limits.cpu': '8' },
      objects: [
        pod('a', { containers: [container({ requests: { memory: '512Mi' }, limits: { cpu: '0.5' } })] }),
        pod('b', { containers: [container({ requests: { memory: '0.5Gi' }, limits: { cpu: '500m' } })] }),
      ],
      used: { 'requests.memory': '1Gi', 'limits.cpu': '1' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(usedOf(c.hard, c.objects), c.used);
    });
  }

  it('reports `hard` as given', () => {
    const hard = { cpu: '1000m', memory: '1024Mi' };
    assert.deepEqual(resourceQuotaStatus(quota('q', hard, 'ns'), snapshot([])), {
      hard,
      used: { cpu: '0', memory: '0' },
    });
  });
});
