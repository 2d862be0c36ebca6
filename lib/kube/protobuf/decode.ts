// Decodes `application/vnd.kubernetes.protobuf` request bodies — what kubectl's typed commands (`kubectl create
// deployment|secret|…`, `kubectl auth whoami|can-i`) send — into the Kubernetes JSON object the same command
// would have sent as JSON, so the API server can treat both alike.
//
// A body is the 4-byte prefix `k8s\0` and a runtime.Unknown envelope (k8s.io/apimachinery/pkg/runtime
// generated.proto): 1 typeMeta {1 apiVersion, 2 kind}, 2 raw (the object's own message), 3 contentEncoding,
// 4 contentType. The object message is walked with the generated tables in messages.ts. Field semantics follow
// what the Go API server would do with the same bytes and then serialise as JSON:
//   - a field present on the wire is kept even when zero, unless the Go field is a non-pointer with omitempty
//     (kubectl's gogo-protobuf encoder writes every non-pointer field; encoding/json would drop those zeros);
//   - absent fields are omitted; repeated fields become arrays, maps objects, bytes base64 strings;
//   - a singular message field that occurs more than once is merged (its encodings are concatenated);
//   - Time/MicroTime/Quantity/IntOrString/Duration/FieldsV1/RawExtension take their hand-written JSON forms.
// Anything the tables do not know — another kind, a field number, a wire type — is a ProtobufDecodeError rather
// than silently dropped data.

import { Buffer } from 'node:buffer';
import { KINDS, MESSAGES, type FieldSpec, type MessageSpec } from './messages.ts';
import { WIRE_FIXED64, WIRE_LEN, WIRE_VARINT, WireError, WireReader } from './wire.ts';

export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
}

const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00); // "k8s\0"
const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
/** Unix seconds of Go's zero time.Time (0001-01-01T00:00:00Z), which encoding/json writes as null. */
const GO_ZERO_TIME_UNIX = -62135596800;
/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the years encoding/json accepts for a time.Time. */
const MIN_JSON_TIME_UNIX = -62167219200;
const MAX_JSON_TIME_UNIX = 253402300799;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** True when the body starts with the Kubernetes protobuf prefix `k8s\0`. */
export function isKubernetesProtobuf(body: Uint8Array): boolean {
  return body.length >= MAGIC.length && MAGIC.every((b, i) => body[i] === b);
}

/** `k8s\0` + runtime.Unknown → the object as Kubernetes JSON (apiVersion, kind from typeMeta). */
export function decodeKubernetesProtobuf(body: Uint8Array): Record<string, unknown> {
  if (!isKubernetesProtobuf(body)) {
    throw new ProtobufDecodeError(
      body.length < MAGIC.length
        ? `protobuf body of ${body.length} bytes is too short to hold the "k8s\\x00" prefix`
        : 'protobuf body does not start with the Kubernetes prefix "k8s\\x00"',
    );
  }
  const envelope = decodeEnvelope(body.subarray(MAGIC.length));
  const { apiVersion, kind } = envelope;
  if (!apiVersion || !kind) {
    throw new ProtobufDecodeError('protobuf body has no apiVersion and kind in its runtime.Unknown typeMeta');
  }
  if (envelope.contentEncoding) {
    throw new ProtobufDecodeError(
      `protobuf body of ${apiVersion} ${kind} uses contentEncoding "${envelope.contentEncoding}", which is not supported`,
    );
  }
  if (envelope.contentType && envelope.contentType !== PROTOBUF_CONTENT_TYPE) {
    throw new ProtobufDecodeError(
      `protobuf body of ${apiVersion} ${kind} declares contentType "${envelope.contentType}", expected ${PROTOBUF_CONTENT_TYPE}`,
    );
  }
  const message = Object.hasOwn(KINDS, `${apiVersion}/${kind}`) ? KINDS[`${apiVersion}/${kind}`] : undefined;
  if (!message) {
    throw new ProtobufDecodeError(
      `protobuf bodies of ${apiVersion} ${kind} are not supported: send JSON or YAML (kubectl apply -f)`,
    );
  }
  if (envelope.raw === undefined) {
    throw new ProtobufDecodeError(`protobuf body of ${apiVersion} ${kind} carries no object (runtime.Unknown raw)`);
  }
  const ctx: Context = { what: `${apiVersion} ${kind}` };
  return { apiVersion, kind, ...decodeMessage(ctx, message, spec(message), envelope.raw, '') };
}

interface Context {
  /** "apps/v1 Deployment", for error messages. */
  readonly what: string;
}

interface Envelope {
  apiVersion?: string;
  kind?: string;
  raw?: Uint8Array;
  contentEncoding?: string;
  contentType?: string;
}

/** runtime.Unknown: 1 typeMeta, 2 raw, 3 contentEncoding, 4 contentType. */
function decodeEnvelope(bytes: Uint8Array): Envelope {
  const out: Envelope = {};
  try {
    const reader = new WireReader(bytes);
    while (!reader.done()) {
      const { field, wireType } = reader.tag();
      if (field < 1 || field > 4) {
        throw new ProtobufDecodeError(`protobuf envelope (runtime.Unknown) has unknown field number ${field}`);
      }
      expectWire(wireType, WIRE_LEN, () => `runtime.Unknown field ${field}`);
      const value = reader.bytes();
      if (field === 1) {
        const typeMeta = new WireReader(value);
        while (!typeMeta.done()) {
          const tag = typeMeta.tag();
          if (tag.field !== 1 && tag.field !== 2) {
            throw new ProtobufDecodeError(`protobuf envelope typeMeta has unknown field number ${tag.field}`);
          }
          expectWire(tag.wireType, WIRE_LEN, () => `runtime.TypeMeta field ${tag.field}`);
          const text = utf8.decode(typeMeta.bytes());
          if (tag.field === 1) out.apiVersion = text;
          else out.kind = text;
        }
      } else if (field === 2) {
        out.raw = value;
      } else if (field === 3) {
        out.contentEncoding = utf8.decode(value);
      } else {
        out.contentType = utf8.decode(value);
      }
    }
  } catch (err) {
    if (err instanceof WireError) throw new ProtobufDecodeError(`malformed protobuf envelope: ${err.message}`);
    throw err;
  }
  return out;
}

function spec(name: string): MessageSpec {
  const found = Object.hasOwn(MESSAGES, name) ? MESSAGES[name] : undefined;
  if (!found) throw new Error(`protobuf message table ${name} is missing from messages.ts`);
  return found;
}

// Messages with hand-written JSON forms, read with these private tables and then converted.
// '#int64' reads an int64 as a bigint, '#raw' a bytes field as raw bytes (not base64).
const SPECIAL: Readonly<Record<string, MessageSpec>> = {
  Time: { 1: { name: 'seconds', type: 'int64' }, 2: { name: 'nanos', type: 'int32' } },
  MicroTime: { 1: { name: 'seconds', type: 'int64' }, 2: { name: 'nanos', type: 'int32' } },
  Duration: { 1: { name: 'duration', type: '#int64' } },
  Quantity: { 1: { name: 'string', type: 'string' } },
  IntOrString: {
    1: { name: 'type', type: 'int64' },
    2: { name: 'intVal', type: 'int32' },
    3: { name: 'strVal', type: 'string' },
  },
  FieldsV1: { 1: { name: 'Raw', type: '#raw' } },
  RawExtension: { 1: { name: 'raw', type: '#raw' } },
  StringList: { 1: { name: 'items', type: 'string', repeated: true } },
};

const SCALARS = new Set(['string', 'bool', 'int32', 'int64', 'bytes', 'double', '#int64', '#raw']);
const VARINTS = new Set(['bool', 'int32', 'int64', '#int64']);

function where(ctx: Context, path: string): string {
  return path ? `${ctx.what} at ${path}` : ctx.what;
}

function expectWire(got: number, want: number, what: () => string): void {
  if (got !== want) throw new ProtobufDecodeError(`${what()} has wire type ${got}, expected ${want}`);
}

function wireTypeOf(type: string): number {
  if (VARINTS.has(type)) return WIRE_VARINT;
  if (type === 'double') return WIRE_FIXED64;
  return WIRE_LEN;
}

function readScalar(reader: WireReader, type: string): unknown {
  switch (type) {
    case 'string':
      return utf8.decode(reader.bytes());
    case 'bytes': {
      const b = reader.bytes();
      return Buffer.from(b.buffer, b.byteOffset, b.length).toString('base64');
    }
    case '#raw':
      return reader.bytes();
    case 'bool':
      return reader.bool();
    case 'int32':
      return reader.int32();
    case 'int64':
      return reader.int64();
    case '#int64':
      return reader.int64Big();
    case 'double':
      return reader.double();
    default:
      throw new Error(`unknown scalar type ${type}`);
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}

/** Sets an own enumerable property, also for keys like "__proto__" that plain assignment would not create. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A message or special-message value from its (possibly merged) encoding. */
function decodeValue(ctx: Context, type: string, bytes: Uint8Array, path: string): unknown {
  const special = Object.hasOwn(SPECIAL, type) ? SPECIAL[type] : undefined;
  if (!special) return decodeMessage(ctx, type, spec(type), bytes, path);
  const fields = decodeMessage(ctx, type, special, bytes, path);
  switch (type) {
    case 'Time':
    case 'MicroTime':
      return bytes.length === 0 ? null : formatTime(ctx, type, fields, path);
    case 'Duration':
      return formatDuration((fields.duration as bigint | undefined) ?? 0n);
    case 'Quantity':
      return fields.string ?? '0';
    case 'IntOrString': {
      const kind = fields.type ?? 0;
      if (kind === 0) return fields.intVal ?? 0;
      if (kind === 1) return fields.strVal ?? '';
      throw new ProtobufDecodeError(`${where(ctx, path)}: IntOrString has invalid type ${String(kind)}`);
    }
    case 'FieldsV1':
      return parseEmbeddedJson(ctx, fields.Raw as Uint8Array | undefined, 'FieldsV1', path);
    case 'RawExtension':
      return parseEmbeddedJson(ctx, fields.raw as Uint8Array | undefined, 'RawExtension', path);
    case 'StringList':
      return fields.items ?? [];
    default:
      throw new Error(`no conversion for special message ${type}`);
  }
}

function parseEmbeddedJson(ctx: Context, raw: Uint8Array | undefined, type: string, path: string): unknown {
  if (!raw || raw.length === 0) return null;
  try {
    return JSON.parse(utf8.decode(raw)) as unknown;
  } catch {
    throw new ProtobufDecodeError(`${where(ctx, path)}: ${type} does not hold JSON`);
  }
}

function formatTime(ctx: Context, type: string, fields: Record<string, unknown>, path: string): string | null {
  let seconds = (fields.seconds as number | undefined) ?? 0;
  let nanos = 0;
  if (type === 'MicroTime') {
    // Like micro_time_proto.go: truncate to microseconds, then let time.Unix normalise out-of-range nanos.
    const raw = (fields.nanos as number | undefined) ?? 0;
    const truncated = raw - (raw % 1000);
    const carry = Math.floor(truncated / 1e9);
    seconds += carry;
    nanos = truncated - carry * 1e9;
  } // Time ignores nanos, like time_proto.go (its JSON form has whole seconds only).
  if (seconds === GO_ZERO_TIME_UNIX && nanos === 0) return null;
  if (seconds < MIN_JSON_TIME_UNIX || seconds > MAX_JSON_TIME_UNIX) {
    throw new ProtobufDecodeError(`${where(ctx, path)}: ${type} ${seconds}s is outside the years 0000–9999`);
  }
  const iso = new Date(seconds * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  const base = iso.slice(0, 19);
  return type === 'MicroTime' ? `${base}.${String(nanos / 1000).padStart(6, '0')}Z` : `${base}Z`;
}

/** Go's time.Duration.String(). */
function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const negative = ns < 0n;
  const u = negative ? -ns : ns;
  const fraction = (v: bigint, digits: number): [bigint, string] => {
    const scale = 10n ** BigInt(digits);
    const frac = digits ? (v % scale).toString().padStart(digits, '0').replace(/0+$/, '') : '';
    return [v / scale, frac ? `.${frac}` : ''];
  };
  let out: string;
  if (u < 1_000_000_000n) {
    const [unit, digits] = u < 1_000n ? ['ns', 0] : u < 1_000_000n ? ['µs', 3] : ['ms', 6];
    const [whole, frac] = fraction(u, digits);
    out = `${whole}${frac}${unit}`;
  } else {
    const [secs, frac] = fraction(u, 9);
    out = `${secs % 60n}${frac}s`;
    const mins = secs / 60n;
    if (mins > 0n) {
      out = `${mins % 60n}m${out}`;
      const hours = mins / 60n;
      if (hours > 0n) out = `${hours}h${out}`;
    }
  }
  return negative ? `-${out}` : out;
}

function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false || value === null;
}

function decodeMessage(
  ctx: Context,
  typeName: string,
  table: MessageSpec,
  bytes: Uint8Array,
  path: string,
): Record<string, unknown> {
  const values = new Map<number, unknown>(); // scalars, arrays and map objects
  const chunks = new Map<number, Uint8Array[]>(); // singular message fields: merged by concatenation
  const reader = new WireReader(bytes);
  const at = (f: FieldSpec) => (path ? `${path}.${f.name}` : f.name);
  try {
    while (!reader.done()) {
      const { field, wireType } = reader.tag();
      const f = Object.hasOwn(table, field) ? table[field] : undefined;
      if (!f) {
        throw new ProtobufDecodeError(
          `${where(ctx, path)}: unknown field number ${field} (wire type ${wireType}) in message ${typeName}; ` +
            'this server cannot decode it from protobuf: send JSON or YAML (kubectl apply -f)',
        );
      }
      const describe = () => `${where(ctx, at(f))}: field ${field} of ${typeName}`;
      if (f.type.startsWith('map<')) {
        expectWire(wireType, WIRE_LEN, describe);
        let map = values.get(field) as Record<string, unknown> | undefined;
        if (!map) values.set(field, (map = {}));
        const [key, value] = decodeMapEntry(ctx, f, reader.bytes(), at(f));
        setOwn(map, key, value);
      } else if (SCALARS.has(f.type)) {
        const want = wireTypeOf(f.type);
        if (f.repeated && wireType === WIRE_LEN && want !== WIRE_LEN) {
          // Packed repeated scalars.
          const packed = new WireReader(reader.bytes());
          const list = (values.get(field) as unknown[] | undefined) ?? [];
          while (!packed.done()) list.push(readScalar(packed, f.type));
          values.set(field, list);
          continue;
        }
        expectWire(wireType, want, describe);
        const value = readScalar(reader, f.type);
        if (f.repeated) {
          const list = (values.get(field) as unknown[] | undefined) ?? [];
          list.push(value);
          values.set(field, list);
        } else {
          values.set(field, value); // last one wins
        }
      } else {
        expectWire(wireType, WIRE_LEN, describe);
        const payload = reader.bytes();
        if (f.repeated) {
          const list = (values.get(field) as unknown[] | undefined) ?? [];
          list.push(decodeValue(ctx, f.type, payload, `${at(f)}[${list.length}]`));
          values.set(field, list);
        } else {
          const list = chunks.get(field) ?? [];
          list.push(payload);
          chunks.set(field, list);
        }
      }
    }
  } catch (err) {
    if (err instanceof WireError) {
      throw new ProtobufDecodeError(`${where(ctx, path)}: malformed ${typeName}: ${err.message}`);
    }
    throw err;
  }

  const out: Record<string, unknown> = {};
  for (const key of Object.keys(table)) {
    const field = Number(key);
    const f = table[field] as FieldSpec;
    let value: unknown;
    const merged = chunks.get(field);
    if (merged) value = decodeValue(ctx, f.type, concat(merged), at(f));
    else if (values.has(field)) value = values.get(field);
    else continue;
    if (f.omitEmpty && isZero(value)) continue;
    if (f.inline) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) setOwn(out, k, v);
    } else {
      setOwn(out, f.name, value);
    }
  }
  return out;
}

/** A map<string,V> entry message: 1 key, 2 value. A missing value is V's zero value. */
function decodeMapEntry(ctx: Context, f: FieldSpec, bytes: Uint8Array, path: string): [string, unknown] {
  const valueType = f.type.slice('map<string,'.length, -1);
  const reader = new WireReader(bytes);
  let key = '';
  let value: unknown;
  const chunks: Uint8Array[] = [];
  while (!reader.done()) {
    const { field, wireType } = reader.tag();
    if (field === 1) {
      expectWire(wireType, WIRE_LEN, () => `${where(ctx, path)}: map key`);
      key = utf8.decode(reader.bytes());
    } else if (field === 2) {
      if (SCALARS.has(valueType)) {
        expectWire(wireType, wireTypeOf(valueType), () => `${where(ctx, path)}: map value`);
        value = readScalar(reader, valueType);
      } else {
        expectWire(wireType, WIRE_LEN, () => `${where(ctx, path)}: map value`);
        chunks.push(reader.bytes());
      }
    } else {
      throw new ProtobufDecodeError(`${where(ctx, path)}: map entry has unknown field number ${field}`);
    }
  }
  if (!SCALARS.has(valueType)) {
    value = decodeValue(ctx, valueType, chunks.length ? concat(chunks) : new Uint8Array(0), `${path}[${key}]`);
  } else if (value === undefined) {
    value = valueType === 'bool' ? false : valueType === 'string' || valueType === 'bytes' ? '' : 0;
  }
  return [key, value];
}
