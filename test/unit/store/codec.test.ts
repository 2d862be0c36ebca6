import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { brotliCompressSync, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { KubeObject } from '../../../lib/api/object.ts';
import { DICTIONARY_MAX_JSON_BYTES, decodeBody, encodeBody } from '../../../lib/store/codec.ts';
import { DICTIONARY_1 } from '../../../lib/store/codec-dictionary.ts';

/** A Work of a Deployment as the binder renders it, with the status the executor writes. */
function work(name: string): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: `${name}-5d8f9c7b6a`,
      namespace: 'karmada-es-eu-west',
      uid: '6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b',
      resourceVersion: '918273',
      creationTimestamp: '2027-02-03T04:05:06Z',
      labels: { 'resourcebinding.karmada.io/permanent-id': '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' },
      annotations: {
        'resourcebinding.karmada.io/name': `${name}-deployment`,
        'resourcebinding.karmada.io/namespace': 'shop',
      },
      finalizers: ['karmada.io/execution-controller'],
    },
    spec: {
      workload: {
        manifests: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: {
              name,
              namespace: 'shop',
              labels: { app: name, 'karmada.io/managed': 'true' },
              annotations: { 'work.karmada.io/conflict-resolution': 'abort' },
            },
            spec: {
              replicas: 4,
              selector: { matchLabels: { app: name } },
              template: {
                metadata: { labels: { app: name } },
                spec: { containers: [{ name, image: `registry.example.org/${name}:3.2.1` }] },
              },
            },
          },
        ],
      },
    },
    status: {
      conditions: [
        {
          type: 'Applied',
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
          lastTransitionTime: '2027-02-03T04:05:07Z',
        },
      ],
    },
  } as KubeObject;
}

describe('row codec', () => {
  it('round-trips an object through the dictionary format, far smaller than Brotli alone', () => {
    const object = work('checkout');
    const { bytes, jsonBytes } = encodeBody(object);
    assert.equal(bytes[0], 2);
    assert.deepEqual(decodeBody(bytes), object);
    assert.equal(jsonBytes, Buffer.byteLength(JSON.stringify(object)));
    const brotli = brotliCompressSync(JSON.stringify(object)).length;
    assert.ok(bytes.length < brotli * 0.7, `${bytes.length} bytes with the dictionary, ${brotli} with Brotli alone`);
  });

  it('encodes with the end of the dictionary; readers decode with the whole of it, as builds before did', () => {
    const object = work('tail');
    const { bytes } = encodeBody(object);
    // What a reader of format 2 does, this build's and the earlier ones' alike.
    assert.deepEqual(JSON.parse(inflateRawSync(bytes.subarray(1), { dictionary: DICTIONARY_1 }).toString()), object);
    // And rows the earlier encoder wrote (the whole dictionary loaded) still read.
    const earlier = deflateRawSync(Buffer.from(JSON.stringify(object)), { level: 6, dictionary: DICTIONARY_1 });
    assert.deepEqual(decodeBody(new Uint8Array([2, ...earlier])), object);
  });

  it('writes JSON past the dictionary limit with Brotli (format 1), and reads it back', () => {
    const big = { ...work('big'), data: { blob: 'x'.repeat(DICTIONARY_MAX_JSON_BYTES) } } as KubeObject;
    const { bytes } = encodeBody(big);
    assert.equal(bytes[0], 1);
    assert.deepEqual(decodeBody(bytes), big);
  });

  it('reads rows written by earlier versions (format 1 for every size)', () => {
    const object = work('legacy');
    const compressed = brotliCompressSync(Buffer.from(JSON.stringify(object)));
    const row = new Uint8Array(compressed.length + 1);
    row[0] = 1;
    row.set(compressed, 1);
    assert.deepEqual(decodeBody(row), object);
  });

  it('refuses a format it does not know, saying a newer build wrote it', () => {
    assert.throws(() => decodeBody(new Uint8Array([9, 1, 2])), /unknown stored object format 9.*newer one/);
  });

  it('keeps dictionary 1 byte for byte: rows written with it depend on every byte', () => {
    assert.equal(
      createHash('sha256').update(DICTIONARY_1).digest('hex'),
      'd0861346a8cc9dec8f6767a8b75709ac75a3a212da2302585fcb5bfeb1679053',
    );
  });
});
