/**
 * Errors crossing between the main thread and the members' thread: store errors come back as the
 * same classes with what callers read (`current`, `ref`, the message); other errors keep name,
 * message, code and stack.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  InvalidObjectError,
  NotFoundError,
  StoreError,
  TooLargeError,
} from '../../../lib/store/errors.ts';
import { decodeError, encodeError } from '../../../lib/sim/member-wire.ts';
import { configMap } from '../../support/factories.ts';

const REF = { group: '', kind: 'ConfigMap', namespace: 'default', name: 'web' };
const CURRENT = {
  ...configMap('web', { a: '1' }),
  metadata: { name: 'web', namespace: 'default', resourceVersion: '7' },
};

/** Across a thread: encoded, structured-cloned as postMessage does, decoded. */
const across = (err: unknown) => decodeError(structuredClone(encodeError(err)));

describe('member-wire errors', () => {
  const storeCases: [string, StoreError, new (...args: never[]) => StoreError][] = [
    ['not found', new NotFoundError(REF), NotFoundError],
    ['already exists, with the stored object', new AlreadyExistsError(REF, CURRENT), AlreadyExistsError],
    [
      'conflict, with the current object',
      new ConflictError(REF, CURRENT, 'the object has been modified'),
      ConflictError,
    ],
    ['conflict on a deleted object', new ConflictError(REF, undefined, 'uid precondition failed'), ConflictError],
    ['invalid object', new InvalidObjectError('metadata.name: Required value', REF), InvalidObjectError],
    ['bad request', new BadRequestError('invalid continue token'), BadRequestError],
    ['too large', new TooLargeError(REF, 900_000, 500_000, 400_000), TooLargeError],
  ];
  for (const [behaviour, original, cls] of storeCases) {
    it(`rebuilds a store error as its class: ${behaviour}`, () => {
      const back = across(original);
      assert.ok(back instanceof cls, `${back.name} is a ${cls.name}`);
      const store = back as StoreError & { current?: unknown };
      assert.equal(store.message, original.message);
      assert.equal(store.code, original.code);
      assert.equal(store.reason, original.reason);
      assert.deepEqual(store.ref, original.ref);
      assert.deepEqual(store.current, (original as { current?: unknown }).current);
    });
  }

  it('keeps the size figures of a too-large error', () => {
    const back = across(new TooLargeError(REF, 900_000, 500_000, 400_000)) as TooLargeError;
    assert.deepEqual([back.jsonBytes, back.storedBytes, back.limitBytes], [900_000, 500_000, 400_000]);
  });

  it('keeps name, message, errno code and the stack where it was thrown of any other error', () => {
    const original: Error & { code?: string } = new Error('listen EADDRINUSE: address already in use 127.0.0.1:7071');
    original.code = 'EADDRINUSE';
    const back = across(original) as Error & { code?: string };
    assert.ok(!(back instanceof StoreError));
    assert.equal(back.name, 'Error');
    assert.equal(back.message, original.message);
    assert.equal(back.code, 'EADDRINUSE');
    assert.equal(back.stack, original.stack);
  });

  it('keeps the name of an error class it does not know, and turns a thrown non-error into a message', () => {
    class InvalidSelectorError extends Error {
      override readonly name = 'InvalidSelectorError';
    }
    assert.equal(across(new InvalidSelectorError('bad selector')).name, 'InvalidSelectorError');
    assert.equal(across('just a string').message, 'just a string');
  });
});
