/**
 * Retrieval metrics for the quality benchmark.
 *
 * Relevance is graded (2 = answers the query, 1 = partly). Near-duplicates count as one
 * answer: ids are mapped to a group (a memory and its restatements share one), the first hit
 * of a group counts and later hits of the same group earn nothing. So returning five copies of
 * one fact is not rewarded, and collapsing duplicates (dedup, MMR) is not punished.
 *
 * Self-check: `npx tsx eval/metrics.ts` (asserts on hand-computed cases).
 */

export interface Scores {
  /** Fraction of relevant groups in the top 5. */
  r5: number;
  /** Fraction of relevant groups in the top 10. */
  r10: number;
  /** 1 / rank of the first relevant hit within the top 10 (0 if none). */
  mrr: number;
  /** NDCG@10 with gain 2^grade - 1 and log2 discount. */
  ndcg10: number;
}

export const METRICS: (keyof Scores)[] = ['r5', 'r10', 'mrr', 'ndcg10'];
export const METRIC_LABEL: Record<keyof Scores, string> = { r5: 'R@5', r10: 'R@10', mrr: 'MRR', ndcg10: 'NDCG@10' };

/**
 * Score one ranked list.
 * @param ranked  ids in rank order (best first); may contain ids of irrelevant memories.
 * @param relevant  id -> grade (> 0).
 * @param groupOf  id -> group id (identity when there are no duplicates).
 */
export function score(ranked: readonly string[], relevant: Readonly<Record<string, number>>, groupOf: (id: string) => string = (x) => x): Scores {
  const groupGrade = new Map<string, number>();
  for (const [id, g] of Object.entries(relevant)) {
    if (g <= 0) continue;
    const grp = groupOf(id);
    groupGrade.set(grp, Math.max(groupGrade.get(grp) ?? 0, g));
  }
  const total = groupGrade.size;
  if (!total) throw new Error('score: no relevant item');
  const seen = new Set<string>();
  let found5 = 0,
    found10 = 0,
    mrr = 0,
    dcg = 0;
  const top = ranked.slice(0, 10);
  top.forEach((id, i) => {
    const grp = groupOf(id);
    const g = groupGrade.get(grp);
    if (g === undefined || seen.has(grp)) return;
    seen.add(grp);
    if (i < 5) found5++;
    found10++;
    if (!mrr) mrr = 1 / (i + 1);
    dcg += (2 ** g - 1) / Math.log2(i + 2);
  });
  const ideal = [...groupGrade.values()].sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  return { r5: found5 / total, r10: found10 / total, mrr, ndcg10: dcg / idcg };
}

/** Mean of each metric. */
export function mean(xs: readonly Scores[]): Scores {
  const n = xs.length || 1;
  const out: Scores = { r5: 0, r10: 0, mrr: 0, ndcg10: 0 };
  for (const x of xs) for (const m of METRICS) out[m] += x[m];
  for (const m of METRICS) out[m] /= n;
  return out;
}

/** 1-based rank of the first id in `ids` found in `ranked` (top 10 only), or Infinity. */
export function firstRank(ranked: readonly string[], ids: Iterable<string>, groupOf: (id: string) => string = (x) => x): number {
  const want = new Set([...ids].map(groupOf));
  const i = ranked.slice(0, 10).findIndex((id) => want.has(groupOf(id)));
  return i < 0 ? Infinity : i + 1;
}

// ---- self-check ------------------------------------------------------------------------

function near(a: number, b: number, what: string): void {
  if (Math.abs(a - b) > 1e-9) throw new Error(`${what}: got ${a}, expected ${b}`);
}

export function selfCheck(): void {
  // One relevant item at rank 3.
  let s = score(['x', 'y', 'a', 'z'], { a: 2 });
  near(s.r5, 1, 'r5 single');
  near(s.r10, 1, 'r10 single');
  near(s.mrr, 1 / 3, 'mrr single');
  near(s.ndcg10, 3 / Math.log2(4) / 3, 'ndcg single');
  // Two relevant, one at rank 7 and one missing.
  s = score(['1', '2', '3', '4', '5', '6', 'b', '8'], { a: 2, b: 1 });
  near(s.r5, 0, 'r5 two');
  near(s.r10, 0.5, 'r10 two');
  near(s.mrr, 1 / 7, 'mrr two');
  near(s.ndcg10, 1 / Math.log2(8) / (3 / Math.log2(2) + 1 / Math.log2(3)), 'ndcg two');
  // Nothing found.
  s = score(['1', '2'], { a: 2 });
  near(s.r10 + s.mrr + s.ndcg10, 0, 'miss');
  // Beyond rank 10 does not count.
  s = score(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'a'], { a: 2 });
  near(s.r10, 0, 'rank 11');
  // Duplicates: a and a2 form one group; two copies count once, and the ideal has one item.
  const grp = (id: string): string => (id === 'a2' ? 'a' : id);
  s = score(['a2', 'a', 'x'], { a: 2, a2: 2 }, grp);
  near(s.r5, 1, 'dup r5');
  near(s.mrr, 1, 'dup mrr');
  near(s.ndcg10, 1, 'dup ndcg');
  s = score(['x', 'a', 'a2', 'b'], { a: 2, a2: 2, b: 2 }, grp);
  near(s.r5, 1, 'dup r5 two groups');
  near(s.ndcg10, (3 / Math.log2(3) + 3 / Math.log2(5)) / (3 + 3 / Math.log2(3)), 'dup ndcg two groups');
  // Mean.
  const m = mean([
    { r5: 1, r10: 1, mrr: 1, ndcg10: 1 },
    { r5: 0, r10: 0.5, mrr: 0, ndcg10: 0 },
  ]);
  near(m.r10, 0.75, 'mean');
  near(firstRank(['x', 'a2'], ['a'], grp), 2, 'firstRank');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  selfCheck();
  console.log('metrics self-check passed');
}
