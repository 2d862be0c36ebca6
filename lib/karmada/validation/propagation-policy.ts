/**
 * PropagationPolicy and ClusterPropagationPolicy admission, as Karmada v1.15's webhooks do it:
 * `pkg/webhook/{,cluster}propagationpolicy/{mutating,validating}.go` and
 * `pkg/util/validation/validation.go` (`ValidatePropagationSpec`), with the defaults of
 * `pkg/util/helper/policy.go`.
 *
 * Fields the CRD defaults (`replicaSchedulingType: Divided`, `purgeMode: Gracefully`,
 * `schedulerName: default-scheduler`) are read with those defaults when absent, so the result is
 * the same whether or not schema defaulting ran first.
 */
import type { KubeObject } from '../../api/object.ts';
import { type FieldError, childPath, fieldError } from '../../kube/base/field-errors.ts';
import { cloneJson } from '../../util/json.ts';
import { type Toleration, withDefaultTolerations } from '../../core/index.ts';
import type { KarmadaDefaultingContext } from './context.ts';
import { CPP_FINALIZER, CPP_PERMANENT_ID_LABEL, PP_FINALIZER, PP_PERMANENT_ID_LABEL } from '../../api/well-known.ts';
import { keyPath, uniqueErrors, validateLabelName } from './k8s-rules.ts';
import { validatePlacement } from './placement.ts';
import { list, num, present, record, text } from './shape.ts';

/** The scheduler a policy names when `schedulerName` is unset (CRD default). */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** `gracePeriodSeconds` the mutating webhook fills in for graceful application failover. */
export const DEFAULT_GRACE_PERIOD_SECONDS = 600;

const SERVICE_IMPORT_API_VERSION = 'multicluster.x-k8s.io/v1alpha1';

/** `Gracefully` and its deprecated alias `Graciously` (v1.15 still accepts both). */
function isGracefulPurge(purgeMode: unknown): boolean {
  const mode = text(purgeMode) || 'Gracefully';
  return mode === 'Gracefully' || mode === 'Graciously';
}

function validateStatePreservation(statePreservation: Record<string, unknown> | undefined, path: string): FieldError[] {
  if (!statePreservation) return [];
  return list(statePreservation.rules).flatMap((rule, i) =>
    validateLabelName(
      text(record(rule)?.aliasLabelName),
      childPath(childPath(childPath(path, 'rules'), i), 'aliasLabelName'),
    ),
  );
}

/**
 * `ValidateApplicationFailover`: `tolerationSeconds` ≥ 0; `gracePeriodSeconds` required with, and
 * only with, a graceful purge mode, and > 0; state-preservation alias names are label keys.
 */
export function validateApplicationFailover(app: Record<string, unknown> | undefined, path: string): FieldError[] {
  if (!app) return [];
  const errs: FieldError[] = [];
  const toleration = num(record(app.decisionConditions)?.tolerationSeconds);
  if (toleration !== undefined && toleration < 0) {
    errs.push(
      fieldError.invalid(
        childPath(childPath(path, 'decisionConditions'), 'tolerationSeconds'),
        toleration,
        'must be greater than or equal to 0',
      ),
    );
  }
  const gracePath = childPath(path, 'gracePeriodSeconds');
  const grace = num(app.gracePeriodSeconds);
  const graceful = isGracefulPurge(app.purgeMode);
  if (!graceful && grace !== undefined) {
    errs.push(fieldError.invalid(gracePath, grace, 'only takes effect when purgeMode is gracefully'));
  }
  if (graceful && grace === undefined) {
    errs.push(fieldError.invalid(gracePath, null, 'should not be empty when purgeMode is gracefully'));
  }
  if (grace !== undefined && grace <= 0) errs.push(fieldError.invalid(gracePath, grace, 'must be greater than 0'));
  errs.push(...validateStatePreservation(record(app.statePreservation), childPath(path, 'statePreservation')));
  return errs;
}

/** `ValidateFailover`: application failover rules, and cluster failover's state preservation. */
export function validateFailover(failover: Record<string, unknown> | undefined, path: string): FieldError[] {
  if (!failover) return [];
  const clusterPath = childPath(path, 'cluster');
  return [
    ...validateApplicationFailover(record(failover.application), childPath(path, 'application')),
    ...validateStatePreservation(
      record(record(failover.cluster)?.statePreservation),
      childPath(clusterPath, 'statePreservation'),
    ),
  ];
}

/**
 * `ValidatePropagationSpec`: placement, `propagateDeps` with application failover, failover,
 * named selectors with `preemption: Always`, and suspension.
 */
export function validatePropagationSpec(specValue: unknown): FieldError[] {
  const spec = record(specValue) ?? {};
  const errs = validatePlacement(record(spec.placement) ?? {}, 'spec.placement');
  const failover = record(spec.failover);
  if (failover && present(failover.application) && spec.propagateDeps !== true) {
    errs.push(
      fieldError.invalid('spec.propagateDeps', false, 'application failover is set, propagateDeps must be true'),
    );
  }
  errs.push(...validateFailover(failover, 'spec.failover'));
  if (text(spec.preemption) === 'Always') {
    list(spec.resourceSelectors).forEach((selector, i) => {
      if (text(record(selector)?.name) === '') {
        errs.push(
          fieldError.invalid(
            `spec.resourceSelectors[${i}].name`,
            '',
            'name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption',
          ),
        );
      }
    });
  }
  const suspension = record(spec.suspension);
  if (suspension?.dispatching === true && list(record(suspension.dispatchingOnClusters)?.clusterNames).length > 0) {
    // Karmada reports this at spec.suspension.suspension (it appends the child twice).
    errs.push(
      fieldError.invalid(
        'spec.suspension.suspension',
        suspension,
        'suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames',
      ),
    );
  }
  return errs;
}

function schedulerName(obj: KubeObject): string {
  return text(record(obj.spec)?.schedulerName) || DEFAULT_SCHEDULER_NAME;
}

function labelsOf(obj: KubeObject): Record<string, unknown> {
  return record(obj.metadata?.labels) ?? {};
}

/**
 * The validating webhook of both policy kinds. Karmada denies with a plain message (no field) for
 * the first three rules and stops there; they are reported here as one error on the field concerned.
 */
function validatePolicy(obj: KubeObject, old: KubeObject | undefined, idLabel: string): FieldError[] {
  const labelPath = keyPath('metadata.labels', idLabel);
  if (old) {
    if (schedulerName(obj) !== schedulerName(old)) {
      return [fieldError.forbidden('spec.schedulerName', 'the schedulerName should not be updated')];
    }
    if (text(labelsOf(obj)[idLabel]) !== text(labelsOf(old)[idLabel])) {
      return [
        fieldError.forbidden(
          labelPath,
          `label ${idLabel} is immutable, it can only be set by the system during creation`,
        ),
      ];
    }
  }
  if (!Object.hasOwn(labelsOf(obj), idLabel)) {
    return [
      fieldError.required(
        labelPath,
        `label ${idLabel} is required, it should be set by the mutating admission webhook during creation`,
      ),
    ];
  }
  return uniqueErrors(validatePropagationSpec(obj.spec));
}

/**
 * Validates a PropagationPolicy (`old` on update): scheduler name and permanent-id label immutable,
 * permanent-id label present, then {@link validatePropagationSpec}.
 */
export function validatePropagationPolicy(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  return validatePolicy(obj, old, PP_PERMANENT_ID_LABEL);
}

/** Validates a ClusterPropagationPolicy: as {@link validatePropagationPolicy}, with the CPP label. */
export function validateClusterPropagationPolicy(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  return validatePolicy(obj, old, CPP_PERMANENT_ID_LABEL);
}

/**
 * The spec defaults both mutating webhooks apply (in place on a copy): spread constraints default
 * to `spreadByField: cluster` and `minGroups: 1`; selecting an MCS `ServiceImport` forces
 * `propagateDeps`; Divided scheduling without a preference becomes `Weighted`; graceful application
 * failover gets `gracePeriodSeconds: 600`.
 */
function defaultPropagationSpec(spec: Record<string, unknown>, ctx: KarmadaDefaultingContext): void {
  const placement = record(spec.placement);
  // The seeds' default tolerations of the NoExecute taints a failing cluster gets (v1.3's webhook).
  if (ctx.defaultTolerationSeconds) {
    const target = placement ?? (spec.placement = {});
    const tolerations = withDefaultTolerations(
      list((target as Record<string, unknown>).clusterTolerations) as Toleration[],
      ctx.defaultTolerationSeconds,
    );
    if (tolerations.length) (target as Record<string, unknown>).clusterTolerations = tolerations;
  }
  for (const item of list(placement?.spreadConstraints)) {
    const c = record(item);
    if (!c) continue;
    if (!text(c.spreadByLabel) && !text(c.spreadByField)) c.spreadByField = 'cluster';
    if (!num(c.minGroups)) c.minGroups = 1;
  }
  const selectsServiceImport = list(spec.resourceSelectors).some((item) => {
    const s = record(item);
    return text(s?.kind) === 'ServiceImport' && text(s?.apiVersion) === SERVICE_IMPORT_API_VERSION;
  });
  if (selectsServiceImport) spec.propagateDeps = true;
  const scheduling = record(placement?.replicaScheduling);
  if (
    scheduling &&
    (text(scheduling.replicaSchedulingType) || 'Divided') === 'Divided' &&
    !text(scheduling.replicaDivisionPreference)
  ) {
    scheduling.replicaDivisionPreference = 'Weighted';
  }
  const app = record(record(spec.failover)?.application);
  if (app && isGracefulPurge(app.purgeMode) && num(app.gracePeriodSeconds) === undefined) {
    app.gracePeriodSeconds = DEFAULT_GRACE_PERIOD_SECONDS;
  }
}

function addPermanentId(obj: KubeObject, label: string, finalizer: string, ctx: KarmadaDefaultingContext): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [label]: ctx.newUid() };
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
}

/**
 * The PropagationPolicy mutating webhook, returning a new object: resource selectors without a
 * namespace get the policy's, the spec defaults, and on CREATE a fresh permanent-id label
 * (`propagationpolicy.karmada.io/permanent-id`, replacing any the client sent) and the
 * `karmada.io/propagation-policy-controller` finalizer.
 *
 * @example defaultPropagationPolicy(pp, { newUid: randomUUID, now, operation: 'CREATE' })
 */
export function defaultPropagationPolicy(obj: KubeObject, ctx: KarmadaDefaultingContext): KubeObject {
  const out = cloneJson(obj);
  out.metadata ??= {};
  const spec = record(out.spec);
  const namespace = out.metadata.namespace ?? '';
  if (spec) {
    for (const item of list(spec.resourceSelectors)) {
      const selector = record(item);
      if (selector && !text(selector.namespace) && namespace) selector.namespace = namespace;
    }
    defaultPropagationSpec(spec, ctx);
  }
  if (ctx.operation === 'CREATE') addPermanentId(out, PP_PERMANENT_ID_LABEL, PP_FINALIZER, ctx);
  return out;
}

/**
 * The ClusterPropagationPolicy mutating webhook: the spec defaults, and on CREATE the
 * `clusterpropagationpolicy.karmada.io/permanent-id` label and
 * `karmada.io/cluster-propagation-policy-controller` finalizer. Selector namespaces are left alone.
 */
export function defaultClusterPropagationPolicy(obj: KubeObject, ctx: KarmadaDefaultingContext): KubeObject {
  const out = cloneJson(obj);
  out.metadata ??= {};
  const spec = record(out.spec);
  if (spec) defaultPropagationSpec(spec, ctx);
  if (ctx.operation === 'CREATE') addPermanentId(out, CPP_PERMANENT_ID_LABEL, CPP_FINALIZER, ctx);
  return out;
}
