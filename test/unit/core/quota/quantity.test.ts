/**
 * The exact quantity arithmetic the quota code is built on: `addQuantities`, `subtractQuantities` and
 * `multiplyQuantity` (Go's `Quantity.Add` / `Sub` / `Mul`, lib/api/quantity.ts) and the resource-list
 * helpers over them. No floats anywhere: every amount is an exact decimal.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addQuantities,
  formatQuantity,
  isQuantityError,
  multiplyQuantity,
  parseQuantity,
  type Quantity,
  QuantityError,
  subtractQuantities,
} from '../../../../lib/api/quantity.ts';
import { addResourceLists, nonZeroResources, subtractResourceLists } from '../../../../lib/core/quota/index.ts';
import type { ResourceList } from '../../../../lib/core/model/types.ts';

function q(text: string): Quantity {
  const parsed = parseQuantity(text);
  if (isQuantityError(parsed)) throw new Error(parsed.error);
  return parsed;
}

describe('addQuantities (Quantity.Add)', () => {
  for (const [name, a, b, want] of [
    ['the receiver keeps its format', '1Gi', '512Mi', '1536Mi'],
    ['a zero receiver takes the addend format (Go: 0 + 1Gi is 1Gi)', '0', '1Gi', '1Gi'],
    ['mixed scales add exactly', '1', '250m', '1250m'],
  ] as const) {
    it(name, () => assert.equal(formatQuantity(addQuantities(q(a), q(b))), want));
  }
});

describe('subtractQuantities (Quantity.Sub)', () => {
  const rows: { name: string; a: string; b: string; want: string }[] = [
    { name: 'mixed scales subtract exactly', a: '1', b: '250m', want: '750m' },
    { name: 'decimal fractions without float error', a: '0.3', b: '0.1', want: '200m' },
    { name: 'binary format of the receiver is kept', a: '2Gi', b: '512Mi', want: '1536Mi' },
    { name: 'a zero receiver takes the subtrahend format (Go)', a: '0', b: '1Gi', want: '-1Gi' },
    { name: 'equal amounts written differently give zero', a: '1', b: '1000m', want: '0' },
    { name: 'the cached input text is not reused (canonical output)', a: '1.024', b: '0', want: '1024m' },
  ];
  for (const row of rows)
    it(row.name, () => assert.equal(formatQuantity(subtractQuantities(q(row.a), q(row.b))), row.want));
});

describe('multiplyQuantity (Quantity.Mul)', () => {
  const rows: { name: string; q: string; n: number | bigint; want: string }[] = [
    { name: 'Flink memory 1.024 × 3 = 3072m (cache dropped, canonical)', q: '1.024', n: 3, want: '3072m' },
    { name: 'millicores carry into whole cores', q: '250m', n: 4, want: '1' },
    { name: 'binary units stay binary', q: '128Mi', n: 3, want: '384Mi' },
    { name: 'by zero is zero', q: '5', n: 0, want: '0' },
    { name: 'bigint factors beyond 2^53 stay exact', q: '1m', n: 2n ** 60n, want: '1152921504606846976m' },
  ];
  for (const row of rows) it(row.name, () => assert.equal(formatQuantity(multiplyQuantity(q(row.q), row.n)), row.want));
  it('a factor that is not a whole number is refused (no floats)', () => {
    assert.throws(() => multiplyQuantity(q('1'), 1.5), RangeError);
  });
});

describe('resource lists', () => {
  const add: { name: string; a: ResourceList; b: ResourceList; want: ResourceList }[] = [
    {
      name: 'addResourceLists: union of names, exact sums, name order',
      a: { memory: '1Gi', cpu: '500m' },
      b: { cpu: '1', 'nvidia.com/gpu': '1' },
      want: { cpu: '1500m', memory: '1Gi', 'nvidia.com/gpu': '1' },
    },
    {
      name: 'addResourceLists: an absent entry takes the other format (0 + 1Gi = 1Gi, Go Add)',
      a: { memory: '0' },
      b: { memory: '1Gi' },
      want: { memory: '1Gi' },
    },
    {
      name: 'addResourceLists: a zero sum stays, as "0"',
      a: { cpu: '1' },
      b: { cpu: '-1' },
      want: { cpu: '0' },
    },
  ];
  for (const row of add) it(row.name, () => assert.deepEqual(addResourceLists(row.a, row.b), row.want));

  const sub: { name: string; a: ResourceList; b: ResourceList; want: ResourceList }[] = [
    {
      name: 'subtractResourceLists: a delta (Karmada calculateDelta before dropping zeros), negatives kept',
      a: { cpu: '1', pods: '2' },
      b: { cpu: '250m', memory: '1Gi', pods: '2' },
      want: { cpu: '750m', memory: '-1Gi', pods: '0' },
    },
  ];
  for (const row of sub) it(row.name, () => assert.deepEqual(subtractResourceLists(row.a, row.b), row.want));

  it('nonZeroResources: drops zero amounts however written, keeps negatives and the given text', () => {
    assert.deepEqual(nonZeroResources({ cpu: '0', memory: '-1Gi', pods: '0m', gpu: '1000m' }), {
      memory: '-1Gi',
      gpu: '1000m',
    });
  });

  it('a value that is not a quantity is a bug: QuantityError', () => {
    assert.throws(() => addResourceLists({ cpu: 'x' }, {}), QuantityError);
    assert.throws(() => nonZeroResources({ cpu: '' }), QuantityError);
  });
});
