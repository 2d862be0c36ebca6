/**
 * Failover settings: Karmada's flag names and defaults (where Karmada has the flag), as `skctl up`
 * flags, `SK_*` function environment variables and CDK environment settings — one table serves all
 * three, so a flag cannot exist in one place and be missing in another.
 *
 * Deliberately different defaults (docs/decisions/0009-failover.md): the `Failover` gate and
 * `--enable-no-execute-taint-eviction` are on (Karmada turned failover off after #5150; the safety
 * rules here are why it can stay on), and `StatefulFailoverInjection` is on.
 */
import { formatDuration, parseDuration } from '../util/duration.ts';

/** Karmada's feature gates this control plane knows, with the defaults here. */
export const FEATURE_GATE_DEFAULTS = {
  /** Taint manager, NoExecute taints and ClusterTaintPolicy (Karmada: Beta, off). */
  Failover: true,
  /** Graceful eviction tasks (Karmada: Beta, on). Locked on here: see {@link LOCKED_FEATURE_GATES}. */
  GracefulEviction: true,
  /** statePreservation extraction and label injection (Karmada: Alpha, off). */
  StatefulFailoverInjection: true,
  /** Accepted for compatibility; always on here. */
  PropagateDeps: true,
  CustomizedClusterResourceModeling: true,
  PropagationPolicyPreemption: true,
  MultiplePodTemplatesScheduling: true,
  ControllerPriorityQueue: true,
  PriorityBasedScheduling: true,
  FederatedQuotaEnforcement: true,
  /** `placement.workloadAffinity` (Karmada ≥ 1.17: Alpha, off; here on — a policy opts in by setting it). */
  WorkloadAffinity: true,
  /** Accepted, not implemented: no effect. */
  MultiClusterService: false,
  ResourceQuotaEstimate: false,
  SchedulingOvercommitProtection: true,
} as const;

export type FeatureGate = keyof typeof FEATURE_GATE_DEFAULTS;
export type FeatureGates = Record<FeatureGate, boolean>;

export class FeatureGateError extends Error {
  override readonly name = 'FeatureGateError';
}

/**
 * Gates that cannot be turned off here (Kubernetes' `LockToDefault`), with why. Karmada with
 * `GracefulEviction=false` evicts by dropping the cluster from the binding (`RemoveCluster`): the old
 * copy is deleted at once, without the task that keeps the last copy until a replacement is placed,
 * carries the preserved state and holds the new copy until a `Directly`-purged one is gone, and
 * application failover refuses `Gracefully` and `Never`. Every eviction here goes through a task.
 */
export const LOCKED_FEATURE_GATES: Readonly<Partial<Record<FeatureGate, string>>> = {
  GracefulEviction:
    'every eviction goes through a graceful eviction task, which keeps the last copy until a replacement is placed, carries the preserved state and holds a new copy until a Directly-purged one is gone; to remove evicted copies at once, use --no-execute-taint-eviction-purge-mode=Directly',
};

/**
 * Parses `--feature-gates=Failover=true,StatefulFailoverInjection=false` as Kubernetes' component-base
 * does: comma-separated `Name=bool`; an unknown gate, a value that is not a boolean, or a locked gate
 * ({@link LOCKED_FEATURE_GATES}) set away from its default is an error.
 */
export function parseFeatureGates(text: string | undefined): Partial<FeatureGates> {
  const out: Partial<FeatureGates> = {};
  if (!text?.trim()) return out;
  for (const part of text.split(',')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq <= 0) throw new FeatureGateError(`missing bool value for ${item}`);
    const name = item.slice(0, eq).trim();
    const value = item
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (!(name in FEATURE_GATE_DEFAULTS)) {
      throw new FeatureGateError(
        `unrecognized feature gate: ${name} (known: ${Object.keys(FEATURE_GATE_DEFAULTS).join(', ')})`,
      );
    }
    if (value !== 'true' && value !== 'false')
      throw new FeatureGateError(`invalid value of ${name}=${value}: must be true or false`);
    const gate = name as FeatureGate;
    const locked = LOCKED_FEATURE_GATES[gate];
    if (locked !== undefined && (value === 'true') !== FEATURE_GATE_DEFAULTS[gate]) {
      throw new FeatureGateError(
        `cannot set feature gate ${name} to ${value}, feature is locked to ${FEATURE_GATE_DEFAULTS[gate]}: ${locked}`,
      );
    }
    out[gate] = value === 'true';
  }
  return out;
}

/** The gates in force: the defaults with the given ones over them. */
export function featureGates(given: Partial<FeatureGates> | undefined): FeatureGates {
  return { ...FEATURE_GATE_DEFAULTS, ...given };
}

/** `Name=bool,…` for the gates that differ from the defaults (the inverse of {@link parseFeatureGates}). */
export function formatFeatureGates(given: Partial<FeatureGates>): string {
  return Object.entries(given)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

export interface FailoverSettings {
  /** `--feature-gates`. */
  featureGates: FeatureGates;
  /** `--failover-eviction-timeout` (5 m, the seeds): NotReady/Unknown this long ⇒ NoExecute taint. */
  failoverEvictionTimeoutMs: number;
  /** `--default-not-ready-toleration-seconds` (300). */
  defaultNotReadyTolerationSeconds: number;
  /** `--default-unreachable-toleration-seconds` (300). */
  defaultUnreachableTolerationSeconds: number;
  /** `--graceful-eviction-timeout` (10 m). */
  gracefulEvictionTimeoutMs: number;
  /** `--no-execute-taint-eviction-purge-mode` (Gracefully). */
  noExecuteTaintEvictionPurgeMode: 'Gracefully' | 'Directly';
  /** `--enable-no-execute-taint-eviction` (true here; Karmada false). */
  enableNoExecuteTaintEviction: boolean;
  /** `--allow-no-execute-taint-policy` (false): may a ClusterTaintPolicy add NoExecute taints. */
  allowNoExecuteTaintPolicy: boolean;
  /** `--resource-eviction-rate` (0.5/s, Karmada ≥ 1.16). */
  resourceEvictionRate: number;
  /** `--resource-eviction-burst` (10). */
  resourceEvictionBurst: number;
  /** `--secondary-resource-eviction-rate` (0.1/s). */
  secondaryResourceEvictionRate: number;
  /** `--unhealthy-cluster-threshold` (0.55). */
  unhealthyClusterThreshold: number;
}

export const DEFAULT_FAILOVER_SETTINGS: FailoverSettings = {
  featureGates: featureGates(undefined),
  failoverEvictionTimeoutMs: 5 * 60_000,
  defaultNotReadyTolerationSeconds: 300,
  defaultUnreachableTolerationSeconds: 300,
  gracefulEvictionTimeoutMs: 10 * 60_000,
  noExecuteTaintEvictionPurgeMode: 'Gracefully',
  enableNoExecuteTaintEviction: true,
  allowNoExecuteTaintPolicy: false,
  resourceEvictionRate: 0.5,
  resourceEvictionBurst: 10,
  secondaryResourceEvictionRate: 0.1,
  unhealthyClusterThreshold: 0.55,
};

type Kind = 'duration' | 'seconds' | 'int' | 'rate' | 'fraction' | 'bool' | 'purge-mode' | 'gates';

interface FlagSpec {
  field: keyof FailoverSettings;
  env: string;
  kind: Kind;
  help: string;
}

/** Every failover flag: its setting, its `SK_*` variable, how it parses, and what it does. */
export const FAILOVER_FLAGS: Readonly<Record<string, FlagSpec>> = {
  'feature-gates': {
    field: 'featureGates',
    env: 'SK_FEATURE_GATES',
    kind: 'gates',
    help: 'Karmada feature gates, e.g. Failover=false,StatefulFailoverInjection=false',
  },
  'failover-eviction-timeout': {
    field: 'failoverEvictionTimeoutMs',
    env: 'SK_FAILOVER_EVICTION_TIMEOUT',
    kind: 'duration',
    help: 'how long a cluster stays NotReady/Unknown before it gets a NoExecute taint (5m)',
  },
  'default-not-ready-toleration-seconds': {
    field: 'defaultNotReadyTolerationSeconds',
    env: 'SK_DEFAULT_NOT_READY_TOLERATION_SECONDS',
    kind: 'seconds',
    help: 'toleration of not-ready:NoExecute given to placements without one (300)',
  },
  'default-unreachable-toleration-seconds': {
    field: 'defaultUnreachableTolerationSeconds',
    env: 'SK_DEFAULT_UNREACHABLE_TOLERATION_SECONDS',
    kind: 'seconds',
    help: 'toleration of unreachable:NoExecute given to placements without one (300)',
  },
  'graceful-eviction-timeout': {
    field: 'gracefulEvictionTimeoutMs',
    env: 'SK_GRACEFUL_EVICTION_TIMEOUT',
    kind: 'duration',
    help: 'how long an evicted cluster keeps its copy while the new ones become healthy (10m)',
  },
  'no-execute-taint-eviction-purge-mode': {
    field: 'noExecuteTaintEvictionPurgeMode',
    env: 'SK_NO_EXECUTE_TAINT_EVICTION_PURGE_MODE',
    kind: 'purge-mode',
    help: 'purge mode of taint evictions without failover.cluster: Gracefully or Directly (Gracefully)',
  },
  'enable-no-execute-taint-eviction': {
    field: 'enableNoExecuteTaintEviction',
    env: 'SK_ENABLE_NO_EXECUTE_TAINT_EVICTION',
    kind: 'bool',
    help: 'whether NoExecute taints evict workloads (true)',
  },
  'allow-no-execute-taint-policy': {
    field: 'allowNoExecuteTaintPolicy',
    env: 'SK_ALLOW_NO_EXECUTE_TAINT_POLICY',
    kind: 'bool',
    help: 'whether a ClusterTaintPolicy may add NoExecute taints (false)',
  },
  'resource-eviction-rate': {
    field: 'resourceEvictionRate',
    env: 'SK_RESOURCE_EVICTION_RATE',
    kind: 'rate',
    help: 'bindings evicted per second across the fleet (0.5)',
  },
  'resource-eviction-burst': {
    field: 'resourceEvictionBurst',
    env: 'SK_RESOURCE_EVICTION_BURST',
    kind: 'int',
    help: 'evictions allowed at once before the rate applies (10)',
  },
  'secondary-resource-eviction-rate': {
    field: 'secondaryResourceEvictionRate',
    env: 'SK_SECONDARY_RESOURCE_EVICTION_RATE',
    kind: 'rate',
    help: 'bindings evicted per second while too many clusters are unhealthy (0.1)',
  },
  'unhealthy-cluster-threshold': {
    field: 'unhealthyClusterThreshold',
    env: 'SK_UNHEALTHY_CLUSTER_THRESHOLD',
    kind: 'fraction',
    help: 'fraction of unhealthy clusters above which the secondary rate applies; all unhealthy halts evictions (0.55)',
  },
};

export class FailoverFlagError extends Error {
  override readonly name = 'FailoverFlagError';
}

function parseValue(flag: string, spec: FlagSpec, text: string): unknown {
  const bad = (what: string) => new FailoverFlagError(`--${flag}=${text}: ${what}`);
  switch (spec.kind) {
    case 'duration': {
      const ms = parseDuration(text);
      if (ms === undefined) throw bad('must be a duration such as 30s or 5m');
      return ms;
    }
    case 'seconds':
    case 'int': {
      const n = Number(text);
      if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) throw bad('must be a whole number ≥ 0');
      return n;
    }
    case 'rate': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || n < 0) throw bad('must be a number ≥ 0 (per second)');
      return n;
    }
    case 'fraction': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw bad('must be a number from 0 to 1');
      return n;
    }
    case 'bool':
      if (text !== 'true' && text !== 'false') throw bad('must be true or false');
      return text === 'true';
    case 'purge-mode':
      if (text !== 'Gracefully' && text !== 'Directly') throw bad('must be Gracefully or Directly');
      return text;
    case 'gates':
      try {
        return parseFeatureGates(text);
      } catch (err) {
        throw bad((err as Error).message);
      }
  }
}

/** Settings from Karmada-named flags (`{'failover-eviction-timeout': '30s'}`); an invalid one throws. */
export function failoverSettingsFromFlags(
  flags: Readonly<Record<string, string | undefined>>,
): Partial<FailoverSettings> {
  const out: Record<string, unknown> = {};
  for (const [flag, spec] of Object.entries(FAILOVER_FLAGS)) {
    const text = flags[flag];
    if (text !== undefined) out[spec.field] = parseValue(flag, spec, text);
  }
  return out as Partial<FailoverSettings>;
}

/** Settings from `SK_*` variables (the function environment); an invalid one throws. */
export function failoverSettingsFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Partial<FailoverSettings> {
  const flags: Record<string, string> = {};
  for (const [flag, spec] of Object.entries(FAILOVER_FLAGS)) {
    const text = env[spec.env];
    if (text !== undefined) flags[flag] = text;
  }
  return failoverSettingsFromFlags(flags);
}

/** The `SK_*` variables that yield `settings` (CDK, local mode). */
export function failoverEnvironment(settings: Partial<FailoverSettings> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const spec of Object.values(FAILOVER_FLAGS)) {
    const value = settings?.[spec.field];
    if (value === undefined) continue;
    if (spec.kind === 'duration') env[spec.env] = formatDuration(value as number);
    else if (spec.kind === 'gates') env[spec.env] = formatFeatureGates(value as Partial<FeatureGates>);
    else env[spec.env] = String(value);
  }
  return env;
}

/** The `SK_*` names of the failover settings (the function environment's schema accepts them). */
export const FAILOVER_ENV_NAMES: readonly string[] = Object.values(FAILOVER_FLAGS).map((s) => s.env);

/** The settings in force: the given ones over the defaults (gates merged over the gate defaults). */
export function failoverSettings(given: Partial<FailoverSettings> | undefined): FailoverSettings {
  const gates = given?.featureGates as Partial<FeatureGates> | undefined;
  return { ...DEFAULT_FAILOVER_SETTINGS, ...given, featureGates: featureGates(gates) };
}
