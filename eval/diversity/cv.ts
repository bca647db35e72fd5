/**
 * Offline session-diversity study on dumps of the library's default recall (eval/speaker/dump.ts,
 * preferably with RECALL_OPTS='{"preferSpeaker":false}' so the speaker factor is tuned jointly):
 * each form re-ranks the dumped candidates (speaker factor, then a per-session penalty on the k-th
 * hit from a session already above it), and leave-one-conversation-out cross-validation picks the
 * form on four conversations and scores the fifth.
 *   tsx eval/diversity/cv.ts DUMP[,DUMP…] [objective: all|r10|mrr] [only forms whose name contains this]
 * Several dumps (e.g. one per `weights.keyword`) add the fusion's keyword share to the forms; the
 * first dump with factor 0.5 and no diversity is the baseline. Results and commands: EVAL.md
 * "Session diversity, speaker factor and keyword share re-tuned on LoCoMo dev".
 */
import { readFileSync } from 'node:fs';
import { preferSpeaker } from '../../src/recall/speaker-preference.js';
import type { FusedHit } from '../../src/recall/fusion.js';
import { type C, type Hit, type Q, type S, cats, catName, fmt, leaveOneOut, mean, score } from '../speaker/cv-lib.js';

const [files = '/tmp/q3-conv-nosp.json', objective = 'all', only = ''] = process.argv.slice(2);
// Several dumps (comma-separated, e.g. one per fusion keyword weight); the first is the baseline's.
const dumps = files.split(',').map((f) => ({ file: f, convs: JSON.parse(readFileSync(f, 'utf8')) as C[] }));
const file = files;
const convs = dumps[0]!.convs;
const qIndex = new Map(convs.flatMap((c, ci) => c.questions.map((q, qi) => [q, [ci, qi] as const])));
/** The same question in dump `d`. */
const inDump = (d: number, q: Q): Q => {
  const [ci, qi] = qIndex.get(q)!;
  return dumps[d]!.convs[ci]!.questions[qi]!;
};
// The `turns` path stores no speaker metadata; the library reads the `Name: ` prefix, which is the turn's true speaker.
const spk = (h: Hit): string[] => h.speakers ?? (h.speaker ? [h.speaker] : h.truth);
const session = (h: Hit): string => h.dias[0]!.split(':')[0]!;

/** Speaker factor on the others' scores (the library's function), over the whole dumped pool. */
function speakerRank(q: Q, f: number): { h: Hit; s: number }[] {
  const fused: FusedHit[] = q.hits.map((h, i) => ({ seq: i, score: h.score }));
  const m = new Map(q.hits.map((h, i) => [i, spk(h)]));
  return preferSpeaker(fused, m, q.question, f).map((x) => ({ h: q.hits[x.seq]!, s: x.score }));
}
/** Plural / enumerating questions ("what activities", "which cities", "how many times", "both"). */
const LIST_Q =
  /\b(what|which)\s+(\w+\s+){0,2}?(\w+s)\b(?!\s+(is|was|does|did)\b)|\bhow many\b|\bboth\b|\bwhat (kind|kinds|type|types|sort|sorts) of\b|\bwhere has\b|\bwho (has|have)\b/i;
const isList = (q: string): boolean => LIST_Q.test(q);

/**
 * Greedy session diversity over the top `pool`: each step takes the candidate with the best
 * score × pen^(hits already taken from its session). `pen` 1 = no change.
 */
function diversify(list: { h: Hit; s: number }[], pen: number, pool: number, mode: 'mult' | 'cap', key: (h: Hit) => string = session): Hit[] {
  if (mode === 'mult' && pen === 1) return list.map((x) => x.h);
  const head = list.slice(0, pool);
  const out: Hit[] = [];
  const count = new Map<string, number>();
  const left = head.map((x, i) => ({ ...x, i }));
  while (left.length) {
    let bi = 0;
    let bv = -Infinity;
    for (let j = 0; j < left.length; j++) {
      const x = left[j]!;
      const k = count.get(key(x.h)) ?? 0;
      const v = mode === 'mult' ? x.s * pen ** k : k >= pen ? x.s - 1e6 : x.s;
      if (v > bv + 1e-12) [bi, bv] = [j, v];
    }
    const x = left.splice(bi, 1)[0]!;
    out.push(x.h);
    count.set(key(x.h), (count.get(key(x.h)) ?? 0) + 1);
  }
  return [...out, ...list.slice(pool).map((x) => x.h)];
}
type Form = { name: string; apply: (q: Q) => Hit[] };
const forms: Form[] = [];
const factors = [0.5, 0.4, 0.6, 0.3, 0.7];
const BOTH = /\bboth\b|\bin common\b|\band\b.*\b(both|each)\b/i;
const speakerKey = (h: Hit): string => spk(h).join('+');
for (let d = 0; d < dumps.length; d++) {
  const tag = dumps.length > 1 ? `${dumps[d]!.file.replace(/^.*\//, '')} ` : '';
  for (const f of factors) {
    const base = (q: Q): { h: Hit; s: number }[] => speakerRank(inDump(d, q), f);
    forms.push({ name: `${tag}sp ${f}`, apply: (q) => base(q).map((x) => x.h) });
    // A different factor for list questions only (their evidence is the named person's turns in several sessions).
    for (const g of [0.2, 0.3, 0.4, 0.6, 0.7])
      forms.push({ name: `${tag}sp ${f}, list-q sp ${g}`, apply: (q) => (isList(q.question) ? speakerRank(inDump(d, q), g) : base(q)).map((x) => x.h) });
    forms.push({
      name: `${tag}sp ${f} speaker-alternate on 'both' questions`,
      apply: (q) => (BOTH.test(q.question) ? diversify(base(q), 0.8, 20, 'mult', speakerKey) : base(q).map((x) => x.h)),
    });
    for (const pool of [20, 50]) {
      for (const pen of [0.95, 0.9, 0.85, 0.8, 0.7, 0.6]) {
        forms.push({ name: `${tag}sp ${f} mmr ${pen} pool ${pool}`, apply: (q) => diversify(base(q), pen, pool, 'mult') });
        forms.push({
          name: `${tag}sp ${f} mmr ${pen} pool ${pool} list-q`,
          apply: (q) => (isList(q.question) ? diversify(base(q), pen, pool, 'mult') : base(q).map((x) => x.h)),
        });
      }
      for (const cap of [1, 2, 3, 4]) {
        forms.push({ name: `${tag}sp ${f} cap ${cap} pool ${pool}`, apply: (q) => diversify(base(q), cap, pool, 'cap') });
        forms.push({
          name: `${tag}sp ${f} cap ${cap} pool ${pool} list-q`,
          apply: (q) => (isList(q.question) ? diversify(base(q), cap, pool, 'cap') : base(q).map((x) => x.h)),
        });
      }
    }
  }
}
// The fusion's keyword share per question kind: list questions (or the others) from dump d, the rest from the first dump.
for (let d = 1; d < dumps.length; d++) {
  const tag = dumps[d]!.file.replace(/^.*\//, '');
  forms.push({ name: `kind: list-q from ${tag}`, apply: (q) => speakerRank(inDump(isList(q.question) ? d : 0, q), 0.5).map((x) => x.h) });
  forms.push({ name: `kind: other-q from ${tag}`, apply: (q) => speakerRank(inDump(isList(q.question) ? 0 : d, q), 0.5).map((x) => x.h) });
}
const use = only ? forms.filter((f, i) => i === 0 || f.name.includes(only)) : forms;
const res = use.map((f) =>
  convs.map((c) => c.questions.map((q) => ({ s: score(f.apply(q).slice(0, 50), q.evidence), cat: q.category, list: isList(q.question) }))),
);
const obj = (s: S): number => (objective === 'r10' ? s.r10 : objective === 'mrr' ? s.mrr : s.r5 + s.r10 + s.mrr);
const all = res[0]!.flat();
console.log(
  `file ${file}, objective ${objective}; ${all.length} questions, ${all.filter((x) => x.list).length} look like lists (by category: ${cats.map((c) => `${catName[c]} ${all.filter((x) => x.list && x.cat === c).length}/${all.filter((x) => x.cat === c).length}`).join(', ')})`,
);
// Best 15 forms pooled, plus the baseline.
const pooled = use.map((f, i) => ({ f, i, s: mean(res[i]!.flat().map((x) => x.s)) }));
const top = [...pooled].sort((a, b) => obj(b.s) - obj(a.s)).slice(0, 15);
console.log(`\n| form (in-sample, all 5) | pooled | ${convs.map((c) => c.id).join(' | ')} | multi-hop |`);
for (const p of [pooled[0]!, ...top])
  console.log(
    `| ${p.f.name} | ${fmt(p.s)} | ${res[p.i]!.map((cq) => fmt(mean(cq.map((x) => x.s)))).join(' | ')} | ${fmt(
      mean(
        res[p.i]!.flat()
          .filter((x) => x.cat === 1)
          .map((x) => x.s),
      ),
    )} |`,
  );
console.log('\nLeave one conversation out (baseline = first form, the library default factor 0.5 with no diversity):');
leaveOneOut(
  res,
  use.map((f) => f.name),
  convs.map((c) => c.id),
  obj,
);
