/**
 * The `rerank` hook: a caller's function (a cross-encoder, an LLM) reorders the best fused
 * candidates before the preferences run. It only reorders: the top N keep the fused scores they
 * had, handed out again in the new order, so time, speaker and current-over-stale preferences,
 * supersession and relevance (computed from each hit's own leg evidence) mean what they meant.
 */
import { MnemoliteError } from '../errors.js';
import type { RerankCandidate, RerankFunction } from '../types/recall.js';
import type { MemoryRow } from '../types/rows.js';
import type { FusedHit } from './fusion.js';

/** Default and largest number of candidates handed to `rerank`. */
export const DEFAULT_RERANK_TOP = 20;
export const MAX_RERANK_TOP = 200;

/** `ranked` with its first `top` candidates in the order of `fn`'s scores (highest first, ties in fused order). */
export async function rerankTop(
  ranked: FusedHit[],
  query: string,
  fn: RerankFunction,
  top: number,
  rowsOf: (seqs: number[]) => Promise<Map<number, MemoryRow>>,
): Promise<FusedHit[]> {
  const head = ranked.slice(0, top);
  if (head.length < 2) return ranked;
  const rows = await rowsOf(head.map((h) => h.seq));
  const live = head.filter((h) => rows.has(h.seq));
  const candidates: RerankCandidate[] = live.map((h) => {
    const r = rows.get(h.seq)!;
    return { id: r.id, content: r.content, score: h.score };
  });
  let scores: unknown;
  try {
    scores = await fn(query, candidates);
  } catch (err) {
    throw new MnemoliteError('RERANKER_FAILED', `The rerank function threw: ${err instanceof Error ? err.message : String(err)}`, undefined, { cause: err });
  }
  if (!Array.isArray(scores) || scores.length !== live.length || !scores.every((s) => typeof s === 'number' && Number.isFinite(s)))
    throw new MnemoliteError('RERANKER_FAILED', `The rerank function must return one finite number per candidate (${live.length}), highest first wins.`);
  const order = live.map((h, i) => ({ h, s: scores[i] as number, i })).sort((a, b) => b.s - a.s || a.i - b.i);
  const fused = live.map((h) => h.score); // already best first
  const reordered = order.map((x, k) => ({ ...x.h, score: fused[k]! }));
  return [...reordered, ...ranked.slice(top)];
}
