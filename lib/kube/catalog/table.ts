/**
 * `kubectl get` output: the server renders a `Table` (meta.k8s.io/v1) with the kind's columns, as
 * kube-apiserver does for built-in kinds and CRD `additionalPrinterColumns`.
 */
import type { KubeObject } from '../../api/object.ts';
import { evaluateJsonPath } from './jsonpath.ts';
import type { PrinterColumn, ResourceDef } from './resources.ts';

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration: `45s`, `3m20s`, `5h`, `12d`. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    const years = Math.floor(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** Age of a timestamp, as the AGE column shows it (`<unknown>` when missing). */
export function age(timestamp: unknown, nowMs: number): string {
  if (typeof timestamp !== 'string') return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(nowMs - t);
}

export const AGE_COLUMN: PrinterColumn = {
  name: 'Age',
  type: 'string',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  cell: (obj, now) => age(obj.metadata.creationTimestamp, now),
};

function cellOf(column: PrinterColumn, obj: KubeObject, nowMs: number): unknown {
  if (column.cell) return column.cell(obj, nowMs);
  if (!column.jsonPath) return '';
  let values: unknown[];
  try {
    values = evaluateJsonPath(obj, column.jsonPath);
  } catch {
    return '';
  }
  if (values.length === 0) return column.type === 'string' || column.type === 'date' ? '<none>' : null;
  if (column.type === 'date') return age(values[0], nowMs);
  if (values.length === 1) {
    const v = values[0];
    return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
  }
  return values.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(',');
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string };
  columnDefinitions: { name: string; type: string; format: string; description: string; priority: number }[];
  rows: { cells: unknown[]; object?: unknown }[];
}

/** The NAME column, first unless a kind places its own (`format: name`), as Events do. */
export const NAME_COLUMN: PrinterColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace.',
  cell: (o) => o.metadata.name ?? '',
};

/** The Table of `objects` of `def`. */
export function toTable(
  def: ResourceDef,
  objects: readonly KubeObject[],
  options: { nowMs: number; includeObject: IncludeObject; listMeta?: { resourceVersion?: string; continue?: string } },
): Table {
  const own = def.printerColumns.length > 0 ? def.printerColumns : [AGE_COLUMN];
  const columns: PrinterColumn[] = def.printerColumns.some((c) => c.format === 'name') ? own : [NAME_COLUMN, ...own];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { ...(options.listMeta ?? {}) },
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type === 'date' ? 'string' : c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
    })),
    rows: objects.map((o) => {
      const row: { cells: unknown[]; object?: unknown } = { cells: columns.map((c) => cellOf(c, o, options.nowMs)) };
      if (options.includeObject === 'Object') row.object = o;
      else if (options.includeObject === 'Metadata') {
        row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
      }
      return row;
    }),
  };
}
