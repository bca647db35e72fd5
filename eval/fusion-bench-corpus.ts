/**
 * A third check of the fusion defaults, on data they were not tuned on: the speed benchmark's
 * corpus (`bench/`), 200 questions each written about one target memory, with the bundled
 * model's vectors ("real", cached by the benchmark) and with synthetic clustered vectors (where
 * the vector leg is perfect by construction). Prints hit@10 and MRR of the target per fusion.
 *
 *   npx tsx eval/fusion-bench-corpus.ts [size=10000]   (run `npm run bench` once first for the cache)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory, LOCAL_MODEL_ID } from '../src/index.js';
import { PrecomputedEmbedder } from '../bench/precomputed.js';
import { syntheticCorpus, realCorpus, DIMS } from '../bench/data.js';
const size = Number(process.argv[2] ?? 10000);
for (const kind of ['real', 'synthetic'] as const) {
  const c = kind === 'real' ? realCorpus(size) : syntheticCorpus(size);
  if (!c) {
    console.log(`no cached ${kind} corpus of ${size}: run npm run bench first`);
    continue;
  }
  const emb = new PrecomputedEmbedder(kind === 'real' ? LOCAL_MODEL_ID : 'synthetic', DIMS);
  emb.add(c.texts, c.docs);
  emb.add(c.queries, c.qvecs);
  const dir = mkdtempSync(join(tmpdir(), 'bf-'));
  const mem = await openMemory({ path: join(dir, 'm.db'), embedder: emb });
  const ids = (await mem.addMany(c.texts.map((content) => ({ content, force: true }) as never))).map((r) => r.id);
  const variants: [string, object][] = [
    ['keyword', { mode: 'keyword' }],
    ['vector', { mode: 'vector' }],
    ['rrf', { fusion: 'rrf' }],
    ['adaptive', {}],
    ['convex .5', { fusion: 'convex' }],
    ['adaptive kw×0.5', { weights: { keyword: 0.5, vector: 1 } }],
  ];
  for (const [name, opt] of variants) {
    let hit = 0,
      mrr = 0;
    for (let i = 0; i < c.queries.length; i++) {
      const got = (await mem.recall(c.queries[i]!, { limit: 10, ...opt })).map((h) => h.id);
      const r = got.indexOf(ids[c.targets[i]!]!);
      if (r >= 0) {
        hit++;
        mrr += 1 / (r + 1);
      }
    }
    console.log(kind, size, name.padEnd(18), 'hit@10', (hit / c.queries.length).toFixed(3), 'MRR', (mrr / c.queries.length).toFixed(3));
  }
  await mem.close();
  rmSync(dir, { recursive: true, force: true });
}
