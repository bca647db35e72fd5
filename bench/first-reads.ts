/**
 * What the keyword leg's first reads of postings cost on the user's path: one process asks every
 * bench question twice, as new question texts each time (so the query-vector cache misses both
 * times), and reports the `legs` stage of each pass and how many postings each pass parsed from
 * FTS5 and read from the file's kept rows (src/search/kept-postings.ts, written when the store was
 * closed after its ingest). The first pass pays the first reads of every term, the second finds
 * them in memory (BENCHMARKS.md "The keyword leg's first reads").
 *
 *   tsx bench/first-reads.ts FILE [size = 50000]     FILE: a store built by `bench/user-path.ts <size> one ingest DIR`
 */
import { openMemory } from '../src/index.js';
import { KEYWORD_WORK } from '../src/search/keyword-index.js';
import { stageTimer } from '../src/stage-timer.js';
import { DIMS, pct, questionsOf } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';

const [path, sizeArg = '50000'] = process.argv.slice(2);
if (!path) throw new Error('usage: tsx bench/first-reads.ts FILE [size]');
const c = questionsOf(Number(sizeArg), 'synthetic');
const emb = new PrecomputedEmbedder('bench-512', DIMS);
for (const pass of [1, 2])
  emb.add(
    c.queries.map((q) => `${q} (${pass})`),
    c.qvecs,
  );
const mem = await openMemory({ path, embedder: emb, readonly: true });
// The first recall builds the in-memory index (what "open + first recall" measures): not a first read.
await mem.recall('warm up the index', { mode: 'keyword' });
let legs = 0;
stageTimer.sink = (st, ms) => {
  if (st === 'legs') legs += ms;
};
for (const pass of [1, 2]) {
  const ms: number[] = [];
  let parsed = 0,
    kept = 0,
    reading = 0;
  for (const q of c.queries) {
    const p0 = KEYWORD_WORK.parsed,
      k0 = KEYWORD_WORK.kept;
    legs = 0;
    await mem.recall(`${q} (${pass})`, {});
    ms.push(legs);
    parsed += KEYWORD_WORK.parsed - p0;
    kept += KEYWORD_WORK.kept - k0;
    if (KEYWORD_WORK.parsed > p0 || KEYWORD_WORK.kept > k0) reading++;
  }
  const p = pct(ms);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  console.log(
    `pass ${pass}: legs p50 ${p.p50.toFixed(3)} / p99 ${p.p99.toFixed(3)} / mean ${mean.toFixed(3)} ms; questions that read postings ${reading}/${ms.length}; postings parsed from FTS5 ${parsed}, read from kept rows ${kept}`,
  );
}
stageTimer.sink = null;
await mem.close();
