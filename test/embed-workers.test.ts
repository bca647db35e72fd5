/**
 * Bulk embedding on worker threads (src/embed/pool.ts): the real bundled model in real worker
 * threads gives bit-identical vectors to the single-thread path, the calling thread never loads
 * the model for bulk work, and small calls stay on the calling thread.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalEmbedder, openMemory, type ExportRecord } from '../src/index.js';
import { tempDb } from './helpers.js';

const PEOPLE = ['Caroline', 'Melanie', 'Jon', 'Gina', 'Ayşe', '李雷'];
const TOPICS = ['the pottery class', 'a trip to Lisbon', 'the new job at the bakery', 'adopting a second dog', 'the marathon in May', 'moving to Kraków'];
const FEEL = [
  'I loved it',
  'it was harder than I thought',
  'we should plan it together',
  'honestly I am still nervous',
  'the kids could not stop talking about it',
];

/** Chat-like turns of varied length, deterministic. */
function turns(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const extra = i % 3 === 0 ? ` Also, ${TOPICS[(i * 7) % TOPICS.length]} came up again and ${FEEL[(i * 3) % FEEL.length]}.` : '';
    return `${PEOPLE[i % PEOPLE.length]}: Turn ${i} about ${TOPICS[i % TOPICS.length]}; ${FEEL[i % FEEL.length]}.${extra}`;
  });
}

function vectorsById(records: ExportRecord[]): Map<string, number[]> {
  return new Map(records.map((r) => [r.content, r.embedding!]));
}

async function exportAll(path: string, embedder: LocalEmbedder): Promise<ExportRecord[]> {
  const mem = await openMemory({ path, embedder });
  try {
    return [...mem.export({ vectors: true })];
  } finally {
    await mem.close();
  }
}

test('addMany on worker threads gives the same vectors, bit for bit, as on one thread', async () => {
  const texts = turns(100);
  const single = new LocalEmbedder({ workers: 0 });
  const pooled = new LocalEmbedder({ workers: 2, workerThreshold: 40 });
  const a = tempDb();
  const b = tempDb();
  const ma = await openMemory({ path: a, embedder: single });
  await ma.addMany(texts.map((content) => ({ content })));
  await ma.close();
  const mb = await openMemory({ path: b, embedder: pooled });
  await mb.addMany(texts.map((content) => ({ content })));
  await mb.close();

  // The work went to both workers, and this thread never loaded the model: its event loop only passed messages.
  const stats = pooled.workerStats();
  assert.equal(stats.length, 2);
  assert.equal(
    stats.reduce((n, s) => n + s.texts, 0),
    100,
  );
  assert.ok(
    stats.every((s) => s.batches >= 1),
    JSON.stringify(stats),
  );
  assert.equal(pooled.loadedHere, false);
  assert.equal(single.workerStats().length, 0);

  const va = vectorsById(await exportAll(a, new LocalEmbedder({ workers: 0 })));
  const vb = vectorsById(await exportAll(b, new LocalEmbedder({ workers: 0 })));
  assert.equal(va.size, 100);
  for (const [content, v] of va) assert.deepEqual(vb.get(content), v, content);
});

test('reindex on worker threads matches reindex on one thread', async () => {
  const texts = turns(90).map((t) => `${t} (reindexed)`);
  const paths = [tempDb(), tempDb()];
  for (const path of paths) {
    const mem = await openMemory({ path, embedder: 'none' });
    await mem.addMany(texts.map((content) => ({ content, force: true })));
    await mem.close();
  }
  const pooled = new LocalEmbedder({ workers: 2, workerThreshold: 40 });
  const embedders = [new LocalEmbedder({ workers: 0 }), pooled];
  for (let i = 0; i < 2; i++) {
    const mem = await openMemory({ path: paths[i]!, embedder: embedders[i]! });
    const r = await mem.reindex();
    assert.deepEqual(r, { embedded: 90, total: 90 });
    await mem.close();
  }
  // reindex asks for 64 at a time; prepareBulk(90) started the workers before the first batch.
  assert.equal(
    pooled.workerStats().reduce((n, s) => n + s.texts, 0),
    90,
  );
  assert.equal(pooled.loadedHere, false);
  const va = vectorsById(await exportAll(paths[0]!, new LocalEmbedder({ workers: 0 })));
  const vb = vectorsById(await exportAll(paths[1]!, new LocalEmbedder({ workers: 0 })));
  for (const [content, v] of va) assert.deepEqual(vb.get(content), v, content);
});

test('small calls stay on the calling thread (no workers started)', async () => {
  const e = new LocalEmbedder({ workers: 2, workerThreshold: 40 });
  const mem = await openMemory({ path: tempDb(), embedder: e });
  await mem.addMany(turns(12).map((content) => ({ content })));
  await mem.recall('pottery class');
  await mem.close();
  assert.deepEqual(e.workerStats(), []);
  assert.equal(e.loadedHere, true);
});

test('worker options are checked', () => {
  assert.throws(() => new LocalEmbedder({ workers: -1 }), { code: 'INVALID_INPUT' });
  assert.throws(() => new LocalEmbedder({ workers: 1.5 }), { code: 'INVALID_INPUT' });
  assert.throws(() => new LocalEmbedder({ workerThreshold: 0 }), { code: 'INVALID_INPUT' });
  assert.equal(new LocalEmbedder({ workers: 1 }).workers, 0);
  assert.equal(new LocalEmbedder({ workers: 3 }).workers, 3);
});
