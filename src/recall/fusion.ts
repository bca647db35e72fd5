/** One fused result with the ranks that produced it. */
export interface FusedHit {
  seq: number;
  score: number;
  keywordRank?: number;
  vectorRank?: number;
  /** Seq of the older candidate this one was moved above as its update (current over stale). */
  replaces?: number;
}

/** One leg's result: higher `score` is better (negated BM25 for keyword, cosine for vector). */
export interface LegHit {
  seq: number;
  score: number;
}

/** How the two legs are merged. */
export type FusionMethod = 'adaptive' | 'convex' | 'rrf';

/** Relative weight of each leg (any non-negative numbers; only their ratio matters). */
export interface LegWeights {
  keyword: number;
  vector: number;
}

/**
 * Constants of the query-adaptive fusion. The keyword weight of a query is
 * `base + keywordGain·(coverage − 0.5) − vectorGain·(margin − typicalMargin)`, clamped to
 * [`min`, `max`], where `coverage` is the best keyword hit's BM25 over the query's total idf
 * (how much of the query's rare vocabulary one memory matches) and `margin` is the vector leg's
 * best cosine minus its median candidate (how much the best vector hit stands out).
 */
export interface AdaptiveParams {
  base: number;
  keywordGain: number;
  vectorGain: number;
  /** The vector margin that counts as ordinary for this embedder. */
  typicalMargin: number;
  min: number;
  max: number;
  /**
   * Keyword weight applied to the formula's share, as a `weights.keyword` of this value would
   * (chosen by cross-validation across the generated sets and real chats: EVAL.md).
   */
  keywordWeight: number;
}

/**
 * Defaults measured on the quality benchmark (EVAL.md) with the bundled model; `vectorGain` chosen
 * leaving one kind of data out (LoCoMo, LongMemEval, the generated sets: EVAL.md "Fusion and context
 * on user–assistant chats"). The margin scale
 * is the bundled model's; a stronger vector leg (larger margins) simply earns more weight, which
 * is what the benchmark's synthetic-vector check shows (BENCHMARKS.md).
 */
export const ADAPTIVE_DEFAULTS: AdaptiveParams = { base: 0.6, keywordGain: 0.5, vectorGain: 1.5, typicalMargin: 0.13, min: 0.1, max: 0.95, keywordWeight: 0.7 };

/** Per-query evidence the adaptive fusion reads (computed by the legs). */
export interface LegSignals {
  /** Sum of the idf of the query's terms (as BM25 counts them); 0 when unknown. */
  keywordIdfMass: number;
  /** The namespace's relevance baseline (src/recall/baseline.ts), when the query has a vector: read by candidate rules (eval/fusion-rules.ts `vlift`), not by the shipped fusion. */
  vectorBaseline?: number;
}

/**
 * Reciprocal Rank Fusion: `score = Σ w / (k + rank)` over the legs a result appears in
 * (ranks are 1-based, `w` the leg's weight, 1 by default). Ties are broken by the better
 * single-leg rank, then by seq, so the order is deterministic.
 */
export function rrf(keyword: readonly number[], vector: readonly number[], k = 60, weights: LegWeights = { keyword: 1, vector: 1 }): FusedHit[] {
  const hits = new Map<number, FusedHit>();
  keyword.forEach((seq, i) => {
    hits.set(seq, { seq, score: weights.keyword / (k + i + 1), keywordRank: i + 1 });
  });
  vector.forEach((seq, i) => {
    const h = hits.get(seq);
    const s = weights.vector / (k + i + 1);
    if (h) {
      h.score += s;
      h.vectorRank = i + 1;
    } else {
      hits.set(seq, { seq, score: s, vectorRank: i + 1 });
    }
  });
  return sortFused([...hits.values()]);
}

function sortFused(hits: FusedHit[]): FusedHit[] {
  const best = (h: FusedHit): number => Math.min(h.keywordRank ?? Infinity, h.vectorRank ?? Infinity);
  return hits.sort((a, b) => b.score - a.score || best(a) - best(b) || a.seq - b.seq);
}

/**
 * The smallest score range each leg's normalisation spans. Min-max over a handful of candidates
 * spreads two near-identical matches over the whole scale (1.0 and 0.0 when the keyword leg has two
 * candidates), so a soft preference (time window, speaker) halving one of them could never let the
 * other win. The range is therefore at least `keyword` × the best keyword score (the bottom of the
 * scale never above half the best BM25) and `vector` in cosine. Over the usual 50 candidates both
 * floors rarely bind (EVAL.md "Fusion scale").
 */
export const NORMALISATION_RANGE = { keyword: 0.5, vector: 0.15 };

/** Normalise a leg's scores (best first) to [0, 1], best = 1, over a range of at least `minRange`. */
function minMax(list: readonly LegHit[], minRange: number): Map<number, number> {
  const out = new Map<number, number>();
  if (!list.length) return out;
  let max = -Infinity,
    min = Infinity;
  for (const h of list) {
    if (h.score > max) max = h.score;
    if (h.score < min) min = h.score;
  }
  min = Math.min(min, max - minRange);
  for (const h of list) out.set(h.seq, max > min ? (h.score - min) / (max - min) : 1);
  return out;
}

/**
 * Convex combination of normalised scores, `α·keyword + (1 − α)·vector` (Bruch, Gai & Ingber, "An
 * Analysis of Fusion Functions for Hybrid Retrieval", TOIS 2023): min-max over each leg's candidates,
 * over at least {@link NORMALISATION_RANGE}. A memory missing from a leg scores 0 there.
 */
export function convex(keyword: readonly LegHit[], vector: readonly LegHit[], alpha: number): FusedHit[] {
  const k = minMax(keyword, NORMALISATION_RANGE.keyword * Math.max(0, keyword[0]?.score ?? 0)),
    v = minMax(vector, NORMALISATION_RANGE.vector);
  const hits = new Map<number, FusedHit>();
  keyword.forEach((h, i) => hits.set(h.seq, { seq: h.seq, score: alpha * k.get(h.seq)!, keywordRank: i + 1 }));
  vector.forEach((h, i) => {
    const s = (1 - alpha) * v.get(h.seq)!;
    const e = hits.get(h.seq);
    if (e) {
      e.score += s;
      e.vectorRank = i + 1;
    } else hits.set(h.seq, { seq: h.seq, score: s, vectorRank: i + 1 });
  });
  return sortFused([...hits.values()]);
}

/**
 * The keyword weight α for one query: how decisive each leg is. A leg with no candidates gets no
 * weight, so the other leg's order comes through unchanged.
 */
export function adaptiveAlpha(keyword: readonly LegHit[], vector: readonly LegHit[], signals: LegSignals, p: AdaptiveParams): number {
  if (!keyword.length) return 0;
  if (!vector.length) return 1;
  const coverage = signals.keywordIdfMass > 0 ? Math.min(1, keyword[0]!.score / signals.keywordIdfMass) : 0.5;
  const scores = vector.map((h) => h.score);
  const median = scores[Math.floor(scores.length / 2)]!;
  const margin = scores[0]! - median;
  const a = p.base + p.keywordGain * (coverage - 0.5) - p.vectorGain * (margin - p.typicalMargin);
  return Math.min(p.max, Math.max(p.min, a));
}

/** Apply user weights to a keyword share α: α' = α·wk / (α·wk + (1 − α)·wv). */
export function weighAlpha(alpha: number, w: LegWeights): number {
  const k = alpha * w.keyword,
    v = (1 - alpha) * w.vector;
  return k + v > 0 ? k / (k + v) : 0.5;
}

/** Options for {@link fuse}. */
export interface FuseOptions {
  method: FusionMethod;
  weights: LegWeights;
  rrfK: number;
  adaptive: AdaptiveParams;
  signals: LegSignals;
}

/**
 * Evaluation seam, not public API: while `adaptive` is set, the adaptive method calls it instead,
 * so eval/fusion-rules.ts can try a candidate rule through the whole recall pipeline of both
 * stores (the other constants of this file are set the same way by eval/ranking-cv.ts). Unset in
 * the library; one property read per recall.
 */
export const FUSION_TRIAL: { adaptive?: (keyword: readonly LegHit[], vector: readonly LegHit[], o: FuseOptions) => FusedHit[] } = {};

/** Merge the two legs (each best first) with the chosen method. */
export function fuse(keyword: readonly LegHit[], vector: readonly LegHit[], o: FuseOptions): FusedHit[] {
  if (o.method === 'adaptive' && FUSION_TRIAL.adaptive) return FUSION_TRIAL.adaptive(keyword, vector, o);
  switch (o.method) {
    case 'rrf':
      return rrf(
        keyword.map((h) => h.seq),
        vector.map((h) => h.seq),
        o.rrfK,
        o.weights,
      );
    case 'convex':
      return convex(keyword, vector, weighAlpha(0.5, o.weights));
    case 'adaptive':
      return convex(
        keyword,
        vector,
        weighAlpha(adaptiveAlpha(keyword, vector, o.signals, o.adaptive), { keyword: o.weights.keyword * o.adaptive.keywordWeight, vector: o.weights.vector }),
      );
  }
}
