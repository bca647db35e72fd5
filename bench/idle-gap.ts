/**
 * The same recall, timed after different pauses: how much of a recall's time is the machine coming
 * back from a pause rather than the recall's own work. A user's recall follows a pause (the model's
 * answer, the next message, the embedder's forward pass), and bench/user-path.ts alternates each
 * recall with the recipe's 30 ms: both measure a recall after a pause. This bench asks the same
 * questions (new ones each time: the k-th rewording of the corpus questions, vectors precomputed and
 * served through the real Embedder interface and cache path, every default on) back to back, after
 * an idle pause (`setTimeout`), after a busy pause (a compute loop that touches no memory), and after
 * a pass over 128 MB of memory. Conditions take turns in blocks of 20 recalls, their order rotated
 * each round, so machine noise falls on every condition alike.
 *
 * `tsx bench/idle-gap.ts <dir> [rounds]`: `<dir>` holds a store made by
 * `tsx bench/user-path.ts <size> one ingest <dir>` (its size is read from the file); prints one
 * `RESULT {json}` line: p50 / p95 / p99 per condition and the size.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import { DIMS, pct, questionsOf } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';

const [dir, roundsArg = '10'] = process.argv.slice(2);
if (!dir) throw new Error('usage: tsx bench/idle-gap.ts <dir made by user-path.ts … ingest> [rounds]');
const path = join(dir, 'mnemolite.db');
const size = (() => {
  const db = new Database(path, { readonly: true });
  const n = db.prepare('SELECT count(*) FROM memories').pluck().get() as number;
  db.close();
  return n;
})();
const c = questionsOf(size, 'synthetic');
const REWORDINGS = 16;
const reworded = (q: string, k: number): string => (k ? `${q} (${k})` : q);
const emb = new PrecomputedEmbedder('bench-512', DIMS);
for (let k = 0; k < REWORDINGS; k++)
  emb.add(
    c.queries.map((q) => reworded(q, k)),
    c.qvecs,
  );
const mem = await openMemory({ path, embedder: emb });

const big = new Float32Array(32 * 1024 * 1024);
let sink = 0;
const idle = (ms: number) => () => new Promise<void>((r) => setTimeout(r, ms));
const busy = (ms: number) => () => {
  const t = performance.now();
  let x = 0;
  while (performance.now() - t < ms) x += Math.sqrt(x + 1);
  sink += x;
};
/** What runs before each timed recall. */
const before: Record<string, () => void | Promise<void>> = {
  backToBack: () => {},
  idle1ms: idle(1),
  idle3ms: idle(3),
  idle10ms: idle(10),
  idle30ms: idle(30),
  idle100ms: idle(100),
  busy3ms: busy(3),
  busy10ms: busy(10),
  busy30ms: busy(30),
  read128MB: () => {
    let x = 0;
    for (let j = 0; j < big.length; j += 16) x += big[j]!;
    sink += x;
  },
};
const names = Object.keys(before);
const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
// Compile the recall path first (the process's first recalls are slow for that reason alone).
for (let i = 0; i < 30; i++) await mem.recall(reworded(c.queries[i % c.queries.length]!, REWORDINGS - 1));
let asked = 0;
const rounds = Number(roundsArg);
for (let round = 0; round < rounds; round++)
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + round) % names.length]!;
    for (let j = 0; j < 20; j++) {
      const i = asked % c.queries.length;
      const k2 = Math.floor(asked / c.queries.length) % (REWORDINGS - 1);
      asked++;
      await before[name]!();
      const t = performance.now();
      await mem.recall(reworded(c.queries[i]!, k2));
      ms[name]!.push(performance.now() - t);
      // The turn a caller's next await gives: the queued cache write runs here, untimed.
      await new Promise((r) => setImmediate(r));
    }
  }
await mem.close();
if (sink < 0) console.log(sink); // keeps the pauses' loops from being optimised away
process.stdout.write(`RESULT ${JSON.stringify({ size, recallsPerCondition: rounds * 20, ...Object.fromEntries(names.map((n) => [n, pct(ms[n]!)])) })}\n`);
