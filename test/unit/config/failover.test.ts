/**
 * The failover flag table (lib/config/failover.ts): Karmada's flag names and defaults, how each kind of
 * value parses, `--feature-gates` as Kubernetes' component-base parses it, and the `SK_*` variables
 * that carry the same settings to the functions. Rows name the flag or gate they pin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_FAILOVER_SETTINGS,
  FAILOVER_ENV_NAMES,
  FAILOVER_FLAGS,
  failoverEnvironment,
  FailoverFlagError,
  failoverSettings,
  failoverSettingsFromEnvironment,
  failoverSettingsFromFlags,
  FeatureGateError,
  type FeatureGates,
  featureGates,
  formatFeatureGates,
  LOCKED_FEATURE_GATES,
  parseFeatureGates,
} from '../../../lib/config/failover.ts';

describe('parseFeatureGates (--feature-gates, component-base syntax)', () => {
  const accepted: { name: string; text: string | undefined; want: ReturnType<typeof parseFeatureGates> }[] = [
    { name: 'nothing given: no gate set', text: undefined, want: {} },
    { name: 'blank: no gate set', text: '  ', want: {} },
    { name: 'Failover=false turns the taint manager off', text: 'Failover=false', want: { Failover: false } },
    {
      name: 'several gates, spaces and an empty item tolerated, values case-insensitive',
      text: ' Failover=TRUE, ,StatefulFailoverInjection=False',
      want: { Failover: true, StatefulFailoverInjection: false },
    },
    {
      name: 'GracefulEviction=true (its default) is accepted',
      text: 'GracefulEviction=true',
      want: { GracefulEviction: true },
    },
  ];
  for (const row of accepted) it(row.name, () => assert.deepEqual(parseFeatureGates(row.text), row.want));

  const refused: { name: string; text: string; message: RegExp }[] = [
    { name: 'a gate without a value', text: 'Failover', message: /missing bool value for Failover/ },
    { name: 'a value that is not a boolean', text: 'Failover=yes', message: /invalid value of Failover=yes/ },
    {
      name: 'an unknown gate, naming the known ones',
      text: 'Faillover=true',
      message: /unrecognized feature gate: Faillover \(known: Failover,/,
    },
    {
      name: 'GracefulEviction=false: locked on, saying why and what to use instead (Karmada would evict without a task)',
      text: 'Failover=true,GracefulEviction=false',
      message:
        /cannot set feature gate GracefulEviction to false, feature is locked to true: every eviction goes through a graceful eviction task.*--no-execute-taint-eviction-purge-mode=Directly/,
    },
  ];
  for (const row of refused) {
    it(`refused: ${row.name}`, () =>
      assert.throws(
        () => parseFeatureGates(row.text),
        (err: unknown) => err instanceof FeatureGateError && row.message.test(err.message),
      ));
  }

  it('every locked gate is a known gate, locked to its default', () => {
    for (const gate of Object.keys(LOCKED_FEATURE_GATES)) assert.ok(gate in featureGates(undefined), gate);
  });
  it('featureGates: the defaults with the given ones over them; formatFeatureGates is the inverse of parsing', () => {
    const gates = featureGates({ Failover: false });
    assert.equal(gates.Failover, false);
    assert.equal(gates.GracefulEviction, true);
    assert.equal(gates.StatefulFailoverInjection, true, 'on here (Karmada: Alpha, off)');
    assert.deepEqual(parseFeatureGates(formatFeatureGates({ Failover: false, StatefulFailoverInjection: true })), {
      Failover: false,
      StatefulFailoverInjection: true,
    });
  });
});

describe('failoverSettingsFromFlags (skctl up, CDK failoverFlags)', () => {
  const accepted: { flag: string; text: string; want: Partial<typeof DEFAULT_FAILOVER_SETTINGS> }[] = [
    { flag: 'failover-eviction-timeout', text: '30s', want: { failoverEvictionTimeoutMs: 30_000 } },
    { flag: 'failover-eviction-timeout', text: '1m30s', want: { failoverEvictionTimeoutMs: 90_000 } },
    { flag: 'graceful-eviction-timeout', text: '10m', want: { gracefulEvictionTimeoutMs: 600_000 } },
    { flag: 'default-not-ready-toleration-seconds', text: '0', want: { defaultNotReadyTolerationSeconds: 0 } },
    { flag: 'default-unreachable-toleration-seconds', text: '600', want: { defaultUnreachableTolerationSeconds: 600 } },
    {
      flag: 'no-execute-taint-eviction-purge-mode',
      text: 'Directly',
      want: { noExecuteTaintEvictionPurgeMode: 'Directly' },
    },
    { flag: 'enable-no-execute-taint-eviction', text: 'false', want: { enableNoExecuteTaintEviction: false } },
    { flag: 'allow-no-execute-taint-policy', text: 'true', want: { allowNoExecuteTaintPolicy: true } },
    { flag: 'resource-eviction-rate', text: '0', want: { resourceEvictionRate: 0 } },
    { flag: 'resource-eviction-burst', text: '25', want: { resourceEvictionBurst: 25 } },
    { flag: 'secondary-resource-eviction-rate', text: '0.01', want: { secondaryResourceEvictionRate: 0.01 } },
    { flag: 'unhealthy-cluster-threshold', text: '1', want: { unhealthyClusterThreshold: 1 } },
    { flag: 'feature-gates', text: 'Failover=false', want: { featureGates: { Failover: false } as FeatureGates } },
  ];
  for (const row of accepted) {
    it(`--${row.flag}=${row.text}`, () =>
      assert.deepEqual(failoverSettingsFromFlags({ [row.flag]: row.text }), row.want));
  }

  const refused: { flag: string; text: string; message: RegExp }[] = [
    { flag: 'failover-eviction-timeout', text: '5 minutes', message: /must be a duration such as 30s or 5m/ },
    { flag: 'default-not-ready-toleration-seconds', text: '-1', message: /must be a whole number ≥ 0/ },
    { flag: 'resource-eviction-burst', text: '1.5', message: /must be a whole number ≥ 0/ },
    { flag: 'resource-eviction-rate', text: '', message: /must be a number ≥ 0/ },
    { flag: 'unhealthy-cluster-threshold', text: '1.2', message: /must be a number from 0 to 1/ },
    { flag: 'enable-no-execute-taint-eviction', text: 'yes', message: /must be true or false/ },
    { flag: 'no-execute-taint-eviction-purge-mode', text: 'Never', message: /must be Gracefully or Directly/ },
    { flag: 'feature-gates', text: 'GracefulEviction=false', message: /feature is locked to true/ },
  ];
  for (const row of refused) {
    it(`refused: --${row.flag}=${row.text}`, () =>
      assert.throws(
        () => failoverSettingsFromFlags({ [row.flag]: row.text }),
        (err: unknown) =>
          err instanceof FailoverFlagError &&
          err.message.startsWith(`--${row.flag}=${row.text}: `) &&
          row.message.test(err.message),
      ));
  }

  it('flags not given are left out (the defaults apply later)', () =>
    assert.deepEqual(failoverSettingsFromFlags({ 'graceful-eviction-timeout': undefined }), {}));
});

describe('the SK_* variables (functions) and the defaults', () => {
  it('Karmada’s defaults, with failover on (decision 0009)', () => {
    const d = DEFAULT_FAILOVER_SETTINGS;
    assert.deepEqual(
      [
        d.featureGates.Failover,
        d.featureGates.GracefulEviction,
        d.enableNoExecuteTaintEviction,
        d.failoverEvictionTimeoutMs,
        d.defaultNotReadyTolerationSeconds,
        d.defaultUnreachableTolerationSeconds,
        d.gracefulEvictionTimeoutMs,
        d.noExecuteTaintEvictionPurgeMode,
        d.allowNoExecuteTaintPolicy,
        d.resourceEvictionRate,
        d.resourceEvictionBurst,
        d.secondaryResourceEvictionRate,
        d.unhealthyClusterThreshold,
      ],
      [true, true, true, 300_000, 300, 300, 600_000, 'Gracefully', false, 0.5, 10, 0.1, 0.55],
    );
  });
  it('every flag has its own SK_* variable', () => {
    assert.equal(new Set(FAILOVER_ENV_NAMES).size, Object.keys(FAILOVER_FLAGS).length);
    for (const name of FAILOVER_ENV_NAMES) assert.match(name, /^SK_[A-Z_]+$/);
  });
  it('settings round-trip through the environment (local mode and CDK set it, functions read it)', () => {
    const given = {
      featureGates: { StatefulFailoverInjection: false } as FeatureGates,
      failoverEvictionTimeoutMs: 2_000,
      gracefulEvictionTimeoutMs: 90_000,
      defaultNotReadyTolerationSeconds: 2,
      noExecuteTaintEvictionPurgeMode: 'Directly' as const,
      enableNoExecuteTaintEviction: false,
      resourceEvictionRate: 0.25,
      unhealthyClusterThreshold: 0.7,
    };
    assert.deepEqual(failoverSettingsFromEnvironment(failoverEnvironment(given)), given);
  });
  it('an invalid variable fails as its flag would', () =>
    assert.throws(
      () => failoverSettingsFromEnvironment({ SK_FEATURE_GATES: 'GracefulEviction=false' }),
      /--feature-gates=GracefulEviction=false: cannot set feature gate GracefulEviction to false/,
    ));
  it('failoverSettings: the given settings over the defaults, gates merged over the gate defaults', () => {
    const s = failoverSettings({ featureGates: { Failover: false } as FeatureGates, resourceEvictionBurst: 3 });
    assert.equal(s.featureGates.Failover, false);
    assert.equal(s.featureGates.GracefulEviction, true);
    assert.equal(s.resourceEvictionBurst, 3);
    assert.equal(s.gracefulEvictionTimeoutMs, 600_000);
  });
});
