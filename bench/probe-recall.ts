/**
 * Focused probe (not part of `npm run bench`): `tsx bench/probe-recall.ts [size] [rounds]` builds
 * (once) a store of `size` synthetic memories in /tmp/probe/<size>, then times opening it
 * (OPENS times, default 3) and each mode in MODES (default hybrid, keyword and vector through
 * `recall()`, and the two legs alone) over `rounds` passes of the 200 questions: p50 per round
 * and the median of those. Reusing the file makes A/B runs of two checkouts cheap and comparable.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { openMemory } from '../src/index.js';
import { syntheticCorpus, DIMS, row } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';
import { Store } from '../src/store/store.js';
import { SearchIndex } from '../src/search/search-index.js';

const size = Number(process.argv[2] ?? 50000);
const rounds = Number(process.argv[3] ?? 5);
const modes = (process.env.MODES ?? 'hybrid,keyword,vector,legk,legv').split(',');
const c = syntheticCorpus(size);
const emb = new PrecomputedEmbedder('synthetic-512', DIMS, 'bench');
emb.add(c.texts, c.docs);
emb.add(c.queries, c.qvecs);
const dir = `/tmp/probe/${size}`;
const path = `${dir}/mnemolite.db`;
if (!existsSync(path)) {
  mkdirSync(dir, { recursive: true });
  const mem = await openMemory({ path, embedder: emb });
  for (let i = 0; i < c.texts.length; i += 1000) await mem.addMany(c.texts.slice(i, i + 1000).map((content) => ({ content })));
  for (const q of c.queries) await mem.recall(q, { limit: 10 }); // fill the query cache
  await mem.close();
}
const med = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)]!;
};
const opens: number[] = [];
for (let r = 0; r < Number(process.env.OPENS ?? 3); r++) {
  const t = performance.now();
  const m = await openMemory({ path, embedder: emb });
  await m.recall(c.queries[0]!, { limit: 10 });
  opens.push(performance.now() - t);
  await m.close();
}
console.log(`open ms: ${opens.map((x) => x.toFixed(0)).join(' ')}`);
const mem = await openMemory({ path, embedder: emb });
const store = new Store(path, { readonly: true });
const leg = new SearchIndex(store, emb.id, DIMS);
const f = { namespace: 'default', activeAt: new Date().toISOString() };
const n = c.queries.length;
const run: Record<string, (i: number) => Promise<unknown> | unknown> = {
  hybrid: (i) => mem.recall(c.queries[i]!, { limit: 10 }),
  keyword: (i) => mem.recall(c.queries[i]!, { limit: 10, mode: 'keyword' }),
  vector: (i) => mem.recall(c.queries[i]!, { limit: 10, mode: 'vector' }),
  legk: (i) => leg.keyword(c.queries[i]!, 50, f),
  legv: (i) => leg.search(row(c.qvecs, i), 50, f),
};
for (const mode of modes) {
  const p50s: number[] = [];
  for (let i = 0; i < n; i++) await run[mode]!(i);
  for (let r = 0; r < rounds; r++) {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await run[mode]!(i);
      ms.push(performance.now() - t);
    }
    p50s.push(med(ms));
  }
  console.log(`${mode.padEnd(8)} p50 ${med(p50s).toFixed(3)} ms  (rounds ${p50s.map((x) => x.toFixed(3)).join(' ')})`);
}
await mem.close();
store.close();
