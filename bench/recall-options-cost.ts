/**
 * What recall's default re-ranking options cost in keyword mode, on ~50,000 real chat turns (the
 * LoCoMo dev half's 2,820 turns, 18 times over, each copy marked, keyword only):
 * `npx tsx bench/recall-options-cost.ts [locomo-dir]`. Prints the p50 in ms of 600 recalls
 * (300 LoCoMo questions, twice) with the defaults, without current-over-stale, and without
 * current-over-stale and the time preference.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory, type RecallOptions } from '../src/index.js';
import { locomoCorpus } from './locomo-corpus.js';

const dir = process.argv[2] ?? '/work/shared/locomo-dev';
const { turns, questions } = locomoCorpus(dir);
const work = mkdtempSync(join(tmpdir(), 'mnemolite-bench-options-'));
const mem = await openMemory({ path: join(work, 'm.db'), embedder: 'none' });
const items = [];
for (let r = 0; r < 18; r++) for (const t of turns) items.push({ content: `${t} (${r})`, force: true });
for (let i = 0; i < items.length; i += 5000) await mem.addMany(items.slice(i, i + 5000));
async function p50(o: RecallOptions): Promise<string> {
  const ms: number[] = [];
  for (let k = 0; k < 2; k++)
    for (const q of questions.slice(0, 300)) {
      const t = performance.now();
      await mem.recall(q, { limit: 10, mode: 'keyword', ...o });
      ms.push(performance.now() - t);
    }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)]!.toFixed(3);
}
await p50({}); // warm up
console.log(
  `${items.length} memories, keyword recall p50 ms: defaults ${await p50({})}, preferCurrent false ${await p50({ preferCurrent: false })}, and timePreference false ${await p50({ preferCurrent: false, timePreference: false })}`,
);
await mem.close();
rmSync(work, { recursive: true, force: true });
