/**
 * The opt-in recall re-ranking of src/recall/rank.ts (importance, recency, MMR) on every store:
 * the file, PGlite and, when available, a real PostgreSQL server (test/store-matrix.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MnemoliteError, openMemory } from '../src/index.js';
import { mmrOrder } from '../src/recall/mmr.js';
import { recencyFactor } from '../src/recall/recency.js';
import { HashEmbedder } from './helpers.js';
import { storeTargets } from './store-matrix.js';

const code = (c: string) => (err: unknown) => err instanceof MnemoliteError && err.code === c;

for (const T of await storeTargets()) {
  describe(`${T.name}: recall re-ranking`, () => {
    test('importance weighs recall only when asked', async () => {
      const mem = await openMemory({ ...T.fresh(), embedder: T.vectors ? new HashEmbedder() : 'none' });
      const lo = await mem.add('standup meeting notes monday', { importance: 0.1 });
      const hi = await mem.add('standup meeting notes tuesday', { importance: 1 });
      const mid = await mem.add('standup meeting notes wednesday');
      const plain = await mem.recall('standup meeting notes', { mode: 'keyword' });
      assert.equal(plain.length, 3);
      assert.ok(
        plain.every((h) => Math.abs(h.score - plain[0]!.score) < 1e-9),
        'off by default: equal texts score equally',
      );
      const weighted = await mem.recall('standup meeting notes', { mode: 'keyword', importanceWeight: 1 });
      assert.deepEqual(
        weighted.map((h) => h.id),
        [hi.id, mid.id, lo.id],
      );
      assert.equal(weighted[0]!.importance, 1);
      assert.equal(weighted[1]!.importance, undefined, 'unset importance is neutral 0.5 and not shown');
      await assert.rejects(mem.recall('x', { importanceWeight: -1 }), code('INVALID_INPUT'));
      await mem.close();
    });

    test('recency: optional half-life decay; pinned and core memories are exempt', async () => {
      const mem = await openMemory({ ...T.fresh(), embedder: T.vectors ? new HashEmbedder() : 'none' });
      const old = await mem.add('the build server is buildbot', { createdAt: '2026-01-01T00:00:00Z' });
      const mid = await mem.add('the build server is jenkins', { createdAt: '2026-03-01T00:00:00Z' });
      const neu = await mem.add('the build server is github actions now', { createdAt: '2026-06-01T00:00:00Z' });
      const asOf = '2026-06-02T00:00:00Z';
      const q = 'build server';
      const plain = (await mem.recall(q, { mode: 'keyword', preferCurrent: false })).map((h) => h.id);
      assert.notEqual(plain[0], neu.id, 'without recency the longer, newest text does not win on BM25');
      const rec = await mem.recall(q, { mode: 'keyword', preferCurrent: false, recency: { halfLife: '30d', weight: 1, asOf } });
      assert.deepEqual(
        rec.map((h) => h.id),
        [neu.id, mid.id, old.id],
      );
      const kwScore = (await mem.recall(q, { mode: 'keyword', preferCurrent: false })).find((h) => h.id === neu.id)!.score;
      assert.ok(Math.abs(rec[0]!.score - kwScore * recencyFactor(86_400_000, 30 * 86_400_000, 1)) < 1e-9, 'score x 0.5^(age/halfLife)');
      // The default weight 0.2 keeps a floor of 0.8: a gentle tie-breaker.
      const gentle = await mem.recall(q, { mode: 'keyword', preferCurrent: false, recency: { halfLife: '30d', asOf } });
      const oldScore = (await mem.recall(q, { mode: 'keyword', preferCurrent: false })).find((h) => h.id === old.id)!.score;
      assert.ok(Math.abs(gentle.find((h) => h.id === old.id)!.score - oldScore * (0.8 + 0.2 * 0.5 ** (152 / 30))) < 1e-9);
      assert.ok(Math.abs(recencyFactor(1e15, 1000, 0.25) - 0.75) < 1e-12);
      // Exemptions.
      await mem.update(old.id, { pinned: true });
      assert.equal(
        (await mem.recall(q, { mode: 'keyword', preferCurrent: false, recency: { halfLife: '30d', weight: 1, asOf } }))[0]!.id,
        old.id,
        'pinned: no decay',
      );
      await mem.update(old.id, { pinned: false, category: 'core' });
      assert.equal(
        (await mem.recall(q, { mode: 'keyword', preferCurrent: false, recency: { halfLife: '30d', weight: 1, asOf } }))[0]!.id,
        old.id,
        'core: no decay',
      );
      await mem.update(old.id, { category: null });
      // A content update restarts the clock (age counts from the last content change).
      await mem.update(mid.id, { content: 'the build server is jenkins on arm' });
      assert.equal((await mem.recall(q, { mode: 'keyword', preferCurrent: false, recency: { halfLife: '30d', weight: 1 } }))[0]!.id, mid.id);
      await assert.rejects(mem.recall(q, { recency: { halfLife: 'soon' } }), code('INVALID_INPUT'));
      await assert.rejects(mem.recall(q, { recency: { halflife: '1d' } as never }), code('INVALID_INPUT'));
      await mem.close();
    });

    test('MMR re-ranking trades relevance for diversity using stored vectors', { skip: !T.vectors && 'no vectors on this store' }, async () => {
      const mem = await openMemory({ ...T.fresh(), embedder: T.vectors ? new HashEmbedder() : 'none' });
      const copies = await mem.addMany([
        { content: 'kubernetes cluster upgrade checklist step one' },
        { content: 'kubernetes cluster upgrade checklist step two' },
        { content: 'kubernetes cluster upgrade checklist step three' },
      ]);
      const other = await mem.add('kubernetes costs went up after the upgrade');
      // A weaker match, so the different memory is not the least relevant candidate (relevance is min-max scaled).
      await mem.add('kubernetes');
      const q = 'kubernetes cluster upgrade checklist';
      const plain = await mem.recall(q, { mode: 'keyword', preferCurrent: false, limit: 2 });
      assert.ok(
        plain.every((h) => copies.some((c) => c.id === h.id)),
        'plain top 2 are two near-copies',
      );
      const div = await mem.recall(q, { mode: 'keyword', preferCurrent: false, limit: 2, mmr: { lambda: 0.3 } });
      assert.deepEqual(
        div.map((h) => h.id),
        [plain[0]!.id, other.id],
        'MMR brings in the different memory',
      );
      const same = await mem.recall(q, { mode: 'keyword', preferCurrent: false, limit: 4, mmr: { lambda: 1 } });
      assert.deepEqual(
        same.map((h) => h.id),
        (await mem.recall(q, { mode: 'keyword', preferCurrent: false, limit: 4 })).map((h) => h.id),
        'lambda 1 = relevance only',
      );
      assert.equal((await mem.recall(q, { limit: 2, mmr: true })).length, 2, 'hybrid with default lambda');
      // Without an embedder MMR falls back to word overlap.
      const kwOnly = await openMemory({ ...T.fresh(), embedder: 'none' });
      const c2 = await kwOnly.addMany([{ content: 'alpha beta gamma one' }, { content: 'alpha beta gamma two' }, { content: 'alpha delta epsilon zeta' }]);
      assert.deepEqual(
        (await kwOnly.recall('alpha beta gamma', { limit: 2, mmr: { lambda: 0.3 }, preferCurrent: false })).map((h) => h.id),
        [c2[0]!.id, c2[2]!.id],
      );
      await kwOnly.close();
      // The selection rule on its own.
      const sims = [
        [1, 0.99, 0],
        [0.99, 1, 0],
        [0, 0, 1],
      ];
      assert.deepEqual(
        mmrOrder([1, 0.9, 0.5], (a, b) => sims[a]![b]!, 0.5, 3),
        [0, 2, 1],
      );
      await assert.rejects(mem.recall(q, { mmr: { lambda: 2 } }), code('INVALID_INPUT'));
      await mem.close();
    });
  });
}
