/**
 * Application failover decisions (Karmada `pkg/controllers/applicationfailover`: `bindingFilter`,
 * `detectFailure`, `syncBinding`, `buildTaskOptions`; reference A.9), each row naming the Karmada
 * behaviour it pins or the quirk it deliberately changes, and the Directly handoff of the binder.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applicationEvictedSpec,
  applicationFailoverCondition,
  applicationFailoverInactive,
  applicationFailoverOf,
  applicationFailoverPass,
  decideApplicationFailover,
  directlyPurgeHandoff,
  lastCopyAtStake,
} from '../../../../lib/core/index.ts';
import type { ResourceBindingSpec } from '../../../../lib/core/model/types.ts';

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');

const spec = (application: Record<string, unknown> | undefined, extra: Partial<ResourceBindingSpec> = {}) =>
  ({
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
    propagateDeps: true,
    clusters: [
      { name: 'member1', replicas: 2 },
      { name: 'member2', replicas: 2 },
    ],
    ...(application ? { failover: { application } } : {}),
    ...extra,
  }) as ResourceBindingSpec;

const app = (tolerationSeconds: number, extra: Record<string, unknown> = {}) => ({
  decisionConditions: { tolerationSeconds },
  purgeMode: 'Directly',
  ...extra,
});

const status = (health: Record<string, string>, statuses: Record<string, unknown> = {}) =>
  Object.entries(health).map(([clusterName, h]) => ({
    clusterName,
    health: h,
    applied: true,
    ...(statuses[clusterName] !== undefined ? { status: statuses[clusterName] } : {}),
  }));

const decide = (args: {
  spec: ResourceBindingSpec;
  health: Record<string, string>;
  timers?: Record<string, number>;
  nowS: number;
  statuses?: Record<string, unknown>;
  fits?: boolean;
  clusterScoped?: boolean;
}) =>
  decideApplicationFailover({
    spec: args.spec,
    clusterScoped: args.clusterScoped ?? false,
    aggregatedStatus: status(args.health, args.statuses),
    timers: args.timers ?? {},
    nowMs: T0 + args.nowS * 1000,
    statefulFailoverInjection: true,
    replacementFits: () => args.fits ?? true,
  });

describe('failover.application as read from the binding', () => {
  it('tolerationSeconds defaults to 300 (CRD default); purge mode defaults to Gracefully', () => {
    assert.deepEqual(applicationFailoverOf(spec({ decisionConditions: {} })), {
      tolerationSeconds: 300,
      purgeMode: 'Gracefully',
      rules: [],
    });
  });
  it("v1.12's Immediately is Directly; gracePeriodSeconds and rules are kept", () => {
    const b = applicationFailoverOf(
      spec(
        app(60, {
          purgeMode: 'Immediately',
          gracePeriodSeconds: 30,
          statePreservation: { rules: [{ aliasLabelName: 'a', jsonPath: '{.x}' }] },
        }),
      ),
    );
    assert.equal(b?.purgeMode, 'Directly');
    assert.equal(b?.gracePeriodSeconds, 30);
    assert.deepEqual(b?.rules, [{ aliasLabelName: 'a', jsonPath: '{.x}' }]);
  });
  it('no failover.application: nothing to watch', () =>
    assert.equal(applicationFailoverOf(spec(undefined)), undefined));
});

describe('bindingFilter, said out loud (Karmada ignores such bindings silently)', () => {
  it('propagateDeps false: inactive with reason PropagateDepsDisabled', () =>
    assert.equal(
      applicationFailoverInactive({ spec: spec(app(60), { propagateDeps: false }), hasHealthRule: true })?.reason,
      'PropagateDepsDisabled',
    ));
  it('no InterpretHealth rule for the kind: inactive with reason NoHealthInterpretation', () => {
    const inactive = applicationFailoverInactive({ spec: spec(app(60)), hasHealthRule: false });
    assert.equal(inactive?.reason, 'NoHealthInterpretation');
    assert.match(inactive!.message, /no health rule for apps\/v1\/Deployment/);
  });
  it('both present: active', () =>
    assert.equal(applicationFailoverInactive({ spec: spec(app(60)), hasHealthRule: true }), undefined));
});

describe('toleration windows (detectFailure), stored instead of in memory', () => {
  it('first Unhealthy observation starts the window at now and asks to be woken when it ends', () => {
    const d = decide({ spec: spec(app(60)), health: { member1: 'Healthy', member2: 'Unhealthy' }, nowS: 0 });
    assert.deepEqual(d.timers, { member2: T0 });
    assert.deepEqual(d.started, ['member2']);
    assert.equal(d.nextMs, T0 + 60_000);
    assert.deepEqual(d.due, []);
  });
  it('a stored window keeps running (a restart does not restart it — Karmada loses it, appendix C)', () => {
    const d = decide({
      spec: spec(app(60)),
      health: { member2: 'Unhealthy' },
      timers: { member2: T0 },
      nowS: 45,
    });
    assert.deepEqual(d.timers, { member2: T0 });
    assert.deepEqual(d.started, []);
    assert.equal(d.nextMs, T0 + 60_000);
  });
  it('Unhealthy past first + tolerationSeconds: evicted with reason ApplicationFailure', () => {
    const d = decide({
      spec: spec(app(60)),
      health: { member1: 'Healthy', member2: 'Unhealthy' },
      timers: { member2: T0 },
      nowS: 60,
    });
    assert.deepEqual(
      d.due.map((x) => [x.cluster, x.options.reason, x.options.producer, x.options.purgeMode]),
      [['member2', 'ApplicationFailure', 'resource-binding-application-failover-controller', 'Directly']],
    );
    assert.deepEqual(d.timers, {}, 'the evicted cluster leaves the timers');
    assert.deepEqual(d.timersUntilEvicted, { member2: T0 }, 'but only once the eviction is written');
  });
  it('tolerationSeconds 0 evicts on the first observation (Karmada waits for the next event: A.9 quirk changed)', () => {
    const d = decide({ spec: spec(app(0)), health: { member2: 'Unhealthy' }, nowS: 0 });
    assert.deepEqual(
      d.due.map((x) => x.cluster),
      ['member2'],
    );
  });
  it('Healthy and Unknown clear their window', () => {
    const d = decide({
      spec: spec(app(60)),
      health: { member1: 'Unknown', member2: 'Healthy' },
      timers: { member1: T0, member2: T0 },
      nowS: 30,
    });
    assert.deepEqual(d.timers, {});
    assert.deepEqual(d.cleared, ['member1', 'member2']);
    assert.equal(d.nextMs, undefined);
  });
  it('a cluster no longer in spec.clusters drops its window (deleteIrrelevantClusters)', () => {
    const d = decide({
      spec: spec(app(60), { clusters: [{ name: 'member1', replicas: 2 }] }),
      health: { member2: 'Unhealthy' },
      timers: { member2: T0 },
      nowS: 120,
    });
    assert.deepEqual(d.due, []);
    assert.deepEqual(d.cleared, ['member2']);
  });
  it('a cluster already in an eviction task is not judged again', () => {
    const d = decide({
      spec: spec(app(60), {
        gracefulEvictionTasks: [{ fromCluster: 'member2', reason: 'ApplicationFailure', producer: 'x' }],
      }),
      health: { member2: 'Unhealthy' },
      timers: { member2: T0 },
      nowS: 120,
    });
    assert.deepEqual(d.due, []);
  });
  it('a stored time in the future (clock moved back) restarts the window at now', () => {
    const d = decide({
      spec: spec(app(60)),
      health: { member2: 'Unhealthy' },
      timers: { member2: T0 + 3600_000 },
      nowS: 0,
    });
    assert.deepEqual(d.timers, { member2: T0 });
  });
  it('the earliest ending window is the next wake-up', () => {
    const d = decide({
      spec: spec(app(60)),
      health: { member1: 'Unhealthy', member2: 'Unhealthy' },
      timers: { member1: T0 - 50_000 },
      nowS: 0,
    });
    assert.equal(d.nextMs, T0 + 10_000);
  });
  it('no failover.application any more: every stored window is cleared', () => {
    const d = decide({ spec: spec(undefined), health: { member2: 'Unhealthy' }, timers: { member2: T0 }, nowS: 0 });
    assert.deepEqual(d.cleared, ['member2']);
    assert.deepEqual(d.timers, {});
  });
});

describe('task options (buildTaskOptions)', () => {
  const due = (application: Record<string, unknown>, statuses: Record<string, unknown> = {}, clusterScoped = false) =>
    decide({
      spec: spec(application),
      health: { member1: 'Healthy', member2: 'Unhealthy' },
      timers: { member2: T0 - 600_000 },
      nowS: 0,
      statuses,
      clusterScoped,
    }).due[0]!.options;
  it('Gracefully carries gracePeriodSeconds', () =>
    assert.equal(due(app(60, { purgeMode: 'Gracefully', gracePeriodSeconds: 45 })).gracePeriodSeconds, 45));
  it('Never carries suppressDeletion: true', () =>
    assert.equal(due(app(60, { purgeMode: 'Never' })).suppressDeletion, true));
  it('Directly carries neither', () => {
    const o = due(app(60));
    assert.equal(o.gracePeriodSeconds, undefined);
    assert.equal(o.suppressDeletion, undefined);
  });
  it('ClusterResourceBinding: the cluster-resource-binding producer', () =>
    assert.equal(due(app(60), {}, true).producer, 'cluster-resource-binding-application-failover-controller'));
  it("statePreservation: preservedLabelState from the failing cluster's status and clustersBeforeFailover", () => {
    const o = due(
      app(60, {
        statePreservation: {
          rules: [{ aliasLabelName: 'application.karmada.io/failover-jobid', jsonPath: '{ .jobStatus.jobID }' }],
        },
      }),
      { member2: { jobStatus: { jobID: 'abc123', state: 'RECONCILING' } } },
    );
    assert.deepEqual(o.preservedLabelState, { 'application.karmada.io/failover-jobid': 'abc123' });
    assert.deepEqual(o.clustersBeforeFailover, ['member1', 'member2']);
  });
  it('statePreservation whose path is missing: held (StateNotCollected), the window keeps running', () => {
    const d = decide({
      spec: spec(
        app(60, { statePreservation: { rules: [{ aliasLabelName: 'a', jsonPath: '{ .jobStatus.jobID }' }] } }),
      ),
      health: { member2: 'Unhealthy' },
      timers: { member2: T0 - 600_000 },
      nowS: 0,
      statuses: { member2: { other: 1 } },
    });
    assert.deepEqual(d.due, []);
    assert.equal(d.held[0]?.reason, 'StateNotCollected');
    assert.deepEqual(d.timers, { member2: T0 - 600_000 });
  });
});

describe('the last copy (#7455, shared with cluster failover)', () => {
  const single = spec(app(60), { clusters: [{ name: 'member2', replicas: 1 }] });
  it('evicting the only cluster while no other cluster can take the workload: held (NoReplacementCluster)', () => {
    const d = decide({
      spec: single,
      health: { member2: 'Unhealthy' },
      timers: { member2: T0 - 120_000 },
      nowS: 0,
      fits: false,
    });
    assert.deepEqual(d.due, []);
    assert.equal(d.held[0]?.reason, 'NoReplacementCluster');
    assert.deepEqual(d.timers, { member2: T0 - 120_000 }, 'decided again later');
  });
  it('a replacement fits: evicted', () => {
    const d = decide({ spec: single, health: { member2: 'Unhealthy' }, timers: { member2: T0 - 120_000 }, nowS: 0 });
    assert.deepEqual(
      d.due.map((x) => x.cluster),
      ['member2'],
    );
    const next = applicationEvictedSpec(single, d.due, at(0))!;
    assert.deepEqual(next.clusters, []);
    assert.equal(next.gracefulEvictionTasks?.[0]?.reason, 'ApplicationFailure');
    assert.equal(next.gracefulEvictionTasks?.[0]?.creationTimestamp, at(0));
  });
});

describe('the ApplicationFailover condition', () => {
  const behavior = applicationFailoverOf(spec(app(60)))!;
  it('inactive: False with the reason', () =>
    assert.equal(
      applicationFailoverCondition({
        inactive: { reason: 'PropagateDepsDisabled', message: 'm' },
        behavior,
        timers: {},
        targets: [],
      })?.status,
      'False',
    ));
  it('windows running: True/WorkloadUnhealthy naming the cluster and the eviction time', () => {
    const c = applicationFailoverCondition({ inactive: undefined, behavior, timers: { member2: T0 }, targets: [] });
    assert.equal(c?.reason, 'WorkloadUnhealthy');
    assert.match(c!.message, new RegExp(`member2 since ${at(0)}: evicted at ${at(60)}`));
  });
  it('nothing unhealthy: True/Watching', () =>
    assert.equal(
      applicationFailoverCondition({ inactive: undefined, behavior, timers: {}, targets: [{ name: 'a' }] })?.reason,
      'Watching',
    ));
});

describe('Directly handoff (the seeds: the new copy starts only after the old one is gone)', () => {
  const task = (reason: string, extra: Record<string, unknown> = {}) => ({
    gracefulEvictionTasks: [
      { fromCluster: 'member2', purgeMode: 'Directly', reason, producer: 'p', creationTimestamp: at(0), ...extra },
    ],
  });
  const handoff = (t: ReturnType<typeof task>, ready: boolean, nowS: number, exists = true) =>
    directlyPurgeHandoff({
      spec: t,
      oldCopyExists: () => exists,
      clusterReady: () => ready,
      nowMs: T0 + nowS * 1000,
      timeoutMs: 600_000,
    });
  it('old cluster Ready, old copy still there: wait for its deletion', () =>
    assert.equal(handoff(task('ApplicationFailure'), true, 5).waiting[0]?.why, 'deleting'));
  it('old copy gone: nothing to wait for', () =>
    assert.deepEqual(handoff(task('ApplicationFailure'), true, 5, false).waiting, []));
  it('application failover, old cluster unreachable: wait until the grace period ends, then release', () => {
    const t = task('ApplicationFailure', { gracePeriodSeconds: 120 });
    const during = handoff(t, false, 60);
    assert.equal(during.waiting[0]?.why, 'unreachable');
    assert.equal(during.nextMs, T0 + 120_000);
    assert.match(during.waiting[0]!.message, /not reachable/);
    assert.deepEqual(handoff(t, false, 121).released, ['member2']);
  });
  it('application failover without gracePeriodSeconds: --graceful-eviction-timeout', () =>
    assert.equal(handoff(task('ApplicationFailure'), false, 0).nextMs, T0 + 600_000));
  it('cluster failover, old cluster unreachable: released at once (it failed for its whole toleration)', () =>
    assert.deepEqual(handoff(task('TaintUntolerated'), false, 0).released, ['member2']));
  it('Gracefully tasks are not waited for', () =>
    assert.deepEqual(handoff(task('ApplicationFailure', { purgeMode: 'Gracefully' }), true, 0).waiting, []));
});

describe('one whole pass (what the controller writes)', () => {
  const pass = (application: Record<string, unknown> | undefined, hasHealthRule = true, fits = true) =>
    applicationFailoverPass({
      spec: spec(application, { clusters: [{ name: 'member2', replicas: 1 }] }),
      clusterScoped: false,
      aggregatedStatus: status({ member2: 'Unhealthy' }),
      timers: { member2: T0 - 120_000 },
      nowMs: T0,
      statefulFailoverInjection: true,
      hasHealthRule,
      replacementFits: () => fits,
    });
  it('no failover.application: nothing', () => assert.equal(pass(undefined), undefined));
  it('inactive: every window closes, nothing evicted, the condition says why', () => {
    const p = pass(app(60), false)!;
    assert.deepEqual([p.timers, p.cleared, p.due, p.nextSpec], [{}, ['member2'], [], undefined]);
    assert.deepEqual([p.condition.status, p.condition.reason], ['False', 'NoHealthInterpretation']);
  });
  it('due: the evicted spec comes with it', () => {
    const p = pass(app(60))!;
    assert.deepEqual(p.nextSpec?.clusters, []);
    assert.equal(p.nextSpec?.gracefulEvictionTasks?.[0]?.creationTimestamp, at(0));
  });
  it('held: the condition is EvictionHeld with the reason', () => {
    const p = pass(app(60), true, false)!;
    assert.equal(p.nextSpec, undefined);
    assert.equal(p.condition.reason, 'EvictionHeld');
    assert.match(p.condition.message, /last copy/);
  });
});

describe('lastCopyAtStake (whether the replacement check can be asked at all)', () => {
  it('every target Unhealthy: yes', () =>
    assert.equal(lastCopyAtStake(spec(app(60)), status({ member1: 'Unhealthy', member2: 'Unhealthy' })), true));
  it('one target Healthy: no — an eviction always leaves a copy', () =>
    assert.equal(lastCopyAtStake(spec(app(60)), status({ member1: 'Healthy', member2: 'Unhealthy' })), false));
  it('no target: no', () => assert.equal(lastCopyAtStake({ clusters: [] }, []), false));
});
