/**
 * Keyword statistics per namespace, on every store (test/store-matrix.ts): a recall confined to one
 * namespace scores with that namespace's documents, lengths and word frequencies alone. Otherwise
 * a caller limited to one namespace could tell, from its own scores or `relevance`, whether other
 * namespaces' memories contain a word, and how often.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openMemory, type Memory, type RecallHit } from '../src/index.js';
import { HashEmbedder } from './helpers.js';
import { storeTargets } from './store-matrix.js';

const MINE = ['xylophone lessons on tuesday with Maria', 'my sister plays the cello', 'tuesday is laundry day', 'the garden needs water on tuesday'];
const QUERIES = ['xylophone lessons', 'what happens on tuesday', 'cello sister garden'];

/** Everything a caller sees of a recall's scoring, per hit. */
async function seen(mem: Memory, mode: 'keyword' | 'hybrid'): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of QUERIES) {
    const hits: RecallHit[] = await mem.recall(q, { namespace: 'agent-1', mode, limit: 10 });
    out.push(hits.map((h) => ({ content: h.content, score: h.score.toFixed(9), relevance: h.relevance, evidence: JSON.stringify(h.evidence) })));
  }
  return out;
}

for (const T of await storeTargets()) {
  describe(`${T.name}: keyword statistics per namespace`, () => {
    const modes = T.vectors ? (['keyword', 'hybrid'] as const) : (['keyword'] as const);

    test("another namespace's memories never move one namespace's scores or relevance", { timeout: 120_000 }, async () => {
      const embedder = () => (T.vectors ? new HashEmbedder() : ('none' as const));
      const alone = await openMemory({ ...T.fresh(), embedder: embedder() });
      await alone.addMany(MINE.map((content) => ({ content, namespace: 'agent-1' })));
      const shared = await openMemory({ ...T.fresh(), embedder: embedder() });
      await shared.addMany(MINE.map((content) => ({ content, namespace: 'agent-1' })));
      try {
        for (const mode of modes) {
          const want = await seen(alone, mode);
          assert.deepEqual(await seen(shared, mode), want, `${mode}: same store content, same scores`);
          // Another tenant writes the same words, many times, and others.
          await shared.addMany(
            Array.from({ length: 300 }, (_, i) => ({
              content: i % 3 ? `xylophone practice ${i} on tuesday` : `unrelated note ${i} about lessons`,
              namespace: 'agent-2',
              force: true,
            })),
          );
          assert.deepEqual(await seen(shared, mode), want, `${mode}: agent-2's writes are invisible in agent-1's scores`);
          await shared.forget((await shared.list({ namespace: 'agent-2', limit: 1 }))[0]!.id);
        }
      } finally {
        await alone.close();
        await shared.close();
      }
    });

    test("a namespace's statistics follow its own growth", { timeout: 120_000 }, async () => {
      const grown = await openMemory({ ...T.fresh(), embedder: 'none' });
      const fresh = await openMemory({ ...T.fresh(), embedder: 'none' });
      try {
        await grown.add('xylophone lessons on tuesday', { namespace: 'agent-1' });
        await grown.recall('xylophone', { namespace: 'agent-1', mode: 'keyword' }); // statistics made at one memory
        const more = Array.from({ length: 40 }, (_, i) => ({ content: `tuesday note ${i}`, namespace: 'agent-1', force: true }));
        await grown.addMany(more);
        await fresh.add('xylophone lessons on tuesday', { namespace: 'agent-1' });
        await fresh.addMany(more);
        for (const q of ['xylophone tuesday', 'note 7']) {
          // Every match (ties come in store order), compared by content.
          const scores = async (m: Memory) =>
            (await m.recall(q, { namespace: 'agent-1', mode: 'keyword', limit: 100 })).map((h) => [h.content, h.score.toFixed(9), h.relevance]).sort();
          assert.deepEqual(await scores(grown), await scores(fresh), q);
        }
      } finally {
        await grown.close();
        await fresh.close();
      }
    });
  });
}
