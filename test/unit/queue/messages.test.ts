import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeMessage, encodeMessage, MalformedMessageError, timerDue } from '../../../lib/queue/messages.ts';

const NOW = Date.UTC(2026, 10, 21);

describe('controller messages', () => {
  const cases = [
    {
      name: 'no delay: no DelaySeconds, no notBefore',
      delayMs: 0,
      delaySeconds: undefined,
      notBefore: undefined,
    },
    {
      name: 'a 1.5 s delay rounds up to 2 s (SQS delays are whole seconds)',
      delayMs: 1500,
      delaySeconds: 2,
      notBefore: undefined,
    },
    { name: 'exactly 15 minutes fits one hop', delayMs: 900_000, delaySeconds: 900, notBefore: undefined },
    {
      name: 'past 15 minutes: a 900 s hop plus notBefore for the re-arm',
      delayMs: 3_600_000,
      delaySeconds: 900,
      notBefore: NOW + 3_600_000,
    },
  ];
  for (const c of cases) {
    it(`encodes ${c.name}`, () => {
      const out = encodeMessage({ key: 'Deployment.apps/default/web', lane: 'standard', delayMs: c.delayMs }, NOW);
      assert.equal(out.delaySeconds, c.delaySeconds);
      assert.equal(decodeMessage({ body: out.body, messageId: 'm' }).notBefore, c.notBefore);
      assert.equal(out.attributes?.lane, 'standard');
    });
  }

  it('round-trips key and reason, and carries the reason as an attribute', () => {
    const out = encodeMessage({ key: 'k', lane: 'priority', reason: 'api-write' }, NOW);
    assert.deepEqual(decodeMessage({ body: out.body, messageId: 'm' }), { key: 'k', reason: 'api-write' });
    assert.deepEqual(out.attributes, { lane: 'priority', reason: 'api-write' });
  });

  for (const [body, why] of [
    ['not json', /not JSON/],
    ['{"reason":"x"}', /no "key"/],
    ['{"key":""}', /no "key"/],
    ['{"key":"k","notBefore":"soon"}', /notBefore/],
  ] as const) {
    it(`rejects a malformed body: ${body}`, () => {
      assert.throws(
        () => decodeMessage({ body, messageId: 'm-1' }),
        (err: Error) => err instanceof MalformedMessageError && why.test(err.message),
      );
    });
  }

  it('treats a timer as due within one second of its time, and reports what is left otherwise', () => {
    assert.equal(timerDue({ key: 'k' }, NOW), undefined);
    assert.equal(timerDue({ key: 'k', notBefore: NOW + 500 }, NOW), undefined);
    assert.equal(timerDue({ key: 'k', notBefore: NOW + 60_000 }, NOW), 60_000);
  });
});
