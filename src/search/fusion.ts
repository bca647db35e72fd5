/** One fused result with the ranks that produced it. */
export interface FusedHit {
  seq: number;
  score: number;
  keywordRank?: number;
  vectorRank?: number;
}

/**
 * Reciprocal Rank Fusion: `score = Σ 1 / (k + rank)` over the legs a result appears in
 * (ranks are 1-based). Ties are broken by the better single-leg rank, then by seq, so the
 * order is deterministic.
 */
export function rrf(keyword: readonly number[], vector: readonly number[], k = 60): FusedHit[] {
  const hits = new Map<number, FusedHit>();
  keyword.forEach((seq, i) => {
    hits.set(seq, { seq, score: 1 / (k + i + 1), keywordRank: i + 1 });
  });
  vector.forEach((seq, i) => {
    const h = hits.get(seq);
    const s = 1 / (k + i + 1);
    if (h) {
      h.score += s;
      h.vectorRank = i + 1;
    } else {
      hits.set(seq, { seq, score: s, vectorRank: i + 1 });
    }
  });
  const best = (h: FusedHit): number => Math.min(h.keywordRank ?? Infinity, h.vectorRank ?? Infinity);
  return [...hits.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || a.seq - b.seq);
}
