/**
 * ResourceQuotas get a status, as kube-controller-manager's resource quota controller computes it
 * (`pkg/controller/resourcequota` with the evaluators of `pkg/quota/v1/evaluator/core`): `hard` is
 * `spec.hard` as given, `used` has an entry for every key of `spec.hard` that can be computed, in
 * Go's canonical quantity text (`3`, `300m`, `384Mi`; `0` when nothing counts):
 * - compute resources of the namespace's non-terminal pods (not Succeeded, Failed or being
 *   deleted): `cpu`, `memory`, `ephemeral-storage`, `hugepages-<size>` and extended resources
 *   (`nvidia.com/gpu`), bare or as `requests.<name>`, sum the pods' effective requests;
 *   `limits.<name>` sums their effective limits; `pods` counts those pods;
 * - object counts: `count/<resource>.<group>` (`count/deployments.apps`, `count/pods` for every pod,
 *   terminal ones included) for any namespaced kind the member serves, built-in or from a CRD, and
 *   the legacy `services`, `configmaps`, `secrets`, `persistentvolumeclaims`,
 *   `replicationcontrollers`, `resourcequotas`;
 * - `services.loadbalancers`, `services.nodeports`, `requests.storage` and the per-storage-class
 *   `<class>.storageclass.storage.k8s.io/requests.storage` and `.../persistentvolumeclaims`.
 *
 * Unlike Kubernetes, bare extended resources and `limits.<extended>` are counted too (the API server
 * rejects neither; kube's evaluators leave them out of `used`). Quota `scopes` and `scopeSelector`
 * are ignored: every pod of the namespace counts. The quota is only reported, never enforced: the
 * simulator's API server admits pods over it.
 */
import type { GroupKind, KubeObject } from '../../api/object.ts';
import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  type Quantity,
  readQuantity,
  ZERO_QUANTITY,
} from '../../api/quantity.ts';
import { controlPlaneBuiltins, nodeDef } from '../../kube/builtin/kinds.ts';
import { deepEqual } from '../../util/json.ts';
import { active, field, type Obj, type SimContext } from './context.ts';

const QUOTA = { group: '', kind: 'ResourceQuota' } as const;
const POD = { group: '', kind: 'Pod' } as const;
const SERVICE = { group: '', kind: 'Service' } as const;
const PVC = { group: '', kind: 'PersistentVolumeClaim' } as const;
const CRD = { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' } as const;

/** The object counts quota had before `count/<resource>.<group>`, all in the core group. */
const LEGACY_COUNTS: Record<string, GroupKind> = {
  services: SERVICE,
  configmaps: { group: '', kind: 'ConfigMap' },
  secrets: { group: '', kind: 'Secret' },
  persistentvolumeclaims: PVC,
  replicationcontrollers: { group: '', kind: 'ReplicationController' },
  resourcequotas: QUOTA,
};

const STORAGE_CLASS_INFIX = '.storageclass.storage.k8s.io/';

type Resources = Map<string, Quantity>;

/** A namespaced resource a `count/` key may name. */
interface CountableResource extends GroupKind {
  plural: string;
}

/** What the quotas of one pass are computed from. */
export interface QuotaSnapshot {
  /** The namespaced kind served as `resource` in `group`, if any. */
  kindOf(resource: string, group: string): GroupKind | undefined;
  /** The objects of a kind in a namespace (none when the kind was not loaded). */
  objects(gk: GroupKind, namespace: string): readonly KubeObject[];
}

function addInto(into: Resources, add: Resources, onlyPresent = false): void {
  for (const [k, v] of add) {
    const cur = into.get(k);
    if (cur) into.set(k, addQuantities(cur, v));
    else if (!onlyPresent) into.set(k, v);
  }
}

function maxInto(into: Resources, other: Resources): void {
  for (const [k, v] of other) {
    const cur = into.get(k);
    if (!cur || compareQuantities(v, cur) > 0) into.set(k, v);
  }
}

function resourceList(value: unknown): Resources {
  const out: Resources = new Map();
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Obj)) {
    const q = readQuantity(v);
    if (q) out.set(k, q);
  }
  return out;
}

/** A container's requests, with the API server's default: a resource with only a limit requests it. */
function containerResources(c: Obj): { requests: Resources; limits: Resources } {
  const limits = resourceList(field(c, 'resources', 'limits'));
  const requests = resourceList(field(c, 'resources', 'requests'));
  for (const [k, v] of limits) if (!requests.has(k)) requests.set(k, v);
  return { requests, limits };
}

/**
 * A pod's effective requests and limits, as `resourcehelper.PodRequests`/`PodLimits`: the containers
 * summed, each init container max-merged (sidecars, `restartPolicy: Always`, run alongside: they add
 * to the containers and to every later init container), plus `spec.overhead` (on limits only where a
 * limit is set).
 */
export function podUsage(pod: KubeObject): { requests: Resources; limits: Resources } {
  const spec = (pod.spec ?? {}) as Obj;
  const list = (v: unknown) => (Array.isArray(v) ? (v as Obj[]) : []);
  const total = (which: 'requests' | 'limits') => {
    const sum: Resources = new Map();
    for (const c of list(spec.containers)) addInto(sum, containerResources(c)[which]);
    const sidecars: Resources = new Map();
    const init: Resources = new Map();
    for (const c of list(spec.initContainers)) {
      const own = containerResources(c)[which];
      if (c.restartPolicy === 'Always') {
        addInto(sum, own);
        addInto(sidecars, own);
      } else {
        const withSidecars = new Map(own);
        addInto(withSidecars, sidecars);
        maxInto(init, withSidecars);
      }
    }
    maxInto(sum, init);
    addInto(sum, resourceList(spec.overhead), which === 'limits');
    return sum;
  };
  return { requests: total('requests'), limits: total('limits') };
}

/** `cpu`, `memory`, `ephemeral-storage`, `hugepages-*` or an extended resource (`nvidia.com/gpu`). */
function isComputeResource(name: string): boolean {
  if (name === 'cpu' || name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-')) return true;
  // kube's IsExtendedResourceName: a domain-qualified name outside kubernetes.io (quota's own
  // qualified keys, `count/...` and storage-class keys, are not resources of a container).
  return (
    name.includes('/') &&
    !name.includes('kubernetes.io/') &&
    !name.startsWith('count/') &&
    !name.startsWith('requests.') &&
    !name.startsWith('limits.') &&
    !name.includes(STORAGE_CLASS_INFIX)
  );
}

/** The pod totals a compute key sums: `requests.cpu` and `cpu` the requests, `limits.cpu` the limits. */
function computeKey(key: string): { from: 'requests' | 'limits'; name: string } | undefined {
  for (const from of ['requests', 'limits'] as const) {
    const name = key.startsWith(`${from}.`) ? key.slice(from.length + 1) : undefined;
    if (name !== undefined) return isComputeResource(name) ? { from, name } : undefined;
  }
  return isComputeResource(key) ? { from: 'requests', name: key } : undefined;
}

/**
 * The resource a `count/<resource>.<group>` key counts (`count/deployments.apps` →
 * `deployments` in `apps`, `count/pods` → `pods` in the core group); undefined for other keys.
 */
export function countedResource(key: string): { resource: string; group: string } | undefined {
  if (!key.startsWith('count/')) return undefined;
  const rest = key.slice('count/'.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { resource: rest, group: '' } : { resource: rest.slice(0, dot), group: rest.slice(dot + 1) };
}

const quantityOf = (n: number): string => formatQuantity({ unscaled: BigInt(n), scale: 0, format: 'DecimalSI' });

/** `services.nodeports`: every port of a NodePort service; of a LoadBalancer, unless it allocates none. */
function nodePorts(svc: KubeObject): number {
  const spec = (svc.spec ?? {}) as { type?: string; ports?: Obj[]; allocateLoadBalancerNodePorts?: boolean };
  const ports = spec.ports ?? [];
  if (spec.type === 'NodePort') return ports.length;
  if (spec.type !== 'LoadBalancer') return 0;
  return spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
}

/** `GetPersistentVolumeClaimClass`: the beta annotation wins over `spec.storageClassName`. */
function pvcClass(pvc: KubeObject): string | undefined {
  const beta = pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (beta !== undefined) return beta;
  const named = field(pvc, 'spec', 'storageClassName');
  return typeof named === 'string' ? named : undefined;
}

function sum(values: Iterable<Quantity | undefined>): Quantity {
  let total = ZERO_QUANTITY;
  for (const v of values) if (v) total = addQuantities(total, v);
  return total;
}

/**
 * The `used` entry of one `spec.hard` key, or undefined when it cannot be computed.
 * `pods` are the namespace's non-terminal pods' usage.
 */
function usedOf(
  key: string,
  namespace: string,
  pods: readonly { requests: Resources; limits: Resources }[],
  snapshot: QuotaSnapshot,
): string | undefined {
  if (key === 'pods') return quantityOf(pods.length);
  const legacy = LEGACY_COUNTS[key];
  if (legacy) return quantityOf(snapshot.objects(legacy, namespace).length);
  const counted = countedResource(key);
  if (counted) {
    const gk = snapshot.kindOf(counted.resource, counted.group);
    return gk ? quantityOf(snapshot.objects(gk, namespace).length) : undefined;
  }
  if (key === 'services.loadbalancers')
    return quantityOf(
      snapshot.objects(SERVICE, namespace).filter((s) => field(s, 'spec', 'type') === 'LoadBalancer').length,
    );
  if (key === 'services.nodeports')
    return quantityOf(snapshot.objects(SERVICE, namespace).reduce((n, s) => n + nodePorts(s), 0));
  const claims = snapshot.objects(PVC, namespace);
  const storage = (pvc: KubeObject) => readQuantity(field(pvc, 'spec', 'resources', 'requests', 'storage'));
  if (key === 'requests.storage') return formatQuantity(sum(claims.map(storage)));
  const infix = key.indexOf(STORAGE_CLASS_INFIX);
  if (infix > 0) {
    const inClass = claims.filter((pvc) => pvcClass(pvc) === key.slice(0, infix));
    const what = key.slice(infix + STORAGE_CLASS_INFIX.length);
    if (what === 'requests.storage') return formatQuantity(sum(inClass.map(storage)));
    if (what === 'persistentvolumeclaims') return quantityOf(inClass.length);
    return undefined;
  }
  const compute = computeKey(key);
  if (!compute) return undefined;
  return formatQuantity(sum(pods.map((p) => p[compute.from].get(compute.name))));
}

/** The status the resource quota controller would write for `quota`. */
export function resourceQuotaStatus(quota: KubeObject, snapshot: QuotaSnapshot): Obj {
  const hard = (field(quota, 'spec', 'hard') ?? {}) as Obj;
  const namespace = quota.metadata.namespace ?? '';
  const pods = snapshot.objects(POD, namespace).filter(active).map(podUsage);
  const used: Record<string, string> = {};
  for (const key of Object.keys(hard)) {
    const value = usedOf(key, namespace, pods, snapshot);
    if (value !== undefined) used[key] = value;
  }
  return { hard, used };
}

/** The kinds a `count/` key may name: the member's built-in namespaced kinds (computed once). */
let builtins: CountableResource[] | undefined;
function builtinResources(): CountableResource[] {
  builtins ??= [...controlPlaneBuiltins(), nodeDef()]
    .filter((d) => d.namespaced)
    .map((d) => ({ group: d.group, kind: d.kind, plural: d.plural }));
  return builtins;
}

/** The namespaced kinds stored CustomResourceDefinitions serve. */
async function crdResources(ctx: SimContext): Promise<CountableResource[]> {
  return (await ctx.all(CRD))
    .filter((crd) => !crd.metadata.deletionTimestamp && field(crd, 'spec', 'scope') === 'Namespaced')
    .map((crd) => ({
      group: String(field(crd, 'spec', 'group') ?? ''),
      kind: String(field(crd, 'spec', 'names', 'kind') ?? ''),
      plural: String(field(crd, 'spec', 'names', 'plural') ?? ''),
    }));
}

const gkKey = (gk: GroupKind) => `${gk.group}/${gk.kind}`;

/**
 * Writes every ResourceQuota's status when it changed; `pods` are all the cluster's pods. Says whether
 * any ResourceQuota is stored.
 */
export async function reportResourceQuotas(ctx: SimContext, pods: readonly KubeObject[]): Promise<boolean> {
  // Every stored quota counts toward `resourcequotas`; only live ones get a status.
  const allQuotas = await ctx.all(QUOTA);
  const quotas = allQuotas.filter((q) => !q.metadata.deletionTimestamp);
  if (quotas.length === 0) return allQuotas.length > 0;
  const keys = new Set(quotas.flatMap((q) => Object.keys((field(q, 'spec', 'hard') ?? {}) as Obj)));

  // Load only what the quotas' keys count: the kinds `count/` keys name (CRDs read only when a key
  // names no built-in kind), legacy counts, services and claims.
  let resources = builtinResources();
  const find = (resource: string, group: string) => resources.find((r) => r.plural === resource && r.group === group);
  const counted = [...keys].flatMap((k) => countedResource(k) ?? []);
  if (counted.some((c) => !find(c.resource, c.group))) resources = [...resources, ...(await crdResources(ctx))];
  const needed = new Map<string, GroupKind>();
  const need = (gk: GroupKind) => needed.set(gkKey(gk), { group: gk.group, kind: gk.kind });
  for (const c of counted) {
    const r = find(c.resource, c.group);
    if (r) need(r);
  }
  for (const k of keys) {
    if (LEGACY_COUNTS[k]) need(LEGACY_COUNTS[k]);
    if (k.startsWith('services.')) need(SERVICE);
    if (k === 'requests.storage' || k.includes(STORAGE_CLASS_INFIX)) need(PVC);
  }
  const loaded = new Map<string, readonly KubeObject[]>([
    [gkKey(POD), pods],
    [gkKey(QUOTA), allQuotas],
  ]);
  for (const [key, gk] of needed) if (!loaded.has(key)) loaded.set(key, await ctx.all(gk));

  const snapshot: QuotaSnapshot = {
    kindOf: (resource, group) => {
      const r = find(resource, group);
      return r ? { group: r.group, kind: r.kind } : undefined;
    },
    objects: (gk, namespace) => (loaded.get(gkKey(gk)) ?? []).filter((o) => o.metadata.namespace === namespace),
  };
  for (const quota of quotas) {
    const next = resourceQuotaStatus(quota, snapshot);
    if (deepEqual(quota.status ?? {}, next)) continue;
    await ctx.status(quota, next, true);
  }
  return true;
}
