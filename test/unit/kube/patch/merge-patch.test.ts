/**
 * RFC 7386 JSON merge patch (`kubectl patch --type merge`, the flavour custom resources get), with
 * the RFC's own Appendix A examples.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMergePatch, PatchError } from '../../../../lib/kube/patch/index.ts';
import { deepFreeze } from './deployment-fixture.ts';

describe('json merge patch (RFC 7386 Appendix A)', () => {
  const rows: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [doc, patch, expected] of rows) {
    it(`${JSON.stringify(doc)} patched with ${JSON.stringify(patch)} is ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(applyMergePatch(deepFreeze(doc), deepFreeze(patch)), expected);
    });
  }
});

describe('json merge patch on Kubernetes objects', () => {
  it('null removes a label while other labels stay', () => {
    const doc = { metadata: { name: 'web', labels: { app: 'web', tier: 'front' } } };
    assert.deepEqual(applyMergePatch(deepFreeze(doc), { metadata: { labels: { tier: null } } }), {
      metadata: { name: 'web', labels: { app: 'web' } },
    });
  });

  it('lists are replaced wholesale, even lists of keyed objects', () => {
    const doc = { spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b' }] } };
    assert.deepEqual(applyMergePatch(deepFreeze(doc), { spec: { containers: [{ name: 'a', image: 'a:2' }] } }), {
      spec: { containers: [{ name: 'a', image: 'a:2' }] },
    });
  });

  it('strategic directives have no meaning and are kept as data', () => {
    const doc = { spec: { template: {} } };
    assert.deepEqual(applyMergePatch(deepFreeze(doc), { spec: { template: { $patch: 'replace' } } }), {
      spec: { template: { $patch: 'replace' } },
    });
  });

  it('never modifies its inputs and shares no structure with them', () => {
    const doc = deepFreeze({ spec: { a: { x: 1 }, b: { y: 2 } } });
    const patch = deepFreeze({ spec: { c: { z: [3] } } });

    const result = applyMergePatch(doc, patch) as { spec: Record<string, unknown> };

    assert.notEqual(result.spec.a, doc.spec.a);
    assert.notEqual(result.spec.c, patch.spec.c);
    assert.deepEqual(result, { spec: { a: { x: 1 }, b: { y: 2 }, c: { z: [3] } } });
  });

  it('a key named __proto__ is an ordinary key', () => {
    const result = applyMergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;

    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ['__proto__']);
  });

  it('an absent patch body is a 400', () => {
    assert.throws(
      () => applyMergePatch({}, undefined),
      (e: unknown) => e instanceof PatchError && e.code === 400,
    );
  });
});
