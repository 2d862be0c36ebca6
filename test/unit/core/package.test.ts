/**
 * `serverless-karmada/core` is a public entry point: importable by package name, and pure — nothing it
 * reaches imports AWS, Kubernetes clients, the file system or the network, and nothing reads the clock
 * or randomness (docs/core.md: time is a parameter; decisions are deterministic).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g;
const FORBIDDEN_MODULE =
  /^(@aws-sdk\/|@aws-lambda-powertools\/|@kubernetes\/|aws-cdk|node:(fs|net|http|https|http2|child_process|dgram|tls|worker_threads))/;
const IMPURE = /\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bprocess\.env\b|\bsetTimeout\(|\bperformance\.now\(/;

function reachable(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const stack = [resolve(entry)];
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
  return seen;
}

describe('serverless-karmada/core', () => {
  it('is importable by package name with its documented functions', async () => {
    const core = await import('serverless-karmada/core');
    for (const name of [
      'choosePolicy',
      'highestPriorityPolicy',
      'interpretReplicas',
      'interpretComponents',
      'interpretBindingWorkload',
      'buildSnapshot',
      'buildFramework',
      'scheduleBinding',
      'scheduleTrigger',
      'assignReplicas',
      'selectBestClusters',
      'clusterMatches',
      'websterAllocate',
      'observedReady',
      'thresholdAdjustedReady',
      'taintsForReady',
      'pullClusterStaleness',
      'nodeSummary',
      'resourceSummary',
      'allocatableModelings',
      'maxAvailableReplicas',
      'planBinding',
      'resultBinding',
      'planWork',
      'observeWork',
      'workStatusAfter',
      'decideEviction',
      'withoutRestore',
      'decideApplicationFailover',
      'applicationFailoverPass',
      'directlyPurgeHandoff',
      'decideRebalance',
      'needTriggerReschedule',
      'syncObservedWorkloads',
      'rebalancerBindingRefs',
      'calculateResourceUsage',
      'calculateComponentsUsage',
      'admitUsageChange',
      'usageOf',
      'chargedUsageOf',
      'chargeCovers',
      'placementAdmitted',
      'withChargedUsage',
      'chargeUntilRendered',
      'chargedSurplus',
      'releasableSurplus',
      'withRenderedGeneration',
      'renderedMark',
      'wasHeldForQuota',
      'quotaUsageView',
      'recountOverallUsed',
      'heldUsage',
      'settledChargesInFlight',
    ]) {
      assert.equal(typeof (core as Record<string, unknown>)[name], 'function', name);
    }
  });

  it('reaches no AWS, Kubernetes client, file system or network module, and reads no clock or randomness', () => {
    const files = reachable('lib/core/index.ts');
    const modules = [...files.keys()].filter((k) => k.startsWith('module:')).map((k) => k.slice(7));
    assert.deepEqual(
      modules.filter((m) => FORBIDDEN_MODULE.test(m)),
      [],
    );
    const impure = [...files].filter(([f, text]) => !f.startsWith('module:') && IMPURE.test(text)).map(([f]) => f);
    assert.deepEqual(impure, []);
    assert.ok(files.size > 20, 'walked the whole core');
  });
});
