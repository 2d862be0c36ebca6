/**
 * What must hold in every simulated world. `always` invariants are checked at every quiescent point
 * (no message visible), faults or not; `settled` ones after the faults stop and the control plane
 * has had time to converge. Each returns violations as sentences a person can act on.
 */
import type { KubeObject } from '../../lib/api/object.ts';
import { parseQuantity, quantityAsNumber } from '../../lib/api/quantity.ts';
import { executionNamespace } from '../../lib/api/karmada-names.ts';
import {
  MANAGED_BY_KARMADA_LABEL,
  MANAGED_BY_KARMADA_LABEL_VALUE,
  WORK_NAME_ANNOTATION,
  WORK_NAMESPACE_ANNOTATION,
} from '../../lib/api/well-known.ts';
import {
  EVICTION_REASON_APPLICATION_FAILURE,
  EVICTION_REASON_TAINT_UNTOLERATED,
} from '../../lib/core/eviction/tasks.ts';
import { chargeCovers } from '../../lib/core/quota/index.ts';
import type { ResourceBinding } from '../../lib/core/model/types.ts';
import { generateBindingName, generateWorkName } from '../../lib/core/work/names.ts';
import { NAMESPACES, QUOTA, type Workload } from './workload.ts';
import { SIM_NODE, SIM_NODES, type SimWorld } from './world.ts';

export const INVARIANTS = [
  'convergence',
  'no-lost-update',
  'no-over-commit',
  'quota',
  'last-copy',
  'dead-letters',
  'versions-forward',
  'handler-errors',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

export interface Violation {
  invariant: Invariant;
  message: string;
}

type Binding = KubeObject & {
  spec: {
    resource: { kind: string; name: string; namespace?: string };
    clusters?: { name: string; replicas?: number }[];
    replicas?: number;
    placement?: {
      clusterAffinity?: { clusterNames?: string[] };
      replicaScheduling?: {
        replicaSchedulingType?: string;
        replicaDivisionPreference?: string;
        weightPreference?: { dynamicWeight?: string };
      };
      spreadConstraints?: { maxGroups?: number }[];
    };
    replicaRequirements?: { resourceRequest?: Record<string, string> };
    gracefulEvictionTasks?: { fromCluster: string; reason?: string; creationTimestamp?: string }[];
  };
  status?: {
    conditions?: { type: string; status: string; reason?: string }[];
    aggregatedStatus?: { clusterName: string; applied?: boolean }[];
  };
};

/** The CPUs of a resource request (0 when it asks for none). */
export const cpuRequestOf = (request: Record<string, string> | undefined): number => {
  const q = request?.['cpu'];
  if (!q) return 0;
  const parsed = parseQuantity(q);
  return 'error' in parsed ? 0 : quantityAsNumber(q);
};

const imageOf = (o: KubeObject | undefined): string | undefined =>
  (o as { spec?: { template?: { spec?: { containers?: { image?: string }[] } } } } | undefined)?.spec?.template?.spec
    ?.containers?.[0]?.image;
const replicasOf = (o: KubeObject | undefined): number | undefined =>
  (o as { spec?: { replicas?: number } } | undefined)?.spec?.replicas;

async function bindings(world: SimWorld): Promise<Binding[]> {
  const out: Binding[] = [];
  for (const ns of NAMESPACES) out.push(...((await world.list('work.karmada.io', 'ResourceBinding', ns)) as Binding[]));
  return out;
}

/** Whether a binding's placement is decided by available capacity (Divided: dynamic weights or Aggregated). */
export function capacityAware(b: KubeObject): boolean {
  const scheduling = (b as Binding).spec?.placement?.replicaScheduling;
  return (
    scheduling?.replicaSchedulingType === 'Divided' &&
    (scheduling.replicaDivisionPreference === 'Aggregated' || scheduling.weightPreference?.dynamicWeight !== undefined)
  );
}

/**
 * No over-commit, checked when the scheduler gives a capacity-aware placement more on some clusters
 * (`grown`): what such placements put on each of them fits the cluster's allocatable CPUs. (Duplicated and static-weight
 * placements are not capacity-checked, in Karmada as here; their pods take room the estimate sees.)
 * Returns the violations.
 */
export async function checkPlacementFits(
  world: SimWorld,
  written: KubeObject,
  grown: readonly string[],
): Promise<string[]> {
  const capacity = SIM_NODES * quantityAsNumber(SIM_NODE.cpu);
  // Bindings that still exist, with what their placements were given when decided.
  const live = new Set(
    (await bindings(world))
      .filter((b) => !b.metadata.deletionTimestamp)
      .map((b) => `${b.metadata.namespace}/${b.metadata.name}/${b.metadata.uid}`),
  );
  const used = new Map<string, number>();
  for (const [key, placement] of world.placements) {
    if (!live.has(key) || !placement.capacityAware) continue;
    for (const [cluster, p] of placement.clusters) used.set(cluster, (used.get(cluster) ?? 0) + p.replicas * p.cpu);
  }
  const out: string[] = [];
  for (const cluster of new Set(grown)) {
    const cpu = used.get(cluster) ?? 0;
    if (cpu > capacity + 1e-9) {
      out.push(
        `placing ${written.metadata.namespace}/${written.metadata.name} brought cluster ${cluster} to ${cpu} CPUs of capacity-checked placements, more than its ${capacity} allocatable`,
      );
    }
  }
  return out;
}

/** Checked at every quiescent point, faults or not. */
export async function checkAlways(world: SimWorld, workload?: Workload): Promise<Violation[]> {
  const violations: Violation[] = [];
  const all = await bindings(world);

  for (const message of world.overCommits) violations.push({ invariant: 'no-over-commit', message });

  // Quota: what the namespace's placements render for the members (the Works of each binding's
  // clusters: replicas × the pod's CPU requests) stays within spec.overall. Works kept for a graceful
  // eviction are not counted, as Karmada counts only the placement.
  let used = 0;
  for (const b of all) {
    if (b.metadata.namespace !== QUOTA.namespace || b.metadata.deletionTimestamp) continue;
    const r = b.spec.resource;
    const workName = generateWorkName(r.kind, r.name, r.namespace);
    for (const c of b.spec.clusters ?? []) {
      const work = await world.get({
        group: 'work.karmada.io',
        kind: 'Work',
        namespace: executionNamespace(c.name),
        name: workName,
      });
      const manifest = ((work?.spec as { workload?: { manifests?: KubeObject[] } } | undefined)?.workload?.manifests ??
        [])[0];
      if (!manifest || manifest.kind !== 'Deployment') continue;
      const containers =
        (
          manifest as {
            spec?: { template?: { spec?: { containers?: { resources?: { requests?: Record<string, string> } }[] } } };
          }
        ).spec?.template?.spec?.containers ?? [];
      const perPod = containers.reduce((n, k) => n + cpuRequestOf(k.resources?.requests), 0);
      used += (replicasOf(manifest) ?? 1) * perPod;
    }
  }
  if (used > QUOTA.cpu + 1e-9) {
    violations.push({
      invariant: 'quota',
      message: `namespace ${QUOTA.namespace}'s placements render ${used} CPUs of requests to the members, over its FederatedResourceQuota's ${QUOTA.cpu}`,
    });
  }

  // The last copy: an eviction that leaves a binding no cluster to run on keeps the evicted copy (its
  // Work on the evicted cluster) until a replacement is placed.
  for (const b of all) {
    if (b.metadata.deletionTimestamp || (b.spec.clusters ?? []).length > 0) continue;
    const evictions = (b.spec.gracefulEvictionTasks ?? []).filter(
      (t) => t.reason === EVICTION_REASON_APPLICATION_FAILURE || t.reason === EVICTION_REASON_TAINT_UNTOLERATED,
    );
    if (evictions.length === 0) continue;
    // A policy changed after the eviction (narrowed to clusters that cannot take the workload) leaves
    // nowhere to go by the user's own hand, not the eviction's.
    const allowed = b.spec.placement?.clusterAffinity?.clusterNames;
    if (allowed && allowed.every((c) => evictions.some((t) => t.fromCluster === c))) continue;
    const changed = workload?.policyWrittenAt.get(`${b.metadata.namespace}/${b.spec.resource.name}`);
    const evictedAt = Math.min(...evictions.map((t) => Date.parse(t.creationTimestamp ?? '') || Infinity));
    if (changed !== undefined && changed >= evictedAt) continue;
    const resource = b.spec.resource;
    const workName = generateWorkName(resource.kind, resource.name, resource.namespace);
    let kept = false;
    for (const t of evictions) {
      const work = await world.get({
        group: 'work.karmada.io',
        kind: 'Work',
        namespace: executionNamespace(t.fromCluster),
        name: workName,
      });
      if (work && !work.metadata.deletionTimestamp) kept = true;
    }
    if (!kept) {
      violations.push({
        invariant: 'last-copy',
        message: `${b.metadata.namespace}/${b.metadata.name} was evicted from ${evictions.map((t) => t.fromCluster).join(', ')} and its copy removed, with no cluster placed to replace it`,
      });
    }
  }

  for (const message of world.versions.violations) violations.push({ invariant: 'versions-forward', message });
  return violations;
}

/** How much the settled check looked at (a run that verified nothing proves nothing). */
export interface Checked {
  /** Templates with a policy whose binding, Works and member copies were compared. */
  placed: number;
  /** Member copies compared with their template. */
  copies: number;
  /** Dependencies (ConfigMaps) found following their workload. */
  dependencies: number;
  /** Managed member objects checked against the Works that ask for them. */
  memberObjects: number;
}

/** Checked once the faults have stopped and the control plane has had time to settle. */
export async function checkSettled(
  world: SimWorld,
  workload: Workload,
  checked: Checked = { placed: 0, copies: 0, dependencies: 0, memberObjects: 0 },
): Promise<Violation[]> {
  const violations: Violation[] = [];
  const fail = (invariant: Invariant, message: string) => violations.push({ invariant, message });
  const clusters = [...world.members.keys()];

  // No lost update: the table holds what the last accepted write said.
  for (const w of workload.accepted.values()) {
    const ref = { group: w.kind === 'Deployment' ? 'apps' : '', kind: w.kind, namespace: w.namespace, name: w.name };
    const stored = await world.get(ref);
    if (w.deleted) {
      if (stored && !stored.metadata.deletionTimestamp)
        fail('no-lost-update', `${w.kind} ${w.namespace}/${w.name} was deleted (accepted) but is still stored`);
      continue;
    }
    if (!stored) {
      fail('no-lost-update', `${w.kind} ${w.namespace}/${w.name} was written (accepted) but is gone`);
      continue;
    }
    const expected = JSON.stringify(
      w.kind === 'Deployment' ? (w.object as { spec?: unknown }).spec : (w.object as { data?: unknown }).data,
    );
    const actual = JSON.stringify(
      w.kind === 'Deployment' ? (stored as { spec?: unknown }).spec : (stored as { data?: unknown }).data,
    );
    if (expected !== actual)
      fail('no-lost-update', `${w.kind} ${w.namespace}/${w.name} in the table differs from its last accepted write`);
  }

  // Convergence: every live template with a policy is placed as the policy says, rendered into
  // Works, and on exactly the members its Works name, with the content of its last accepted write.
  const all = await bindings(world);
  const byName = new Map(all.map((b) => [`${b.metadata.namespace}/${b.metadata.name}`, b]));
  for (const w of workload.accepted.values()) {
    if (w.kind !== 'Deployment' || w.deleted) continue;
    const id = `${w.namespace}/${w.name}`;
    const policy = await world.get({
      group: 'policy.karmada.io',
      kind: 'PropagationPolicy',
      namespace: w.namespace,
      name: w.name,
    });
    if (!policy || policy.metadata.deletionTimestamp) continue;
    const template = await world.get({ group: 'apps', kind: 'Deployment', namespace: w.namespace, name: w.name });
    if (!template) continue;
    const binding = byName.get(`${w.namespace}/${generateBindingName('Deployment', w.name)}`);
    if (!binding) {
      fail('convergence', `Deployment ${id} has a PropagationPolicy but no ResourceBinding`);
      continue;
    }
    const scheduled = binding.status?.conditions?.find((c) => c.type === 'Scheduled');
    const placed = binding.spec.clusters ?? [];
    if (placed.length > 0) checked.placed++;
    const replicas = replicasOf(template) ?? 1;
    if (scheduled?.status === 'True') {
      const affinity = (policy.spec as Binding['spec']).placement?.clusterAffinity?.clusterNames;
      const outside = placed.filter((c) => affinity && !affinity.includes(c.name));
      if (outside.length)
        fail(
          'convergence',
          `${id} is placed on ${outside.map((c) => c.name).join(', ')}, outside its policy's clusterAffinity`,
        );
      const type = binding.spec.placement?.replicaScheduling?.replicaSchedulingType;
      const sum = placed.reduce((n, c) => n + (c.replicas ?? 0), 0);
      if (type === 'Divided' && sum !== replicas)
        fail('convergence', `${id} (Divided) has ${sum} replicas placed for ${replicas} wanted`);
      if (type === 'Duplicated' && placed.some((c) => c.replicas !== replicas))
        fail('convergence', `${id} (Duplicated) is not placed with ${replicas} replicas on every cluster`);
      if (placed.length === 0) fail('convergence', `${id} is Scheduled with no cluster`);
    }
    // Held by its quota (requests or replicas raised past it): the members keep what was admitted, so
    // the rollout of the latest template is not expected; only where it runs is.
    const held = scheduled?.status === 'False' && scheduled.reason === 'QuotaExceeded';
    // An evicted copy is kept while nothing replaces it (the binding placed nowhere): that is the
    // last-copy rule at work, not a task that failed to end.
    const keptCopies = new Set(
      placed.length === 0 ? (binding.spec.gracefulEvictionTasks ?? []).map((t) => t.fromCluster) : [],
    );
    if ((binding.spec.gracefulEvictionTasks ?? []).length > 0 && keptCopies.size === 0)
      fail('convergence', `${id} still has graceful eviction tasks long after the faults stopped`);
    const statusClusters = (binding.status?.aggregatedStatus ?? [])
      .filter((s) => s.applied)
      .map((s) => s.clusterName)
      .sort();
    const wantStatus = placed.map((c) => c.name).sort();
    if (!held && JSON.stringify(statusClusters) !== JSON.stringify(wantStatus))
      fail('convergence', `${id}'s aggregated status covers [${statusClusters}] but it is placed on [${wantStatus}]`);

    const workName = generateWorkName('Deployment', w.name, w.namespace);
    for (const cluster of clusters) {
      const target = placed.find((c) => c.name === cluster);
      const work = await world.get({
        group: 'work.karmada.io',
        kind: 'Work',
        namespace: executionNamespace(cluster),
        name: workName,
      });
      const member = world.members.get(cluster)!;
      const live = await member.store.get({ group: 'apps', kind: 'Deployment', namespace: w.namespace, name: w.name });
      if (!target) {
        if (keptCopies.has(cluster)) continue;
        if (work && !work.metadata.deletionTimestamp)
          fail('convergence', `${id} has a Work on ${cluster}, where it is not placed`);
        if (live?.metadata.labels?.[MANAGED_BY_KARMADA_LABEL])
          fail('convergence', `${id} is still on member ${cluster}, where it is not placed`);
        continue;
      }
      if (!work) {
        // A cluster placed (and charged) before the edit the quota refused, not rendered by then: its
        // Work would be rendered from the refused template, so it waits with the rest of the rollout.
        if (held && !chargeCovers(binding as ResourceBinding)) continue;
        fail('convergence', `${id} is placed on ${cluster} but has no Work there`);
        continue;
      }
      const manifest = ((work.spec as { workload?: { manifests?: KubeObject[] } }).workload?.manifests ?? []).find(
        (m) => m.kind === 'Deployment',
      );
      if (held) continue;
      if (imageOf(manifest) !== imageOf(template))
        fail(
          'convergence',
          `${id}'s Work on ${cluster} renders image ${imageOf(manifest)}, the template says ${imageOf(template)}`,
        );
      if (!live) {
        fail('convergence', `${id} is placed on ${cluster} but the member does not have it`);
        continue;
      }
      checked.copies++;
      if (imageOf(live) !== imageOf(template))
        fail(
          'no-lost-update',
          `${id} on member ${cluster} runs ${imageOf(live)}, the last accepted write says ${imageOf(template)}`,
        );
      if (replicasOf(live) !== target.replicas)
        fail(
          'convergence',
          `${id} on member ${cluster} has ${replicasOf(live)} replicas, its placement ${target.replicas}`,
        );
      const override = await world.get({
        group: 'policy.karmada.io',
        kind: 'OverridePolicy',
        namespace: w.namespace,
        name: `${w.name}-ov`,
      });
      const overridden = (
        override?.spec as { overrideRules?: { targetCluster?: { clusterNames?: string[] } }[] } | undefined
      )?.overrideRules?.some((r) => r.targetCluster?.clusterNames?.includes(cluster));
      const label = live.metadata.labels?.['sim.example.com/override'];
      if (overridden && label !== cluster)
        fail('convergence', `${id} on member ${cluster} lacks its OverridePolicy's label`);
      if (!overridden && label !== undefined)
        fail('convergence', `${id} on member ${cluster} keeps the label of a removed override`);
      // Its ConfigMap dependency follows it.
      const cm = (
        template as {
          spec?: { template?: { spec?: { containers?: { envFrom?: { configMapRef?: { name?: string } }[] }[] } } };
        }
      ).spec?.template?.spec?.containers?.[0]?.envFrom?.[0]?.configMapRef?.name;
      const cmWrite = cm ? workload.accepted.get(`ConfigMap/${w.namespace}/${cm}`) : undefined;
      if (cm && cmWrite && !cmWrite.deleted) {
        const liveCm = await member.store.get({ group: '', kind: 'ConfigMap', namespace: w.namespace, name: cm });
        const want = JSON.stringify((cmWrite.object as { data?: unknown }).data);
        if (liveCm) checked.dependencies++;
        if (!liveCm) fail('convergence', `${id}'s ConfigMap ${cm} did not follow it to ${cluster}`);
        else if (JSON.stringify((liveCm as { data?: unknown }).data) !== want)
          fail('no-lost-update', `ConfigMap ${w.namespace}/${cm} on ${cluster} is not at its last accepted write`);
      }
    }
  }

  // Nothing on a member that no Work asks for; nothing a Work asks for missing from its member.
  for (const cluster of clusters) {
    const member = world.members.get(cluster)!;
    const works = await world.list('work.karmada.io', 'Work', executionNamespace(cluster));
    const wanted = new Set(works.filter((w) => !w.metadata.deletionTimestamp).map((w) => w.metadata.name));
    for (const ns of NAMESPACES) {
      for (const kind of [
        { group: 'apps', kind: 'Deployment' },
        { group: '', kind: 'ConfigMap' },
      ]) {
        const page = await member.store.list({ ...kind, namespace: ns });
        for (const o of page.items) {
          if (o.metadata.labels?.[MANAGED_BY_KARMADA_LABEL] !== MANAGED_BY_KARMADA_LABEL_VALUE) continue;
          checked.memberObjects++;
          const workName = o.metadata.annotations?.[WORK_NAME_ANNOTATION];
          const workNs = o.metadata.annotations?.[WORK_NAMESPACE_ANNOTATION];
          if (workNs !== executionNamespace(cluster) || !workName || !wanted.has(workName))
            fail(
              'convergence',
              `${kind.kind} ${ns}/${o.metadata.name} is on member ${cluster} with no Work asking for it`,
            );
        }
      }
    }
  }

  const dead = world.deadLetters();
  for (const [queue, depth] of Object.entries(dead)) fail('dead-letters', `${depth} message(s) in ${queue}`);
  return violations;
}
