/**
 * The Kubernetes object model as the store and the controllers see it.
 *
 * Objects are plain JSON (what `kubectl` sends and what Karmada's Go types marshal to). The store keys
 * them by API group + kind (never by version: one storage form per kind, as etcd keys by resource),
 * namespace and name.
 */

/** Owner reference, as in `metav1.OwnerReference`. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** `metav1.ObjectMeta`, the fields this project reads or maintains. Unknown fields are preserved. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  [field: string]: unknown;
}

/** Any Kubernetes object: `apiVersion`, `kind`, `metadata`, and whatever else its schema holds. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** API group (`''` for the core group) and kind. The unit the store partitions by. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** Names one object. `namespace` is absent (or `''`) for cluster-scoped kinds. */
export interface ObjectRef extends GroupKind {
  namespace?: string;
  name: string;
}

/** Splits `apiVersion` into group and version: `apps/v1` → `apps`,`v1`; `v1` → `''`,`v1`. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The group/kind of an object. */
export function groupKindOf(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): GroupKind {
  return { group: parseApiVersion(obj.apiVersion).group, kind: obj.kind };
}

/** The reference naming an object (its namespace normalised to `undefined` when cluster-scoped). */
export function refOf(obj: KubeObject): ObjectRef {
  const { group, kind } = groupKindOf(obj);
  const ref: ObjectRef = { group, kind, name: obj.metadata.name ?? '' };
  if (obj.metadata.namespace) ref.namespace = obj.metadata.namespace;
  return ref;
}

/**
 * `Kind.group` (`Deployment.apps`, `Work.work.karmada.io`), or just `Kind` for the core group — the
 * spelling kubectl uses for resources, applied to kinds.
 */
export function formatGroupKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** Inverse of {@link formatGroupKind}. */
export function parseGroupKind(text: string): GroupKind {
  const dot = text.indexOf('.');
  return dot < 0 ? { group: '', kind: text } : { group: text.slice(dot + 1), kind: text.slice(0, dot) };
}

/**
 * The queue/log key of an object: `Deployment.apps/default/nginx`, `Cluster.cluster.karmada.io/member1`.
 * Names and namespaces never contain `/`, so the number of parts tells the scope apart.
 */
export function formatKey(ref: ObjectRef): string {
  const gk = formatGroupKind(ref);
  return ref.namespace ? `${gk}/${ref.namespace}/${ref.name}` : `${gk}/${ref.name}`;
}

/** Inverse of {@link formatKey}; throws on a malformed key. */
export function parseKey(key: string): ObjectRef {
  const parts = key.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')) {
    throw new Error(`malformed object key ${JSON.stringify(key)}: expected Kind[.group]/[namespace/]name`);
  }
  const gk = parseGroupKind(parts[0]!);
  return parts.length === 3 ? { ...gk, namespace: parts[1]!, name: parts[2]! } : { ...gk, name: parts[1]! };
}

/** True when two refs name the same object. */
export function sameRef(a: ObjectRef, b: ObjectRef): boolean {
  return a.group === b.group && a.kind === b.kind && (a.namespace ?? '') === (b.namespace ?? '') && a.name === b.name;
}
