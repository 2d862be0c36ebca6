/**
 * The plugin registry (Karmada `pkg/scheduler/framework/plugins/registry.go`) and the `--plugins`
 * flag's semantics: `*` enables every in-tree plugin, `Name` enables one, `-Name` disables one
 * (`--plugins=*,-ClusterLocality`). Unknown names are an error — a typo must not silently disable a
 * filter.
 */
import * as apiEnablement from './api-enablement/index.ts';
import * as clusterAffinity from './cluster-affinity/index.ts';
import * as clusterEviction from './cluster-eviction/index.ts';
import * as clusterLocality from './cluster-locality/index.ts';
import * as spreadConstraint from './spread-constraint/index.ts';
import * as taintToleration from './taint-toleration/index.ts';
import * as workloadAffinity from './workload-affinity/index.ts';
import { type FilterPlugin, isFilter, isScore, type Plugin, type ScorePlugin } from '../framework/interface.ts';

export type PluginFactory = () => Plugin;

/** In-tree plugins by name, in Karmada's order (filters run in this order). */
export const IN_TREE_PLUGINS: ReadonlyMap<string, PluginFactory> = new Map<string, PluginFactory>([
  [apiEnablement.NAME, apiEnablement.create],
  [taintToleration.NAME, taintToleration.create],
  [clusterAffinity.NAME, clusterAffinity.create],
  [spreadConstraint.NAME, spreadConstraint.create],
  [clusterLocality.NAME, clusterLocality.create],
  [clusterEviction.NAME, clusterEviction.create],
  // Karmada ≥ 1.17 (gate WorkloadAffinity); no-ops for bindings without workloadAffinityGroups.
  [workloadAffinity.ANTI_AFFINITY_NAME, workloadAffinity.createAntiAffinity],
  [workloadAffinity.AFFINITY_NAME, workloadAffinity.createAffinity],
]);

export class PluginConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginConfigError';
  }
}

export interface Framework {
  readonly filters: readonly FilterPlugin[];
  readonly scores: readonly ScorePlugin[];
  /** Enabled plugin names, in run order. */
  readonly enabled: readonly string[];
}

/**
 * Builds the framework from a `--plugins` list (default `['*']`). Extra out-of-tree factories can be
 * registered by name and enabled the same way.
 */
export function buildFramework(
  plugins: readonly string[] = ['*'],
  registry: ReadonlyMap<string, PluginFactory> = IN_TREE_PLUGINS,
): Framework {
  const enabled = new Set<string>();
  const disabled = new Set<string>();
  let all = false;
  for (const raw of plugins) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry === '*') {
      all = true;
      continue;
    }
    const off = entry.startsWith('-');
    const name = off ? entry.slice(1) : entry;
    if (!registry.has(name)) {
      throw new PluginConfigError(
        `unknown scheduler plugin ${JSON.stringify(name)} in --plugins; known plugins: ${[...registry.keys()].join(', ')}`,
      );
    }
    (off ? disabled : enabled).add(name);
  }
  const names = [...registry.keys()].filter((n) => (all || enabled.has(n)) && !disabled.has(n));
  const instances = names.map((n) => registry.get(n)!());
  return {
    filters: instances.filter(isFilter),
    scores: instances.filter(isScore),
    enabled: names,
  };
}

/** Parses the comma-separated flag form (`*,-ClusterLocality`). */
export function parsePluginsFlag(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return ['*'];
  return value.split(',');
}
