/**
 * Work status → binding status (Karmada v1.15.9): the manifest status the work status controller writes
 * for a member object (`pkg/controllers/status/work_status_controller.go` `reflectStatus`,
 * `buildStatusIdentifier`), and the binding's `status.aggregatedStatus` and `FullyApplied` condition
 * built from its Works (`pkg/util/helper/workstatus.go` `assembleWorkStatus`, `equalIdentifier`,
 * `worksFullyApplied`, `generateFullyAppliedCondition`; `pkg/util/helper/binding.go`
 * `ObtainBindingSpecExistingClusters`).
 */
import { cloneJson } from '../../util/json.ts';
import type { KubeObject, ResourceBindingSpec } from '../model/types.ts';
import { interpretHealth } from './health.ts';
import { reflectStatus } from './reflect.ts';
import { arrayOf, compareStrings, int64Of, isObject, objectOf, stringOf } from './typed.ts';
import type { AggregatedStatusItem, FullyAppliedCondition, ManifestStatus, ResourceHealth } from './types.ts';

/** `workv1alpha2.FullyApplied`: the binding condition type. */
export const FULLY_APPLIED_CONDITION = 'FullyApplied';
/** `helper.FullyAppliedSuccessReason`. */
export const FULLY_APPLIED_SUCCESS_REASON = 'FullyAppliedSuccess';
/** `helper.FullyAppliedFailedReason`. */
export const FULLY_APPLIED_FAILED_REASON = 'FullyAppliedFailed';
/** `helper.FullyAppliedSuccessMessage`. */
export const FULLY_APPLIED_SUCCESS_MESSAGE = 'All works have been successfully applied';
/** `helper.FullyAppliedFailedMessage`. */
export const FULLY_APPLIED_FAILED_MESSAGE = 'Failed to apply all works, see status.aggregatedStatus for details';

/** `schema.ParseGroupVersion` for well-formed input: `apps/v1` → `apps`,`v1`; `v1` → `''`,`v1`. */
function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/**
 * The manifest status the work status controller records for a member object: the identifier from the
 * object's `apiVersion`/`kind`/`namespace`/`name` at `ordinal` in the Work's manifests (`group` and
 * `namespace` are `''` when empty; Karmada never fills `resource`), `status` = {@link reflectStatus}
 * (absent when it gives nothing) and `health` = {@link interpretHealth} (`Healthy` for kinds without a
 * health hook). The live object is not modified; the result shares nothing with it.
 */
export function manifestStatusOf(ordinal: number, live: KubeObject): ManifestStatus {
  const { group, version } = splitApiVersion(live.apiVersion);
  const identifier = {
    ordinal,
    group,
    version,
    kind: live.kind,
    namespace: live.metadata?.namespace ?? '',
    name: live.metadata?.name ?? '',
  };
  const status = reflectStatus(live);
  const health = interpretHealth(live);
  return status === undefined ? { identifier, health } : { identifier, status, health };
}

/**
 * `GetManifestIndex`: the index of the manifest with the template's `apiVersion`, `kind`, namespace and
 * name in `work.spec.workload.manifests`, or -1.
 */
function manifestIndex(work: KubeObject, template: KubeObject): number {
  const manifests = arrayOf(objectOf(objectOf(work['spec'])['workload'])['manifests']);
  const namespace = template.metadata?.namespace ?? '';
  const name = template.metadata?.name ?? '';
  return manifests.findIndex((value) => {
    const manifest = objectOf(value);
    const metadata = objectOf(manifest['metadata']);
    return (
      manifest['apiVersion'] === template.apiVersion &&
      manifest['kind'] === template.kind &&
      stringOf(metadata['namespace']) === namespace &&
      stringOf(metadata['name']) === name
    );
  });
}

/**
 * `assembleWorkStatus`: one aggregated status item per Work of the binding (each given with the
 * cluster it targets), sorted by cluster name. Works being deleted (`metadata.deletionTimestamp` set)
 * are skipped. A Work whose `Applied` condition is not `True` gives `{ clusterName, appliedMessage (the
 * condition's message, when it has one), health: 'Unknown' }`; an applied one gives
 * `{ clusterName, applied: true, health: 'Unknown' }`, with `status` and `health` taken from the manifest
 * status whose identifier (ordinal, group, version, kind, namespace, name) is the template's — a
 * manifest status without `health` leaves the item without one, as in Karmada. `applied: false` and an
 * empty message are omitted, as Karmada stores them (`omitempty`).
 *
 * Karmada fails the whole aggregation when a Work does not hold the template among its manifests; here
 * such a Work gives an item whose manifest status is never found (`health: 'Unknown'`, no `status`).
 * Inputs are not modified; the items share nothing with them.
 */
export function aggregatedStatusItems(
  template: KubeObject,
  works: readonly { cluster: string; work: KubeObject }[],
): AggregatedStatusItem[] {
  const { group, version } = splitApiVersion(template.apiVersion);
  const namespace = template.metadata?.namespace ?? '';
  const name = template.metadata?.name ?? '';
  const items: AggregatedStatusItem[] = [];
  for (const { cluster, work } of works) {
    if (work.metadata?.deletionTimestamp) continue;
    const ordinal = manifestIndex(work, template);
    const workStatus = objectOf(work['status']);
    const applied = arrayOf(workStatus['conditions'])
      .map(objectOf)
      .find((c) => c['type'] === 'Applied');
    if (applied?.['status'] !== 'True') {
      const message = applied ? stringOf(applied['message']) : '';
      items.push({ clusterName: cluster, ...(message ? { appliedMessage: message } : {}), health: 'Unknown' });
      continue;
    }
    const item: AggregatedStatusItem = { clusterName: cluster, applied: true, health: 'Unknown' };
    const manifestStatus = arrayOf(workStatus['manifestStatuses'])
      .map(objectOf)
      .find((ms) => {
        const id = objectOf(ms['identifier']);
        return (
          int64Of(id['ordinal']) === ordinal &&
          stringOf(id['group']) === group &&
          stringOf(id['version']) === version &&
          stringOf(id['kind']) === template.kind &&
          stringOf(id['namespace']) === namespace &&
          stringOf(id['name']) === name
        );
      });
    if (manifestStatus) {
      if (isObject(manifestStatus['status'])) item.status = cloneJson(manifestStatus['status']);
      const health = stringOf(manifestStatus['health']);
      if (health) item.health = health as ResourceHealth;
      else delete item.health;
    }
    items.push(item);
  }
  return items.sort((a, b) => compareStrings(a.clusterName, b.clusterName));
}

/**
 * Karmada's binding status controller for one Work that reported: the binding's `aggregatedStatus`
 * with `cluster`'s item computed again from that Work (dropped when the Work is gone or deleting), and
 * the items of clusters the binding no longer targets dropped. The other clusters' items are kept as
 * stored, so one Work's report costs the reads of one Work, not of all of them.
 */
export function withClusterItem(
  template: KubeObject,
  current: readonly AggregatedStatusItem[],
  cluster: string,
  work: KubeObject | undefined,
  targets: readonly string[],
): AggregatedStatusItem[] {
  const targeted = new Set(targets);
  const items = current.filter((i) => i.clusterName !== cluster && targeted.has(i.clusterName));
  if (work && targeted.has(cluster)) items.push(...aggregatedStatusItems(template, [{ cluster, work }]));
  return items.sort((a, b) => compareStrings(a.clusterName, b.clusterName));
}

/**
 * At most this many Works are read to complete a rollout's aggregation: ten strongly consistent
 * reads cost what one binding write does (a write unit is five read units, and a binding write pays
 * for the table and its `byKind` entry).
 */
export const REPORT_FILL_LIMIT = 10;

/**
 * The targets whose Works a fold of reports reads to complete the aggregation, when the binding's
 * reports reach the binder in several batches (two pollers share a lane, and a batch closes on its
 * window). Only a fold that made progress — a target that had not reported before (`before`, the items
 * as stored) has now (`after`) — reads anything: a rollout under way, whose other Works have most
 * likely reported already. It reads the targets whose Work has still not reported — no item, or the item
 * of a Work created but neither applied nor refused — if there are at most `limit` of them. Their items
 * are then written with this fold's, and their own reports find nothing left to write: one binding
 * write where each batch wrote one. None when more are missing (a large rollout in its first batches:
 * reading them would cost more than the writes it saves), and none for a fold that only refreshed
 * reported targets (a status update), so a target that cannot report for now (suspended, its cluster
 * away, its Work not rendered) costs no read on every later report.
 */
export function unreportedTargets(
  targets: readonly string[],
  before: readonly AggregatedStatusItem[],
  after: readonly AggregatedStatusItem[],
  limit = REPORT_FILL_LIMIT,
): string[] {
  const reportedIn = (items: readonly AggregatedStatusItem[]) =>
    new Set(items.filter(hasReported).map((i) => i.clusterName));
  const was = reportedIn(before);
  const now = reportedIn(after);
  if (![...now].some((cluster) => !was.has(cluster))) return [];
  const missing = [...new Set(targets)].filter((t) => !now.has(t)).sort(compareStrings);
  return missing.length <= limit ? missing : [];
}

/**
 * `items` with those of `works` (read by the binder for {@link unreportedTargets}) that have reported:
 * applied, or refused with a message. A Work created but not applied yet, or being deleted, changes
 * nothing — its own report, or the binding's sync, brings it.
 */
export function withReportedWorks(
  template: KubeObject,
  items: readonly AggregatedStatusItem[],
  targets: readonly string[],
  works: readonly { cluster: string; work: KubeObject }[],
): AggregatedStatusItem[] {
  return works.reduce<readonly AggregatedStatusItem[]>((out, { cluster, work }) => {
    const [item] = aggregatedStatusItems(template, [{ cluster, work }]);
    return item && hasReported(item) ? withClusterItem(template, out, cluster, work, targets) : out;
  }, items) as AggregatedStatusItem[];
}

/** Whether an item says what its Work did — applied, or refused with a message — not merely that it exists. */
function hasReported(item: AggregatedStatusItem): boolean {
  return Boolean(item.applied || item.appliedMessage);
}

/**
 * `worksFullyApplied` + `generateFullyAppliedCondition`: `FullyApplied=True` (`FullyAppliedSuccess`,
 * "All works have been successfully applied") iff the set of target clusters is not empty, has as many
 * members as there are items, and every item is applied and targets a cluster of the set; otherwise
 * `False` (`FullyAppliedFailed`, "Failed to apply all works, see status.aggregatedStatus for details").
 * `targetClusters` is a set: duplicates count once (see {@link bindingExistingClusters}).
 */
export function fullyAppliedCondition(
  targetClusters: readonly string[],
  items: readonly AggregatedStatusItem[],
): FullyAppliedCondition {
  const targets = new Set(targetClusters);
  const fullyApplied =
    targets.size > 0 &&
    targets.size === items.length &&
    items.every((item) => item.applied === true && targets.has(item.clusterName));
  return fullyApplied
    ? {
        type: FULLY_APPLIED_CONDITION,
        status: 'True',
        reason: FULLY_APPLIED_SUCCESS_REASON,
        message: FULLY_APPLIED_SUCCESS_MESSAGE,
      }
    : {
        type: FULLY_APPLIED_CONDITION,
        status: 'False',
        reason: FULLY_APPLIED_FAILED_REASON,
        message: FULLY_APPLIED_FAILED_MESSAGE,
      };
}

/**
 * `ObtainBindingSpecExistingClusters`: the clusters a binding's Works exist in — `spec.clusters`, the
 * clusters of every `spec.requiredBy` entry, and the `fromCluster` of graceful eviction tasks whose
 * purge mode is neither `Immediately` nor `Directly` — deduplicated and sorted.
 */
export function bindingExistingClusters(spec: ResourceBindingSpec): string[] {
  const names = new Set<string>();
  for (const cluster of spec.clusters ?? []) names.add(cluster.name);
  for (const requirer of spec.requiredBy ?? []) for (const cluster of requirer.clusters ?? []) names.add(cluster.name);
  for (const task of spec.gracefulEvictionTasks ?? []) {
    if (task.purgeMode !== 'Immediately' && task.purgeMode !== 'Directly') names.add(task.fromCluster);
  }
  return [...names].sort(compareStrings);
}
