/**
 * Row payload encoding, behind a one-byte format tag so the encoding can change without a migration:
 * every format ever written stays readable.
 *
 * - Format 2 (written for JSON up to {@link DICTIONARY_MAX_JSON_BYTES}): raw deflate with preset
 *   dictionary 1 (lib/store/codec-dictionary.ts). Most rows are one object of a kind the dictionary
 *   holds an example of, so their field names, label keys and value shapes are found in it: in the
 *   cost bench's changes a ResourceBinding row goes from 1,145 to 437 bytes and a Work's from 1,338
 *   to 522 (medians), one DynamoDB write unit instead of two, in the table and in each index that
 *   projects it.
 *   docs/decisions/0019-row-codec-dictionary.md has the measurements.
 * - Format 1 (written for larger JSON, and by earlier versions): Brotli, quality 4 — past the deflate
 *   window (32 KiB) Brotli's larger window compresses better.
 */
import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { KubeObject } from '../api/object.ts';
import { DICTIONARY_1 } from './codec-dictionary.ts';

const FORMAT_BROTLI_JSON = 1;
const FORMAT_DEFLATE_DICTIONARY_1 = 2;

/** JSON up to this size is written in format 2; larger JSON in format 1. */
export const DICTIONARY_MAX_JSON_BYTES = 16 * 1024;

/**
 * What the encoder loads of dictionary 1: its last 12 KiB. A raw deflate stream refers back by
 * distance from its current position, so a stream made with the end of the dictionary decodes with the
 * whole of it, as every reader of format 2 (this one and earlier builds) decodes. zlib hashes whatever
 * dictionary it is given on every call, and that was most of an encode's CPU: 12 KiB of 19.6 KB takes
 * about 28 % off it, for the same sizes within a few bytes (decisions/0019).
 */
const ENCODE_DICTIONARY_1 = DICTIONARY_1.subarray(DICTIONARY_1.length - 12 * 1024);

/** An encoded payload and the size of the JSON it came from. */
export interface EncodedBody {
  bytes: Uint8Array;
  jsonBytes: number;
}

export function encodeBody(obj: KubeObject): EncodedBody {
  const json = Buffer.from(JSON.stringify(obj), 'utf8');
  const [format, compressed] =
    json.length <= DICTIONARY_MAX_JSON_BYTES
      ? [FORMAT_DEFLATE_DICTIONARY_1, deflateRawSync(json, { level: 6, dictionary: ENCODE_DICTIONARY_1 })]
      : [
          FORMAT_BROTLI_JSON,
          brotliCompressSync(json, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
          }),
        ];
  const bytes = new Uint8Array(compressed.length + 1);
  bytes[0] = format;
  bytes.set(compressed, 1);
  return { bytes, jsonBytes: json.length };
}

export function decodeBody(bytes: Uint8Array): KubeObject {
  const payload = bytes.subarray(1);
  let json: Buffer;
  switch (bytes[0]) {
    case FORMAT_DEFLATE_DICTIONARY_1:
      json = inflateRawSync(payload, { dictionary: DICTIONARY_1 });
      break;
    case FORMAT_BROTLI_JSON:
      json = brotliDecompressSync(payload);
      break;
    default:
      throw new Error(`unknown stored object format ${bytes[0]}: this build cannot read rows written by a newer one`);
  }
  return JSON.parse(json.toString('utf8')) as KubeObject;
}
