/**
 * One recall's reads of rows and stored vectors, each memory read at most once: current over stale,
 * the relevance evidence and the final hits ask for overlapping candidates (the best 10 are among
 * the 20 or 100 the preferences read). Lives for one recall only, so it never serves stale data
 * across calls.
 */
import type { Backend } from '../backend/types.js';
import type { MemoryRow } from '../store/rows.js';

/** The reads recall repeats. */
export type RecallReads = Pick<Backend, 'rowsBySeqs' | 'vectorsOf'>;

/** Wrap `src` so that each seq's row, and each (model, seq)'s vector, is fetched once. */
export function readOnce(src: RecallReads): RecallReads {
  // null: asked for and absent (deleted, or no vector of that model), so not asked again.
  const rows = new Map<number, MemoryRow | null>();
  const vectors = new Map<string, Map<number, Float32Array | null>>();
  return {
    async rowsBySeqs(seqs: number[]): Promise<Map<number, MemoryRow>> {
      const missing = seqs.filter((s) => !rows.has(s));
      if (missing.length) {
        const got = await src.rowsBySeqs(missing);
        for (const s of missing) rows.set(s, got.get(s) ?? null);
      }
      const out = new Map<number, MemoryRow>();
      for (const s of seqs) {
        const r = rows.get(s);
        if (r) out.set(s, r);
      }
      return out;
    },
    async vectorsOf(seqs: number[], model: string): Promise<Map<number, Float32Array>> {
      let known = vectors.get(model);
      if (!known) {
        known = new Map();
        vectors.set(model, known);
      }
      const missing = seqs.filter((s) => !known.has(s));
      if (missing.length) {
        const got = await src.vectorsOf(missing, model);
        for (const s of missing) known.set(s, got.get(s) ?? null);
      }
      const out = new Map<number, Float32Array>();
      for (const s of seqs) {
        const v = known.get(s);
        if (v) out.set(s, v);
      }
      return out;
    },
  };
}
