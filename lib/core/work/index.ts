/**
 * Binding → Work rendering and the member-side decisions of the executor: Work names, replica
 * revision, pruning, and adoption/preserve/drift checks, as pure functions over plain Karmada-shaped
 * objects (Karmada `pkg/controllers/binding`, `pkg/util/names`, `pkg/util/objectwatcher`,
 * `pkg/controllers/execution`).
 *
 * @example
 * import { renderWork } from './work/index.ts';
 * const result = renderWork({ template, binding, cluster, overridePolicies, clusterOverridePolicies });
 * if (result.ok) putWork(result.work); else recordEvent('SyncWorkFailed', result.error);
 */
export {
  adoptionRefusedMessage,
  allowsAdoption,
  driftedPaths,
  firstMemberRequest,
  foldCreateOwnership,
  isManagedByKarmada,
  type ManagedFieldsRecord,
  withoutKarmadaMarkers,
} from './member.ts';
export {
  bindingFinalizerOf,
  planWork,
  withoutConditionTimes,
  withPermanentIdAndFinalizer,
  workChanged,
  workObject,
  type WorkPlan,
} from './binder.ts';
export {
  describeManifest,
  leftToItsMessage,
  manifestsOf,
  NEW_WORK_GRACE_MS,
  observeWork,
  removedWhileAway,
  retriedWhileNotReady,
  withManifestType,
} from './manifests.ts';
export { bindingRefOf, generateBindingName, generateWorkName } from './names.ts';
export {
  namespacesSelectedBy,
  namespaceShouldBeSynced,
  namespaceWork,
  type NamespaceWorkInput,
  type NamespaceWorkResult,
} from './namespace.ts';
export { PRUNED_METADATA_FIELDS, pruneIrrelevantFields } from './prune.ts';
export {
  conflictResolution,
  type RenderedWork,
  renderWork,
  type RenderWorkInput,
  type RenderWorkResult,
} from './render.ts';
export {
  applyJobCompletions,
  bindingTargetClusters,
  jobCompletionsFor,
  NATIVE_REVISE_REPLICA_FIELDS,
  reviseReplica,
} from './revise.ts';
