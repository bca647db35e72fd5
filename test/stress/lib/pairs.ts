/**
 * The pair check of the concurrency scenario (test/workers/checks.ts) without the processes:
 * random files where pair memories are a random share of everything (so the pair's shared words
 * "p", "0" are sometimes common enough for BM25 to clamp), D forgotten by a second connection,
 * then keyword / hybrid / vector recall with one candidate per leg in the pair's namespace, by a
 * reader that was open before. This is what made the 4 + 4 test fail about once in 15 runs.
 */
import assert from 'node:assert/strict';
import { openMemory, type RecallMode } from '../../../src/index.js';
import { tempDb } from '../../helpers.js';
import { mulberry32 } from '../../rng.js';
import { WorkerEmbedder, dContent, eContent } from '../../workers/common.js';

/** `rounds` random files; throws on the first pair whose E is not the single hit once D is forgotten. */
export async function pairRounds(rounds: number, seed: number): Promise<{ checks: number }> {
  const r = mulberry32(seed);
  let checks = 0;
  for (let round = 0; round < rounds; round++) {
    const path = tempDb();
    const reader = await openMemory({ path, embedder: new WorkerEmbedder() });
    await reader.recall('warm up', { namespace: '*', mode: 'hybrid' });
    const writer = await openMemory({ path, embedder: new WorkerEmbedder() });
    const nPairs = 1 + Math.floor(r() * 6);
    const nNotes = Math.floor(r() * 6);
    await writer.addMany(Array.from({ length: nNotes }, (_, i) => ({ content: `note w0 i${i} word${Math.floor(r() * 5)}`, namespace: 'team-0' })));
    const pairs: { pair: string; d: string; e: string }[] = [];
    // Names from a few writers and op numbers, as in the real run, so "p" and the numbers repeat.
    const names = [...new Set(Array.from({ length: 40 }, () => `p-${Math.floor(r() * 2)}-${Math.floor(r() * 4)}`))].slice(0, nPairs);
    for (const pair of names) {
      const [d, e] = await writer.addMany([
        { content: dContent(pair), namespace: `pr-${pair}`, category: pair },
        { content: eContent(pair), namespace: `pr-${pair}`, category: pair },
      ]);
      pairs.push({ pair, d: d!.id, e: e!.id });
    }
    for (const p of pairs) if (r() < 0.6) await writer.forget(p.d);
    for (const p of pairs) {
      const dAlive = (await writer.get(p.d)) !== null;
      for (const mode of ['keyword', 'hybrid', 'vector'] as RecallMode[]) {
        for (const byCategory of [false, true]) {
          const scope = byCategory ? { namespace: `pr-${p.pair}`, category: p.pair } : { namespace: `pr-${p.pair}` };
          const hits = await reader.recall(dContent(p.pair), { ...scope, mode, limit: 1, candidates: 1 });
          const want = dAlive ? p.d : p.e;
          assert.deepEqual(
            hits.map((h) => h.id),
            [want],
            `round ${round} (seed ${seed}), ${nPairs} pairs, ${nNotes} notes, ${p.pair} ${dAlive ? 'with' : 'without'} D, ${mode}, byCategory ${byCategory}`,
          );
          checks++;
        }
      }
    }
    await writer.close();
    await reader.close();
  }
  return { checks };
}
