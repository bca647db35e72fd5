/**
 * Calibrated relevance of a recall hit: a number in [0, 1] that means the same for every
 * query and every fusion method, so a caller can cut at one threshold.
 *
 * The fused score cannot do this: fusion rescales each query's candidates so the best always scores
 * 1. Relevance is computed instead from the raw evidence of the two legs for that one memory:
 *
 * - **cosine**: the memory's cosine to the query vector (read from the stored vector when the memory
 *   was not among the vector leg's candidates), counted by how far it beats the namespace's
 *   **baseline**, the best cosine questions about nothing it holds get there (src/recall/baseline.ts):
 *   what an unrelated question reaches differs by kind of memory (~0.26 among one person's facts,
 *   ~0.42 against an assistant's long answers);
 * - **terms**: the share of the query's vocabulary, weighted by rarity (idf), that the memory
 *   contains, each word once. Query words no memory contains still count, so "the capital of Peru"
 *   against chats that mention "capital" covers less than half.
 *
 * BM25 coverage and the query's best coverage are kept in the evidence but not weighed: BM25 counts a
 * common word repeated in a long memory up to 2.2 times its idf, and the query-level term lifted every
 * hit of a query whose words the store knows (unrelated memories at 0.65 to 0.99).
 *
 * A time window named by a question that says nothing else ("What happened last week?") is the match:
 * a memory inside it is relevant by that alone ({@link TIME_MATCH_RELEVANCE}), one outside it loses
 * {@link TIME_LOGIT}. When the question has a
 * topic too ("dinner at Lucia's in March"), the window moves the logit by ±{@link TIME_LOGIT}.
 *
 * The constants were chosen leaving one kind of memory out (facts, generated chats, hand-written
 * profiles, LoCoMo, LongMemEval: EVAL.md "A baseline per namespace for relevance"), with the bundled
 * model. A different embedder has a different cosine scale: check the threshold on your own data.
 */
import { dot } from '../lifecycle/dedup.js';
import type { Backend } from '../backend/types.js';
import type { RelevanceEvidence } from '../types/recall.js';
import type { FusedHit } from './fusion.js';

/** Logistic model: relevance = σ(bias + Σ w·feature). */
export interface RelevanceModel {
  bias: number;
  cosine: number;
  /** Weight of the share of the query's idf the memory contains. */
  terms: number;
  /** Weight of the query's best BM25 coverage (keyword-only recall, which has no cosine): whether the store knows the query's words at all. */
  queryCoverage: number;
  /** Weight of the namespace's baseline cosine (src/recall/baseline.ts): minus the cosine's, so a match counts by how far it beats it. */
  baseline: number;
}

/**
 * Fitted constants (EVAL.md "A baseline per namespace for relevance"): hybrid recall (both legs),
 * keyword-only recall (no query vector), vector-only recall (no keyword evidence).
 */
export const RELEVANCE_MODELS: { hybrid: RelevanceModel; keyword: RelevanceModel; vector: RelevanceModel } = {
  // σ(10·(cosine − baseline + 0.3·terms − 0.089))
  hybrid: { bias: -0.89, cosine: 10, baseline: -10, terms: 3, queryCoverage: 0 },
  // σ(10·(terms + queryCoverage − 0.56))
  keyword: { bias: -5.6, cosine: 0, baseline: 0, terms: 10, queryCoverage: 10 },
  // σ(10·(cosine − baseline − 0.082))
  vector: { bias: -0.82, cosine: 10, baseline: -10, terms: 0, queryCoverage: 0 },
};

/** Relevance of a memory inside the window of a question that names only a time ("What did we talk about last week?"). */
export const TIME_MATCH_RELEVANCE = 0.75;
/** Logit added for a memory inside the window a question names, and taken from one outside it (when the question names nothing else too). */
export const TIME_LOGIT = 1;

/**
 * The threshold the agent surfaces (MCP server, `memoryTools`, `mem.context`) use when the caller
 * gives none (EVAL.md "Relevance on memories we did not write" has what it keeps and drops per kind).
 */
export const DEFAULT_MIN_RELEVANCE = 0.5;

/**
 * The least relevance of the hit `bestMatch: true` returns when nothing reaches `minRelevance`
 * (EVAL.md "Best match, low confidence": below it the closest memory was wrong far more often than right).
 */
export const LOW_CONFIDENCE_RELEVANCE = 0.4;

/** σ(x), numerically safe. */
function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/**
 * Relevance in [0, 1] from the evidence that is available (rounded to 4 decimals for stable output).
 * `time`: whether the question names a window and whether it has a topic besides it.
 */
export function relevanceOf(e: RelevanceEvidence, time?: { topic: boolean }): number {
  const m = e.cosine === undefined ? RELEVANCE_MODELS.keyword : e.coverage === undefined ? RELEVANCE_MODELS.vector : RELEVANCE_MODELS.hybrid;
  // A store that cannot report term shares falls back to BM25 coverage.
  const t = e.terms ?? e.coverage ?? 0;
  let x = m.bias + m.cosine * (e.cosine ?? 0) + m.baseline * (e.baseline ?? 0) + m.terms * t + m.queryCoverage * (e.queryCoverage ?? 0);
  if (time && e.inWindow !== undefined) {
    // A question about nothing but the window: a memory outside it answers it less than its cosine says.
    if (!time.topic) return e.inWindow ? Math.max(TIME_MATCH_RELEVANCE, round(sigmoid(x))) : round(sigmoid(x - TIME_LOGIT));
    x += e.inWindow ? TIME_LOGIT : -TIME_LOGIT;
  }
  return round(sigmoid(x));
}

function round(r: number): number {
  return Math.round(r * 10_000) / 10_000;
}

/** What {@link evidenceFor} needs from one recall. */
export interface EvidenceInput {
  /** Keyword candidates (`bm25` lower is better), or null when the keyword leg did not run. */
  keyword: { seq: number; bm25: number }[] | null;
  /** The keyword leg's own-field candidates with the summed idf of the query terms each contains (when the store reports it). */
  matched?: readonly { seq: number; matched?: number }[];
  idfMass: number;
  /** Vector candidates with their cosine, or null when the vector leg did not run. */
  vector: { seq: number; score: number }[] | null;
  qvec: Float32Array | null;
  model: string | null;
  /** The namespace's baseline cosine (src/recall/baseline.ts), when the query has a vector. */
  baseline?: number;
}

/**
 * Raw evidence for each of `hits`. A hit missing from the vector candidates gets its cosine from its
 * stored vector; one missing from the keyword candidates gets coverage 0 (it matched no query term,
 * or matched so little that it fell below the candidate depth).
 */
export async function evidenceFor(src: Pick<Backend, 'vectorsOf'>, hits: readonly FusedHit[], e: EvidenceInput): Promise<Map<number, RelevanceEvidence>> {
  const out = new Map<number, RelevanceEvidence>();
  const bm25 = e.keyword ? new Map(e.keyword.map((h) => [h.seq, h.bm25])) : null;
  const cos = e.vector ? new Map(e.vector.map((h) => [h.seq, h.score])) : null;
  const matched = new Map<number, number>();
  for (const h of e.matched ?? []) if (h.matched !== undefined) matched.set(h.seq, h.matched);
  const missing: number[] = [];
  let best = 0;
  if (e.keyword && e.idfMass > 0) for (const h of e.keyword) best = Math.max(best, Math.min(1, -h.bm25 / e.idfMass));
  for (const h of hits) {
    const ev: RelevanceEvidence = {};
    if (bm25) {
      const b = bm25.get(h.seq);
      ev.coverage = b === undefined || !(e.idfMass > 0) ? 0 : Math.max(0, Math.min(1, -b / e.idfMass));
      ev.queryCoverage = best;
      if (e.matched) ev.terms = e.idfMass > 0 ? Math.max(0, Math.min(1, (matched.get(h.seq) ?? 0) / e.idfMass)) : 0;
    }
    if (cos && e.qvec) {
      if (e.baseline !== undefined) ev.baseline = e.baseline;
      const c = cos.get(h.seq);
      if (c === undefined) missing.push(h.seq);
      else ev.cosine = c;
    }
    out.set(h.seq, ev);
  }
  if (missing.length && e.qvec && e.model !== null) {
    const vecs = await src.vectorsOf(missing, e.model);
    // A memory without a vector of this model has no semantic evidence: cosine 0.
    for (const seq of missing) {
      const ev = out.get(seq)!;
      ev.cosine = vecs.has(seq) ? dot(vecs.get(seq)!, e.qvec) : 0;
    }
  }
  return out;
}
