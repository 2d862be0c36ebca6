/**
 * Work (`work.karmada.io/v1alpha1`) and binding admission, as Karmada v1.15's mutating webhooks do it
 * (`pkg/webhook/{work,resourcebinding,clusterresourcebinding}/mutating.go`,
 * `pkg/resourceinterpreter/default/native/prune`). Karmada has no validating webhook for Works; the
 * one rule is the mutating webhook's failure to decode a manifest without a `kind`.
 */
import type { KubeObject } from '../../api/object.ts';
import { type FieldError, fieldError } from '../../kube/base/field-errors.ts';
import { cloneJson } from '../../util/json.ts';
import { pruneIrrelevantFields } from '../../core/work/prune.ts';
import type { KarmadaDefaultingContext } from './context.ts';
import {
  BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  MANAGED_ANNOTATIONS_ANNOTATION,
  MANAGED_LABELS_ANNOTATION,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
  WORK_PERMANENT_ID_LABEL,
} from '../../api/well-known.ts';
import { uniqueErrors } from './k8s-rules.ts';
import { list, record, sortedJson, text } from './shape.ts';

function manifestsOf(obj: KubeObject): unknown[] {
  return list(record(record(obj.spec)?.workload)?.manifests);
}

/**
 * Validates a Work: every manifest must carry a non-empty string `kind` (Karmada fails the request
 * with `Object 'Kind' is missing in '<manifest JSON>'`; `apiVersion` is not checked).
 */
export function validateWork(obj: KubeObject, _old: KubeObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  manifestsOf(obj).forEach((manifest, i) => {
    const path = `spec.workload.manifests[${i}]`;
    const m = record(manifest);
    if (!m) {
      errs.push(fieldError.invalid(path, manifest, 'must be an object'));
    } else if (text(m.kind) === '') {
      errs.push(fieldError.required(`${path}.kind`, `Object 'Kind' is missing in '${sortedJson(m)}'`));
    }
  });
  return uniqueErrors(errs);
}

function labelsOf(obj: Record<string, unknown>): Record<string, unknown> {
  return record(record(obj.metadata)?.labels) ?? {};
}

/** Records the managed annotation and label keys, and stamps the Work's permanent id onto the manifest. */
function markManifest(m: Record<string, unknown>, workId: string): void {
  const metadata = record(m.metadata) ?? {};
  m.metadata = metadata;
  const annotations = record(metadata.annotations) ?? {};
  const managed = [
    MANAGED_ANNOTATIONS_ANNOTATION,
    MANAGED_LABELS_ANNOTATION,
    ...Object.keys(annotations).filter((k) => k !== MANAGED_ANNOTATIONS_ANNOTATION && k !== MANAGED_LABELS_ANNOTATION),
  ].sort();
  annotations[MANAGED_ANNOTATIONS_ANNOTATION] = managed.join(',');
  if (workId !== '') metadata.labels = { ...labelsOf(m), [WORK_PERMANENT_ID_LABEL]: workId };
  annotations[MANAGED_LABELS_ANNOTATION] = Object.keys(labelsOf(m)).sort().join(',');
  metadata.annotations = annotations;
}

/**
 * The Work mutating webhook (CREATE and UPDATE), returning a new object: a permanent-id label when
 * missing, and each manifest pruned of server-populated fields, labelled with that id and annotated
 * with the label and annotation keys Karmada manages.
 */
export function defaultWork(obj: KubeObject, ctx: KarmadaDefaultingContext): KubeObject {
  const out = cloneJson(obj);
  out.metadata ??= {};
  if (text(out.metadata.labels?.[WORK_PERMANENT_ID_LABEL]) === '') {
    out.metadata.labels = { ...(out.metadata.labels ?? {}), [WORK_PERMANENT_ID_LABEL]: ctx.newUid() };
  }
  const workId = text(out.metadata.labels?.[WORK_PERMANENT_ID_LABEL]);
  for (const manifest of manifestsOf(out)) {
    const m = record(manifest);
    // A manifest without a kind fails Karmada's webhook; validation reports it, so leave it untouched.
    if (!m || text(m.kind) === '') continue;
    // Karmada's RemoveIrrelevantFields, shared with the binder's rendering (core/work).
    const pruned = pruneIrrelevantFields(m as KubeObject) as unknown as Record<string, unknown>;
    for (const key of Object.keys(m)) delete m[key];
    Object.assign(m, pruned);
    markManifest(m, workId);
  }
  return out;
}

function defaultBindingId(
  obj: KubeObject,
  label: string,
  finalizer: string,
  ctx: KarmadaDefaultingContext,
): KubeObject {
  const out = cloneJson(obj);
  out.metadata ??= {};
  if (ctx.operation !== 'CREATE') return out;
  if (text(out.metadata.labels?.[label]) === '') {
    out.metadata.labels = { ...(out.metadata.labels ?? {}), [label]: ctx.newUid() };
  }
  // The binder's finalizer too (Karmada's binding controller adds it on its first pass): the binding is
  // complete when it is stored, so the binder's first pass writes Works, not the binding.
  const finalizers = list(out.metadata.finalizers).filter((f): f is string => typeof f === 'string');
  if (!finalizers.includes(finalizer)) out.metadata.finalizers = [...finalizers, finalizer];
  return out;
}

/**
 * The ResourceBinding mutating webhook (CREATE only): a `resourcebinding.karmada.io/permanent-id` label
 * when missing, and the binder's finalizer.
 */
export function defaultResourceBinding(obj: KubeObject, ctx: KarmadaDefaultingContext): KubeObject {
  return defaultBindingId(obj, RESOURCE_BINDING_PERMANENT_ID_LABEL, BINDING_CONTROLLER_FINALIZER, ctx);
}

/**
 * The ClusterResourceBinding mutating webhook (CREATE only): a `clusterresourcebinding.karmada.io/permanent-id`
 * label when missing, and the binder's finalizer.
 */
export function defaultClusterResourceBinding(obj: KubeObject, ctx: KarmadaDefaultingContext): KubeObject {
  return defaultBindingId(
    obj,
    CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
    CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER,
    ctx,
  );
}
