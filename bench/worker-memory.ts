/**
 * Memory of the embedding workers: `tsx bench/worker-memory.ts [workers]`. The calling thread
 * loads the bundled model and embeds 640 LoCoMo turns first (its own high-water mark), then N
 * workers embed the same batches twice (the calling thread idle); the process RSS growth divided
 * by N is what one worker holds, and the second pass shows whether it keeps growing.
 */
import { LocalEmbedder } from '../src/index.js';
import { locomoCorpus } from './locomo-corpus.js';

const n = Number(process.argv[2] ?? 1);
const dir = process.argv[3] ?? '/work/shared/locomo-dev';
const { turns } = locomoCorpus(dir);
const batches: string[][] = [];
for (let i = 0; i < 640; i += 32) batches.push(turns.slice(i, i + 32));
const mb = (): number => Math.round(process.memoryUsage().rss / 1e6);

await new LocalEmbedder({ workers: 0 }).embedBatches(batches);
const base = mb();
const e = new LocalEmbedder({ workers: n, callingThreadEmbeds: false, workerThreshold: 1 });
await e.embedBatches(batches);
const first = mb();
await e.embedBatches(batches);
const second = mb();
process.stdout.write(
  `RESULT ${JSON.stringify({ workers: n, rssBaseMB: base, rssAfterFirstMB: first, rssAfterSecondMB: second, perWorkerMB: Math.round((second - base) / n), threads: e.workerStats() })}\n`,
);
await e.close();
