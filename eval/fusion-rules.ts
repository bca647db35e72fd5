/**
 * Candidate fusion rules for issue 24 ("hybrid recall must never be worse than its better leg"),
 * tried through the whole recall pipeline by `eval/ranking-cv.ts --rules FAMILY[,FAMILY] --kinds`
 * (leave one kind of data out), which installs each as `FUSION_TRIAL.adaptive`. Every rule starts
 * from the shipped adaptive fusion (src/recall/fusion.ts: min-max normalised convex combination,
 * keyword share from coverage and the vector margin, keyword weight 0.7) and changes one thing:
 *
 * - `kgap`: the keyword leg's own confidence, its best hit's relative lead over the second
 *   ((s1 − s2) / s1), raises the keyword share: `+ gain·(gap − mid)`.
 * - `vgap`: the vector leg's lead of its best over its second cosine lowers it: `− gain·(gap − mid)`.
 * - `cross`: agreement between the legs: `+ gain·(v(k1) − k(v1))`, where v(k1) is the vector leg's
 *   normalised score of the keyword leg's best hit and k(v1) the reverse.
 * - `lowcov`: a hinge below a coverage: `− gain·max(0, c − coverage)` (a keyword leg matching only
 *   incidental words of the query loses more of its share).
 * - `base`: the formula's base and the keyword weight.
 * - `krange`: the keyword normalisation's smallest range (NORMALISATION_RANGE.keyword, 0.5).
 * - `norm`: other normalisations: DBSF (mean ± 3σ as the bounds), the median candidate as the
 *   bottom of the scale (both legs, the vector leg only, the keyword leg only), and 0 as the bottom
 *   of a keyword leg shorter than the vector leg (it then holds every match).
 * - `rank`: rank-based instead of score-based: `α/(K + rank_kw) + (1 − α)/(K + rank_vec)` with the
 *   adaptive α.
 * - `agree`: a bonus `b·min(k, v)` or `b·k·v` on the two normalised scores (both legs agree).
 * - `depth`: the vector margin and the normalisation measured over the first 50 candidates (the
 *   default depth) or against a fixed rank, so that α does not depend on how many results a call
 *   asks for (`candidates` = max(50, 3 × limit)).
 * - `mrank2`, `combo`: the margin to rank 26 with the margin and coverage gains re-chosen, and with
 *   the coverage hinge.
 * - `vlift`: the vector leg's best cosine above the namespace's relevance baseline (src/recall/baseline.ts)
 *   lowers the keyword share, `− gain·((v1 − baseline) − mid)`, or replaces the median candidate as
 *   the margin's reference.
 * - `arb`: the first place only: when the legs' best hits differ and one of them is first, the one
 *   whose leg leads more is first (keyword lead (s1 − s2)/s1 against ratio × the vector lead in cosine).
 *
 * All are O(candidates) over the two lists fusion already has (no row reads). Measured in EVAL.md
 * "Fusion rules, leave one kind out"; none was kept.
 */
import { type FuseOptions, type FusedHit, type LegHit, NORMALISATION_RANGE, weighAlpha } from '../src/recall/fusion.js';

/** One candidate: the shipped rule with the named changes. */
export interface RulePoint {
  name: string;
  kgapGain?: number;
  kgapMid?: number;
  vgapGain?: number;
  vgapMid?: number;
  crossGain?: number;
  lowCovGain?: number;
  lowCov?: number;
  keywordGain?: number;
  vectorGain?: number;
  typicalMargin?: number;
  base?: number;
  keywordWeight?: number;
  keywordRange?: number;
  norm?: 'dbsf' | 'median' | 'vmedian' | 'kmedian';
  exhaustive?: boolean;
  rank?: number;
  agree?: number;
  agreeMode?: 'min' | 'prod';
  /** Median of the first this many vector candidates (default: all). */
  medianDepth?: number;
  /** Min-max bounds from the first this many candidates of each leg (lower scores clip to 0). */
  normDepth?: number;
  /** The vector margin against this rank (1-based; the last candidate when the leg is shorter). */
  marginRank?: number;
  arbitrate?: number;
  arbitrateAny?: boolean;
  /** `− liftGain·((best cosine − baseline) − liftMid)`: the vector leg's best hit above the namespace's baseline. */
  liftGain?: number;
  liftMid?: number;
  /** The margin measured from the baseline instead of the median candidate. */
  marginFromBaseline?: boolean;
}

function normalise(list: readonly LegHit[], minRange: number, p: RulePoint, leg: 'keyword' | 'vector', floorZero: boolean): Map<number, number> {
  const out = new Map<number, number>();
  if (!list.length) return out;
  let max = -Infinity,
    min = Infinity;
  for (const h of p.normDepth ? list.slice(0, p.normDepth) : list) {
    if (h.score > max) max = h.score;
    if (h.score < min) min = h.score;
  }
  if (p.norm === 'dbsf') {
    const mu = list.reduce((a, h) => a + h.score, 0) / list.length;
    const sd = Math.sqrt(list.reduce((a, h) => a + (h.score - mu) ** 2, 0) / list.length);
    min = mu - 3 * sd;
    max = Math.max(max, mu + 3 * sd);
  } else if (p.norm === 'median' || (p.norm === 'vmedian' && leg === 'vector') || (p.norm === 'kmedian' && leg === 'keyword')) {
    min = list[Math.floor(list.length / 2)]!.score;
  }
  if (floorZero) min = 0;
  min = Math.min(min, max - minRange);
  for (const h of list) out.set(h.seq, max > min ? Math.max(0, Math.min(1, (h.score - min) / (max - min))) : 1);
  return out;
}

const keywordRange = (k: readonly LegHit[], p: RulePoint): number => (p.keywordRange ?? NORMALISATION_RANGE.keyword) * Math.max(0, k[0]?.score ?? 0);

/** The keyword share before the user's and the default keyword weight. */
function alphaOf(k: readonly LegHit[], v: readonly LegHit[], o: FuseOptions, p: RulePoint): number {
  if (!k.length) return 0;
  if (!v.length) return 1;
  const ap = o.adaptive;
  const idf = o.signals.keywordIdfMass;
  const coverage = idf > 0 ? Math.min(1, k[0]!.score / idf) : 0.5;
  const scores = v.map((h) => h.score);
  const n = Math.min(scores.length, p.medianDepth ?? Infinity);
  const ref = p.marginRank ? scores[Math.min(scores.length, p.marginRank) - 1]! : scores[Math.floor(n / 2)]!;
  const margin = scores[0]! - (p.marginFromBaseline ? (o.signals.vectorBaseline ?? ref) : ref);
  let a =
    (p.base ?? ap.base) +
    (p.keywordGain ?? ap.keywordGain) * (coverage - 0.5) -
    (p.vectorGain ?? ap.vectorGain) * (margin - (p.typicalMargin ?? ap.typicalMargin));
  if (p.kgapGain) {
    const gap = k.length > 1 && k[0]!.score > 0 ? (k[0]!.score - k[1]!.score) / k[0]!.score : p.kgapMid!;
    a += p.kgapGain * (gap - p.kgapMid!);
  }
  if (p.vgapGain) a -= p.vgapGain * ((v.length > 1 ? v[0]!.score - v[1]!.score : p.vgapMid!) - p.vgapMid!);
  if (p.lowCovGain) a -= p.lowCovGain * Math.max(0, p.lowCov! - coverage);
  if (p.liftGain) a -= p.liftGain * (scores[0]! - (o.signals.vectorBaseline ?? scores[0]! - p.liftMid!) - p.liftMid!);
  if (p.crossGain) {
    const kv = normalise(v, NORMALISATION_RANGE.vector, p, 'vector', false).get(k[0]!.seq) ?? 0;
    const vk = normalise(k, keywordRange(k, p), p, 'keyword', false).get(v[0]!.seq) ?? 0;
    a += p.crossGain * (kv - vk);
  }
  return Math.min(ap.max, Math.max(ap.min, a));
}

function combine(k: readonly LegHit[], v: readonly LegHit[], alpha: number, p: RulePoint): FusedHit[] {
  const hits = new Map<number, FusedHit>();
  if (p.rank) {
    const K = p.rank;
    k.forEach((h, i) => hits.set(h.seq, { seq: h.seq, score: alpha / (K + i + 1), keywordRank: i + 1 }));
    v.forEach((h, i) => {
      const e = hits.get(h.seq);
      if (e) {
        e.score += (1 - alpha) / (K + i + 1);
        e.vectorRank = i + 1;
      } else hits.set(h.seq, { seq: h.seq, score: (1 - alpha) / (K + i + 1), vectorRank: i + 1 });
    });
  } else {
    const kn = normalise(k, keywordRange(k, p), p, 'keyword', p.exhaustive === true && k.length < v.length),
      vn = normalise(v, NORMALISATION_RANGE.vector, p, 'vector', false);
    k.forEach((h, i) => hits.set(h.seq, { seq: h.seq, score: alpha * kn.get(h.seq)!, keywordRank: i + 1 }));
    v.forEach((h, i) => {
      const s = (1 - alpha) * vn.get(h.seq)!;
      const e = hits.get(h.seq);
      if (e) {
        e.score += s;
        e.vectorRank = i + 1;
      } else hits.set(h.seq, { seq: h.seq, score: s, vectorRank: i + 1 });
    });
    if (p.agree)
      for (const h of hits.values()) {
        const a = kn.get(h.seq) ?? 0,
          b = vn.get(h.seq) ?? 0;
        h.score += p.agree * (p.agreeMode === 'prod' ? a * b : Math.min(a, b));
      }
  }
  const best = (h: FusedHit): number => Math.min(h.keywordRank ?? Infinity, h.vectorRank ?? Infinity);
  return [...hits.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || a.seq - b.seq);
}

/** The candidate as a replacement of the adaptive fusion (`FUSION_TRIAL.adaptive`). */
export function trialOf(p: RulePoint): (k: readonly LegHit[], v: readonly LegHit[], o: FuseOptions) => FusedHit[] {
  return (k, v, o) => {
    const alpha = weighAlpha(alphaOf(k, v, o, p), { keyword: o.weights.keyword * (p.keywordWeight ?? o.adaptive.keywordWeight), vector: o.weights.vector });
    const f = combine(k, v, alpha, p);
    if (
      p.arbitrate &&
      k.length > 1 &&
      v.length > 1 &&
      f.length > 1 &&
      k[0]!.seq !== v[0]!.seq &&
      (p.arbitrateAny || f[0]!.seq === k[0]!.seq || f[0]!.seq === v[0]!.seq)
    ) {
      const win = (k[0]!.score - k[1]!.score) / k[0]!.score > p.arbitrate * (v[0]!.score - v[1]!.score) ? k[0]!.seq : v[0]!.seq;
      const i = f.findIndex((h) => h.seq === win);
      if (i > 0) {
        const [h] = f.splice(i, 1);
        h!.score = f[0]!.score + 1e-9;
        f.unshift(h!);
      }
    }
    return f;
  };
}

const cross = <A, B>(as: readonly A[], bs: readonly B[]): [A, B][] => as.flatMap((a) => bs.map((b): [A, B] => [a, b]));

/** The grids, by family (each point's name says its values). */
export const FAMILIES: Record<string, RulePoint[]> = {
  kgap: cross([0.25, 0.5, 1, 2], [0.05, 0.1, 0.2]).map(([g, m]) => ({ name: `kgap ${g}@${m}`, kgapGain: g, kgapMid: m })),
  vgap: cross([1, 2, 4, 8], [0.01, 0.02, 0.04]).map(([g, m]) => ({ name: `vgap ${g}@${m}`, vgapGain: g, vgapMid: m })),
  cross: [0.1, 0.2, 0.4, 0.8].map((g) => ({ name: `cross ${g}`, crossGain: g })),
  lowcov: cross([0.5, 1, 2], [0.3, 0.4, 0.5]).map(([g, c]) => ({ name: `lowcov ${g}@${c}`, lowCovGain: g, lowCov: c })),
  base: cross([0.5, 0.6, 0.7], [0.55, 0.7, 0.85])
    .filter(([b, w]) => b !== 0.6 || w !== 0.7)
    .map(([b, w]) => ({ name: `base ${b} kw ${w}`, base: b, keywordWeight: w })),
  krange: [0.3, 0.7, 0.85, 1].map((r) => ({ name: `krange ${r}`, keywordRange: r })),
  norm: [
    { name: 'dbsf', norm: 'dbsf' },
    { name: 'median floor', norm: 'median' },
    { name: 'median floor, vector', norm: 'vmedian' },
    { name: 'median floor, keyword', norm: 'kmedian' },
    { name: 'exhaustive keyword', exhaustive: true },
  ],
  rank: [1, 3, 10, 30].map((K) => ({ name: `weighted rrf ${K}`, rank: K })),
  vlift: [
    ...cross([0.5, 1, 2], [0.1, 0.15, 0.2]).map(([g, m]) => ({ name: `vlift ${g}@${m}`, liftGain: g, liftMid: m })),
    ...cross([1, 1.5, 2], [0.1, 0.15, 0.2]).map(([g, m]) => ({
      name: `margin from baseline ${g}@${m}`,
      marginFromBaseline: true,
      vectorGain: g,
      typicalMargin: m,
    })),
  ],
  agree: cross([0.05, 0.1, 0.2, 0.4], ['min', 'prod'] as const).map(([b, m]) => ({ name: `agree ${m} ${b}`, agree: b, agreeMode: m })),
  depth: [
    { name: 'median of 50', medianDepth: 50 },
    { name: 'median of 50, norm over 50', medianDepth: 50, normDepth: 50 },
    { name: 'norm over 50', normDepth: 50 },
    ...[10, 17, 26].map((r) => ({ name: `margin to rank ${r}`, marginRank: r })),
  ],
  mrank2: cross(cross([1, 1.5, 2, 2.5], [0.5, 1]), [0.1, 0.13])
    .filter(([[vg, kg], t]) => vg !== 1.5 || kg !== 0.5 || t !== 0.13)
    .map(([[vg, kg], t]) => ({ name: `rank26 vec ${vg} cov ${kg} t ${t}`, marginRank: 26, vectorGain: vg, keywordGain: kg, typicalMargin: t })),
  combo: cross([0.5, 1], [0.4, 0.5]).map(([g, c]) => ({ name: `rank26 + lowcov ${g}@${c}`, marginRank: 26, lowCovGain: g, lowCov: c })),
  arb: cross([2, 4, 6, 10, 16], [false, true]).map(([r, any]) => ({ name: `arbitrate ${r}${any ? ' any' : ''}`, arbitrate: r, arbitrateAny: any })),
};
