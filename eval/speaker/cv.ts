/**
 * Offline speaker-preference study on dumps of the library's default recall (eval/speaker/dump.ts):
 * each form and strength re-ranks the dumped candidates with src/recall/speaker-preference.ts, and
 * leave-one-conversation-out cross-validation picks the strength on four conversations and scores
 * the fifth. `tsx eval/speaker/cv.ts /tmp/speaker-conversation.json [main|any|truth]`
 */
import { readFileSync } from 'node:fs';
import { namedSpeakers, preferSpeaker } from '../../src/recall/speaker-preference.js';
import type { FusedHit } from '../../src/recall/fusion.js';
import { type C, type Hit, type Q, type S, fmt, leaveOneOut, mean, score } from './cv-lib.js';

const [file = '/tmp/speaker-conversation.json', who = 'any'] = process.argv.slice(2);
const convs = JSON.parse(readFileSync(file, 'utf8')) as C[];
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
// Per form, per conversation, per question scores.
const res = forms.map((f) =>
  convs.map((c) =>
    c.questions.map((q) => ({ s: score(f.apply(q).slice(0, 50), q.evidence), cat: q.category, named: namedSpeakers(q.question, c.speakers).length })),
  ),
);
const obj = (s: S): number => s.r5 + s.r10 + s.mrr;
console.log(`file ${file}, speakers from ${who}`);
const named1 = res[0]!.flat().filter((x) => x.named === 1).length;
const named2 = res[0]!.flat().filter((x) => x.named >= 2).length;
console.log(`questions ${res[0]!.flat().length}: naming one speaker ${named1}, both ${named2}`);
console.log(`\n| form | all (pooled) | ${convs.map((c) => c.id).join(' | ')} |`);
forms.forEach((f, i) =>
  console.log(`| ${f.name} | ${fmt(mean(res[i]!.flat().map((x) => x.s)))} | ${res[i]!.map((cq) => fmt(mean(cq.map((x) => x.s)))).join(' | ')} |`),
);
console.log('\nLeave one conversation out (tuned on R@5+R@10+MRR over the 4 others):');
leaveOneOut(
  res,
  forms.map((f) => f.name),
  convs.map((c) => c.id),
  obj,
);
