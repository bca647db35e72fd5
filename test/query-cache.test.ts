/**
 * The query-vector cache writes after the recall, not inside it (src/store/store.ts queueCache):
 * what waits reaches the file once the event loop is free, in one write, at close, or first in any
 * write (so an erase sees it).
 */
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import { CACHE_PENDING_MAX } from '../src/store/store.js';
import { HashEmbedder, tempDb } from './helpers.js';

const cached = (path: string, namespace: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM embedding_cache WHERE namespace = ?').pluck().get(namespace) as number;
  } finally {
    db.close();
  }
};

test("a recall's query vector is written once the event loop is free; another connection then reads it", async () => {
  const path = tempDb();
  const emb = new HashEmbedder();
  const mem = await openMemory({ path, embedder: emb });
  await mem.add('the deploy runs on Fridays', { namespace: 'a' });
  await mem.recall('when does the deploy run', { namespace: 'a' });
  assert.equal(cached(path, 'a'), 0, 'not written inside the recall');
  await tick();
  assert.equal(cached(path, 'a'), 1, 'written once the loop turned');
  // A second Memory on the file finds the vector in the file's cache: the model is not asked again.
  const other = await openMemory({ path, embedder: emb, readonly: true });
  const before = emb.embedded.length;
  await other.recall('when does the deploy run', { namespace: 'a' });
  // (It embeds relevance's probe questions once, src/recall/baseline.ts; never the query.)
  assert.ok(!emb.embedded.slice(before).includes('when does the deploy run'));
  await other.close();
  await mem.close();
});

test('waiting vectors go in with the next write, so erase removes them; close writes the rest; a burst is bounded', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  await mem.addMany([
    { content: 'alpha keeps bees', namespace: 'a' },
    { content: 'bravo keeps goats', namespace: 'b' },
  ]);
  await mem.recall('who keeps bees', { namespace: 'a' });
  await mem.recall('who keeps goats', { namespace: 'b' });
  const r = await mem.erase({ namespace: 'a' }); // no turn of the loop since the recalls
  assert.equal(r.cachedVectors, 1);
  assert.equal(cached(path, 'a'), 0);
  assert.equal(cached(path, 'b'), 1, "b's waiting vector went in with the erase's write");
  // A burst without a free moment writes every CACHE_PENDING_MAX vectors, never holds more.
  for (let i = 0; i < CACHE_PENDING_MAX; i++) await mem.recall(`goats question ${i}`, { namespace: 'b' });
  assert.equal(cached(path, 'b'), 1 + CACHE_PENDING_MAX);
  await mem.recall('one more goats question', { namespace: 'b' });
  await mem.close();
  assert.equal(cached(path, 'b'), 2 + CACHE_PENDING_MAX, 'close wrote the last one');
});
