/**
 * A fixed split of the facts set's fact groups into a tuning half and a held half (issue 15):
 * rules for current-over-stale and `supersede: 'auto'` are tuned by looking at the tuning half
 * only; the held half is reported separately, so a rule fitted to the generator's templates shows
 * up as a gap between the two.
 *
 * A fact group is the oldest version of a fact: follow `supersedes` (and `duplicateOf`) back from any
 * memory. The half is a fixed hash of that id (FNV-1a, 32 bit), not a random draw, so it never moves.
 */
import type { Dataset, EvalQuery } from './gen-util.js';

export type Half = 'tune' | 'held';

/** FNV-1a of a string, 32 bit. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The half of a fact group, by its root id. */
export function halfOf(rootId: string): Half {
  return fnv1a(rootId) % 2 === 0 ? 'tune' : 'held';
}

/** Resolves a memory id to its fact group's root (oldest version, restatements folded). */
export function factRoots(ds: Dataset): (id: string) => string {
  const byId = new Map(ds.memories.map((m) => [m.id, m]));
  return (id) => {
    let g = id;
    for (let n = 0; n < 20; n++) {
      const m = byId.get(g);
      const next = m?.supersedes ?? m?.duplicateOf;
      if (!next) break;
      g = next;
    }
    return g;
  };
}

/** The half of a query: that of its first relevant memory's fact group. */
export function queryHalf(ds: Dataset): (q: EvalQuery) => Half {
  const root = factRoots(ds);
  return (q) => halfOf(root(Object.keys(q.relevant)[0] ?? q.id));
}
