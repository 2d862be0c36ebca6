/**
 * Fields that must not travel to member clusters (Karmada v1.15.9
 * `pkg/resourceinterpreter/default/native/prune/prune.go` `RemoveIrrelevantFields` with the
 * `RemoveJobTTLSeconds` hook, as `ctrlutil.CreateOrUpdateWork`, the Work mutating webhook and the
 * object watcher's drift check call it).
 */
import { cloneJson } from '../../util/json.ts';
import type { KubeObject } from '../model/types.ts';

/** Metadata kube-apiserver populates, plus owner references and finalizers (member controllers own those). */
const SERVER_METADATA = [
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'managedFields',
  'resourceVersion',
  'selfLink',
  'uid',
  'ownerReferences',
  'finalizers',
] as const;

/** The metadata fields {@link pruneIrrelevantFields} removes. */
export const PRUNED_METADATA_FIELDS: readonly string[] = SERVER_METADATA;

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

function deleteKeys(map: unknown, keys: readonly string[]): void {
  const m = obj(map);
  if (m) for (const k of keys) delete m[k];
}

/** Per-kind pruners (Karmada `kindIrrelevantFieldPruners`); each edits the private copy in place. */
const KIND_PRUNERS: Record<string, (o: Obj, spec: Obj | undefined, annotations: Obj | undefined) => void> = {
  Deployment: (_o, _spec, annotations) =>
    deleteKeys(annotations, ['deployment.kubernetes.io/revision', 'deployment.kubernetes.io/revision-history']),
  Job: (_o, spec) => {
    // The selector and pod labels kube-controller-manager generates from the Job's uid, unless the
    // user picked the selector (`manualSelector: true`).
    if (!spec || spec.manualSelector === true) return;
    deleteKeys(obj(spec.selector)?.matchLabels, ['controller-uid', 'batch.kubernetes.io/controller-uid']);
    deleteKeys(obj(obj(spec.template)?.metadata)?.labels, [
      'controller-uid',
      'job-name',
      'batch.kubernetes.io/controller-uid',
      'batch.kubernetes.io/job-name',
    ]);
  },
  Secret: (o, _spec, annotations) => {
    if (o.type !== 'kubernetes.io/service-account-token') return;
    deleteKeys(annotations, ['kubernetes.io/service-account.uid']);
    o.data = null;
  },
  ServiceAccount: (o) => {
    const secrets = o.secrets;
    if (!Array.isArray(secrets)) return;
    const prefix = `${String(obj(o.metadata)?.name ?? '')}-token-`;
    // Karmada's loop does not step back after a removal, so of two adjacent token secrets the second
    // survives; kept as is.
    for (let i = 0; i < secrets.length; i++) {
      const name = obj(secrets[i])?.name;
      if (typeof name === 'string' && name.startsWith(prefix)) secrets.splice(i, 1);
    }
  },
  Service: (_o, spec) => {
    // A headless Service (`clusterIP: None`) keeps it; any other cluster IP is the member's to allocate.
    if (spec && typeof spec.clusterIP === 'string' && spec.clusterIP !== 'None')
      deleteKeys(spec, ['clusterIP', 'clusterIPs']);
  },
  PersistentVolumeClaim: (_o, _spec, annotations) => {
    if (annotations?.['volume.kubernetes.io/selected-node'])
      deleteKeys(annotations, ['volume.kubernetes.io/selected-node']);
  },
};

/**
 * A copy of `object` without what the member cluster must not receive: the server-populated metadata
 * ({@link PRUNED_METADATA_FIELDS}), `status`, Karmada's per-kind fields (Deployment revision
 * annotations; Job generated selector/pod labels unless `manualSelector`; service-account token
 * Secret data and uid annotation; ServiceAccount `<name>-token-*` secrets; Service `clusterIP(s)`
 * unless headless; PVC `volume.kubernetes.io/selected-node`) and a Job's `spec.ttlSecondsAfterFinished`
 * (a member's TTL controller would delete the Job under Karmada, karmada-io/karmada#2197).
 * `metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']` is kept, as in Karmada.
 *
 * @example pruneIrrelevantFields(storedDeployment).metadata.resourceVersion // undefined
 */
export function pruneIrrelevantFields<T extends KubeObject>(object: T): T {
  const out = cloneJson(object) as T & Obj;
  const metadata = obj(out.metadata);
  deleteKeys(metadata, SERVER_METADATA);
  delete out.status;
  const spec = obj(out.spec);
  if (Object.hasOwn(KIND_PRUNERS, out.kind)) KIND_PRUNERS[out.kind]!(out, spec, obj(metadata?.annotations));
  if (out.kind === 'Job' && spec) delete spec.ttlSecondsAfterFinished;
  return out;
}
