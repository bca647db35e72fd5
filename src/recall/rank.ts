/**
 * Lifecycle re-ranking of recall candidates, after the legs are fused and before the cut to
 * `limit`:
 *
 * 1. importance and recency (opt-in) scale each candidate's score;
 * 2. a superseded memory is placed directly below its successor when both are candidates
 *    (always on; its score becomes the successor's, so scores stay in order);
 * 3. MMR (opt-in) picks the first `limit` results for diversity among the best
 *    max(3 × limit, 30) candidates, using the stored vectors (token overlap for memories without
 *    one); their `score` stays the relevance score.
 */
import type { RankSource } from '../backend/types.js';
import type { FusedHit } from './fusion.js';
import { dot } from '../lifecycle/dedup.js';
import { jaccard, mmrOrder, tokenSet } from './mmr.js';
import { DEFAULT_MMR_LAMBDA, type ParsedLifecycleRecall } from '../options/lifecycle.js';
import { CORE_CATEGORY, DEFAULT_RECENCY_WEIGHT, recencyFactor } from './recency.js';

/** Smallest MMR candidate pool. */
const MMR_MIN_POOL = 30;

/** Scale a score by a positive factor so that a larger factor always ranks higher (also for negative cosines). */
function scale(score: number, factor: number): number {
  const f = Math.max(factor, 1e-300);
  return score >= 0 ? score * f : score / f;
}

/** Move every superseded candidate directly below its successor when the successor is among `list`. */
export function demoteSuperseded(list: FusedHit[], successorOf: ReadonlyMap<number, number>): FusedHit[] {
  if (!successorOf.size) return list;
  const out = list.slice();
  // Bounded: cycles (only possible through hand-edited files) cannot loop forever.
  for (let moves = 0; moves < 4 * out.length + 4; moves++) {
    const pos = new Map(out.map((h, i) => [h.seq, i]));
    let moved = false;
    for (let i = 0; i < out.length; i++) {
      const s = successorOf.get(out[i]!.seq);
      const j = s === undefined ? undefined : pos.get(s);
      if (j === undefined || j < i) continue;
      const [h] = out.splice(i, 1);
      const succ = out[j - 1]!;
      out.splice(j, 0, { ...h!, score: Math.min(h!.score, succ.score) });
      moved = true;
      break;
    }
    if (!moved) break;
  }
  return out;
}

/** Apply the lifecycle re-ranking to fused candidates (best first). Returns a new list. */
export async function lifecycleRank(
  src: RankSource,
  fused: FusedHit[],
  o: ParsedLifecycleRecall,
  model: string | null,
  limit: number,
  knownSuccessors?: ReadonlyMap<number, number>,
): Promise<FusedHit[]> {
  if (!fused.length) return fused;
  const seqs = fused.map((h) => h.seq);
  const optIn = o.recency !== undefined || (o.importanceWeight ?? 0) > 0 || (o.mmr !== undefined && o.mmr !== false);
  if (!optIn) {
    const succ = knownSuccessors ?? (await src.successors(seqs));
    return succ.size ? demoteSuperseded(fused, succ) : fused;
  }
  const meta = new Map((await src.rankMeta(seqs, o.recency !== undefined)).map((r) => [r.seq, r]));

  // 1. importance and recency
  const w = o.importanceWeight ?? 0;
  const asOf = o.recency?.asOf ? Date.parse(o.recency.asOf) : Date.now();
  let list = fused
    .map((h, i) => {
      const m = meta.get(h.seq);
      let factor = 1;
      if (m && w > 0) factor *= Math.pow(0.5 + (m.importance ?? 0.5), w);
      if (m && o.recency && !m.pinned && m.category !== CORE_CATEGORY) {
        const stated = Math.max(Date.parse(m.created_at), m.changed_at ? Date.parse(m.changed_at) : -Infinity);
        factor *= recencyFactor(asOf - stated, o.recency.halfLife, o.recency.weight ?? DEFAULT_RECENCY_WEIGHT);
      }
      return { hit: factor === 1 ? h : { ...h, score: scale(h.score, factor) }, i };
    })
    .sort((a, b) => b.hit.score - a.hit.score || a.i - b.i)
    .map((x) => x.hit);

  // 2. supersession
  const successorOf = new Map<number, number>();
  for (const m of meta.values()) if (m.succ !== null) successorOf.set(m.seq, m.succ);
  list = demoteSuperseded(list, successorOf);

  // 3. MMR
  if (o.mmr !== undefined && o.mmr !== false) {
    const lambda = typeof o.mmr === 'object' ? (o.mmr.lambda ?? DEFAULT_MMR_LAMBDA) : DEFAULT_MMR_LAMBDA;
    // Candidates far down the list cannot win with any useful λ; bounding the pool keeps MMR cheap.
    const pool = list.slice(0, Math.max(3 * limit, MMR_MIN_POOL));
    const poolSeqs = pool.map((h) => h.seq);
    const vecs: (Float32Array | undefined)[] = pool.map(() => undefined);
    const at = new Map(pool.map((h, i) => [h.seq, i]));
    if (model !== null) for (const [seq, v] of await src.vectorsOf(poolSeqs, model)) vecs[at.get(seq)!] = v;
    const tokens: Set<string>[] = [];
    if (vecs.some((v) => v === undefined)) {
      for (const [seq, content] of await src.contentsOf(poolSeqs)) tokens[at.get(seq)!] = tokenSet(content);
    }
    const sim = (a: number, b: number): number => {
      const va = vecs[a],
        vb = vecs[b];
      if (va && vb) return dot(va, vb);
      return jaccard(tokens[a] ?? new Set(), tokens[b] ?? new Set());
    };
    const order = mmrOrder(
      pool.map((h) => h.score),
      sim,
      lambda,
      limit,
    );
    const picked = new Set(order);
    list = [...order.map((i) => pool[i]!), ...list.filter((_, i) => !picked.has(i))];
    list = demoteSuperseded(list, successorOf);
  }
  return list;
}
