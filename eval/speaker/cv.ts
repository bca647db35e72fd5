/**
 * Offline speaker-preference study on dumps of the library's default recall (eval/speaker/dump.ts):
 * each form and strength re-ranks the dumped candidates with src/recall/speaker-preference.ts, and
 * leave-one-conversation-out cross-validation picks the strength on four conversations and scores
 * the fifth. `tsx eval/speaker/cv.ts /tmp/speaker-conversation.json [main|any|truth]`
 */
import { readFileSync } from 'node:fs';
import { namedSpeakers, preferSpeaker } from '../../src/recall/speaker-preference.js';
import type { FusedHit } from '../../src/search/fusion.js';

interface Hit {
  dias: string[];
  score: number;
  speaker: string | null;
  speakers: string[] | null;
  truth: string[];
}
interface Q {
  question: string;
  category: number;
  evidence: string[];
  hits: Hit[];
}
interface C {
  id: string;
  speakers: string[];
  questions: Q[];
}
const [file = '/tmp/speaker-conversation.json', who = 'any'] = process.argv.slice(2);
const convs = JSON.parse(readFileSync(file, 'utf8')) as C[];
type S = { r5: number; r10: number; mrr: number };
function score(ranked: Hit[], ev: string[]): S {
  const e = new Set(ev);
  const r = (k: number): number => {
    const got = new Set(ranked.slice(0, k).flatMap((h) => h.dias));
    return [...e].filter((x) => got.has(x)).length / e.size;
  };
  const f = ranked.findIndex((h) => h.dias.some((d) => e.has(d)));
  return { r5: r(5), r10: r(10), mrr: f < 0 ? 0 : 1 / (f + 1) };
}
const spk = (h: Hit): string[] =>
  who === 'truth' ? h.truth : who === 'main' ? (h.speaker ? [h.speaker] : []) : (h.speakers ?? (h.speaker ? [h.speaker] : []));
type Form = { name: string; apply: (q: Q) => Hit[] };
function mult(f: number): Form {
  return {
    name: `mult ${f}`,
    apply: (q) => {
      const fused: FusedHit[] = q.hits.map((h, i) => ({ seq: i, score: h.score }));
      const m = new Map(q.hits.map((h, i) => [i, spk(h)]));
      return preferSpeaker(fused, m, q.question, f).map((x) => q.hits[x.seq]!);
    },
  };
}
function topN(n: number): Form {
  return {
    name: `top${n} partition`,
    apply: (q) => {
      const head = q.hits.slice(0, n).map((h, i) => ({ seq: i, score: h.score }));
      const m = new Map(q.hits.slice(0, n).map((h, i) => [i, spk(h)]));
      const re = preferSpeaker(head, m, q.question, 0).map((x) => q.hits[x.seq]!);
      return [...re, ...q.hits.slice(n)];
    },
  };
}
const forms: Form[] = [mult(1), ...[0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0].map(mult), ...[5, 10, 20, 50].map(topN)];
const cats = [1, 2, 3, 4];
const catName: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
// Per form, per conversation, per question scores.
const res = forms.map((f) =>
  convs.map((c) =>
    c.questions.map((q) => ({ s: score(f.apply(q).slice(0, 50), q.evidence), cat: q.category, named: namedSpeakers(q.question, c.speakers).length })),
  ),
);
const mean = (xs: S[]): S => ({
  r5: xs.reduce((a, x) => a + x.r5, 0) / xs.length,
  r10: xs.reduce((a, x) => a + x.r10, 0) / xs.length,
  mrr: xs.reduce((a, x) => a + x.mrr, 0) / xs.length,
});
const fmt = (s: S): string => `${s.r5.toFixed(3)} / ${s.r10.toFixed(3)} / ${s.mrr.toFixed(3)}`;
const obj = (s: S): number => s.r5 + s.r10 + s.mrr;
console.log(`file ${file}, speakers from ${who}`);
const named1 = res[0]!.flat().filter((x) => x.named === 1).length;
const named2 = res[0]!.flat().filter((x) => x.named >= 2).length;
console.log(`questions ${res[0]!.flat().length}: naming one speaker ${named1}, both ${named2}`);
console.log('\n| form | all (pooled) | ' + convs.map((c) => c.id).join(' | ') + ' |');
forms.forEach((f, i) =>
  console.log(`| ${f.name} | ${fmt(mean(res[i]!.flat().map((x) => x.s)))} | ${res[i]!.map((cq) => fmt(mean(cq.map((x) => x.s)))).join(' | ')} |`),
);
console.log('\nLeave one conversation out (tuned on R@5+R@10+MRR over the 4 others):');
const cvAll: S[] = [];
const cvBase: S[] = [];
const byCat: Record<number, { b: S[]; c: S[] }> = {};
for (let k = 0; k < convs.length; k++) {
  let best = 0;
  let bestV = -1;
  forms.forEach((_f, i) => {
    const v = obj(
      mean(
        res[i]!.filter((_c, j) => j !== k)
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
  console.log(`| fold ${convs[k]!.id} | chose ${forms[best]!.name} | base ${fmt(mean(base.map((x) => x.s)))} | test ${fmt(mean(test.map((x) => x.s)))} |`);
}
console.log(`| pooled over folds | | base ${fmt(mean(cvBase))} | CV ${fmt(mean(cvAll))} |`);
for (const c of cats) console.log(`| ${catName[c]} (${byCat[c]!.b.length}) | base ${fmt(mean(byCat[c]!.b))} | CV ${fmt(mean(byCat[c]!.c))} |`);
