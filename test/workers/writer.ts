/**
 * Concurrency writer: a bounded, seeded sequence of adds, batches, upserts of keys shared with
 * the other writers, updates, forgets and "pairs" (two memories in one category whose first one
 * is later forgotten, so readers can prove they do not see deleted memories).
 *
 * Prints one JSON line per acknowledged operation (only after the call resolved), one line per
 * error, and `done` at the end. Usage: writer.ts --db PATH --w N --ops N --seed N
 */
import { openMemory } from '../../src/index.js';
import { SHARED_KEYS, WorkerEmbedder, args, dContent, describe, eContent, emit, prng, tick } from './common.js';

const a = args();
const w = Number(a.w);
const ops = Number(a.ops);
const r = prng(Number(a.seed));
const mem = await openMemory({ path: a.db!, embedder: new WorkerEmbedder() });
emit({ op: 'ready', w });
// Start together with the readers: wait for "go" on stdin.
await new Promise<void>((res) => {
  process.stdin.on('data', (d) => {
    if (String(d).includes('go')) res();
  });
});
process.stdin.pause();

const own: string[] = []; // live notes of this writer
const pairs: { pair: string; d: string }[] = []; // pairs whose D is still alive
const ns = `team-${w % 2}`;

for (let i = 0; i < ops; i++) {
  const x = r.next();
  try {
    if (x < 0.3) {
      const content = `note w${w} i${i} ${r.word()}`;
      const res = await mem.add(content, { namespace: ns, sessionId: `s-${w}-${i}`, metadata: { role: 'note', w } });
      own.push(res.id);
      emit({ op: 'add', id: res.id, content, ns });
    } else if (x < 0.4) {
      const n = 2 + r.int(5);
      const items = Array.from({ length: n }, (_, j) => ({
        content: `note w${w} i${i} j${j} ${r.word()}`,
        namespace: ns,
        sessionId: `s-${w}-${i}-${j}`,
        metadata: { role: 'note', w },
      }));
      const res = await mem.addMany(items);
      res.forEach((x2, j) => {
        own.push(x2.id);
        emit({ op: 'add', id: x2.id, content: items[j]!.content, ns });
      });
    } else if (x < 0.55) {
      const key = `k${r.int(SHARED_KEYS)}`;
      const content = `shared w${w} i${i} ${r.word()}`;
      const res = await mem.add(content, { namespace: 'shared', key, metadata: { role: 'shared' } });
      emit({ op: 'upsert', key, id: res.id, content });
    } else if (x < 0.65 && own.length) {
      const id = r.pick(own);
      const content = `upd w${w} i${i} ${r.word()}`;
      await mem.update(id, { content });
      emit({ op: 'update', id, content });
    } else if (x < 0.75 && own.length) {
      const k = r.int(own.length);
      const id = own[k]!;
      const gone = await mem.forget(id);
      own.splice(k, 1);
      emit({ op: 'forget', id, gone });
    } else if (x < 0.87 || !pairs.length) {
      const pair = `p-${w}-${i}`;
      // Own namespace and category: some filters run in the in-memory index, some in SQL.
      const [d, e] = await mem.addMany([
        { content: dContent(pair), namespace: `pr-${pair}`, category: pair, metadata: { role: 'd', pair } },
        { content: eContent(pair), namespace: `pr-${pair}`, category: pair, metadata: { role: 'e', pair } },
      ]);
      pairs.push({ pair, d: d!.id });
      emit({ op: 'pair', pair, d: d!.id, e: e!.id });
    } else {
      const k = r.int(pairs.length);
      const p = pairs[k]!;
      const gone = await mem.forget(p.d);
      pairs.splice(k, 1);
      emit({ op: 'forget', id: p.d, gone, pair: p.pair });
    }
  } catch (e) {
    emit({ op: 'error', i, ...describe(e) });
  }
  if (i % 8 === 0) await tick();
}
await mem.close();
emit({ op: 'done', w });
process.exit(0);
