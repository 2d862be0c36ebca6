// A minimal protobuf wire-format reader (https://protobuf.dev/programming-guides/encoding/), enough for the
// proto2 messages Kubernetes generates: varints (int32, int64, bool, tags, lengths), length-delimited fields
// (strings, bytes, embedded messages, packed repeated scalars) and fixed32/fixed64 (double; skipped otherwise).
// No dependencies. Errors are WireError; the decoder rewraps them with the message being read.

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

export class WireError extends Error {
  override readonly name = 'WireError';
}

export interface Tag {
  readonly field: number;
  readonly wireType: number;
}

export class WireReader {
  readonly #buf: Uint8Array;
  #pos: number;
  readonly #end: number;

  constructor(buf: Uint8Array, start = 0, end = buf.length) {
    this.#buf = buf;
    this.#pos = start;
    this.#end = end;
  }

  get pos(): number {
    return this.#pos;
  }

  done(): boolean {
    return this.#pos >= this.#end;
  }

  /** The next field's tag (field number ≥ 1, wire type 0–5). */
  tag(): Tag {
    const at = this.#pos;
    const key = this.uint64();
    const wireType = Number(key & 7n);
    const field = key >> 3n;
    if (field < 1n || field > 0x1fffffffn) throw new WireError(`invalid field number ${field} at byte ${at}`);
    if (wireType > 5) throw new WireError(`invalid wire type ${wireType} for field ${field} at byte ${at}`);
    return { field: Number(field), wireType };
  }

  /** An unsigned varint as a bigint (up to 64 bits). */
  uint64(): bigint {
    const at = this.#pos;
    // Fast path: up to 4 bytes fit in 28 bits.
    let lo = 0;
    let shift = 0;
    for (let i = 0; i < 4; i++) {
      const b = this.#byte(at);
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) return BigInt(lo >>> 0);
      shift += 7;
    }
    let value = BigInt(lo >>> 0);
    let big = 28n;
    for (let i = 4; i < 10; i++) {
      const b = this.#byte(at);
      value |= BigInt(b & 0x7f) << big;
      if (b < 0x80) {
        if (i === 9 && b > 1) throw new WireError(`varint at byte ${at} overflows 64 bits`);
        return value;
      }
      big += 7n;
    }
    throw new WireError(`varint at byte ${at} is longer than 10 bytes`);
  }

  /** proto `int64` (two's complement) as a bigint. */
  int64Big(): bigint {
    return BigInt.asIntN(64, this.uint64());
  }

  /** proto `int64` (two's complement) as a number; rejects values outside ±2^53. */
  int64(): number {
    const at = this.#pos;
    const value = this.int64Big();
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new WireError(`int64 ${value} at byte ${at} is outside the range a JSON number holds exactly`);
    }
    return Number(value);
  }

  /** proto `int32`: the low 32 bits of the varint, signed (negative values are sign-extended on the wire). */
  int32(): number {
    return Number(BigInt.asIntN(32, this.uint64()));
  }

  bool(): boolean {
    return this.uint64() !== 0n;
  }

  /** A length prefix, checked against the bytes that remain. */
  length(): number {
    const at = this.#pos;
    const n = this.uint64();
    if (n > BigInt(this.#end - this.#pos)) {
      throw new WireError(`length ${n} at byte ${at} runs past the end of the data (${this.#end - this.#pos} left)`);
    }
    return Number(n);
  }

  /** A length-delimited field's payload (a view, not a copy). */
  bytes(): Uint8Array {
    const n = this.length();
    const out = this.#buf.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return out;
  }

  double(): number {
    const at = this.#pos;
    if (this.#end - at < 8) throw new WireError(`truncated fixed64 at byte ${at}`);
    const view = new DataView(this.#buf.buffer, this.#buf.byteOffset + at, 8);
    this.#pos += 8;
    return view.getFloat64(0, true);
  }

  /** Skips one field's value of the given wire type. */
  skip(wireType: number): void {
    const at = this.#pos;
    switch (wireType) {
      case WIRE_VARINT:
        this.uint64();
        return;
      case WIRE_FIXED64:
        this.#advance(8, at);
        return;
      case WIRE_LEN:
        this.#pos += this.length();
        return;
      case WIRE_FIXED32:
        this.#advance(4, at);
        return;
      default:
        throw new WireError(`cannot skip wire type ${wireType} at byte ${at} (groups are not used by Kubernetes)`);
    }
  }

  #advance(n: number, at: number): void {
    if (this.#end - this.#pos < n) throw new WireError(`truncated ${n * 8}-bit fixed value at byte ${at}`);
    this.#pos += n;
  }

  #byte(start: number): number {
    if (this.#pos >= this.#end) throw new WireError(`truncated varint at byte ${start}`);
    return this.#buf[this.#pos++] as number;
  }
}
