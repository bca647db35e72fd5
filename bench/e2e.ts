/**
 * End-to-end recall at 10k with the bundled model embedding each question (no vector given):
 * `tsx bench/e2e.ts <scratch dir>`. Needs the cached model vectors (embed-real.ts).
 */
import { join } from 'node:path';
import { openMemory } from '../src/index.js';
import { LOCAL_MODEL_ID, LocalEmbedder } from '../src/embed/local.js';
import { DIMS, pct, realCorpus } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';
import { scratch } from './systems.js';

const dir = scratch(process.argv[2]!);
const c = realCorpus(10_000);
if (!c) throw new Error('run bench/embed-real.ts 10000 first');
const path = join(dir, 'e2e.db');
const pre = new PrecomputedEmbedder(LOCAL_MODEL_ID, DIMS, 'local');
pre.add(c.texts, c.docs);
let mem = await openMemory({ path, embedder: pre });
for (let i = 0; i < c.texts.length; i += 1000) await mem.addMany(c.texts.slice(i, i + 1000).map((content) => ({ content })));
await mem.close();
const local = new LocalEmbedder();
mem = await openMemory({ path, embedder: local });
await mem.recall('warm up the model and the index', { limit: 10 });
const n = Math.min(60, c.queries.length);
const ms: number[] = [];
for (let i = 0; i < n; i++) {
  const t = performance.now();
  await mem.recall(c.queries[i]!, { limit: 10 });
  ms.push(performance.now() - t);
}
// The model alone, on questions this process has not seen.
const emb: number[] = [];
for (let i = n; i < Math.min(2 * n, c.queries.length); i++) {
  const t = performance.now();
  await local.embed([c.queries[i]!]);
  emb.push(performance.now() - t);
}
await mem.close();
scratch(dir);
process.stdout.write(`RESULT ${JSON.stringify({ ...pct(ms), embedP50: pct(emb).p50, queries: n })}\n`);
