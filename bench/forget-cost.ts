/**
 * What forget's erasure costs on a big file: ~50,000 real chat turns (the LoCoMo dev half's turns,
 * 18 times over, as sessions with conversational context, keyword only), then 200 forgets of
 * random turns through the library (secure_delete, FTS5 secure-delete, the next turns' contexts
 * rewritten, WAL truncated), against a plain DELETE of each on a copy of the same file with both
 * secure deletes off (what forget did before), alternating, in the same run; and 200 key upserts
 * (which delete the old postings) with secure delete on and off.
 * `npx tsx bench/forget-cost.ts [locomo-dir]`. Prints the p50 and p90 in ms of each.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openMemory, type Memory } from '../src/index.js';
import { locomoCorpus } from './locomo-corpus.js';

const dir = process.argv[2] ?? '/work/shared/locomo-dev';
const { turns } = locomoCorpus(dir);
const work = mkdtempSync(join(tmpdir(), 'mnemolite-bench-forget-'));
const base = join(work, 'base.db');
const mem = await openMemory({ path: base, embedder: 'none' });
const items = [];
for (let r = 0; r < 18; r++)
  for (let i = 0; i < turns.length; i++)
    items.push({ content: `${turns[i]} (${r})`, sessionId: `s${r}-${Math.floor(i / 20)}`, key: `k${r}-${i}`, force: true });
for (let i = 0; i < items.length; i += 5000) await mem.addMany(items.slice(i, i + 5000));
await mem.close();
for (const f of ['a.db', 'b.db']) copyFileSync(base, join(work, f));
const mb = (statSync(base).size / 1e6).toFixed(0);

const dbOf = (m: Memory): Database.Database => (m as unknown as { backend: { store: { db: Database.Database } } }).backend.store.db;
const a = await openMemory({ path: join(work, 'a.db'), embedder: 'none' });
const b = await openMemory({ path: join(work, 'b.db'), embedder: 'none' });
// b: what forget did before schema 5: no secure delete, no checkpoint, no context rewrite.
const bdb = dbOf(b);
bdb.pragma('secure_delete = OFF');
bdb.exec(
  "INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 0); INSERT INTO memories_ctx_fts(memories_ctx_fts, rank) VALUES ('secure-delete', 0);",
);
const plainDelete = bdb.prepare('DELETE FROM memories WHERE id = ?');

const ids = bdb.prepare('SELECT id FROM memories ORDER BY seq').pluck().all() as string[];
let seed = 7;
const rand = (): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const picks = Array.from({ length: 200 }, () => ids[Math.floor(rand() * ids.length)]!).filter((x, i, all) => all.indexOf(x) === i);
const time = async (f: () => unknown): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};
const forgetA: number[] = [];
const forgetB: number[] = [];
for (const id of picks) {
  forgetA.push(await time(() => a.forget(id)));
  forgetB.push(await time(() => bdb.transaction(() => plainDelete.run(id)).immediate()));
}
const upsertA: number[] = [];
const upsertB: number[] = [];
for (let i = 0; i < 200; i++) {
  const it = items[Math.floor(rand() * items.length)]!;
  upsertA.push(await time(() => a.add(`${it.content} (changed)`, { sessionId: it.sessionId, key: it.key, force: true })));
  upsertB.push(await time(() => b.add(`${it.content} (changed)`, { sessionId: it.sessionId, key: it.key, force: true })));
}
const q = (xs: number[], p: number): string => [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))]!.toFixed(2);
console.log(`${items.length} memories, ${mb} MB file; ${picks.length} forgets, 200 key upserts, alternating:`);
console.log(`forget (erasing)            p50 ${q(forgetA, 0.5)} ms  p90 ${q(forgetA, 0.9)} ms`);
console.log(`plain delete (before)       p50 ${q(forgetB, 0.5)} ms  p90 ${q(forgetB, 0.9)} ms`);
console.log(`key upsert, secure delete   p50 ${q(upsertA, 0.5)} ms  p90 ${q(upsertA, 0.9)} ms`);
console.log(`key upsert, without         p50 ${q(upsertB, 0.5)} ms  p90 ${q(upsertB, 0.9)} ms`);
await a.close();
await b.close();
rmSync(work, { recursive: true, force: true });
