/**
 * Calibrated relevance of a recall hit: a number in [0, 1] that means the same for every
 * query and every fusion method, so a caller can cut at one threshold.
 *
 * The fused score cannot do this: fusion rescales each query's candidates so the best always scores
 * 1. Relevance is computed instead from the raw evidence of the two legs for that one memory:
 *
 * - **keyword coverage**: the memory's BM25 over the query's idf mass (the BM25 a memory matching
 *   every query term once would roughly score). Query words that no memory contains still count in
 *   the mass, so "the capital of Australia" against personal notes covers little even when "capital"
 *   matches somewhere.
 * - **cosine**: the memory's cosine to the query vector (read from the stored vector when the memory
 *   was not among the vector leg's candidates).
 *
 * - **query coverage**: the best coverage of any keyword candidate, the same for every hit of a
 *   query: whether the store knows the query's vocabulary at all.
 *
 * A logistic model maps these to a probability-like number. Its constants were fitted on labelled
 * hits of the eval sets (`npx tsx eval/relevance.ts`, EVAL.md "Relevance"), with the bundled model.
 * A different embedder has a different cosine scale: check the threshold on your own data.
 */
import type { Backend } from '../backend/types.js';
import type { RelevanceEvidence } from '../types/recall.js';
import type { FusedHit } from './fusion.js';

/** Logistic model: relevance = σ(bias + Σ w·feature). */
export interface RelevanceModel {
  bias: number;
  coverage: number;
  cosine: number;
  /** Weight of coverage × cosine (both legs agree). */
  both: number;
  /** Weight of the query's best coverage. */
  queryCoverage: number;
}

/**
 * Fitted constants (EVAL.md "Relevance"): one model for hybrid/vector recall (both signals), one
 * for keyword-only recall (no query vector).
 */
export const RELEVANCE_MODELS: { hybrid: RelevanceModel; keyword: RelevanceModel; vector: RelevanceModel } = {
  // σ(10·(cosine + 0.4·queryCoverage + coverage·cosine − 0.542)); refitted when keyword statistics
  // became per namespace (EVAL.md "Relevance"); before: σ(10·(cosine + 0.5·qc + 2·c·cos − 0.609))
  hybrid: { bias: -5.42, coverage: 0, cosine: 10, both: 10, queryCoverage: 4 },
  // σ(10·(0.125·coverage + queryCoverage − 0.31))
  keyword: { bias: -3.1, coverage: 1.25, cosine: 0, both: 0, queryCoverage: 10 },
  // σ(8·(cosine − 0.453)): cosine alone separates far less well (EVAL.md)
  vector: { bias: -3.625, coverage: 0, cosine: 8, both: 0, queryCoverage: 0 },
};

/**
 * The threshold the agent surfaces (MCP server, `memoryTools`, `mem.context`) use when the caller
 * gives none: measured to drop ≥ 90% of off-topic queries entirely while keeping the first relevant
 * hit of ≥ 95% of answerable ones on the eval sets (EVAL.md "Relevance").
 */
export const DEFAULT_MIN_RELEVANCE = 0.5;

/** σ(x), numerically safe. */
function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** Relevance in [0, 1] from the evidence that is available (rounded to 4 decimals for stable output). */
export function relevanceOf(e: RelevanceEvidence): number {
  const m = e.cosine === undefined ? RELEVANCE_MODELS.keyword : e.coverage === undefined ? RELEVANCE_MODELS.vector : RELEVANCE_MODELS.hybrid;
  const c = e.coverage ?? 0,
    s = e.cosine ?? 0;
  const r = sigmoid(m.bias + m.coverage * c + m.cosine * s + m.both * c * s + m.queryCoverage * (e.queryCoverage ?? 0));
  return Math.round(r * 10_000) / 10_000;
}

/** Dot product of two equal-length vectors (both unit length: the cosine). */
function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** What {@link evidenceFor} needs from one recall. */
export interface EvidenceInput {
  /** Keyword candidates (`bm25` lower is better), or null when the keyword leg did not run. */
  keyword: { seq: number; bm25: number }[] | null;
  idfMass: number;
  /** Vector candidates with their cosine, or null when the vector leg did not run. */
  vector: { seq: number; score: number }[] | null;
  qvec: Float32Array | null;
  model: string | null;
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
  const missing: number[] = [];
  let best = 0;
  if (e.keyword && e.idfMass > 0) for (const h of e.keyword) best = Math.max(best, Math.min(1, -h.bm25 / e.idfMass));
  for (const h of hits) {
    const ev: RelevanceEvidence = {};
    if (bm25) {
      const b = bm25.get(h.seq);
      ev.coverage = b === undefined || !(e.idfMass > 0) ? 0 : Math.max(0, Math.min(1, -b / e.idfMass));
      ev.queryCoverage = best;
    }
    if (cos && e.qvec) {
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
