/**
 * Scratch grid for the keyword leg's session evidence and the fusion on LongMemEval (one half) and
 * LoCoMo dev, through the public API with the library's constants set in this process.
 *   npx tsx eval/session-shape.ts --lme-db FILE --locomo-db DIR [--half tune|check] [--points JSON]
 */
import { join } from 'node:path';
import { LocalEmbedder } from '../src/embed/local.js';
import { KEYWORD_EVIDENCE } from '../src/recall/context-evidence.js';
import type { RecallOptions } from '../src/types/memory.js';
import { CachingEmbedder } from './embed-cache.js';
import { defaultLocomoDir, runLocomo } from './locomo.js';
import { defaultLmeDir, lmeHalf, loadLme, newerAbove, openLme, scoreLme } from './longmemeval.js';

const here = new URL('.', import.meta.url).pathname;
const arg = (n: string): string | undefined => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
type S = { r5: number; r10: number; mrr: number };
const mean = (xs: readonly S[]): S => ({
  r5: xs.reduce((a, x) => a + x.r5, 0) / xs.length,
  r10: xs.reduce((a, x) => a + x.r10, 0) / xs.length,
  mrr: xs.reduce((a, x) => a + x.mrr, 0) / xs.length,
});
const f3 = (s: S): string => `${s.r5.toFixed(3)} / ${s.r10.toFixed(3)} / ${s.mrr.toFixed(3)}`;

const embedder = new CachingEmbedder(new LocalEmbedder({ workers: 0 }), join(here, '..', 'bench', '.cache', 'eval'));
const half = arg('--half') ?? 'tune';
const all = loadLme(defaultLmeDir());
const lme = arg('--lme-db') ? await openLme(all, embedder, arg('--lme-db')!, () => {}) : null;
const qs = all.filter((q) => !q.abstention && lmeHalf(q.id) === half);
const points = JSON.parse(arg('--points') ?? '[{}]') as Record<string, number>[];
const modes: [string, RecallOptions][] = [
  ['keyword', { mode: 'keyword' }],
  ['hybrid', {}],
  ['rrf', { fusion: 'rrf' }],
];
const base = { ...KEYWORD_EVIDENCE };
for (const p of points) {
  Object.assign(KEYWORD_EVIDENCE, base, p);
  const line: string[] = [JSON.stringify(p)];
  for (const [name, o] of lme ? modes : []) {
    const { mem, maps } = lme!;
    const xs: S[] = [];
    let ku = 0,
      kn = 0;
    for (const q of qs) {
      const hits = await mem.recall(q.question, { namespace: q.id, limit: 50, now: q.date, ...o });
      const ranked = hits.map((h) => maps.get(q.id)!.get(h.id) ?? []);
      xs.push(scoreLme(ranked, q).turn);
      if (q.type === 'knowledge-update') {
        kn++;
        if (newerAbove(ranked, q)) ku++;
      }
    }
    line.push(`lme ${name} ${f3(mean(xs))}${name !== 'keyword' ? ` ku ${ku}/${kn}` : ''}`);
  }
  if (arg('--locomo-db')) {
    const rs = await runLocomo(defaultLocomoDir(), [{ name: 'k', recall: { mode: 'keyword' } }, { name: 'h', recall: {} }], ['conversation'], embedder, () => {}, arg('--locomo-db'));
    line.push(`locomo keyword ${f3(rs[0]!.overall)} hybrid ${f3(rs[1]!.overall)}`);
  }
  console.log(line.join(' | '));
}
await lme?.mem.close();
