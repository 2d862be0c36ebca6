import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectGroups, type GroupInfo } from '../../../../../lib/core/scheduler/spread/index.ts';
import { rng } from './fixtures.ts';

const g = (name: string, value: number, weight: number): GroupInfo => ({ name, value, weight });

describe('selectGroups (Karmada select_groups_test.go TestSelectGroups)', () => {
  const rows: { name: string; groups: GroupInfo[]; min: number; max: number; target: number; want: string[] }[] = [
    { name: 'empty groups', groups: [], min: 2, max: 3, target: 1, want: [] },
    { name: 'no enough groups', groups: [g('R1', 1, 80)], min: 2, max: 3, target: 1, want: [] },
    { name: 'no enough value', groups: [g('R1', 1, 80), g('R2', 2, 30)], min: 2, max: 3, target: 4, want: [] },
    { name: 'select one group', groups: [g('R1', 1, 80)], min: 1, max: 3, target: 1, want: ['R1'] },
    {
      name: 'prioritize one path',
      groups: [g('R1', 1, 80), g('R3', 1, 80), g('R2', 1, 60), g('R5', 2, 60), g('R4', 5, 50), g('R6', 3, 50)],
      min: 1,
      max: 3,
      target: 10,
      want: ['R5', 'R4', 'R6'],
    },
    {
      name: 'select groups with less total number',
      groups: [g('R1', 1, 80), g('R2', 4, 40), g('R3', 1, 30), g('R4', 3, 30), g('R5', 3, 20), g('R6', 5, 10)],
      min: 2,
      max: 6,
      target: 5,
      want: ['R1', 'R2'],
    },
    {
      name: 'select groups with the highest score',
      groups: [g('R1', 1, 60), g('R2', 1, 50), g('R3', 1, 40), g('R4', 3, 30), g('R5', 3, 20), g('R6', 3, 10)],
      min: 1,
      max: 3,
      target: 6,
      want: ['R1', 'R4', 'R5'],
    },
    {
      name: 'select groups that are chosen earlier',
      groups: [g('R1', 1, 60), g('R2', 2, 50), g('R3', 3, 40), g('R4', 4, 30)],
      min: 1,
      max: 2,
      target: 5,
      want: ['R1', 'R4'],
    },
    {
      name: 'select groups with greater value',
      groups: [g('R4', 1, 60), g('R3', 3, 50), g('R1', 3, 40), g('R2', 4, 30)],
      min: 1,
      max: 2,
      target: 5,
      want: ['R3', 'R1'],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const before = row.groups.map((x) => x.name);
      assert.deepEqual(
        selectGroups(row.groups, row.min, row.max, row.target).map((x) => x.name),
        row.want,
      );
      assert.deepEqual(
        row.groups.map((x) => x.name),
        before,
        'input not reordered',
      );
    });
  }

  it('prefers a recorded strict prefix of the best path (prioritizePaths subpath rule)', () => {
    // Search order: A(1,0), B(2,10). Paths: [A,B] (weight 10) and [B] (weight 10, value 2).
    // [A,B] sorts first (same weight, more value); listed by weight it is [B, A], and [B] is a strict
    // prefix recorded by the DFS, so Karmada switches to [B].
    assert.deepEqual(
      selectGroups([g('A', 1, 0), g('B', 2, 10)], 1, 2, 2).map((x) => x.name),
      ['B'],
    );
  });

  it('explores only the first chain when #groups == minConstraint (Karmada stops backtracking)', () => {
    assert.deepEqual(
      selectGroups([g('R1', 1, 10), g('R2', 1, 20), g('R3', 1, 30)], 3, 3, 3).map((x) => x.name),
      ['R3', 'R2', 'R1'],
    );
    assert.deepEqual(selectGroups([g('R1', 1, 10), g('R2', 1, 20)], 2, 2, 3), []);
  });

  it('returns nothing when maxConstraint is 0 (maxGroups omitted)', () => {
    assert.deepEqual(selectGroups([g('R1', 3, 10)], 1, 0, 1), []);
  });
});

/** Line-by-line port of Karmada's selectGroups (all paths materialised), to check the fast one against. */
function karmadaSelectGroups(groups: GroupInfo[], minC: number, maxC: number, target: number): string[] {
  if (groups.length === 0) return [];
  const gs = groups.slice();
  if (gs.length > 1) {
    gs.sort((a, b) =>
      a.value !== b.value
        ? a.value - b.value
        : a.weight !== b.weight
          ? b.weight - a.weight
          : a.name < b.name
            ? -1
            : a.name > b.name
              ? 1
              : 0,
    );
  }
  interface Path {
    id: number;
    groups: GroupInfo[];
    weight: number;
    value: number;
  }
  const paths: Path[] = [];
  let id = 0;
  const root: GroupInfo[] = [];
  const dfs = (sum: number, begin: number) => {
    if (sum >= target && root.length >= minC && root.length <= maxC) {
      id++;
      const copy = root.slice();
      copy.sort((a, b) => (a.weight !== b.weight ? b.weight - a.weight : a.name < b.name ? -1 : 1));
      paths.push({
        id,
        groups: copy,
        weight: copy.reduce((s, x) => s + x.weight, 0),
        value: copy.reduce((s, x) => s + x.value, 0),
      });
      return;
    }
    if (root.length >= maxC) return;
    for (let i = begin; i < gs.length; i++) {
      sum += gs[i]!.value;
      root.push(gs[i]!);
      dfs(sum, i + 1);
      if (gs.length === minC) break;
      sum -= gs[i]!.value;
      root.pop();
    }
  };
  dfs(0, 0);
  if (paths.length === 0) return [];
  if (paths.length > 1) {
    paths.sort((a, b) => b.weight - a.weight || b.value - a.value || a.id - b.id);
  }
  let final = paths[0]!;
  for (let i = 1; i < paths.length; i++) {
    const sub = paths[i]!;
    if (sub.groups.length < final.groups.length && sub.groups.every((x, j) => final.groups[j]!.name === x.name)) {
      final = sub;
    }
  }
  return final.groups.map((x) => x.name);
}

describe('selectGroups agrees with a literal port of Karmada on random inputs', () => {
  it('4000 random group sets (ties in value and weight included)', () => {
    const rand = rng(20250905);
    const int = (n: number) => Math.floor(rand() * n);
    for (let round = 0; round < 4000; round++) {
      const n = int(8);
      const names = Array.from({ length: n }, (_, i) => `R${i}`).sort(() => rand() - 0.5);
      const groups = names.map((name) => g(name, int(5), int(6) * 10));
      const minC = int(n + 2);
      const maxC = minC + int(n + 2) - 1;
      const target = int(12);
      const want = karmadaSelectGroups(groups, minC, maxC, target);
      const got = selectGroups(groups, minC, maxC, target).map((x) => x.name);
      assert.deepEqual(got, want, JSON.stringify({ groups, minC, maxC, target }));
    }
  });
});
