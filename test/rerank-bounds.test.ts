/**
 * Re-ranking work is bounded whatever `limit` and `candidates` a caller asks for: MMR compares at
 * most MMR_MAX_PICKS × MMR_MAX_POOL pairs, each over at most MAX_COMPARED_WORDS words, and the
 * current-over-stale and supersession steps read bounded sets too. Counted through a real store's
 * RankSource and by the work the functions do, never by a clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { RankSource } from '../src/backend/types.js';
import { openMemory } from '../src/index.js';
import { jaccard, jaccardSorted, mmrOrder, numberedTokenSets, tokenSet } from '../src/recall/mmr.js';
import { MMR_MAX_PICKS, MMR_MAX_POOL, demoteSuperseded, lifecycleRank } from '../src/recall/rank.js';
import { MAX_COMPARED_WORDS, stems } from '../src/text/stems.js';
import { tempDb } from './helpers.js';

test('MMR with limit 1000 over 10,000 candidates reads at most MMR_MAX_POOL memories and compares at most picks × pool pairs', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    const words = (i: number): string => Array.from({ length: 300 }, (_, k) => `w${(i * 7 + k * 13) % 5000}`).join(' ');
    for (let i = 0; i < 3000; i += 500) await mem.addMany(Array.from({ length: 500 }, (_, j) => ({ content: `topic ${words(i + j)}`, force: true })));
    const hits = await mem.recall('topic', { mode: 'keyword', limit: 1000, candidates: 10_000, mmr: true });
    assert.equal(hits.length, 1000, 'every asked hit comes back');
    // The store's own RankSource, counting what the re-ranking asks of it.
    const backend = (mem as unknown as { backend: RankSource }).backend;
    const asked: number[] = [];
    const counting: RankSource = {
      successors: (s) => backend.successors(s),
      rankMeta: (s, c) => backend.rankMeta(s, c),
      vectorsOf: (s, m) => backend.vectorsOf(s, m),
      contentsOf: (s) => {
        asked.push(s.length);
        return backend.contentsOf(s);
      },
    };
    // Every memory as a fused candidate (seqs 1..3000, in insertion order), best first.
    const fused = Array.from({ length: 3000 }, (_, i) => ({ seq: i + 1, score: 3000 - i }));
    const ranked = await lifecycleRank(counting, fused, { mmr: true }, null, 1000);
    assert.equal(ranked.length, fused.length);
    assert.deepEqual(asked, [MMR_MAX_POOL], `memories read for MMR: ${asked}`);
  } finally {
    await mem.close();
  }
  // mmrOrder compares each candidate left with each pick: picks × pool at most.
  let pairs = 0;
  const scores = Array.from({ length: MMR_MAX_POOL }, (_, i) => 1 - i / MMR_MAX_POOL);
  const order = mmrOrder(
    scores,
    (a, b) => {
      pairs++;
      return ((a * 31 + b * 17) % 100) / 100;
    },
    0.7,
    MMR_MAX_PICKS,
  );
  assert.equal(order.length, MMR_MAX_PICKS);
  assert.ok(pairs <= MMR_MAX_PICKS * MMR_MAX_POOL, `${pairs} pairs`);
});

test('the word sets compared per pair hold at most MAX_COMPARED_WORDS words, however long the memory (MMR, current over stale, supersede auto)', () => {
  const long = Array.from({ length: 15_000 }, (_, k) => `word${k}`).join(' ');
  assert.equal(tokenSet(long).size, MAX_COMPARED_WORDS);
  assert.equal(stems(long).size, MAX_COMPARED_WORDS);
  assert.deepEqual([...tokenSet('Tea, tea and TEA coffee')], ['tea', 'and', 'coffee']);
});

test('jaccardSorted equals jaccard on the same sets (property)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 7 }),
      fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'h'), { maxLength: 5 }),
      (x, y) => {
        const a = new Set(x),
          b = new Set(y);
        const [na, nb] = numberedTokenSets([a, b]);
        assert.equal(jaccardSorted(na!, nb!), jaccard(a, b));
      },
    ),
    { numRuns: 2000, seed: 11 },
  );
});

/** The demotion as it was written first (a position map rebuilt and a rescan from the top per move): the reference. */
function demoteReference(list: { seq: number; score: number }[], successorOf: ReadonlyMap<number, number>): { seq: number; score: number }[] {
  const out = list.slice();
  for (let moves = 0; moves < 4 * out.length + 4; moves++) {
    const pos = new Map(out.map((h, i) => [h.seq, i]));
    let moved = false;
    for (let i = 0; i < out.length; i++) {
      const s = successorOf.get(out[i]!.seq);
      const j = s === undefined ? undefined : pos.get(s);
      if (j === undefined || j < i) continue;
      const [h] = out.splice(i, 1);
      const succ = out[j - 1]!;
      out.splice(j, 0, { ...h!, score: Math.min(h!.score, succ.score) });
      moved = true;
      break;
    }
    if (!moved) break;
  }
  return out;
}

test('supersession demotion gives the reference order on random forests and cycles (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 14 }).chain((n) =>
        fc.tuple(
          fc.constant(n),
          fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n + 2 })), { maxLength: n }),
          fc.shuffledSubarray(
            Array.from({ length: n }, (_, i) => i),
            { minLength: n },
          ),
        ),
      ),
      ([n, edges, order]) => {
        const list = order.map((seq, i) => ({ seq, score: n - i + (seq % 3) * 0.1 }));
        const succ = new Map<number, number>();
        for (const [a, b] of edges) if (a !== b) succ.set(a, b);
        assert.deepEqual(demoteSuperseded(list, succ), demoteReference(list, succ));
      },
    ),
    { numRuns: 20_000, seed: 5 },
  );
});
