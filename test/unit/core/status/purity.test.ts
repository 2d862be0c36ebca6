/**
 * The status module belongs to the pure core (DESIGN.md: no I/O, no clock, no randomness): nothing it
 * reaches imports AWS, Kubernetes clients, the file system or the network, or reads the clock (Job
 * condition times come in as `options.now`). Its functions never modify their inputs and never return
 * objects that alias them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';

import {
  type AggregatedStatusItem,
  aggregateStatus,
  aggregatedStatusItems,
  fullyAppliedCondition,
  manifestStatusOf,
  reflectStatus,
} from '../../../../lib/core/status/index.ts';
import type { KubeObject } from '../../../../lib/core/types.ts';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g;
const FORBIDDEN_MODULE =
  /^(@aws-sdk\/|@aws-lambda-powertools\/|@kubernetes\/|aws-cdk|node:(fs|net|http|https|http2|child_process|dgram|tls|worker_threads))/;
const IMPURE = /\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bprocess\.env\b|\bsetTimeout\(|\bperformance\.now\(/;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Every object/array reachable from `value`. */
function nodes(value: unknown, out = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !out.has(value)) {
    out.add(value);
    for (const v of Object.values(value)) nodes(v, out);
  }
  return out;
}

function assertNoAlias(result: unknown, ...inputs: unknown[]): void {
  const inputNodes = new Set<object>();
  for (const input of inputs) nodes(input, inputNodes);
  for (const node of nodes(result)) assert.ok(!inputNodes.has(node), 'result shares an object with an input');
}

describe('lib/core/status purity', () => {
  it('reaches no I/O module and reads no clock or randomness', () => {
    const seen = new Map<string, string>();
    const stack = [resolve('lib/core/status/index.ts')];
    while (stack.length) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      const text = readFileSync(file, 'utf8');
      seen.set(file, text);
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1]!;
        if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec));
        else seen.set(`module:${spec}`, '');
      }
    }
    const modules = [...seen.keys()].filter((k) => k.startsWith('module:')).map((k) => k.slice(7));
    assert.deepEqual(
      modules.filter((m) => FORBIDDEN_MODULE.test(m)),
      [],
    );
    assert.deepEqual(
      [...seen].filter(([f, text]) => !f.startsWith('module:') && IMPURE.test(text)).map(([f]) => f),
      [],
    );
  });

  it('never modifies its inputs and never aliases them (frozen inputs, every aggregation hook)', () => {
    const templates: KubeObject[] = [
      ['apps/v1', 'Deployment'],
      ['apps/v1', 'StatefulSet'],
      ['apps/v1', 'DaemonSet'],
      ['v1', 'Service'],
      ['networking.k8s.io/v1', 'Ingress'],
      ['batch/v1', 'Job'],
      ['batch/v1', 'CronJob'],
      ['v1', 'Pod'],
      ['v1', 'PersistentVolume'],
      ['v1', 'PersistentVolumeClaim'],
      ['policy/v1', 'PodDisruptionBudget'],
      ['autoscaling/v2', 'HorizontalPodAutoscaler'],
    ].map(([apiVersion, kind]) =>
      deepFreeze({
        apiVersion: apiVersion!,
        kind: kind!,
        metadata: { name: 'x', namespace: 'ns', generation: 1 },
        spec: { type: 'LoadBalancer' },
        status: { conditions: [{ type: 'Ready', status: 'True' }], active: [{ name: 'j' }], replicas: 1 },
      }),
    );
    const memberStatus = {
      replicas: 1,
      phase: 'Running',
      loadBalancer: { ingress: [{ ip: '1.1.1.1', ports: [{ port: 80, protocol: 'TCP' }] }] },
      containerStatuses: [{ ready: true, state: { running: { startedAt: '2025-01-01T00:00:00Z' } } }],
      active: [{ name: 'j-1' }],
      disruptedPods: { p: '2025-01-01T00:00:00Z' },
      conditions: [{ type: 'Complete', status: 'True' }],
      startTime: '2025-01-01T00:00:00Z',
      completionTime: '2025-01-01T00:00:00Z',
    };
    const items: AggregatedStatusItem[] = deepFreeze([
      { clusterName: 'a', applied: true, health: 'Healthy', status: memberStatus },
      { clusterName: 'b', applied: true, health: 'Healthy', status: memberStatus },
    ]);
    for (const template of templates) {
      const result = aggregateStatus(template, items, { now: '2025-01-01T00:00:00Z' });
      assert.ok(result, template.kind);
      assertNoAlias(result, template, items);
    }
  });

  it('reflect, manifest status and work aggregation copy what they keep', () => {
    const live = deepFreeze<KubeObject>({
      apiVersion: 'example.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'ns' },
      status: { nested: { list: [1, { a: 2 }] } },
    });
    assertNoAlias(reflectStatus(live), live);
    assertNoAlias(manifestStatusOf(0, live), live);

    const template = deepFreeze<KubeObject>({
      apiVersion: 'example.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'ns' },
    });
    const work = deepFreeze<KubeObject>({
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: { name: 'w', namespace: 'karmada-es-a' },
      spec: { workload: { manifests: [template] } },
      status: {
        conditions: [{ type: 'Applied', status: 'True' }],
        manifestStatuses: [manifestStatusOf(0, live)],
      },
    });
    const works = deepFreeze([{ cluster: 'a', work }]);
    const result = aggregatedStatusItems(template, works);
    assert.deepEqual(result, [
      { clusterName: 'a', applied: true, health: 'Healthy', status: { nested: { list: [1, { a: 2 }] } } },
    ]);
    assertNoAlias(result, template, works);
    assertNoAlias(fullyAppliedCondition(deepFreeze(['a']), result), result);
  });
});
