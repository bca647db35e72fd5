/**
 * What each default query-time preference costs on the user's path (issue 23: "fit in the budget or
 * say which and by how much"): `tsx bench/preference-cost.ts <dir of a user-path file> [size]`, on a
 * file `bench/user-path.ts <size> one ingest DIR` wrote. Each question is asked once per variant, the
 * variants in turn (paired, same process); the first ask embeds it, so every variant's timing is
 * of a question whose vector is in the in-process cache. Prints p50 / p99 per variant and the p50
 * difference to the defaults.
 */
import { join } from 'node:path';
import { openMemory, type RecallOptions } from '../src/index.js';
import { DIMS, pct, questionsOf } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';

const dir = process.argv[2]!;
const size = Number(process.argv[3] ?? 50_000);
const c = questionsOf(size, 'synthetic');
const emb = new PrecomputedEmbedder('bench-512', DIMS);
emb.add(c.queries, c.qvecs);
const mem = await openMemory({ path: join(dir, 'mnemolite.db'), embedder: emb, readonly: true });
const VARIANTS: [string, RecallOptions][] = [
  ['defaults', {}],
  ['preferCurrent off (current over stale and its look-alike guard)', { preferCurrent: false }],
  ['timePreference off', { timePreference: false }],
  ['preferSpeaker off', { preferSpeaker: false }],
  ['all three off', { preferCurrent: false, timePreference: false, preferSpeaker: false }],
  ['keyword mode, defaults', { mode: 'keyword' }],
  ['vector mode, defaults', { mode: 'vector' }],
];
const ms = VARIANTS.map(() => [] as number[]);
for (let round = 0; round < 3; round++)
  for (let i = 0; i < c.queries.length; i++) {
    await mem.recall(c.queries[i]!, {}); // embeds once, warms this question's postings
    for (let v = 0; v < VARIANTS.length; v++) {
      const t = performance.now();
      await mem.recall(c.queries[i]!, VARIANTS[v]![1]);
      ms[v]!.push(performance.now() - t);
    }
  }
await mem.close();
const base = pct(ms[0]!).p50;
const out = VARIANTS.map(([name], v) => {
  const p = pct(ms[v]!);
  return { variant: name, p50: p.p50, p99: p.p99, vsDefaults: p.p50 - base };
});
for (const r of out) process.stderr.write(`${r.variant.padEnd(66)} p50 ${r.p50.toFixed(3)}  p99 ${r.p99.toFixed(2)}  Δp50 ${r.vsDefaults.toFixed(3)} ms\n`);
process.stdout.write(`RESULT ${JSON.stringify({ size, questions: c.queries.length * 3, variants: out })}\n`);
