/**
 * The order in which EmbedPool hands out batches: longest first, so a bulk call ends on a short
 * batch (the callers sort texts by length, which puts the longest batch last). Results keep the
 * callers' order. Run with no worker threads: the calling thread takes every batch, in queue order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EmbedPool } from '../src/embed/pool.js';

test('batches are embedded longest first, and the results come back in the order given', async () => {
  const seen: string[][] = [];
  const pool = new EmbedPool(
    0,
    async (texts) => {
      seen.push(texts);
      return texts.map((t) => [t.length]);
    },
    true,
    (err) => assert.fail(err),
  );
  // Ascending lengths, as the embedding cache builds them; one tie (the stable order keeps it).
  const batches = [
    ['a', 'bb'],
    ['ccc', 'dddd'],
    ['eeeee', 'ffffff'],
    ['gggggg', 'h'],
    ['iiiiiiiiiiiiiiiiiiii', 'j'],
  ];
  const out = await pool.embed(batches);
  assert.deepEqual(
    out.map((b) => b.map((v) => v[0])),
    batches.map((b) => b.map((t) => t.length)),
    'results in the callers order',
  );
  assert.deepEqual(seen, [batches[4], batches[2], batches[1], batches[3], batches[0]]);
  await pool.close();
});
