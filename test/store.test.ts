import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { MnemoliteError, openMemory } from '../src/index.js';
import { SCHEMA_VERSION } from '../src/store/schema.js';
import { HashEmbedder, tempDb, tempDir } from './helpers.js';

const code = (c: string) => (err: unknown) => err instanceof MnemoliteError && err.code === c;

test('a new file has WAL, the schema version, and readable tables', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  await mem.add('Tabs over spaces', { category: 'preference', metadata: { source: 'chat' } });
  await mem.close();
  const db = new Database(path, { readonly: true });
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
  for (const t of ['memories', 'memories_fts', 'embedding_cache', 'meta', 'changes']) assert.ok(tables.includes(t), t);
  const row = db.prepare('SELECT content, category, metadata, embedding, embedding_model, length(embedding) AS n FROM memories').get() as Record<
    string,
    unknown
  >;
  assert.equal(row.content, 'Tabs over spaces');
  assert.equal(row.metadata, '{"source":"chat"}');
  assert.equal(row.embedding_model, 'hash-64');
  assert.equal(row.n, 64 * 4);
  const v = new Float32Array(new Uint8Array(row.embedding as Buffer).buffer);
  assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5, 'stored vectors are unit length');
  const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
  assert.equal(meta.embedding_model, 'hash-64');
  assert.equal(meta.embedding_dims, '64');
  assert.equal(meta.embedding_provider, 'test');
  db.close();
});

test('pragmas: synchronous NORMAL, foreign keys on, busy timeout set', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none', busyTimeoutMs: 1234 });
  // Reach the connection through a second handle on the same file is not possible; check via the store.
  const store = (mem as unknown as { backend: { store: { db: Database.Database } } }).backend.store;
  assert.equal(store.db.pragma('synchronous', { simple: true }), 1);
  assert.equal(store.db.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(store.db.pragma('busy_timeout', { simple: true }), 1234);
  await mem.close();
});

test('FTS index follows inserts, updates and deletes (triggers)', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  const { id } = await mem.add('The deploy target is a Raspberry Pi');
  await mem.update(id, { content: 'The deploy target is an Intel NUC' });
  const db = new Database(path, { readonly: true });
  const match = (w: string) => db.prepare('SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?').pluck().get(w);
  assert.equal(match('raspberry'), 0);
  assert.equal(match('nuc'), 1);
  await mem.forget(id);
  assert.equal(match('nuc'), 0);
  assert.equal(db.prepare("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'deploy'").pluck().get(), 0);
  db.close();
  await mem.close();
});

test('a file that is not SQLite is refused and left byte-for-byte untouched', async () => {
  const path = join(tempDir(), 'notes.db');
  const bytes = Buffer.from('these are my notes, not a database\n'.repeat(20));
  writeFileSync(path, bytes);
  await assert.rejects(openMemory({ path, embedder: 'none' }), code('NOT_A_DATABASE'));
  assert.deepEqual(readFileSync(path), bytes);
});

test('a truncated database is refused and left untouched', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  await mem.add('something');
  await mem.close();
  const cut = readFileSync(path).subarray(0, 50);
  writeFileSync(path, cut);
  await assert.rejects(openMemory({ path, embedder: 'none' }), code('NOT_A_DATABASE'));
  assert.deepEqual(readFileSync(path), cut);
});

test('a SQLite database of another application is refused and left untouched', async () => {
  const path = tempDb();
  const db = new Database(path);
  db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
  db.close();
  const before = readFileSync(path);
  await assert.rejects(openMemory({ path, embedder: 'none' }), code('NOT_A_DATABASE'));
  assert.deepEqual(readFileSync(path), before);
});

test('a file from a newer schema version is refused and left untouched', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  await mem.add('from the future');
  await mem.close();
  const db = new Database(path);
  db.pragma('journal_mode = DELETE');
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  const before = readFileSync(path);
  await assert.rejects(
    openMemory({ path, embedder: 'none' }),
    (err: unknown) => code('SCHEMA_TOO_NEW')(err) && /Upgrade mnemolite/.test((err as Error).message),
  );
  assert.deepEqual(readFileSync(path), before);
});

test('read-only: opening works, writes are a typed error', async () => {
  const path = tempDb();
  const w = await openMemory({ path, embedder: 'none' });
  await w.add('read me');
  await w.close();
  const r = await openMemory({ path, embedder: 'none', readonly: true });
  assert.equal((await r.recall('read')).length, 1);
  await assert.rejects(r.add('nope'), code('READ_ONLY'));
  await r.close();
});

test('a directory that is not writable gives a READ_ONLY error', { skip: process.getuid?.() === 0 ? 'root ignores permissions' : false }, async () => {
  const dir = join(tempDir(), 'ro');
  mkdirSync(dir);
  chmodSync(dir, 0o555);
  await assert.rejects(openMemory({ path: join(dir, 'm.db'), embedder: 'none' }), code('READ_ONLY'));
});

test('closed memories refuse calls with CLOSED', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  await mem.close();
  await mem.close();
  await assert.rejects(mem.add('x'), code('CLOSED'));
  await assert.rejects(mem.recall('x'), code('CLOSED'));
});
