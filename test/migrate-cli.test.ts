/**
 * `mnemolite migrate` carries a keyword-only source's identity: a file without vectors migrates into a
 * PostgreSQL server without pgvector with no `--embedder none` (real server, real child process).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openMemory } from '../src/index.js';
import { cliAsync, tempDb } from './helpers.js';
import { freshSchema, startPostgres } from './pg-servers.js';

const real = await startPostgres().catch(() => null);
after(async () => {
  await real?.stop();
});

test('migrate from a keyword-only file keeps it keyword-only (no --embedder none needed)', {
  skip: !real && 'no PostgreSQL server here (.ci/run starts one)',
}, async () => {
  const path = tempDb();
  const src = await openMemory({ path, embedder: 'none' });
  await src.addMany([{ content: 'We deploy on a Raspberry Pi' }, { content: 'Alice drinks green tea', namespace: 'agent-1' }]);
  await src.close();
  const schema = freshSchema();
  const r = await cliAsync(['--json', 'migrate', '--from', path, '--to', real!.url, '--to-schema', schema]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { imported: number }).imported, 2);
  const dst = await openMemory({ url: real!.url, postgres: { schema }, embedder: 'none' });
  try {
    assert.equal(await dst.count({ namespace: '*' }), 2);
    assert.equal((await dst.stats()).embedding, null, 'still keyword-only');
    assert.equal((await dst.recall('raspberry'))[0]?.content, 'We deploy on a Raspberry Pi');
  } finally {
    await dst.close();
  }
});
