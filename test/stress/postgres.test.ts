/**
 * Many writers on one PostgreSQL database, heavy variant (`npm run stress`): 8 processes × 150 rounds
 * of adds, key upserts, repeated texts and updates of one shared memory, on a real server
 * (`MNEMOLITE_TEST_PG_URL`, or a throwaway cluster from the machine's initdb/pg_ctl).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openMemory } from '../../src/index.js';
import { runTs } from '../helpers.js';
import { freshSchema, startPostgres } from '../pg-servers.js';

const server = await startPostgres();
after(async () => {
  await server?.stop();
});

test('stress: 8 processes x 150 rounds on one PostgreSQL schema: no lost update, one row per key and per repeated text', {
  skip: !server && 'no PostgreSQL server on this machine',
  timeout: 900_000,
}, async (t) => {
  const rounds = 150;
  const loc = { url: server!.url, postgres: { schema: freshSchema() } };
  const mem = await openMemory({ ...loc, embedder: 'none' });
  try {
    const shared = await mem.add('shared memory, version 0', { category: 'c-0' });
    const spec = JSON.stringify({ loc, vectors: false, shared: shared.id, rounds });
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => runTs('test/workers/store-writer.ts', [spec, String(i)])));
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    t.diagnostic(`${server!.label}: 8 writers x ${rounds} rounds in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    assert.equal(await mem.count({ namespace: 'own' }), 8 * rounds);
    assert.equal(await mem.count({ namespace: 'keys' }), 5);
    assert.equal(await mem.count({ namespace: 'dup' }), 1);
    const s = await mem.get(shared.id);
    assert.equal(s?.content, `shared memory, version ${rounds}`);
    assert.equal(s?.category, `c-${rounds}`);
    assert.equal(s?.importance, rounds / 1000);
    assert.deepEqual(s?.metadata, { w3: rounds });
    assert.equal((await mem.history(shared.id)).length, rounds + 1);
  } finally {
    await mem.close();
  }
});
