/**
 * What the offline LoCoMo re-ranking studies share (eval/speaker/cv.ts, eval/diversity/cv.ts): the
 * shape of a dump from eval/speaker/dump.ts, the metrics of one ranking, and leave-one-conversation-out
 * cross-validation over a list of forms.
 */

export interface Hit {
  dias: string[];
  score: number;
  speaker: string | null;
  speakers: string[] | null;
  truth: string[];
}
export interface Q {
  question: string;
  category: number;
  evidence: string[];
  hits: Hit[];
}
export interface C {
  id: string;
  speakers: string[];
  questions: Q[];
}
/** R@5, R@10, MRR of one question. */
export type S = { r5: number; r10: number; mrr: number };

export const cats = [1, 2, 3, 4];
export const catName: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

/** The metrics of one ranking against a question's evidence turns. */
export function score(ranked: Hit[], ev: string[]): S {
  const e = new Set(ev);
  const r = (k: number): number => {
    const got = new Set(ranked.slice(0, k).flatMap((h) => h.dias));
    return [...e].filter((x) => got.has(x)).length / e.size;
  };
  const f = ranked.findIndex((h) => h.dias.some((d) => e.has(d)));
  return { r5: r(5), r10: r(10), mrr: f < 0 ? 0 : 1 / (f + 1) };
}

export const mean = (xs: S[]): S => ({
  r5: xs.reduce((a, x) => a + x.r5, 0) / xs.length,
  r10: xs.reduce((a, x) => a + x.r10, 0) / xs.length,
  mrr: xs.reduce((a, x) => a + x.mrr, 0) / xs.length,
});
export const fmt = (s: S): string => `${s.r5.toFixed(3)} / ${s.r10.toFixed(3)} / ${s.mrr.toFixed(3)}`;

/**
 * Leave one conversation out: for each conversation, the form (index into `res`) with the best
 * `obj` on the others is scored on it; `res[form][conversation]` holds per-question scores and
 * categories, and form 0 is the baseline. Prints one line per fold, the pooled result and each category.
 */
export function leaveOneOut(res: { s: S; cat: number }[][][], formNames: string[], convIds: string[], obj: (s: S) => number): void {
  const cvAll: S[] = [];
  const cvBase: S[] = [];
  const byCat: Record<number, { b: S[]; c: S[] }> = {};
  for (let k = 0; k < convIds.length; k++) {
    let best = 0;
    let bestV = -1;
    res.forEach((r, i) => {
      const v = obj(
        mean(
          r
            .filter((_c, j) => j !== k)
            .flat()
            .map((x) => x.s),
        ),
      );
      if (v > bestV + 1e-12) [best, bestV] = [i, v];
    });
    const test = res[best]![k]!;
    const base = res[0]![k]!;
    cvAll.push(...test.map((x) => x.s));
    cvBase.push(...base.map((x) => x.s));
    for (const c of cats) {
      byCat[c] ??= { b: [], c: [] };
      byCat[c]!.b.push(...base.filter((x) => x.cat === c).map((x) => x.s));
      byCat[c]!.c.push(...test.filter((x) => x.cat === c).map((x) => x.s));
    }
    const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
    const mb = mean(base.map((x) => x.s));
    const mt = mean(test.map((x) => x.s));
    console.log(
      `| fold ${convIds[k]} | chose ${formNames[best]} | base ${fmt(mb)} | test ${fmt(mt)} | ${signed(mt.r10 - mb.r10)} R@10, ${signed(mt.mrr - mb.mrr)} MRR |`,
    );
  }
  console.log(`| pooled over folds | | base ${fmt(mean(cvBase))} | CV ${fmt(mean(cvAll))} |`);
  for (const c of cats) console.log(`| ${catName[c]} (${byCat[c]!.b.length}) | base ${fmt(mean(byCat[c]!.b))} | CV ${fmt(mean(byCat[c]!.c))} |`);
}
