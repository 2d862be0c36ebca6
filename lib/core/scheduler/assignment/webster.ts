/**
 * The Webster (Sainte-Laguë) apportionment method, as Karmada ≥ 1.16 divides replicas by weight
 * (`pkg/util/helper/webstermethod.go AllocateWebsterSeats`, tie-breaker `binding.go tieBreakerByUID`).
 *
 * Seats are handed out one at a time, each to the party with the highest priority
 * `votes / (2 * seats + 1)`. Equal priorities go to the party holding fewer seats, then by name —
 * ascending or descending, chosen once per object by the low bit of the FNV-32a hash of its UID, so
 * equal-weight leftovers do not always land on the alphabetically first cluster across objects while
 * each object's result stays reproducible. A divisor method is house-monotone: handing out one more
 * seat never takes a seat away from anyone (no Alabama paradox, Karmada #6735).
 */

/** One party (cluster) of a Webster allocation. */
export interface WebsterParty {
  name: string;
  /** Votes (the cluster's weight); 0 takes part but never wins a seat while anyone has votes. */
  weight: number;
  /** Seats already held before this allocation (Karmada `initialAssignments`); default 0. */
  seats?: number;
}

/** A party with its final number of seats. */
export interface WebsterSeats {
  name: string;
  weight: number;
  seats: number;
}

/** 32-bit FNV-1a of the UTF-8 bytes of `text` (Go `hash/fnv.New32a`), as an unsigned integer. */
export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Which way equal-priority, equal-seat parties are ordered by name for an object: `desc` when
 * `fnv32a(uid)` is odd, `asc` when it is even or the UID is empty (Karmada `tieBreakerByUID`).
 */
export function nameOrderForSeed(tieBreakSeed: string): 'asc' | 'desc' {
  if (tieBreakSeed.length === 0) return 'asc';
  return (fnv32a(tieBreakSeed) & 1) === 1 ? 'desc' : 'asc';
}

interface Party {
  name: string;
  weight: number;
  seats: number;
  priority: number;
}

/**
 * Hands out `newSeats` seats among `parties` by the Webster method, on top of the seats they already
 * hold, and returns every party (including those that got nothing) sorted by name ascending, as
 * Karmada does. Deterministic for a given `tieBreakSeed` (the binding's UID), and monotone:
 * allocating `n + 1` seats never gives any party fewer than allocating `n` did.
 *
 * A name listed twice is one party: the last weight and the last `seats` given win. No parties ⇒ `[]`.
 *
 * @example
 * websterAllocate(4, [{ name: 'Alpha', weight: 1200 }, { name: 'Beta', weight: 900 }, { name: 'Gamma', weight: 400 }], '')
 * // Alpha 2, Beta 1, Gamma 1
 */
export function websterAllocate(
  newSeats: number,
  parties: readonly WebsterParty[],
  tieBreakSeed: string,
): WebsterSeats[] {
  const byName = new Map<string, Party>();
  for (const p of parties) {
    const prior = byName.get(p.name);
    const seats = p.seats ?? prior?.seats ?? 0;
    byName.set(p.name, { name: p.name, weight: p.weight, seats, priority: 0 });
  }
  const heap = [...byName.values()];
  if (heap.length === 0) return [];
  for (const p of heap) p.priority = p.weight / (2 * p.seats + 1);

  const descendingNames = nameOrderForSeed(tieBreakSeed) === 'desc';
  // Karmada's heap `Less`: higher priority first; on equal priority fewer seats, then the name order.
  const before = (a: Party, b: Party): boolean => {
    if (a.priority !== b.priority) return a.priority > b.priority;
    if (a.seats !== b.seats) return a.seats < b.seats;
    return descendingNames ? a.name > b.name : a.name < b.name;
  };
  const heapify = makeHeap(heap, before);
  for (let remaining = newSeats; remaining > 0; remaining--) {
    const top = heap[0]!;
    top.seats++;
    top.priority = top.weight / (2 * top.seats + 1);
    heapify(0);
  }
  return heap
    .map(({ name, weight, seats }) => ({ name, weight, seats }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Turns `items` into a binary max-heap under `before` (a strict total order, so which party tops the
 * heap does not depend on the heap's shape) and returns the sift-down used after the top changes.
 */
function makeHeap<T>(items: T[], before: (a: T, b: T) => boolean): (index: number) => void {
  const siftDown = (start: number): void => {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < items.length && before(items[left]!, items[best]!)) best = left;
      if (right < items.length && before(items[right]!, items[best]!)) best = right;
      if (best === i) return;
      [items[i], items[best]] = [items[best]!, items[i]!];
      i = best;
    }
  };
  for (let i = Math.floor(items.length / 2) - 1; i >= 0; i--) siftDown(i);
  return siftDown;
}
