import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig, runtimeEnvironment } from '../../../lib/config/runtime.ts';
import { ConfigError } from '../../../lib/config/validate.ts';

const VALID = {
  AWS_REGION: 'eu-west-1',
  SK_ENVIRONMENT: 'dev',
  SK_TABLE_NAME: 'sk-dev-objects',
  SK_QUEUE_PREFIX: 'sk-dev',
  SK_QUEUE_URL_BASE: 'https://sqs.eu-west-1.amazonaws.com/123456789012/',
  PATH: '/usr/bin',
};

describe('function environment', () => {
  it('reads a valid environment with defaults, ignoring unrelated variables', () => {
    const c = loadRuntimeConfig(VALID);
    assert.equal(c.tableName, 'sk-dev-objects');
    assert.equal(c.logFormat, 'json');
    assert.equal(c.logLevel, 'INFO');
    assert.equal(c.reconcileConcurrency, 8);
    assert.equal(c.metrics, 'emf');
  });

  it('round-trips through runtimeEnvironment (what the CDK stack and local mode set)', () => {
    const c = loadRuntimeConfig(VALID);
    const { region: _r, ...rest } = c;
    assert.deepEqual(loadRuntimeConfig({ ...runtimeEnvironment(rest), AWS_REGION: 'eu-west-1' }), c);
  });

  it('reports every problem at once, each saying what the setting is for', () => {
    try {
      loadRuntimeConfig({
        ...VALID,
        SK_TABLE_NAME: undefined,
        LOG_FORMAT: 'xml',
        SK_RECONCILE_CONCURRENCY: '0',
        SK_QUEUE_URL_BASE: 'https://x/no-slash',
      });
      assert.fail('expected a ConfigError');
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /^invalid function environment:/);
      assert.match(err.message, /SK_TABLE_NAME: required \(the DynamoDB object table/);
      assert.match(err.message, /LOG_FORMAT: must be one of "json", "text"/);
      assert.match(err.message, /SK_RECONCILE_CONCURRENCY: must be at least 1/);
      assert.match(err.message, /SK_QUEUE_URL_BASE: .*must end with \//);
      assert.equal(err.problems.length, 4);
    }
  });

  it('rejects an unknown SK_ setting and suggests the intended one', () => {
    assert.throws(
      () => loadRuntimeConfig({ ...VALID, SK_TABEL_NAME: 'x' }),
      /SK_TABEL_NAME: unknown setting; did you mean SK_TABLE_NAME\?/,
    );
  });
});
