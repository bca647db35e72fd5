/**
 * Concurrency reader: keeps ONE Memory open for the whole run, so its in-memory search index
 * must follow other processes' writes. Loops over random visibility checks (test/workers/checks.ts)
 * until the parent writes "stop" on stdin, then sweeps every memory of the final state.
 *
 * Prints violations and errors as JSON lines; `done` carries the counts of checks made.
 * Usage: reader.ts --db PATH --seed N [--stride N: sweep every N-th memory]
 */
import { createInterface } from 'node:readline';
import { openMemory } from '../../src/index.js';
import { MODES, checkNote, checkPair, sweep, type Outcome } from './checks.js';
import { WorkerEmbedder, args, describe, emit, prng, tick } from './common.js';

const a = args();
const r = prng(Number(a.seed));
const mem = await openMemory({ path: a.db!, embedder: new WorkerEmbedder() });
await mem.recall('warm up the index', { namespace: '*', mode: 'hybrid' });

let stopping = false;
createInterface({ input: process.stdin }).on('line', (l) => {
  if (l.trim() === 'stop') stopping = true;
});
emit({ op: 'ready' });

const live = { iterations: 0, visible: 0, deleted: 0, pairPresent: 0, skipped: 0 };
const final = { visible: 0, deleted: 0, pairPresent: 0, skipped: 0 };
const tally =
  (into: Record<string, number>) =>
  (o: Outcome): void => {
    if (o.kind === 'violation') emit({ op: 'violation', what: o.what, ...o.detail });
    else into[o.kind] = (into[o.kind] ?? 0) + 1;
  };

while (!stopping) {
  live.iterations++;
  try {
    const x = r.next();
    if (x < 0.45) {
      const notes = await mem.list({ namespace: '*', metadata: { role: 'note' }, limit: 30 });
      if (notes.length) tally(live)(await checkNote(mem, r.pick(notes), r.pick(MODES)));
    } else if (x < 0.9) {
      const es = await mem.list({ namespace: '*', metadata: { role: 'e' }, limit: 30 });
      if (es.length) tally(live)(await checkPair(mem, r.pick(es), r.pick(MODES), r.next() < 0.5));
    } else {
      await mem.recall('note shared omega', { namespace: '*', mode: r.pick(MODES), limit: 20 });
      await mem.stats();
    }
  } catch (e) {
    emit({ op: 'error', ...describe(e) });
  }
  await tick();
}
try {
  await sweep(mem, tally(final), false, Number(a.stride ?? 1));
} catch (e) {
  emit({ op: 'error', ...describe(e) });
}
await mem.close();
emit({ op: 'done', live, final });
process.exit(0); // stdin is still open
