import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, deferredChild } from '../../../lib/observability/logger.ts';

function capturing(level: 'INFO' | 'DEBUG') {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ format: 'json', level, service: 'test', write: (l) => lines.push(JSON.parse(l)) });
  let children = 0;
  const createChild = logger.createChild.bind(logger);
  logger.createChild = (options) => (children++, createChild(options));
  return { lines, logger, children: () => children };
}

describe('a reconcile logger made only when it writes', () => {
  it('writes the persistent and appended keys on a line at an enabled level', () => {
    const { lines, logger, children } = capturing('INFO');
    const log = deferredChild(logger, { controller: 'executor', key: 'ns/w', reconcileID: 'r1' });
    log.appendKeys({ cluster: 'member1' });
    log.info('applied', { works: 1 });
    log.warn('again');
    assert.equal(children(), 1);
    assert.equal(lines.length, 2);
    assert.deepEqual(
      { ...lines[0], timestamp: undefined },
      {
        ...lines[0],
        timestamp: undefined,
        controller: 'executor',
        key: 'ns/w',
        reconcileID: 'r1',
        cluster: 'member1',
        works: 1,
        message: 'applied',
      },
    );
    assert.equal(lines[1]!.cluster, 'member1');
  });

  it('is never built when nothing is written at an enabled level, and keeps the parent untouched', () => {
    const { lines, logger, children } = capturing('INFO');
    const log = deferredChild(logger, { controller: 'executor', key: 'ns/w' });
    log.appendKeys({ cluster: 'member1' });
    log.debug('not written');
    assert.equal(children(), 0);
    logger.info('parent line');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.cluster, undefined);
    assert.equal(lines[0]!.key, undefined);
  });

  it('follows the parent’s level: DEBUG lines are written when the parent logs at DEBUG', () => {
    const { lines, logger } = capturing('DEBUG');
    deferredChild(logger, { key: 'k' }).debug('written');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.key, 'k');
  });
});
