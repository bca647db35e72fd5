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

test('migrate copies each namespace profile with its versions, file -> PostgreSQL -> file, and says so', {
  skip: !real && 'no PostgreSQL server here (.ci/run starts one)',
}, async () => {
  const path = tempDb();
  const src = await openMemory({ path, embedder: 'none' });
  await src.add('Alice likes green tea', { namespace: 'alice' });
  await src.profile.set('City: Lisbon', { namespace: 'alice' });
  await src.profile.set('City: Porto', { namespace: 'alice' });
  await src.profile.set('Name: Bob', { namespace: 'bob' });
  const want = (await src.profile.history({ namespace: 'alice' })).versions;
  await src.close();
  const schema = freshSchema();
  let r = await cliAsync(['--json', 'migrate', '--from', path, '--to', real!.url, '--to-schema', schema]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { profiles: unknown }).profiles, { imported: 2, replaced: 0, skipped: 0 });
  const back = tempDb();
  r = await cliAsync(['--embedder', 'none', 'migrate', '--from', real!.url, '--from-schema', schema, '--to', back]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /migrated 1 memories .*; profiles: imported 2, replaced 0, skipped 0/);
  const dst = await openMemory({ path: back, embedder: 'none' });
  try {
    assert.deepEqual((await dst.profile.history({ namespace: 'alice' })).versions, want, 'versions, contents and times kept');
    assert.equal((await dst.profile.get({ namespace: 'bob' })).content, 'Name: Bob');
  } finally {
    await dst.close();
  }
});
