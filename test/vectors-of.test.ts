/**
 * The file store's `vectorsOf` hands out views of the Buffers better-sqlite3 reads, not copies
 * (src/search/vector-index.ts `blobView`): each vector must still hold exactly the stored bytes and
 * share its memory with nothing else, and a Buffer that is part of a larger one is copied.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import type { Backend } from '../src/backend/types.js';
import { openMemory } from '../src/index.js';
import { blobToVector, blobView } from '../src/search/vector-index.js';
import { HashEmbedder, tempDb } from './helpers.js';

test('vectorsOf returns the stored vectors, each in memory of its own', async () => {
  const emb = new HashEmbedder();
  const path = tempDb();
  const mem = await openMemory({ path, embedder: emb });
  try {
    for (const t of ['Alpha note about ports', 'Beta note about hosts', 'Gamma note about keys']) await mem.add(t);
    const backend = (mem as unknown as { backend: Backend }).backend;
    const got = await backend.vectorsOf([1, 2, 3, 99], emb.id);
    assert.deepEqual([...got.keys()].sort(), [1, 2, 3]);
    const db = new Database(path, { readonly: true });
    const stored = new Map((db.prepare('SELECT seq, embedding FROM memories').raw().all() as [number, Buffer][]).map(([seq, b]) => [seq, blobToVector(b)]));
    db.close();
    for (const [seq, v] of got) {
      assert.deepEqual(v, stored.get(seq), `seq ${seq}: the stored bytes`);
      assert.equal(v.buffer.byteLength, v.byteLength, `seq ${seq}: the vector is the whole of its memory`);
    }
    // Writing into one vector changes neither another nor what the next read returns.
    const one = got.get(1)!;
    one.fill(7);
    assert.deepEqual(got.get(2), stored.get(2));
    assert.deepEqual((await backend.vectorsOf([1], emb.id)).get(1), stored.get(1));
  } finally {
    await mem.close();
  }
});

test('blobView copies a Buffer that shares memory or is not aligned', () => {
  const floats = new Float32Array([1.5, -2.25, 3.125, 0]);
  const bytes = Buffer.from(floats.buffer);
  // Part of a larger allocation (the Buffer pool, or a slice): a view would alias the rest.
  const big = Buffer.alloc(64);
  bytes.copy(big, 8);
  const part = big.subarray(8, 8 + bytes.length);
  const v = blobView(part);
  assert.deepEqual([...v], [...floats]);
  v[0] = 99;
  assert.equal(big.readFloatLE(8), 1.5, 'a copy: the larger Buffer is untouched');
  // Not 4-byte aligned.
  bytes.copy(big, 3);
  const odd = big.subarray(3, 3 + bytes.length);
  assert.deepEqual([...blobView(odd)], [...floats]);
  // A Buffer that owns its aligned memory: a view (no copy), same values.
  const own = Buffer.from(new Uint8Array(bytes).buffer);
  const w = blobView(own);
  assert.equal(w.buffer, own.buffer);
  assert.deepEqual([...w], [...floats]);
});
