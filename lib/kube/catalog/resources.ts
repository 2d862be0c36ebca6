/**
 * What a server serves: one {@link ResourceDef} per group/version/resource, gathered in a
 * {@link Catalog} that answers routing, discovery and OpenAPI questions. Built-in kinds, Karmada's
 * kinds and user CRDs all become ResourceDefs, so the REST layer has one code path for all of them.
 */
import type { KubeObject } from '../../api/object.ts';
import type { FieldError } from '../base/field-errors.ts';
import type { Schema } from '../base/schema.ts';
import type { RequestAttributes, UserInfo } from '../base/types.ts';
import type { ResourceView } from './view-store.ts';

export type Verb = 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'watch';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update'];

/** A column of `kubectl get` output (CRD `additionalPrinterColumns`, or a built-in column). */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description?: string;
  /** 0: shown by default; > 0: only with `-o wide`. */
  priority?: number;
  /** CRD columns read this JSONPath; built-in columns use `cell` instead. */
  jsonPath?: string;
  /** Built-in columns compute their cell. */
  cell?: (obj: KubeObject, nowMs: number) => unknown;
}

/** How names of a kind are validated (Kubernetes: most kinds DNS-1123 subdomains, some labels). */
export type NameRule = 'subdomain' | 'label' | 'path-segment';

/** Kind-specific behaviour beyond the schema (Kubernetes' "strategy"). */
export interface ResourceStrategy {
  /** Fills defaults on create/update (returns a new object). */
  default?(obj: KubeObject, ctx: { operation: 'CREATE' | 'UPDATE'; newUid: () => string; now: string }): KubeObject;
  /** Semantic validation after the schema check; `old` on update. */
  validate?(obj: KubeObject, old: KubeObject | undefined): FieldError[];
}

export interface ResourceDef {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  namespaced: boolean;
  verbs: Verb[];
  /** Serves `/status` (every kind here stores status apart; this says whether the URL exists). */
  statusSubresource: boolean;
  /** Serves `/scale` (autoscaling/v1 Scale), reading and writing replicas at these JSON paths. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Schema of the whole object; undefined accepts anything (no unknown-field checks). */
  schema: Schema | undefined;
  /** Columns for Table output (besides NAME, and NAMESPACE when listing across namespaces). */
  printerColumns: PrinterColumn[];
  /** Strategic merge patch allowed (built-in kinds; Kubernetes refuses it for custom resources). */
  strategicMergePatch: boolean;
  nameRule: NameRule;
  /** The version clients should prefer when a group serves several. */
  preferred: boolean;
  strategy?: ResourceStrategy;
  /** Where it came from, for messages: built-in, karmada, or the CRD's name. */
  origin: string;
  /** Served as a view of another kind's objects (events.k8s.io/v1 Events over core Events). */
  view?: ResourceView;
  /**
   * A review: created, never stored, answered from who is asking (SelfSubjectReview,
   * SelfSubjectAccessReview). Open to every authenticated user.
   */
  review?: (
    body: KubeObject,
    asker: { user: UserInfo; authorize(attrs: RequestAttributes): Promise<true | string> },
  ) => Promise<KubeObject>;
}

/** The apiVersion string of a def: `v1` or `apps/v1`. */
export function apiVersionOf(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

export interface GroupInfo {
  name: string;
  versions: string[];
  preferredVersion: string;
}

/** An immutable set of served resources with the lookups the REST layer needs. */
export class Catalog {
  readonly defs: readonly ResourceDef[];
  readonly #byPlural = new Map<string, ResourceDef>();
  readonly #byKind = new Map<string, ResourceDef>();

  constructor(defs: readonly ResourceDef[]) {
    this.defs = defs;
    for (const d of defs) {
      this.#byPlural.set(`${d.group}/${d.version}/${d.plural}`, d);
      this.#byKind.set(`${d.group}/${d.version}/${d.kind}`, d);
    }
  }

  byPlural(group: string, version: string, plural: string): ResourceDef | undefined {
    return this.#byPlural.get(`${group}/${version}/${plural}`);
  }

  byKind(group: string, version: string, kind: string): ResourceDef | undefined {
    return this.#byKind.get(`${group}/${version}/${kind}`);
  }

  /** Every served version of a group/kind, preferred first. */
  versionsOf(group: string, kind: string): ResourceDef[] {
    return this.defs
      .filter((d) => d.group === group && d.kind === kind)
      .sort((a, b) => Number(b.preferred) - Number(a.preferred));
  }

  /** Groups with their versions (the core group is `''`). */
  groups(): GroupInfo[] {
    const byGroup = new Map<string, GroupInfo>();
    const preferredSeen = new Set<string>();
    for (const d of this.defs) {
      let g = byGroup.get(d.group);
      if (!g) {
        g = { name: d.group, versions: [], preferredVersion: d.version };
        byGroup.set(d.group, g);
      }
      if (!g.versions.includes(d.version)) g.versions.push(d.version);
      // The group's preferred version is the highest-priority version any of its kinds prefers, as
      // kube-apiserver's CRD discovery sorts them (work.karmada.io: v1alpha2 for bindings beats the
      // v1alpha1 of Works, so kubectl reads bindings at v1alpha2 and Works at v1alpha1).
      if (d.preferred && (!preferredSeen.has(d.group) || compareVersions(d.version, g.preferredVersion) < 0)) {
        g.preferredVersion = d.version;
        preferredSeen.add(d.group);
      }
    }
    for (const g of byGroup.values()) g.versions.sort(compareVersions);
    return [...byGroup.values()];
  }

  resources(group: string, version: string): ResourceDef[] {
    return this.defs.filter((d) => d.group === group && d.version === version);
  }

  /** A new catalog with `extra` added; an extra def replaces a def with the same group/version/plural. */
  with(extra: readonly ResourceDef[]): Catalog {
    const keys = new Set(extra.map((d) => `${d.group}/${d.version}/${d.plural}`));
    return new Catalog([...this.defs.filter((d) => !keys.has(`${d.group}/${d.version}/${d.plural}`)), ...extra]);
  }
}

/**
 * Kubernetes version priority: GA (v2 > v1) before beta (v1beta2 > v1beta1) before alpha, others
 * last alphabetically. Sorts highest priority first.
 */
export function compareVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    const stability = m[2] === 'alpha' ? 1 : m[2] === 'beta' ? 2 : 3;
    return [stability, Number(m[1]), Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i]! - ra[i]!;
  return a < b ? -1 : a > b ? 1 : 0;
}
