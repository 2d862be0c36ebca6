import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../../lib/kube/base/field-errors.ts';
import { defaultManager, validateManager } from '../../../../lib/kube/apply/index.ts';

describe('default field manager from the User-Agent (prefixFromUserAgent)', () => {
  const cases: [string | undefined, string][] = [
    ['kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd', 'kubectl'],
    [
      'kube-controller-manager/v1.32.0 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:x',
      'kube-controller-manager',
    ],
    ['Go-http-client/1.1', 'Go-http-client'],
    ['my tool', 'my tool'],
    ['bad\u0007name/1.0', 'badname'],
    [`${'é'.repeat(70)}/1`, 'é'.repeat(64)],
    ['', 'unknown'],
    [undefined, 'unknown'],
    ['/v1', 'unknown'],
  ];
  for (const [userAgent, expected] of cases) {
    it(`${JSON.stringify(userAgent)} → ${JSON.stringify(expected.length > 20 ? `${expected.slice(0, 8)}…` : expected)}`, () => {
      assert.equal(defaultManager(userAgent), expected);
    });
  }
});

describe('fieldManager validation (ValidatePatchOptions / ValidateFieldManager)', () => {
  const cases: [string, string, boolean, string[]][] = [
    ['accepts a plain name', 'kubectl', true, []],
    ['accepts an empty name for non-apply writes', '', false, []],
    ['requires a name for apply', '', true, ['fieldManager: Required value: is required for apply patch']],
    ['accepts exactly 128 bytes', 'a'.repeat(128), true, []],
    ['rejects 129 bytes', 'a'.repeat(129), true, ['fieldManager: Too long: may not be more than 128 bytes']],
    ['counts bytes, not characters', 'é'.repeat(65), true, ['fieldManager: Too long: may not be more than 128 bytes']],
    [
      'rejects unprintable characters, positioned in bytes',
      'é\u0007x',
      false,
      ['fieldManager: Invalid value: "é\\u0007x": invalid character U+0007 (at position 2)'],
    ],
  ];
  for (const [name, manager, apply, expected] of cases) {
    it(name, () => {
      assert.deepEqual(validateManager(manager, { apply }).map(formatFieldError), expected);
    });
  }
});
