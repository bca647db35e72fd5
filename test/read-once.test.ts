/**
 * One recall reads each candidate's row and vector once (src/recall/read-once.ts), on a real file
 * store: the wrapper answers as the store does, and a seq asked for again is not read again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Backend } from '../src/backend/types.js';
import { openMemory } from '../src/index.js';
import { readOnce } from '../src/recall/read-once.js';
import { HashEmbedder, tempDb } from './helpers.js';

test('readOnce answers as the store does and reads each seq once', async () => {
  const emb = new HashEmbedder();
  const mem = await openMemory({ path: tempDb(), embedder: emb });
  try {
    for (const t of ['Alpha note', 'Beta note', 'Gamma note']) await mem.add(t);
    const backend = (mem as unknown as { backend: Backend }).backend;
    const asked: number[][] = [];
    // Count what reaches the real store (a pass-through, not a replacement).
    const counting: Pick<Backend, 'rowsBySeqs' | 'vectorsOf'> = {
      rowsBySeqs: (s) => {
        asked.push(s);
        return backend.rowsBySeqs(s);
      },
      vectorsOf: (s, m) => {
        asked.push(s);
        return backend.vectorsOf(s, m);
      },
    };
    const reads = readOnce(counting);
    const all = [...(await backend.rowsBySeqs([1, 2, 3, 99])).keys()];
    assert.deepEqual(all.sort(), [1, 2, 3]);
    const first = await reads.rowsBySeqs([1, 2, 99]);
    const second = await reads.rowsBySeqs([2, 3, 99]);
    assert.deepEqual([...first.keys()].sort(), [1, 2]);
    assert.deepEqual([...second.keys()].sort(), [2, 3]);
    assert.deepEqual(second.get(3), (await backend.rowsBySeqs([3])).get(3));
    assert.deepEqual(asked, [[1, 2, 99], [3]], 'seq 2 and the absent 99 are not read again');
    asked.length = 0;
    const v1 = await reads.vectorsOf([1, 2], emb.id);
    const v2 = await reads.vectorsOf([2, 3], emb.id);
    assert.deepEqual(v2.get(2), v1.get(2));
    assert.deepEqual(v2.get(3), (await backend.vectorsOf([3], emb.id)).get(3));
    assert.deepEqual(asked, [[1, 2], [3]]);
    assert.equal((await reads.vectorsOf([1], 'other-model')).size, 0, 'vectors are kept per model');
  } finally {
    await mem.close();
  }
});
