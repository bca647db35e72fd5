/**
 * One of several processes writing to the same store at once (test/store-targets.test.ts).
 * argv: JSON { loc, vectors, shared, rounds? (default 20) }, worker index. Workers 0-3 each own one
 * field of the shared memory (content, category, importance, metadata); others only add and upsert.
 */
import { openMemory, type OpenOptions } from '../../src/index.js';
import { HashEmbedder } from '../helpers.js';

const spec = JSON.parse(process.argv[2]!) as { loc: Pick<OpenOptions, 'path' | 'url' | 'postgres'>; vectors: boolean; shared: string; rounds?: number };
const i = Number(process.argv[3]);
const mem = await openMemory({ ...spec.loc, embedder: spec.vectors ? new HashEmbedder() : 'none', busyTimeoutMs: 30_000 });
try {
  for (let v = 1; v <= (spec.rounds ?? 20); v++) {
    await mem.add(`worker ${i} memory ${v}`, { namespace: 'own' });
    await mem.add(`key ${v % 5} written by worker ${i}`, { namespace: 'keys', key: `key-${v % 5}` });
    if (v % 4 === 0) await mem.add('exactly once please', { namespace: 'dup' });
    if (i === 0) await mem.update(spec.shared, { content: `shared memory, version ${v}` });
    if (i === 1) await mem.update(spec.shared, { category: `c-${v}` });
    if (i === 2) await mem.update(spec.shared, { importance: v / 1000 });
    if (i === 3) await mem.update(spec.shared, { metadata: { w3: v } });
  }
} finally {
  await mem.close();
}
