/**
 * Lifecycle re-ranking of recall candidates, after the legs are fused and before the cut to
 * `limit`:
 *
 * 1. importance and recency (opt-in) scale each candidate's score;
 * 2. a superseded memory is placed directly below its successor when both are candidates
 *    (always on; its score becomes the successor's, so scores stay in order);
 * 3. MMR (opt-in) picks the first min(limit, 100) results for diversity among the best
 *    max(3 × picks, 30) candidates, using the stored vectors (token overlap of their first 1,000
 *    distinct words for memories without one); their `score` stays the relevance score.
 */
import type { RankSource } from '../backend/types.js';
import type { FusedHit } from './fusion.js';
import { dot } from '../lifecycle/dedup.js';
import { jaccardSorted, mmrOrder, numberedTokenSets, tokenSet } from './mmr.js';
import { DEFAULT_MMR_LAMBDA, type ParsedLifecycleRecall } from '../options/lifecycle.js';
import { CORE_CATEGORY, DEFAULT_RECENCY_WEIGHT, recencyFactor } from './recency.js';

/** Smallest MMR candidate pool. */
const MMR_MIN_POOL = 30;
/**
 * Results MMR picks for diversity; past them the list stays in relevance order. Each pick compares
 * every candidate left with the last pick, so picks × pool bounds the work: 100 × 300 pairs, where
 * `limit: 1000` over a pool of 3,000 took 48 s of blocked event loop.
 */
export const MMR_MAX_PICKS = 100;
/** Largest MMR candidate pool (3 × the picks). */
export const MMR_MAX_POOL = 3 * MMR_MAX_PICKS;

/** Scale a score by a positive factor so that a larger factor always ranks higher (also for negative cosines). */
function scale(score: number, factor: number): number {
  const f = Math.max(factor, 1e-300);
  return score >= 0 ? score * f : score / f;
}

/**
 * Move every superseded candidate directly below its successor when the successor is among `list`:
 * repeatedly, the topmost candidate whose successor stands below it moves to just below that
 * successor (taking the lower of the two scores), until none does (at most 4n + 4 moves: cycles
 * exist only in hand-edited files). Positions live in typed arrays and, after a move, the search
 * resumes at the move's row (or at a predecessor of the moved candidate above it, the only rows
 * above that a move can unsettle): a chain of 2,000 superseded candidates cost 0.7 s when every
 * move rebuilt a position map and rescanned from the top.
 */
export function demoteSuperseded(list: FusedHit[], successorOf: ReadonlyMap<number, number>): FusedHit[] {
  if (!successorOf.size) return list;
  const n = list.length;
  const hits = list.slice();
  const index = new Map(hits.map((h, i) => [h.seq, i]));
  const succ = new Int32Array(n).fill(-1);
  const preds: number[][] = [];
  for (let i = 0; i < n; i++) {
    const s = successorOf.get(hits[i]!.seq);
    const j = s === undefined ? undefined : index.get(s);
    if (j === undefined || j === i) continue;
    succ[i] = j;
    const p = preds[j];
    if (p) p.push(i);
    else preds[j] = [i];
  }
  const ord = Int32Array.from({ length: n }, (_, i) => i);
  const pos = Int32Array.from({ length: n }, (_, i) => i);
  let from = 0;
  for (let moves = 0; moves < 4 * n + 4; moves++) {
    let i = from;
    while (i < n && !(succ[ord[i]!]! >= 0 && pos[succ[ord[i]!]!]! > i)) i++;
    if (i === n) break;
    const id = ord[i]!;
    const s = succ[id]!;
    const j = pos[s]!;
    for (let k = i; k < j; k++) {
      ord[k] = ord[k + 1]!;
      pos[ord[k]!] = k;
    }
    ord[j] = id;
    pos[id] = j;
    hits[id] = { ...hits[id]!, score: Math.min(hits[id]!.score, hits[s]!.score) };
    from = i;
    for (const p of preds[id] ?? []) if (pos[p]! < from) from = pos[p]!;
  }
  return Array.from(ord, (id) => hits[id]!);
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
      if (m && w > 0) factor *= (0.5 + (m.importance ?? 0.5)) ** w;
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
    const picks = Math.min(limit, MMR_MAX_PICKS);
    const pool = list.slice(0, Math.min(Math.max(3 * picks, MMR_MIN_POOL), MMR_MAX_POOL));
    const poolSeqs = pool.map((h) => h.seq);
    const vecs: (Float32Array | undefined)[] = pool.map(() => undefined);
    const at = new Map(pool.map((h, i) => [h.seq, i]));
    if (model !== null) for (const [seq, v] of await src.vectorsOf(poolSeqs, model)) vecs[at.get(seq)!] = v;
    const sets: (Set<string> | undefined)[] = pool.map(() => undefined);
    if (vecs.some((v) => v === undefined)) {
      for (const [seq, content] of await src.contentsOf(poolSeqs)) sets[at.get(seq)!] = tokenSet(content);
    }
    const tokens = numberedTokenSets(sets);
    const none = new Int32Array(0);
    const sim = (a: number, b: number): number => {
      const va = vecs[a],
        vb = vecs[b];
      if (va && vb) return dot(va, vb);
      return jaccardSorted(tokens[a] ?? none, tokens[b] ?? none);
    };
    const order = mmrOrder(
      pool.map((h) => h.score),
      sim,
      lambda,
      picks,
    );
    const picked = new Set(order);
    list = [...order.map((i) => pool[i]!), ...list.filter((_, i) => !picked.has(i))];
    list = demoteSuperseded(list, successorOf);
  }
  return list;
}
