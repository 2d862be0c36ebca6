/**
 * Field selectors (`?fieldSelector=metadata.name=nginx,status.phase!=Running`), with the field
 * labels Kubernetes supports for each kind (`metadata.name` and `metadata.namespace` everywhere;
 * `involvedObject.*` for Events, which `kubectl describe` uses).
 */
import { apiErrors } from '../base/errors.ts';

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

const COMMON = ['metadata.name', 'metadata.namespace'];
const BY_KIND: Record<string, string[]> = {
  '/Event': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  'events.k8s.io/Event': [
    'regarding.kind',
    'regarding.namespace',
    'regarding.name',
    'regarding.uid',
    'regarding.apiVersion',
    'regarding.resourceVersion',
    'regarding.fieldPath',
    'reason',
    'reportingController',
    'type',
  ],
  '/Pod': [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
  ],
  '/Secret': ['type'],
  '/Namespace': ['status.phase'],
  '/Node': ['spec.unschedulable'],
  'batch/Job': ['status.successful'],
};

/** Field labels a kind supports. */
export function supportedFieldLabels(group: string, kind: string): string[] {
  return [...COMMON, ...(BY_KIND[`${group}/${kind}`] ?? [])];
}

export function parseFieldSelector(text: string, group: string, kind: string): FieldRequirement[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  const supported = supportedFieldLabels(group, kind);
  return trimmed.split(',').map((part) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part.trim());
    if (!m)
      throw apiErrors.badRequest(
        `invalid field selector ${JSON.stringify(part)}: expected field=value or field!=value`,
      );
    const field = m[1]!.trim();
    if (!supported.includes(field)) {
      throw apiErrors.badRequest(
        `field label not supported: ${field} (this resource supports: ${supported.join(', ')})`,
      );
    }
    return { field, op: m[2] === '!=' ? '!=' : '=', value: m[3]!.trim() };
  });
}

function valueAt(obj: unknown, field: string): string {
  if (field === 'source') {
    const src = (obj as { source?: { component?: string } }).source;
    return src?.component ?? '';
  }
  let cur: unknown = obj;
  for (const k of field.split('.'))
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur === undefined || cur === null ? '' : String(cur);
}

export function matchesFields(obj: unknown, requirements: readonly FieldRequirement[]): boolean {
  return requirements.every((r) => (valueAt(obj, r.field) === r.value) === (r.op === '='));
}
