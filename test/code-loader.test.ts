// The open's copy of the stored vector codes (src/search/code-loader.ts) with a worker thread taking
// ranges beside the opening thread: the same index as the copy on one thread, down to the bytes,
// with memories without a vector and forgotten ones among them; a worker that may not help (another
// snapshot of the file) leaves every range to the caller. Real SQLite files, real worker threads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import { CODE_LOAD } from '../src/search/code-loader.js';
import { HashEmbedder, tempDb } from './helpers.js';

const QUESTIONS = ['garden and piano', 'the invoice again', 'flight budget', 'marathon recipe', 'server notes 17', 'note 250'];

async function build(path: string): Promise<void> {
  const emb = new HashEmbedder('hash-64', 64);
  const mem = await openMemory({ path, embedder: emb });
  const topics = ['garden', 'invoice', 'flight', 'piano', 'recipe', 'marathon', 'server', 'budget'];
  await mem.addMany(
    Array.from({ length: 3000 }, (_, i) => ({
      content: `Note ${i} about the ${topics[i % 8]} and the ${topics[(i * 5) % 8]}`,
      namespace: i % 3 ? 'a' : 'b',
    })),
  );
  // Some memories forgotten (no code row, no slot), in the middle of ranges.
  const gone = await mem.recall('marathon', { mode: 'keyword', limit: 40 });
  for (const h of gone) await mem.forget(h.id);
  await mem.close();
}

/** Run `fn` with the code loader's settings changed (counts from zero), then put them back. */
async function withLoad<T>(settings: Partial<typeof CODE_LOAD>, fn: () => Promise<T>): Promise<T> {
  const was = { ...CODE_LOAD, counts: { ...CODE_LOAD.counts } };
  Object.assign(CODE_LOAD, { counts: { worker: 0, here: 0, missing: 0 }, ...settings });
  try {
    return await fn();
  } finally {
    Object.assign(CODE_LOAD, was);
  }
}

async function recalls(
  path: string,
  parallelFrom: number,
  rangeSlots: number,
): Promise<{ hits: unknown[]; counts: { worker: number; here: number; missing: number } }> {
  return withLoad({ parallelFrom, rangeSlots, awaitHelper: parallelFrom === 0 }, async () => {
    const mem = await openMemory({ path, embedder: new HashEmbedder('hash-64', 64), readonly: true });
    const hits: unknown[] = [];
    for (const q of QUESTIONS)
      for (const namespace of ['a', 'b']) {
        const r = await mem.recall(q, { mode: 'vector', limit: 20, namespace });
        assert.equal(r.length, 20);
        hits.push(r.map((h) => [h.id, h.score]));
      }
    const stats = await mem.stats();
    hits.push(stats.embedded);
    await mem.close();
    return { hits, counts: CODE_LOAD.counts };
  });
}

test('codes copied by two threads give the index one thread gives', async () => {
  const path = tempDb();
  await build(path);
  const serial = await recalls(path, Infinity, 16_384);
  assert.deepEqual(serial.counts, { worker: 0, here: 1, missing: 0 });
  // Small ranges so that both threads take many.
  // Which thread takes which range depends on the machine's load: open again until both took some
  // (each open checked in full), at most 20 times.
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    const parallel = await recalls(path, 0, 7);
    seen.push(JSON.stringify(parallel.counts));
    // Every slot got its code from the copy (none quantised again from the floats), and the same hits.
    assert.equal(parallel.counts.missing, 0);
    assert.deepEqual(parallel.hits, serial.hits);
    if (parallel.counts.here > 0 && parallel.counts.worker > 0) break;
  }
  const last = JSON.parse(seen.at(-1)!) as { here: number; worker: number };
  assert.ok(last.here > 0 && last.worker > 0, `both threads copied ranges in one open: ${seen.join(' ')}`);
  assert.ok((serial.hits.at(-1) as number) > 2900);
});

test("a write from another connection during the open: the reader holds its snapshot's memories, whichever thread copied them", async () => {
  const path = tempDb();
  await build(path);
  await withLoad({ parallelFrom: 0, rangeSlots: 50, awaitHelper: true }, async () => {
    const reader = await openMemory({ path, embedder: new HashEmbedder('hash-64', 64) });
    const writer = await openMemory({ path, embedder: new HashEmbedder('hash-64', 64) });
    // The reader's first recall builds its index inside a read transaction; a write committed from
    // another connection while the worker starts would put it on another snapshot. Whatever the
    // timing, the reader sees exactly the memories of its own snapshot, with their vectors.
    const writes = writer.addMany(Array.from({ length: 200 }, (_, i) => ({ content: `late note ${i} about the garden` })));
    const first = await reader.recall('garden', { mode: 'vector', limit: 5, namespace: 'a' });
    await writes;
    assert.equal(first.length, 5);
    const after = await reader.recall('late note 150 garden', { mode: 'vector', limit: 200, namespace: 'default' });
    assert.ok(after.some((h) => h.content.startsWith('late note')));
    const stats = await reader.stats();
    assert.equal(stats.embedded, stats.memories);
    await writer.close();
    await reader.close();
  });
});

test('searchThread: false copies every range on the opening thread', async () => {
  const path = tempDb();
  await build(path);
  await withLoad({ parallelFrom: 0, rangeSlots: 7, awaitHelper: true }, async () => {
    const mem = await openMemory({ path, embedder: new HashEmbedder('hash-64', 64), searchThread: false });
    assert.equal((await mem.recall('garden', { mode: 'vector', limit: 5, namespace: 'a' })).length, 5);
    await mem.close();
    assert.equal(CODE_LOAD.counts.worker, 0);
    assert.ok(CODE_LOAD.counts.here > 400);
  });
});

test('a helper thread that stops answering mid-range fails the open with a typed error, not a hang; the next recall loads again', async () => {
  const path = tempDb();
  await build(path);
  await withLoad({ parallelFrom: 0, rangeSlots: 7, awaitHelper: true, stallMs: 300, hang: true }, async () => {
    const mem = await openMemory({ path, embedder: new HashEmbedder('hash-64', 64) });
    await assert.rejects(
      () => mem.recall('garden', { mode: 'vector', limit: 5, namespace: 'a' }),
      (err: Error & { code?: string }) => {
        assert.equal(err.name, 'MnemoliteError');
        assert.equal(err.code, 'STORAGE');
        assert.match(err.message, /loading the vector codes stalled/);
        return true;
      },
    );
    // The stalled helper was stopped (its read transaction with it): the index loads on the next recall.
    CODE_LOAD.hang = false;
    const hits = await mem.recall('garden', { mode: 'vector', limit: 5, namespace: 'a' });
    assert.equal(hits.length, 5);
    await mem.add('a note after the stall about the garden', { namespace: 'a' });
    await mem.close();
    // No reader is left on an old snapshot: the write-ahead log can be checkpointed and emptied
    // (a helper left hanging would hold its read transaction for the life of the process).
    const db = new Database(path, { timeout: 0 });
    let busy = 1;
    for (let i = 0; i < 100 && busy; i++) {
      busy = (db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[])[0]!.busy;
      if (busy) await new Promise((res) => setTimeout(res, 50));
    }
    db.close();
    assert.equal(busy, 0, 'the stalled helper still holds a read transaction');
  });
});
