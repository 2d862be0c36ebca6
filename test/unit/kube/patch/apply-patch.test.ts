/**
 * The PATCH dispatcher: Content-Type picks the flavour, and a strategic merge patch on a resource
 * without patch metadata (a custom resource) is answered with 415 as the API server does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPatch, PATCH_CONTENT_TYPES, PatchError } from '../../../../lib/kube/patch/index.ts';
import type { Schema } from '../../../../lib/kube/base/schema.ts';

/** A pod-like object whose containers merge by name, as in a PodSpec. */
const podSchema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        containers: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, image: { type: 'string' } } },
          'x-kubernetes-patch-strategy': 'merge',
          'x-kubernetes-patch-merge-key': 'name',
        },
      },
    },
  },
};
const builtIn = { strategicAllowed: true };
const customResource = { strategicAllowed: false };
const doc = { spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b' }] } };

describe('applyPatch', () => {
  it('lists the three patch media types', () => {
    assert.deepEqual(PATCH_CONTENT_TYPES, [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
  });

  const rows: { name: string; contentType: string; patch: unknown; expected: unknown }[] = [
    {
      name: 'application/json-patch+json applies RFC 6902 operations',
      contentType: 'application/json-patch+json',
      patch: [{ op: 'remove', path: '/spec/containers/1' }],
      expected: { spec: { containers: [{ name: 'a', image: 'a:1' }] } },
    },
    {
      name: 'application/merge-patch+json replaces lists',
      contentType: 'application/merge-patch+json',
      patch: { spec: { containers: [{ name: 'a', image: 'a:2' }] } },
      expected: { spec: { containers: [{ name: 'a', image: 'a:2' }] } },
    },
    {
      name: 'application/strategic-merge-patch+json merges keyed lists',
      contentType: 'application/strategic-merge-patch+json',
      patch: { spec: { containers: [{ name: 'a', image: 'a:2' }] } },
      expected: { spec: { containers: [{ name: 'a', image: 'a:2' }, { name: 'b' }] } },
    },
    {
      name: 'parameters and case in the Content-Type are ignored',
      contentType: 'Application/Merge-Patch+JSON; charset=utf-8',
      patch: { spec: null },
      expected: {},
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(applyPatch(row.contentType, doc, row.patch, podSchema, builtIn), row.expected));
  }

  it('a strategic merge patch on a custom resource is a 415 listing the accepted media types', () => {
    assert.throws(
      () => applyPatch('application/strategic-merge-patch+json', doc, {}, undefined, customResource),
      (e: unknown) =>
        e instanceof PatchError &&
        e.code === 415 &&
        e.reason === 'UnsupportedMediaType' &&
        e.message ===
          'the body of the request was in an unknown format - accepted media types include: ' +
            'application/json-patch+json, application/merge-patch+json',
    );
  });

  it('an unknown media type is a 415 listing all three when strategic is allowed', () => {
    assert.throws(
      () => applyPatch('application/json', doc, {}, undefined, builtIn),
      (e: unknown) =>
        e instanceof PatchError &&
        e.code === 415 &&
        e.message.endsWith(
          'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
        ),
    );
  });
});
