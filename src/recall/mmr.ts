/**
 * Maximal Marginal Relevance (Carbonell & Goldstein, 1998): pick, one at a time, the candidate
 * maximising `λ · relevance − (1 − λ) · max similarity to the already picked`, so near-copies of
 * a picked result fall back. Relevance is the candidate's score divided by the best score.
 */

/** Order (indices into `scores`) of the first `k` picks. */
export function mmrOrder(scores: readonly number[], sim: (a: number, b: number) => number, lambda: number, k: number): number[] {
  const n = scores.length;
  if (n === 0) return [];
  // Relevance relative to the best candidate (scale-free for RRF, BM25 and cosine scores alike).
  const top = Math.max(...scores.map(Math.abs));
  const rel = scores.map((s) => (top > 0 ? s / top : 1));
  const maxSim = new Array<number>(n).fill(-Infinity);
  const picked: number[] = [];
  const free = new Set(scores.map((_, i) => i));
  while (picked.length < Math.min(k, n)) {
    let best = -1,
      bestVal = -Infinity;
    for (const i of free) {
      const penalty = picked.length ? maxSim[i]! : 0;
      const v = lambda * rel[i]! - (1 - lambda) * penalty;
      if (v > bestVal) {
        bestVal = v;
        best = i;
      } // ties: the earlier (more relevant) candidate
    }
    picked.push(best);
    free.delete(best);
    for (const i of free) maxSim[i] = Math.max(maxSim[i]!, sim(i, best));
  }
  return picked;
}

/** Jaccard similarity of two token sets (the fallback when a candidate has no vector). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size && !b.size) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Lower-cased word tokens of a text. */
export function tokenSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []);
}
