/**
 * Kubernetes resource quantities (`100m`, `1.5`, `128Mi`, `2Gi`, `1e3`): parsed to numbers in base
 * units (cores, bytes, counts), as `resource.Quantity` does, and formatted back.
 */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};
const FORM = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$/;

export class QuantityError extends Error {
  override readonly name = 'QuantityError';
}

/** The value of a quantity in base units; throws QuantityError on malformed input. */
export function parseQuantity(q: string | number): number {
  if (typeof q === 'number') {
    if (!Number.isFinite(q)) throw new QuantityError(`quantity ${q} is not finite`);
    return q;
  }
  const m = FORM.exec(q.trim());
  if (!m) {
    throw new QuantityError(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', got ${JSON.stringify(q)}`,
    );
  }
  const base = Number(m[1]);
  if (m[2]) return base * 10 ** Number(m[2].slice(1));
  const suffix = m[3] ?? '';
  return base * (BINARY[suffix] ?? DECIMAL[suffix]!);
}

/** True when `q` is a valid quantity. */
export function isQuantity(q: unknown): boolean {
  if (typeof q === 'number') return Number.isFinite(q);
  if (typeof q !== 'string') return false;
  return FORM.test(q.trim());
}

/** CPU in the canonical form: whole cores when whole, else millicores (`2`, `250m`). */
export function formatCpu(cores: number): string {
  const milli = Math.round(cores * 1000);
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/** Bytes in the largest binary unit that keeps an integer (`32Gi`, `1536Mi`, `1000`). */
export function formatBytes(bytes: number): string {
  const whole = Math.round(bytes);
  for (const [suffix, factor] of Object.entries(BINARY).reverse()) {
    if (whole >= factor && whole % factor === 0) return `${whole / factor}${suffix}`;
  }
  return String(whole);
}
