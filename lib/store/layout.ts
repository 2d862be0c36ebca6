/**
 * How objects map onto rows: the keys every row store (DynamoDB, in-memory) uses, the index shards,
 * and the continue tokens of paginated lists. Pure; shared by the adapters and the infrastructure
 * (docs/decisions/0001-store-layout.md explains the choice).
 */
import {
  bindingIdOf,
  CLUSTER,
  CLUSTER_OVERRIDE_POLICY,
  CLUSTER_PROPAGATION_POLICY,
  CLUSTER_TAINT_POLICY,
  clusterOfExecutionNamespace,
  CONFIG_GROUP,
  FEDERATED_RESOURCE_QUOTA,
  OVERRIDE_POLICY,
  PROPAGATION_POLICY,
  RESOURCE_REGISTRY,
  WORK_GROUP,
} from '../api/karmada-names.ts';
import type { GroupKind, KubeObject, ObjectRef } from '../api/object.ts';
import { formatGroupKind, formatKey, parseGroupKind } from '../api/object.ts';
import { BadRequestError } from './errors.ts';

/**
 * Number of partitions a kind's list index is spread over. Writes of one kind (5,000 bindings
 * scheduled in seconds) would otherwise all land on one index partition (1,000 WCU/s). Fixed for the
 * life of a table: changing it needs a re-index (lib/store/kind-shards.ts did one for the kinds below).
 */
export const KIND_SHARDS = 8;

/**
 * Kinds a fleet holds few of and writes seldom, listed on every pass of the pipeline (the detector's
 * policies, the scheduler's clusters and quotas, the binder's overrides): one `byKind` partition each,
 * so a list is one query instead of {@link KIND_SHARDS}. A Cluster is written when its status changes
 * (at most once a probe, every 10 s): a thousand clusters stay far below a partition's write rate.
 * docs/decisions/0020-single-shard-kinds.md.
 */
const SINGLE_SHARD_KINDS: ReadonlySet<string> = new Set(
  [
    CLUSTER,
    PROPAGATION_POLICY,
    CLUSTER_PROPAGATION_POLICY,
    OVERRIDE_POLICY,
    CLUSTER_OVERRIDE_POLICY,
    FEDERATED_RESOURCE_QUOTA,
    CLUSTER_TAINT_POLICY,
    RESOURCE_REGISTRY,
    { group: CONFIG_GROUP, kind: 'ResourceInterpreterCustomization' },
    { group: CONFIG_GROUP, kind: 'ResourceInterpreterWebhookConfiguration' },
    { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' },
  ].map(formatGroupKind),
);

/** The kinds written to one `byKind` partition (see {@link kindShardsOf}). */
export function singleShardKinds(): GroupKind[] {
  return [...SINGLE_SHARD_KINDS].sort().map(parseGroupKind);
}

/** How many `byKind` partitions the kind's entries are written to: 1 for the few kinds above, else 8. */
export function kindShardsOf(gk: GroupKind): number {
  return SINGLE_SHARD_KINDS.has(formatGroupKind(gk)) ? 1 : KIND_SHARDS;
}

/**
 * Rows of the search cache (lib/search/cache-store.ts) have keys starting with this: member objects,
 * not the control plane's, so nothing that reads objects reads them. No object key can start with
 * it (`|` is in no group name).
 */
export const SEARCH_CACHE_PREFIX = 'search-cache|';

/** Keys of one row. */
export interface RowKeys {
  /** Table partition key: the object key, so writes spread evenly. */
  pk: string;
  /** `byKind` index partition: group/kind plus shard. */
  kindShard: string;
  /** Sort key in both indexes: `namespace/name` (or `name` when cluster-scoped). */
  sortKey: string;
  /** `byCluster` index partition (only Works): group/kind plus member cluster. */
  clusterKey?: string;
}

/** 32-bit FNV-1a; stable across processes and languages. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The member cluster an object belongs to for the `byCluster` index (Works, by execution namespace). */
export function clusterOf(ref: ObjectRef): string | undefined {
  return ref.group === WORK_GROUP && ref.kind === 'Work' ? clusterOfExecutionNamespace(ref.namespace) : undefined;
}

export function sortKeyOf(ref: Pick<ObjectRef, 'namespace' | 'name'>): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

export function kindShardKey(gk: GroupKind, shard: number): string {
  return `${formatGroupKind(gk)}#${shard}`;
}

export function clusterIndexKey(gk: GroupKind, cluster: string): string {
  return `${formatGroupKind(gk)}#${cluster}`;
}

/** DynamoDB's key size limits, in UTF-8 bytes: partition keys 2,048, sort keys 1,024. */
const MAX_PARTITION_KEY_BYTES = 2048;
const MAX_SORT_KEY_BYTES = 1024;

/**
 * Every key of the row that stores `ref`. A ref whose keys cannot be stored (a name far longer than
 * any Kubernetes name) is refused here as bad input, so no store answers it with an internal error.
 */
export function rowKeysOf(ref: ObjectRef): RowKeys {
  const sortKey = sortKeyOf(ref);
  const pk = formatKey(ref);
  if (Buffer.byteLength(sortKey) > MAX_SORT_KEY_BYTES || Buffer.byteLength(pk) > MAX_PARTITION_KEY_BYTES - 16) {
    throw new BadRequestError(`the name ${JSON.stringify(`${sortKey.slice(0, 64)}…`)} is too long to be stored`, ref);
  }
  const keys: RowKeys = {
    pk,
    kindShard: kindShardKey(ref, fnv1a(sortKey) % kindShardsOf(ref)),
    sortKey,
  };
  const cluster = clusterOf(ref);
  if (cluster) keys.clusterKey = clusterIndexKey(ref, cluster);
  return keys;
}

/**
 * The owner an object is indexed under in `byOwner`: its controller owner reference, else its first
 * one. (One index partition per item: an object with several owners is found under this one only.)
 *
 * A Work rendered from a binding has no owner reference (it lives in `karmada-es-<cluster>`, and a
 * namespaced owner must share the dependent's namespace), so it is indexed under its binding's
 * permanent id instead: `listDependents(<permanent id>)` answers "the Works of this binding" without a
 * scan. Permanent ids are never object uids, so the garbage collector never acts on these entries.
 */
export function ownerKeyOf(obj: KubeObject): string | undefined {
  const refs = obj.metadata.ownerReferences ?? [];
  const owner = (refs.find((r) => r.controller) ?? refs[0])?.uid || undefined;
  if (owner || obj.kind !== 'Work' || !obj.apiVersion?.startsWith(`${WORK_GROUP}/`)) return owner;
  return bindingIdOf(obj.metadata.labels);
}

/** Rebuilds the ref of a row from its group/kind and sort key. */
export function refFromSortKey(gk: GroupKind, sortKey: string): ObjectRef {
  const slash = sortKey.indexOf('/');
  return slash < 0
    ? { group: gk.group, kind: gk.kind, name: sortKey }
    : { group: gk.group, kind: gk.kind, namespace: sortKey.slice(0, slash), name: sortKey.slice(slash + 1) };
}

/**
 * Orders strings as DynamoDB orders sort keys: by UTF-8 bytes. Below U+D800 UTF-16 code-unit order is
 * UTF-8 byte order, so the common case compares characters without encoding (this runs for every row a
 * list merges or a memory store sorts); beyond it, the strings are encoded and compared as bytes.
 */
export function compareSortKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** A range of sort keys: strictly after `after`, and starting with `prefix`. */
export interface SortKeyRange {
  prefix?: string;
  after?: string;
}

/** The sort-key range a list covers. */
export function rangeFor(namespace: string | undefined, after: string | undefined): SortKeyRange {
  const range: SortKeyRange = {};
  if (namespace) range.prefix = `${namespace}/`;
  if (after !== undefined) range.after = after;
  return range;
}

/** True when `sortKey` lies in `range`. */
export function inRange(sortKey: string, range: SortKeyRange): boolean {
  if (range.prefix !== undefined && !sortKey.startsWith(range.prefix)) return false;
  if (range.after !== undefined && compareSortKeys(sortKey, range.after) <= 0) return false;
  return true;
}

interface ContinuePayload {
  v: 1;
  /** What list the token belongs to: group/kind, namespace, cluster. */
  l: string;
  /** Last sort key examined. */
  a: string;
}

function listIdentity(gk: GroupKind, namespace?: string, cluster?: string): string {
  return `${formatGroupKind(gk)}|${namespace ?? ''}|${cluster ?? ''}`;
}

/** An opaque continue token: resume strictly after `after` in the same list. */
export function encodeContinue(
  gk: GroupKind,
  namespace: string | undefined,
  cluster: string | undefined,
  after: string,
): string {
  const payload: ContinuePayload = { v: 1, l: listIdentity(gk, namespace, cluster), a: after };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** Decodes a continue token, refusing one that is malformed or was issued for another list. */
export function decodeContinue(
  token: string,
  gk: GroupKind,
  namespace: string | undefined,
  cluster: string | undefined,
): string {
  let payload: Partial<ContinuePayload>;
  try {
    payload = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<ContinuePayload>;
  } catch {
    throw new BadRequestError('invalid continue token: it is not one this server issued; restart the list without it');
  }
  if (payload.v !== 1 || typeof payload.a !== 'string' || typeof payload.l !== 'string') {
    throw new BadRequestError('invalid continue token: it is not one this server issued; restart the list without it');
  }
  if (payload.l !== listIdentity(gk, namespace, cluster) || (namespace && !payload.a.startsWith(`${namespace}/`))) {
    throw new BadRequestError(
      'invalid continue token: it was issued for a different list (kind, namespace or cluster); ' +
        'pass the same parameters as the first request',
    );
  }
  return payload.a;
}

/** A continue token for a list of dependents (`byOwner`). */
export function encodeDependentsContinue(ownerUid: string, after: string): string {
  return Buffer.from(JSON.stringify({ v: 1, o: ownerUid, a: after }), 'utf8').toString('base64url');
}

export function decodeDependentsContinue(token: string, ownerUid: string): string {
  let payload: { v?: number; o?: string; a?: unknown };
  try {
    payload = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    throw new BadRequestError('invalid continue token: it is not one this server issued; restart the list without it');
  }
  if (payload.v !== 1 || payload.o !== ownerUid || typeof payload.a !== 'string') {
    throw new BadRequestError('invalid continue token: it was issued for another owner; restart the list without it');
  }
  return payload.a;
}
