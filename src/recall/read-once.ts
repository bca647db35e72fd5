/**
 * One recall's reads of rows and stored vectors, each memory read at most once: current over stale,
 * the relevance evidence and the final hits ask for overlapping candidates (the best 10 are among
 * the 20 or 100 the preferences read). Lives for one recall only, so it never serves stale data
 * across calls.
 */
import type { Backend } from '../backend/types.js';
import type { MemoryRow } from '../types/rows.js';

/** The reads recall repeats. */
export type RecallReads = Pick<Backend, 'rowsBySeqs' | 'vectorsOf'>;

/**
 * The values of `keys` from `known`, fetching the missing ones with `fetch` first; a key the fetch
 * does not return is remembered as absent (null: deleted, or no vector of that model) and not asked for again.
 */
async function once<V>(known: Map<number, V | null>, keys: number[], fetch: (missing: number[]) => Promise<Map<number, V>>): Promise<Map<number, V>> {
  const missing = keys.filter((k) => !known.has(k));
  if (missing.length) {
    const got = await fetch(missing);
    for (const k of missing) known.set(k, got.get(k) ?? null);
  }
  const out = new Map<number, V>();
  for (const k of keys) {
    const v = known.get(k);
    if (v) out.set(k, v);
  }
  return out;
}

/** Wrap `src` so that each seq's row, and each (model, seq)'s vector, is fetched once. */
export function readOnce(src: RecallReads): RecallReads {
  const rows = new Map<number, MemoryRow | null>();
  const vectors = new Map<string, Map<number, Float32Array | null>>();
  return {
    rowsBySeqs: (seqs) => once(rows, seqs, (m) => src.rowsBySeqs(m)),
    vectorsOf: (seqs, model) => {
      let known = vectors.get(model);
      if (!known) {
        known = new Map();
        vectors.set(model, known);
      }
      return once(known, seqs, (m) => src.vectorsOf(m, model));
    },
  };
}
