/**
 * The keyword index's cost is bounded by what the caller asks and holds, counted (never timed):
 * - the postings cache keeps at most its bound of terms and bytes, however many distinct words
 *   recalls bring (random words no memory holds grew the heap by 588 MB over 20,000 recalls);
 * - a search in one namespace visits that namespace's postings only: agent-1's query does the same
 *   work before and after agent-2 adds 10,000 memories with the same word, with the same results.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openMemory } from '../src/index.js';
import type { Memory } from '../src/memory/memory.js';
import { KEYWORD_WORK, KeywordIndex, POSTINGS_CACHE_BYTES, POSTINGS_CACHE_TERMS } from '../src/search/keyword-index.js';
import { tempDb } from './helpers.js';

/** The file's content keyword index (internal: read through the private fields, for counting only). */
function keywordIndex(mem: Memory): KeywordIndex {
  return (mem as unknown as { backend: { index: { kw: KeywordIndex } } }).backend.index.kw;
}

/** A deterministic stream of words no memory holds. */
function* randomWords(seed: number): Generator<string> {
  let x = seed;
  for (;;) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    let w = '';
    for (let n = 6 + (x % 30), y = x; n > 0; n--, y = (Math.imul(y, 69069) + 1) >>> 0) w += String.fromCharCode(97 + ((y >>> 16) % 26));
    yield w;
  }
}

test('20,000 recalls of random words keep the postings cache within its bound of terms and bytes', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    await mem.addMany(Array.from({ length: 200 }, (_, i) => ({ content: `note ${i} about the deploy of service ${i % 7}` })));
    const words = randomWords(7);
    let maxTerms = 0;
    let maxBytes = 0;
    for (let i = 0; i < 20_000; i++) {
      const q = `${words.next().value} ${words.next().value} ${words.next().value}${i % 1000 === 0 ? ` ${'x'.repeat(20_000)}` : ''}`;
      await mem.recall(q, { mode: 'keyword' });
      const kw = keywordIndex(mem); // read each time: the index is made at the first search
      maxTerms = Math.max(maxTerms, kw.vocabulary);
      maxBytes = Math.max(maxBytes, kw.cachedBytes);
    }
    assert.ok(maxTerms <= POSTINGS_CACHE_TERMS, `terms cached: ${maxTerms}`);
    assert.equal(maxTerms, POSTINGS_CACHE_TERMS, 'the stream fills the cache to its bound (the bound is what holds it)');
    assert.ok(maxBytes <= POSTINGS_CACHE_BYTES, `bytes cached: ${maxBytes}`);
    // Evicted terms are read again when asked: results do not depend on what the cache holds.
    const hits = await mem.recall('deploy service', { mode: 'keyword', limit: 5 });
    assert.equal(hits.length, 5);
  } finally {
    await mem.close();
  }
});

test('a small cache evicts by bytes: one term with many postings pushes out the rest', () => {
  const kw = new KeywordIndex(100, 4096);
  for (let s = 0; s < 2000; s++) kw.setLength(s, 3, 0);
  const many = Array.from({ length: 2000 }, (_, i) => i).join(',');
  kw.search(
    ['a', 'b', 'c'],
    5,
    (t) => (t === 'a' ? '1' : t === 'b' ? '2' : null),
    (seq) => seq,
  );
  assert.equal(kw.vocabulary, 3);
  kw.search(
    ['big'],
    5,
    () => many,
    (seq) => seq,
  );
  assert.ok(kw.cachedBytes > 4096, 'the term being searched stays while it is used');
  assert.equal(kw.vocabulary, 1, 'the small terms were evicted to make room');
});

async function work(mem: Memory, q: string, namespace: string): Promise<{ visited: number; hits: [string, number][] }> {
  const before = KEYWORD_WORK.visited;
  const hits = await mem.recall(q, { mode: 'keyword', namespace, limit: 10 });
  return { visited: KEYWORD_WORK.visited - before, hits: hits.map((h) => [h.id, h.score]) };
}

test("agent-1's keyword search does the same work, with the same results, before and after agent-2 adds 10,000 memories with its word", async () => {
  const path = tempDb();
  const agentTwoAdds = async (mem: Memory, n: number, from: number) => {
    for (let s = 0; s < n; s += 500)
      await mem.addMany(Array.from({ length: 500 }, (_, i) => ({ content: `agent two deploy entry ${from + s + i}`, namespace: 'agent-2' })));
    await mem.recall('deploy', { mode: 'keyword', namespace: 'agent-2' }); // agent-2's own query
  };
  /** Agent-1's queries in a freshly opened file: the first (postings read, counts made), then again. */
  const agentOne = async (mem: Memory) => [
    await work(mem, 'deploy', 'agent-1'),
    await work(mem, 'deploy', 'agent-1'),
    await work(mem, 'deploy plans', 'agent-1'),
  ];
  let mem = await openMemory({ path, embedder: 'none' });
  try {
    await mem.addMany(Array.from({ length: 60 }, (_, i) => ({ content: `agent one deploy note ${i}`, namespace: 'agent-1' })));
    await mem.addMany(Array.from({ length: 60 }, (_, i) => ({ content: `agent two deploy note ${i}`, namespace: 'agent-2' })));
    await mem.close();
    mem = await openMemory({ path, embedder: 'none' });
    const before = await agentOne(mem);
    assert.ok(before[1]!.visited > 0 && before[1]!.visited < 1000, `visited: ${before[1]!.visited}`);
    // Writes this process replays into its index (under the reload threshold).
    await agentTwoAdds(mem, 1500, 0);
    const warm = await work(mem, 'deploy', 'agent-1');
    assert.equal(warm.visited, before[1]!.visited, 'postings visited by the same query, before and after');
    assert.deepEqual(warm.hits, before[1]!.hits);
    // 10,000 in all, then the file opened again (as another process would).
    await agentTwoAdds(mem, 8500, 1500);
    await mem.close();
    mem = await openMemory({ path, embedder: 'none' });
    const after = await agentOne(mem);
    assert.deepEqual(
      after.map((w) => w.visited),
      before.map((w) => w.visited),
    );
    assert.deepEqual(
      after.map((w) => w.hits),
      before.map((w) => w.hits),
    );
  } finally {
    await mem.close();
  }
});
