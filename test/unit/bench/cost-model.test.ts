/**
 * The cost model's arithmetic (bench/cost-model.ts): request units, billed durations, dollars of a
 * known usage, the free tiers, the break-even and the throughput formulas. No measurement here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  afterFreeTier,
  breakEvenChanges,
  cpuSlowdown,
  describePrice,
  fixedCost,
  gbSeconds,
  invocationMs,
  karmadaHosts,
  laneKeysPerSecond,
  partitionObjectsPerSecond,
  readUnits,
  sqsRequestsFor,
  total,
  usageCost,
  type Usage,
  writeUnits,
} from '../../../bench/cost-model.ts';

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} ≠ ${expected}`);

const NONE: Usage = {
  apiRequests: 0,
  lambdaRequests: 0,
  lambdaGbSeconds: 0,
  dynamoWriteUnits: 0,
  dynamoReadUnits: 0,
  sqsRequests: 0,
  schedulerInvocations: 0,
  kmsRequests: 0,
  logBytes: 0,
  logStoredGbMonths: 0,
  dataOutBytes: 0,
};

describe('cost model: how the services count', () => {
  for (const [bytes, consistent, units] of [
    [0, true, 1],
    [4096, true, 1],
    [4097, true, 2],
    [4097, false, 1],
    [100, false, 0.5],
    [12_000, false, 1.5],
  ] as const) {
    it(`reads ${bytes} bytes ${consistent ? 'strongly' : 'eventually'} consistent: ${units} read units`, () => {
      assert.equal(readUnits(bytes, consistent), units);
    });
  }
  for (const [bytes, units] of [
    [0, 1],
    [1024, 1],
    [1025, 2],
    [3000, 3],
  ] as const) {
    it(`writes ${bytes} bytes: ${units} write units`, () => assert.equal(writeUnits(bytes), units));
  }
  it('counts an SQS request per 64 KB of payload', () => {
    assert.equal(sqsRequestsFor(200), 1);
    assert.equal(sqsRequestsFor(65_536), 1);
    assert.equal(sqsRequestsFor(65_537), 2);
  });
  it('slows CPU below 1,769 MB and bills whole milliseconds', () => {
    assert.equal(cpuSlowdown(1769), 1);
    assert.equal(cpuSlowdown(3538), 1);
    close(cpuSlowdown(1024), 1769 / 1024, 'slowdown at 1 GB');
    assert.equal(invocationMs({ cpuMs: 10, ioMs: 20.2, memoryMB: 1769 }), 31);
    assert.equal(invocationMs({ cpuMs: 0, ioMs: 0, memoryMB: 512 }), 1);
    close(gbSeconds(1000, 512), 0.5, 'GB-s of one second at 512 MB');
  });
});

describe('cost model: dollars', () => {
  it('prices a known usage line by line (us-east-1 list prices)', () => {
    const lines = usageCost({
      ...NONE,
      apiRequests: 1e6,
      lambdaRequests: 5e6,
      lambdaGbSeconds: 100_000,
      dynamoWriteUnits: 10e6,
      dynamoReadUnits: 8e6,
      sqsRequests: 2.5e6,
      schedulerInvocations: 1e6,
      kmsRequests: 10_000,
      logBytes: 2e9,
      logStoredGbMonths: 10,
      dataOutBytes: 1e9,
    });
    const byItem = Object.fromEntries(lines.map((l) => [l.item, l.usd]));
    close(byItem['API Gateway HTTP API requests']!, 1, 'HTTP API');
    close(byItem['Lambda requests']!, 1, 'Lambda requests');
    close(byItem['Lambda duration (arm64)']!, 1.33334, 'arm64 GB-s');
    close(byItem['DynamoDB writes']!, 6.25, 'writes');
    close(byItem['DynamoDB reads']!, 1, 'reads');
    close(byItem['SQS requests']!, 1, 'SQS');
    close(byItem['EventBridge Scheduler invocations']!, 1, 'scheduler');
    close(byItem['KMS requests']!, 0.03, 'KMS');
    close(byItem['CloudWatch Logs ingestion']!, 1, 'logs');
    close(byItem['CloudWatch Logs storage over the retention']!, 0.3, 'log storage');
    close(byItem['Data transfer out']!, 0.09, 'egress');
    close(total(lines), 1 + 1 + 1.33334 + 6.25 + 1 + 1 + 1 + 0.03 + 1 + 0.3 + 0.09, 'total');
    close(total(usageCost({ ...NONE, lambdaGbSeconds: 100_000 }, 'x86_64')), 1.66667, 'x86 GB-s');
  });

  it('quotes prices as the price pages do', () => {
    assert.equal(
      describePrice({ usd: 0.625, per: 1e6, unit: 'write request units', what: '' }),
      '$0.625 per 1M write request units',
    );
    assert.equal(describePrice({ usd: 0.03, per: 10_000, unit: 'requests', what: '' }), '$0.03 per 10,000 requests');
    assert.equal(describePrice({ usd: 0.1, per: 1, unit: 'alarm-month', what: '' }), '$0.1 per alarm-month');
  });

  it('prices fixed resources and takes the free tiers off', () => {
    const lines = fixedCost({ kmsKeys: 2, secrets: 1, alarms: 76, dashboards: 1, customMetrics: 40, storageGb: 1 });
    close(total(lines), 2 + 0.4 + 7.6 + 3 + 12 + 0.25 + 0.2, 'list');
    // Free: 10 alarms, 10 metrics, 3 dashboards, 25 GB storage (PITR is not free).
    close(total(afterFreeTier(lines)), 2 + 0.4 + 6.6 + 0 + 9 + 0 + 0.2, 'after free tier');
    const requests = usageCost({ ...NONE, sqsRequests: 3e6, lambdaRequests: 0.5e6 });
    close(total(afterFreeTier(requests)), 0.8, 'SQS beyond its free million; Lambda within it');
  });

  it('finds the break-even volume', () => {
    assert.equal(breakEvenChanges(222, 22, 0.0001), 2_000_000);
    assert.equal(breakEvenChanges(100, 150, 0.0001), 0);
    assert.equal(breakEvenChanges(100, 10, 0), Number.POSITIVE_INFINITY);
    const [selfManaged, eks] = karmadaHosts();
    close(total(selfManaged!.lines), 3 * 730 * 0.096 + 150 * 0.08, 'three m6i.large and gp3');
    close(total(eks!.lines), 73 + 3 * 730 * 0.096 + 150 * 0.08 + 730 * 0.0225, 'EKS, nodes, disks, NLB');
  });
});

describe('cost model: throughput on paper', () => {
  it('gives keys per second of a lane from per-key CPU and waits', () => {
    // 10 keys: 10 × 2 ms CPU at full speed + 2 rounds of 8-at-once waits of 40 ms = 100 ms per batch.
    close(
      laneKeysPerSecond({
        maxConcurrency: 4,
        batchSize: 10,
        perKeyCpuMs: 2,
        perKeyIoMs: 40,
        memoryMB: 1769,
        concurrency: 8,
      }),
      400,
      'keys/s',
    );
    assert.equal(partitionObjectsPerSecond(8, 4), 2000);
    assert.equal(partitionObjectsPerSecond(1, 0), Number.POSITIVE_INFINITY);
  });
});
