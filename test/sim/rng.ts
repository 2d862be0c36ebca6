/**
 * The simulation's only source of chance: a small seeded generator (splitmix32 to spread the seed,
 * then sfc32), and the switch that makes every other source of chance in the process draw from it for
 * the length of one run (`Math.random`, `crypto.randomUUID`), so a seed replays exactly.
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = next();
    this.#b = next();
    this.#c = next();
    this.#d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** One of `weights`' keys, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((n, [, w]) => n + w, 0);
    let r = this.float() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }

  /** A version-4-shaped UUID drawn from this generator. */
  uuid(): `${string}-${string}-${string}-${string}-${string}` {
    const hex = Array.from({ length: 4 }, () => this.uint32().toString(16).padStart(8, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /** An independent generator for one concern (faults, workload), so adding draws to one does not shift the other. */
  fork(label: string): Rng {
    let h = this.uint32();
    for (const ch of label) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    return new Rng(h);
  }
}

/**
 * Makes `Math.random` and `crypto.randomUUID` draw from `rng` until the returned function is called.
 * Controllers and the store take their ids from these; the run is then the same for the same seed.
 */
export function installDeterminism(rng: Rng): () => void {
  const random = Math.random;
  const randomUUID = crypto.randomUUID;
  Math.random = () => rng.float();
  crypto.randomUUID = (() => rng.uuid()) as typeof crypto.randomUUID;
  syncBuiltinESMExports();
  return () => {
    Math.random = random;
    crypto.randomUUID = randomUUID;
    syncBuiltinESMExports();
  };
}
