// Bulk writes and WAL checkpoints (src/store/store.ts BULK_CHECKPOINT_PAGES): an `addMany` of many
// items commits without checkpointing what the WAL holds, so the next bulk write appends to it; the
// next ordinary write checkpoints it all into the file. Observed from the files, on a real SQLite file.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import { BULK_MIN_ITEMS, CHECKPOINT_PAGES } from '../src/store/store.js';
import { tempDb } from './helpers.js';

/** `n` memories of `words` words (~8 bytes each) each: 200 of 3,000 words are well over 1,000 WAL pages. */
function batch(n: number, from: number, words = 3000): { content: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    content: Array.from({ length: words }, (_, w) => `w${(from + i) * 7 + ((w * 31) % 997)}x${w % 13}`).join(' '),
  }));
}

const size = (p: string): number => statSync(p, { throwIfNoEntry: false })?.size ?? 0;

test('bulk addMany: commits leave the WAL to grow; the next ordinary write checkpoints it into the file', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  const n = Math.max(BULK_MIN_ITEMS, 200);
  await mem.addMany(batch(n, 0));
  const wal1 = size(`${path}-wal`);
  const main1 = size(path);
  // One batch alone is past SQLite's default threshold: at that threshold its commit would have checkpointed.
  assert.ok(wal1 > CHECKPOINT_PAGES * 4096, `one batch fills ${wal1} bytes of WAL`);
  await mem.addMany(batch(n, n));
  const wal2 = size(`${path}-wal`);
  // Not checkpointed in between: the second batch went after the first (a checkpointed WAL restarts at its start).
  assert.ok(wal2 > 1.8 * wal1, `the WAL grew from ${wal1} to ${wal2} bytes`);
  assert.ok(size(path) <= main1 + 64 * 1024, 'nothing was copied into the file yet');
  // An ordinary write commits at the ordinary threshold: it checkpoints both batches into the file.
  await mem.add('one ordinary memory after the bulk writes');
  assert.ok(size(path) > main1 + wal1, `the file grew from ${main1} to ${size(path)} bytes`);
  // Everything is there, seen by another connection, and the connection is back at SQLite's threshold.
  const other = new Database(path, { readonly: true });
  assert.equal(other.prepare('SELECT count(*) FROM memories').pluck().get(), 2 * n + 1);
  other.close();
  assert.equal((await mem.recall('w7x1', { limit: 1 })).length, 1);
  await mem.close();
});

test('addMany below the bulk size commits at the ordinary threshold: it checkpoints at its own commit', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  const main0 = size(path);
  // Fewer items than a bulk write, but as many bytes as the bulk test's batch.
  await mem.addMany(batch(BULK_MIN_ITEMS - 1, 10_000, 8000));
  const wal = size(`${path}-wal`);
  assert.ok(wal > CHECKPOINT_PAGES * 4096, `the batch filled ${wal} bytes of WAL`);
  assert.ok(size(path) > main0 + wal / 2, `checkpointed: the file grew from ${main0} to ${size(path)} bytes`);
  await mem.close();
});
