/**
 * Which clusters a `ClusterAffinity` selects — Karmada's `util.ClusterMatches` (`pkg/util/selector.go`).
 * Used by the scheduler's ClusterAffinity filter, static weight rules, and override rules'
 * `targetCluster`.
 */
import { fromLabelSelector, InvalidSelectorError, matchesRequirements, type Requirement } from '../../api/labels.ts';
import { isQualifiedName } from '../../util/validation.ts';
import type { Cluster, ClusterAffinity, LabelSelector, NodeSelectorRequirement } from '../model/types.ts';

/** Compiled selectors, by the identity of the selector object (policies are read-only snapshots). */
const labelSelectors = new WeakMap<object, Requirement[] | null>();
const fieldSelectors = new WeakMap<object, CompiledFieldSelector | null>();

interface CompiledFieldSelector {
  zone: NodeSelectorRequirement[];
  /** Requirements over `{provider, region}`. */
  others: Requirement[];
}

/** A label selector compiled once; `null` when it is invalid (which matches nothing, as in Karmada). */
export function compileLabelSelector(selector: LabelSelector): Requirement[] | null {
  let compiled = labelSelectors.get(selector);
  if (compiled === undefined) {
    try {
      compiled = fromLabelSelector(selector);
    } catch (err) {
      if (!(err instanceof InvalidSelectorError)) throw err;
      compiled = null;
    }
    labelSelectors.set(selector, compiled);
  }
  return compiled;
}

const INTEGER = /^[+-]?\d+$/;

/**
 * `NodeSelectorRequirementsAsSelector`: In/NotIn need values, Exists/DoesNotExist none, Gt/Lt exactly
 * one integer; keys must be qualified names. `null` when any requirement is invalid.
 */
export function compileNodeSelectorRequirements(reqs: readonly NodeSelectorRequirement[]): Requirement[] | null {
  const out: Requirement[] = [];
  for (const r of reqs) {
    if (typeof r.key !== 'string' || isQualifiedName(r.key).length > 0) return null;
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return null;
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) return null;
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1 || !INTEGER.test(values[0]!)) return null;
        break;
      default:
        return null;
    }
    out.push({ key: r.key, operator: r.operator, values: [...values] });
  }
  return out;
}

function compileFieldSelector(selector: {
  matchExpressions?: NodeSelectorRequirement[];
}): CompiledFieldSelector | null {
  let compiled = fieldSelectors.get(selector);
  if (compiled === undefined) {
    const zone: NodeSelectorRequirement[] = [];
    const others: NodeSelectorRequirement[] = [];
    for (const e of selector.matchExpressions ?? []) (e.key === 'zone' ? zone : others).push(e);
    const reqs = compileNodeSelectorRequirements(others);
    compiled = reqs ? { zone, others: reqs } : null;
    fieldSelectors.set(selector, compiled);
  }
  return compiled;
}

/** The `zone` key is special: a cluster has several zones (Karmada `pkg/util/selector.go` `matchZones`). */
function zoneMatches(zones: readonly string[], e: NodeSelectorRequirement): boolean {
  const values = e.values ?? [];
  switch (e.operator) {
    case 'In':
      return zones.length > 0 && zones.every((z) => values.includes(z));
    case 'NotIn':
      return !zones.some((z) => values.includes(z));
    case 'Exists':
      return zones.length > 0;
    case 'DoesNotExist':
      return zones.length === 0;
    default:
      return false;
  }
}

/** The zones of a cluster: `spec.zones`, or the deprecated `spec.zone` when that is all there is. */
export function clusterZones(cluster: Cluster): string[] {
  const zones = cluster.spec?.zones;
  if (zones && zones.length > 0) return zones;
  return cluster.spec?.zone ? [cluster.spec.zone] : [];
}

/**
 * True when `cluster` satisfies every clause of `affinity` (Karmada `ClusterMatches`): not in
 * `exclude`; labels match `labelSelector`; `fieldSelector` over `provider`, `region` (only non-empty
 * fields exist) and `zone` (`In` needs every zone of the cluster listed); name in `clusterNames`
 * when that is non-empty. Invalid selectors match nothing.
 *
 * @example clusterMatches(member1, { clusterNames: ['member1', 'member2'] }) // true
 */
export function clusterMatches(cluster: Cluster, affinity: ClusterAffinity): boolean {
  const name = cluster.metadata.name ?? '';
  if (affinity.exclude?.includes(name)) return false;
  if (affinity.labelSelector) {
    const reqs = compileLabelSelector(affinity.labelSelector);
    if (!reqs || !matchesRequirements(reqs, cluster.metadata.labels ?? {})) return false;
  }
  if (affinity.fieldSelector) {
    const compiled = compileFieldSelector(affinity.fieldSelector);
    if (!compiled) return false;
    if (compiled.zone.length > 0) {
      const zones = clusterZones(cluster);
      if (!compiled.zone.every((e) => zoneMatches(zones, e))) return false;
    }
    if (compiled.others.length > 0) {
      const fields: Record<string, string> = {};
      if (cluster.spec?.provider) fields.provider = cluster.spec.provider;
      if (cluster.spec?.region) fields.region = cluster.spec.region;
      if (!matchesRequirements(compiled.others, fields)) return false;
    }
  }
  const names = affinity.clusterNames;
  return !names || names.length === 0 || names.includes(name);
}
