import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openMemory, LOCAL_MODEL_ID } from '../src/index.js';
import { DEMO_MEMORIES } from '../src/cli/demo.js';
import { tempDb } from './helpers.js';

// These tests use the real bundled model (Universal Sentence Encoder lite), offline.

test('the Raspberry Pi case: found by meaning in vector and hybrid mode, not by keywords', async () => {
  const mem = await openMemory({ path: tempDb() });
  assert.equal(mem.embedder?.id, LOCAL_MODEL_ID);
  await mem.addMany(DEMO_MEMORIES.map((content) => ({ content })));
  const q = 'Deploying on ARM hardware';
  const vector = await mem.recall(q, { mode: 'vector', limit: 3 });
  const hybrid = await mem.recall(q, { mode: 'hybrid', limit: 3 });
  const keyword = await mem.recall(q, { mode: 'keyword', limit: 3 });
  assert.equal(vector[0]!.content, 'My Raspberry Pi setup');
  assert.equal(hybrid[0]!.content, 'My Raspberry Pi setup');
  assert.equal(hybrid[0]!.vectorRank, 1);
  assert.equal(hybrid[0]!.keywordRank, undefined);
  assert.ok(!keyword.some((h) => h.content === 'My Raspberry Pi setup'), 'no shared words: the keyword leg cannot find it');
  await mem.close();
});

test('paraphrases find their memory among unrelated ones', async () => {
  const mem = await openMemory({ path: tempDb() });
  await mem.addMany([
    { content: 'The user is allergic to peanuts' },
    { content: 'Our office is in Berlin' },
    { content: 'The project deadline is next Friday' },
    { content: 'The user drives a blue Tesla' },
    { content: 'Backups run every night at 2am' },
  ]);
  const cases: [string, string][] = [
    ['What food must the user avoid?', 'The user is allergic to peanuts'],
    ['Which city do we work from?', 'Our office is in Berlin'],
    ['What car does the user own?', 'The user drives a blue Tesla'],
  ];
  for (const [q, want] of cases) {
    const hits = await mem.recall(q, { mode: 'vector', limit: 1 });
    assert.equal(hits[0]!.content, want, q);
  }
  await mem.close();
});

test('the local model is deterministic and its vectors are cached in the file', async () => {
  const path = tempDb();
  const a = await openMemory({ path });
  await a.add('Determinism check sentence');
  const v1 = await a.recall('Determinism check sentence', { mode: 'vector', limit: 1 });
  assert.ok(v1[0]!.score > 0.999, `self-similarity ${v1[0]!.score}`);
  const s = await a.stats();
  assert.ok(s.cacheEntries >= 0);
  assert.equal(s.embedding?.dims, 512);
  await a.close();
});
