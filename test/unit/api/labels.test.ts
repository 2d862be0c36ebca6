import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatRequirements,
  fromLabelSelector,
  InvalidSelectorError,
  matchesRequirements,
  parseSelector,
} from '../../../lib/api/labels.ts';

const matches = (selector: string, labels: Record<string, string>) =>
  matchesRequirements(parseSelector(selector), labels);

describe('label selectors (k8s.io/apimachinery/pkg/labels semantics)', () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ['', { any: 'thing' }, true],
    ['app=web', { app: 'web' }, true],
    ['app==web', { app: 'web' }, true],
    ['app=web', { app: 'db' }, false],
    ['app!=web', {}, true],
    ['app!=web', { app: 'web' }, false],
    ['env in (prod, staging)', { env: 'staging' }, true],
    ['env notin (prod)', {}, true],
    ['env notin (prod)', { env: 'prod' }, false],
    ['tier', { tier: '' }, true],
    ['!tier', { tier: 'x' }, false],
    ['example.com/team=a,tier', { 'example.com/team': 'a', tier: 'x' }, true],
    ['gpu>2', { gpu: '4' }, true],
    ['gpu>+2', { gpu: '3' }, true],
    ['gpu<2', { gpu: 'four' }, false],
    ['big>9007199254740992', { big: '9007199254740993' }, true],
    ['k=', { k: '' }, true],
  ];
  for (const [selector, labels, expected] of cases) {
    it(`${JSON.stringify(selector)} ${expected ? 'matches' : 'does not match'} ${JSON.stringify(labels)}`, () => {
      assert.equal(matches(selector, labels), expected);
    });
  }

  const invalid: [string, RegExp][] = [
    ['app in (', /unable to parse requirement/],
    ['in', /found 'in', expected: identifier/],
    ['Bad Key=x', /unable to parse/],
    ['-bad=x', /name part of "-bad"/],
    ['app=web value', /unable to parse/],
    ['x in ()', /must not be empty/],
    ['gpu>two', /unable to parse|integer/],
    ['gpu>99999999999999999999', /64-bit integer/],
    ['a,,b', /empty requirement/],
  ];
  for (const [selector, message] of invalid) {
    it(`rejects ${JSON.stringify(selector)}`, () => {
      assert.throws(
        () => parseSelector(selector),
        (e: Error) => e instanceof InvalidSelectorError && message.test(e.message),
      );
    });
  }

  it('compiles matchLabels and matchExpressions, rejecting unknown operators', () => {
    const reqs = fromLabelSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }],
    });
    assert.equal(formatRequirements(reqs), 'app=web,env=prod');
    assert.throws(
      () => fromLabelSelector({ matchExpressions: [{ key: 'env', operator: 'Equals', values: ['x'] }] }),
      /not a valid label selector operator/,
    );
  });
});
