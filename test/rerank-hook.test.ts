/**
 * The `rerank` recall option (issue 26 item 7): a real function reorders the best fused candidates
 * on every store; supersession and relevance still hold after it; a failing function is
 * RERANKER_FAILED and bad options INVALID_INPUT.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openMemory, type Memory, type RerankCandidate } from '../src/index.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

for (const T of targets) {
  describe(T.name, () => {
    const open = (): Promise<Memory> => openMemory({ ...T.fresh(), embedder: 'none' });

    test('a keyword-scoring reranker reorders the top candidates; relevance and scores stay meaningful', async () => {
      const mem = await open();
      try {
        await mem.add('The garden has tomatoes, basil and a small pond.');
        await mem.add('The garden fence was painted green in May.');
        const cat = await mem.add('The garden is where the cat sleeps all afternoon.');
        const plain = await mem.recall('garden', { mode: 'keyword' });
        assert.equal(plain.length, 3);
        const seen: RerankCandidate[][] = [];
        const byCat = (_q: string, cs: RerankCandidate[]): number[] => {
          seen.push(cs);
          return cs.map((c) => (c.content.includes('cat') ? 1 : 0));
        };
        const hits = await mem.recall('garden', { mode: 'keyword', rerank: byCat });
        assert.equal(hits[0]!.id, cat.id);
        assert.equal(seen.length, 1);
        assert.deepEqual(
          seen[0]!.map((c) => c.id),
          plain.map((h) => h.id),
        );
        // Scores still descend; relevance is each memory's own, whatever the order.
        for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
        for (const h of hits) assert.equal(h.relevance, plain.find((p) => p.id === h.id)!.relevance);
        // An async reranker reversing the order, limited to the top 2.
        const rev = await mem.recall('garden', { mode: 'keyword', rerankTop: 2, rerank: async (_q, cs) => cs.map((_, i) => -i) });
        assert.deepEqual(
          rev.map((h) => h.id),
          plain.map((h) => h.id),
        );
        const rev3 = await mem.recall('garden', { mode: 'keyword', rerank: async (_q, cs) => cs.map((_, i) => i) });
        assert.deepEqual(
          rev3.map((h) => h.id),
          [...plain].reverse().map((h) => h.id),
        );
      } finally {
        await mem.close();
      }
    });

    test('a superseded memory stays below its successor after any rerank', async () => {
      const mem = await open();
      try {
        const old = await mem.add('The office is on Baker Street, third floor.');
        const neu = await mem.add('The office moved to King Street, second floor.', { supersedes: old.id });
        const hits = await mem.recall('office street floor', { mode: 'keyword', rerank: (_q, cs) => cs.map((c) => (c.id === old.id ? 10 : 0)) });
        const ids = hits.map((h) => h.id);
        assert.ok(ids.indexOf(neu.id) >= 0 && ids.indexOf(neu.id) < ids.indexOf(old.id));
      } finally {
        await mem.close();
      }
    });

    test('a failing reranker is RERANKER_FAILED; bad options are INVALID_INPUT', async () => {
      const mem = await open();
      try {
        await mem.add('alpha one memory here');
        await mem.add('alpha two memory here');
        await assert.rejects(
          mem.recall('alpha', {
            mode: 'keyword',
            rerank: () => {
              throw new Error('endpoint down');
            },
          }),
          { code: 'RERANKER_FAILED', message: /endpoint down/ },
        );
        await assert.rejects(mem.recall('alpha', { mode: 'keyword', rerank: () => [1] }), {
          code: 'RERANKER_FAILED',
          message: /one finite number per candidate \(2\)/,
        });
        await assert.rejects(mem.recall('alpha', { mode: 'keyword', rerank: () => [1, Number.NaN] }), { code: 'RERANKER_FAILED' });
        await assert.rejects(mem.recall('alpha', { rerank: 'yes' as never }), { code: 'INVALID_INPUT', message: /rerank/ });
        await assert.rejects(mem.recall('alpha', { rerankTop: 1000 }), { code: 'INVALID_INPUT', message: /rerankTop/ });
      } finally {
        await mem.close();
      }
    });
  });
}
