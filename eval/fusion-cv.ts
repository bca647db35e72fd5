/**
 * Choose the default fusion by cross-validation across data sets, not by fitting all of them:
 * units are the generated sets (facts, conversations) and each LoCoMo dev conversation; for each
 * unit left out, pick the candidate with the best mean (R@5 + R@10 + MRR) over the other units,
 * and report it on the one left out.
 *   tsx eval/fusion-cv.ts EVAL.json LOCOMO.json   (from `eval/run.ts --variants fusion --json` and `eval/locomo.ts --json`)
 */
import { readFileSync } from 'node:fs';

type S = { r5: number; r10: number; mrr: number };
const [evalPath = '/tmp/eval-fusion.json', locomoPath = '/tmp/locomo-ctx.json'] = process.argv.slice(2);
/** Candidate → its name in each report. */
const CANDIDATES: { name: string; gen: string; locomo: string }[] = [
  { name: 'adaptive (kw×1)', gen: 'hybrid', locomo: 'hybrid adaptive' },
  ...[0.5, 0.7, 1.4, 2].map((w) => ({ name: `adaptive kw×${w}`, gen: `hybrid adaptive kw×${w}`, locomo: `hybrid adaptive kw×${w}` })),
  ...[0.5, 0.6, 0.7].map((a) => ({ name: `convex ${a}`, gen: `hybrid convex kw=${a}`, locomo: `hybrid convex ${a}` })),
  { name: 'rrf', gen: 'hybrid rrf', locomo: 'hybrid rrf' },
];
const ev = JSON.parse(readFileSync(evalPath, 'utf8')) as { datasets: Record<string, { variants: { name: string; overall: S }[] }> };
const lo = JSON.parse(readFileSync(locomoPath, 'utf8')) as { path: string; variant: string; byConversation: Record<string, S> }[];
const units: { unit: string; score: (c: (typeof CANDIDATES)[number]) => S }[] = [];
for (const [ds, d] of Object.entries(ev.datasets)) {
  units.push({ unit: ds, score: (c) => d.variants.find((v) => v.name === c.gen)!.overall });
}
const convs = Object.keys(lo[0]!.byConversation);
for (const conv of convs) {
  units.push({ unit: `locomo ${conv}`, score: (c) => lo.find((r) => r.path === 'conversation' && r.variant === c.locomo)!.byConversation[conv]! });
}
const obj = (s: S): number => s.r5 + s.r10 + s.mrr;
const f = (x: number): string => x.toFixed(3);
console.log('| unit left out | chosen on the others | R@5 | R@10 | MRR |\n|:--|:--|--:|--:|--:|');
const wins = new Map<string, number>();
for (const held of units) {
  const train = units.filter((u) => u !== held);
  let best = CANDIDATES[0]!,
    bs = -Infinity;
  for (const c of CANDIDATES) {
    const s = train.reduce((a, u) => a + obj(u.score(c)), 0) / train.length;
    if (s > bs) {
      bs = s;
      best = c;
    }
  }
  wins.set(best.name, (wins.get(best.name) ?? 0) + 1);
  const s = held.score(best);
  console.log(`| ${held.unit} | ${best.name} | ${f(s.r5)} | ${f(s.r10)} | ${f(s.mrr)} |`);
}
console.log(`\nChosen: ${[...wins].map(([n, k]) => `${n} (${k}/${units.length} folds)`).join(', ')}.`);
console.log('\nEvery candidate on every unit (R@5 / R@10 / MRR):\n');
console.log(`| candidate | ${units.map((u) => u.unit).join(' | ')} |\n|:--|${units.map(() => '--:').join('|')}|`);
for (const c of CANDIDATES)
  console.log(
    `| ${c.name} | ${units
      .map((u) => {
        const s = u.score(c);
        return `${f(s.r5)} / ${f(s.r10)} / ${f(s.mrr)}`;
      })
      .join(' | ')} |`,
  );
