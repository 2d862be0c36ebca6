/** Number, dollar and table formatting for the cost report (docs/cost.md). */
import { type CostLine, describePrice, total } from './cost-model.ts';

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '—';
  const a = Math.abs(n);
  if (a === 0) return '0';
  if (a >= 100) return Math.round(n).toLocaleString('en-US');
  if (a >= 10) return n.toFixed(1);
  if (a >= 0.01) return n.toFixed(2);
  return n.toPrecision(2);
}

export function usd(n: number): string {
  const a = Math.abs(n);
  if (a >= 100) return `$${Math.round(n).toLocaleString('en-US')}`;
  if (a >= 0.995) return `$${n.toFixed(2)}`;
  if (a >= 0.001) return `$${n.toFixed(3)}`;
  if (a === 0) return '$0';
  return `$${n.toPrecision(2)}`;
}

export function pct(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((100 * part) / whole)} %` : '—';
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

export function table(header: string[], align: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

export function costTable(lines: readonly CostLine[], caption: string): string[] {
  const sum = total(lines);
  return [
    ...table(
      ['item', 'quantity', 'unit', 'list price', 'dollars', 'share'],
      ['---', '---:', '---', '---:', '---:', '---:'],
      lines
        .filter((l) => l.quantity !== 0 || l.usd !== 0)
        .map((l) => [l.item, fmt(l.quantity), l.unit, describePrice(l.price), usd(l.usd), pct(l.usd, sum)]),
    ),
    `| **${caption}** | | | | **${usd(sum)}** | |`,
  ];
}

/** The largest lines, as prose. */
export function largest(lines: readonly CostLine[], n = 3): string {
  const sum = total(lines);
  return [...lines]
    .sort((a, b) => b.usd - a.usd)
    .slice(0, n)
    .map((l) => `${l.item} ${usd(l.usd)} (${pct(l.usd, sum)})`)
    .join(', ');
}
