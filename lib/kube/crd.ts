/**
 * CustomResourceDefinitions → served resources: each served version of a CRD becomes a ResourceDef
 * with the CRD's schema (metadata replaced by the full ObjectMeta schema, as the API server
 * validates ObjectMeta itself), printer columns, status subresource and names. Also the checks
 * kube-apiserver makes on a CRD before accepting it.
 */
import { rfc3339 } from '../api/time.ts';
import type { KubeObject } from '../api/object.ts';
import { updateLatest } from '../store/write.ts';
import type { ObjectStore } from '../store/port.ts';
import { isDNS1123Label } from '../util/validation.ts';
import { objectMeta, str } from './builtin/schemas.ts';
import { childPath, type FieldError, fieldError } from './base/field-errors.ts';
import {
  ALL_VERBS,
  compareVersions,
  type PrinterColumn,
  type ResourceDef,
  type ResourceStrategy,
} from './catalog/resources.ts';
import type { Schema } from './base/schema.ts';
import { AGE_COLUMN } from './catalog/table.ts';

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: {
    status?: object;
    scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: {
    name: string;
    type: string;
    format?: string;
    description?: string;
    priority?: number;
    jsonPath: string;
  }[];
}

interface CrdSpec {
  group: string;
  names: {
    plural: string;
    singular?: string;
    kind: string;
    listKind?: string;
    shortNames?: string[];
    categories?: string[];
  };
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
}

function withObjectMeta(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  return {
    ...schema,
    properties: { ...(schema.properties ?? {}), apiVersion: str(), kind: str(), metadata: objectMeta() },
  };
}

function columnsOf(version: CrdVersion): PrinterColumn[] {
  const cols = version.additionalPrinterColumns;
  if (!cols || cols.length === 0) return [AGE_COLUMN];
  return cols.map((c) => ({
    name: c.name,
    type: (['string', 'integer', 'number', 'boolean', 'date'].includes(c.type)
      ? c.type
      : 'string') as PrinterColumn['type'],
    ...(c.format ? { format: c.format } : {}),
    ...(c.description ? { description: c.description } : {}),
    priority: c.priority ?? 0,
    jsonPath: c.jsonPath,
  }));
}

/** The served versions of a CRD as resource definitions. */
export function resourceDefsFromCrd(crd: KubeObject, origin: string, strategy?: ResourceStrategy): ResourceDef[] {
  const spec = crd.spec as CrdSpec;
  const served = spec.versions.filter((v) => v.served);
  const preferred = [...served].sort((a, b) => compareVersions(a.name, b.name))[0]?.name;
  return served.map((v) => ({
    group: spec.group,
    version: v.name,
    kind: spec.names.kind,
    listKind: spec.names.listKind ?? `${spec.names.kind}List`,
    plural: spec.names.plural,
    singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
    shortNames: spec.names.shortNames ?? [],
    categories: spec.names.categories ?? [],
    namespaced: spec.scope === 'Namespaced',
    verbs: [...ALL_VERBS],
    statusSubresource: Boolean(v.subresources?.status),
    ...(v.subresources?.scale?.specReplicasPath && v.subresources.scale.statusReplicasPath
      ? {
          scale: {
            specReplicasPath: v.subresources.scale.specReplicasPath,
            statusReplicasPath: v.subresources.scale.statusReplicasPath,
            ...(v.subresources.scale.labelSelectorPath
              ? { labelSelectorPath: v.subresources.scale.labelSelectorPath }
              : {}),
          },
        }
      : {}),
    schema: withObjectMeta(v.schema?.openAPIV3Schema),
    printerColumns: columnsOf(v),
    strategicMergePatch: false,
    nameRule: 'subdomain',
    preferred: v.name === preferred,
    origin,
    ...(strategy ? { strategy } : {}),
  }));
}

/** The checks kube-apiserver makes on a CustomResourceDefinition. */
export function validateCrd(crd: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const spec = crd.spec as Partial<CrdSpec> | undefined;
  if (!spec?.names || !spec.group) return errors; // schema's required fields already report these
  const expected = `${spec.names.plural}.${spec.group}`;
  if (crd.metadata.name !== expected) {
    errors.push(fieldError.invalid('metadata.name', crd.metadata.name, `must be spec.names.plural+"."+spec.group`));
  }
  if (!spec.group.includes('.')) {
    errors.push(fieldError.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  const pluralErrors = isDNS1123Label(spec.names.plural);
  if (pluralErrors.length > 0) {
    errors.push(fieldError.invalid('spec.names.plural', spec.names.plural, pluralErrors.join(',')));
  }
  if (!/^[A-Z][A-Za-z0-9]*$/.test(spec.names.kind)) {
    errors.push(
      fieldError.invalid(
        'spec.names.kind',
        spec.names.kind,
        'must be a valid DNS-1035 label in CamelCase, e.g. MyKind',
      ),
    );
  }
  const versions = spec.versions ?? [];
  if (versions.length === 0)
    errors.push(fieldError.required('spec.versions', 'must have exactly one version marked as storage version'));
  const storage = versions.filter((v) => v.storage);
  if (versions.length > 0 && storage.length !== 1) {
    errors.push(
      fieldError.invalid(
        'spec.versions',
        storage.map((v) => v.name),
        'must have exactly one version marked as storage version',
      ),
    );
  }
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    const path = childPath(childPath('spec.versions', i), 'name');
    if (!/^v[0-9]+((alpha|beta)[0-9]+)?$/.test(v.name) && isDNS1123Label(v.name).length > 0) {
      errors.push(fieldError.invalid(path, v.name, 'must be a DNS-1035 label'));
    }
    if (seen.has(v.name)) errors.push(fieldError.duplicate(path, v.name));
    seen.add(v.name);
    const root = v.schema?.openAPIV3Schema;
    if (!root) {
      errors.push(
        fieldError.required(childPath(childPath('spec.versions', i), 'schema.openAPIV3Schema'), 'schemas are required'),
      );
    } else if (root.type !== 'object') {
      errors.push(
        fieldError.invalid(
          childPath(childPath('spec.versions', i), 'schema.openAPIV3Schema.type'),
          root.type,
          'must be object at the root',
        ),
      );
    }
  });
  return errors;
}

/**
 * Marks a CRD `NamesAccepted` and `Established` with its accepted names and stored versions, as
 * the apiextensions controllers do once a CRD is served (conflicts are retried a few times).
 */
export async function establishCrd(store: ObjectStore, crd: KubeObject, nowMs: number): Promise<void> {
  const spec = crd.spec as { names?: Record<string, unknown>; versions?: { name: string; storage?: boolean }[] };
  const now = rfc3339(nowMs);
  const condition = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    lastTransitionTime: now,
    reason,
    message,
  });
  const status = {
    acceptedNames: spec.names ?? {},
    storedVersions: (spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
    conditions: [
      condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
    ],
  };
  // The CRD as just written first; after a conflict, the version the conflict carried.
  await updateLatest(store, crd, (current) => ({ ...current, status }), { attempts: 3, write: 'updateStatus' });
}
