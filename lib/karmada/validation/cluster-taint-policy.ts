/**
 * ClusterTaintPolicy admission, as Karmada v1.15's `pkg/webhook/clustertaintpolicy/validating.go`
 * does it with its default flags (`--allow-no-execute-taint-policy=false`).
 */
import type { KubeObject } from '../../api/object.ts';
import { type FieldError, fieldError } from '../../kube/base/field-errors.ts';
import { uniqueErrors } from './k8s-rules.ts';
import { list, record, text } from './shape.ts';

/**
 * Validates a ClusterTaintPolicy: NoExecute taints are refused unless `allowNoExecute`, and a
 * key+effect pair may appear once (reported on its first occurrence).
 */
export function validateClusterTaintPolicy(
  obj: KubeObject,
  _old: KubeObject | undefined,
  options: { allowNoExecute?: boolean } = {},
): FieldError[] {
  const taints = list(record(obj.spec)?.taints).map((t) => record(t) ?? {});
  const errs: FieldError[] = [];
  taints.forEach((taint, i) => {
    const path = `spec.taints[${i}]`;
    if (!options.allowNoExecute && text(taint.effect) === 'NoExecute') {
      errs.push(
        fieldError.forbidden(
          path,
          'Configuring taint with NoExecute effect is not allowed, this capability must be explicitly enabled by administrators through command-line flags',
        ),
      );
    }
    const dup = taints
      .slice(i + 1)
      .some((t) => text(t.key) === text(taint.key) && text(t.effect) === text(taint.effect));
    if (dup) {
      errs.push(
        fieldError.duplicate(
          path,
          `Duplicate taint with the same key(${text(taint.key)}) and effect(${text(taint.effect)}) is not allowed`,
        ),
      );
    }
  });
  return uniqueErrors(errs);
}
