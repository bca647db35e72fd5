/**
 * Files mnemolite must refuse or treat with care: not SQLite, truncated, corrupted, newer schema,
 * another application's database, read-only files and directories. In every case: a typed error
 * (never a raw SQLite error), and the file left byte-for-byte as it was.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MnemoliteError, openMemory, type Memory } from '../src/index.js';
import { SCHEMA_VERSION } from '../src/store/schema.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { CLI, HashEmbedder, cli, tempDir } from './helpers.js';
import { property, runs } from './stress/lib/prop.js';

const CODES = new Set([
  'INVALID_INPUT',
  'NOT_FOUND',
  'NOT_A_DATABASE',
  'SCHEMA_TOO_NEW',
  'EMBEDDING_MISMATCH',
  'EMBEDDER_FAILED',
  'SEMANTIC_DISABLED',
  'READ_ONLY',
  'BUSY',
  'CLOSED',
  'STORAGE',
]);

/** Run `fn`; it must resolve, or reject with a MnemoliteError of a known code. Returns the code or null. */
async function typed(what: string, fn: () => Promise<unknown> | unknown): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (err) {
    assert.ok(err instanceof MnemoliteError, `${what}: raw ${(err as Error)?.name}: ${(err as Error)?.message}`);
    assert.ok(CODES.has(err.code), `${what}: unknown code ${err.code}`);
    assert.ok(err.message.length > 20, `${what}: message says what to do`);
    return err.code;
  }
}

/** The file and any -wal / -shm beside it. */
function snapshot(path: string): Record<string, Buffer | null> {
  const out: Record<string, Buffer | null> = {};
  for (const p of [path, `${path}-wal`]) out[p] = existsSync(p) ? readFileSync(p) : null;
  return out;
}

function assertUntouched(_path: string, before: Record<string, Buffer | null>, what: string): void {
  for (const [p, b] of Object.entries(before)) {
    const now = existsSync(p) ? readFileSync(p) : null;
    if (b === null) assert.ok(now === null || now.length === 0, `${what}: ${p} was not created with content`);
    else assert.ok(now !== null && b.equals(now), `${what}: ${p} is byte-for-byte unchanged`);
  }
}

/** A real mnemolite file with `n` memories, closed cleanly (no -wal). */
async function realFile(n = 150): Promise<{ path: string; bytes: Buffer; records: string[] }> {
  const path = join(tempDir(), 'real.db');
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  await mem.addMany(
    Array.from({ length: n }, (_, i) => ({
      content: `memory ${i} about ${['tea', 'rust', 'pi', 'deploy'][i % 4]} ${'lorem ipsum '.repeat(i % 20)}`,
      namespace: `ns${i % 3}`,
      metadata: { i },
    })),
  );
  const records = [...mem.export()].map((r) => JSON.stringify(r));
  await mem.close();
  return { path, bytes: readFileSync(path), records };
}

/** Every read the API offers, each of which must resolve or fail typed. */
async function readEverything(mem: Memory, what: string): Promise<{ codes: (string | null)[]; exported: string[] | null }> {
  const codes: (string | null)[] = [];
  let exported: string[] | null = null;
  for (const mode of ['keyword', 'vector', 'hybrid'] as const)
    codes.push(await typed(`${what} recall ${mode}`, () => mem.recall('tea deploy', { namespace: '*', mode })));
  codes.push(await typed(`${what} list`, () => mem.list({ namespace: '*', limit: 1000 })));
  codes.push(await typed(`${what} count`, () => mem.count({ namespace: '*' })));
  codes.push(await typed(`${what} stats`, () => mem.stats()));
  codes.push(await typed(`${what} get`, () => mem.get('01a22d00-0000-7000-8000-000000000000')));
  codes.push(
    await typed(`${what} export`, () => {
      exported = [...mem.export()].map((r) => JSON.stringify(r));
    }),
  );
  return { codes, exported };
}

test('files that are not SQLite (random bytes, or a SQLite header on garbage) are refused with NOT_A_DATABASE and left untouched', async () => {
  const dir = tempDir();
  let n = 0;
  const garbage = fc.uint8Array({ minLength: 1, maxLength: 6000 });
  const fakeHeader = fc.uint8Array({ minLength: 84, maxLength: 6000 }).map((b) => Buffer.concat([Buffer.from('SQLite format 3\u0000', 'latin1'), b]));
  await property(
    fc.asyncProperty(fc.oneof(garbage, fakeHeader), fc.boolean(), async (bytes, readonly) => {
      const path = join(dir, `f${n++}.db`);
      writeFileSync(path, bytes);
      const before = snapshot(path);
      const code = await typed('open', async () => {
        const m = await openMemory({ path, embedder: new HashEmbedder(), readonly });
        await m.close();
      });
      assert.equal(code, 'NOT_A_DATABASE', `bytes ${Buffer.from(bytes).subarray(0, 20).toString('hex')}`);
      assertUntouched(path, before, 'not SQLite');
    }),
    { numRuns: runs(60) },
  );
  // The CLI says so in one line, exit code 1.
  const path = join(dir, 'notes.txt');
  writeFileSync(path, 'meeting notes, definitely not a database\n'.repeat(10));
  const before = snapshot(path);
  for (const args of [['add', 'x'], ['list'], ['backup', join(dir, 'b.db')]]) {
    const r = cli(['--db', path, '--embedder', 'none', ...args]);
    assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /^error: .*not a SQLite database/);
  }
  assertUntouched(path, before, 'CLI on a text file');
});

test('a truncated database is refused with NOT_A_DATABASE at open and left untouched (API and CLI)', { timeout: 120_000 }, async () => {
  const { bytes } = await realFile();
  const dir = tempDir();
  let n = 0;
  await property(
    fc.asyncProperty(fc.integer({ min: 1, max: bytes.length - 1 }), fc.boolean(), async (len, readonly) => {
      const path = join(dir, `t${n++}.db`);
      writeFileSync(path, bytes.subarray(0, len));
      const before = snapshot(path);
      assert.equal(await typed('open', () => openMemory({ path, embedder: new HashEmbedder(), readonly })), 'NOT_A_DATABASE', `truncated at ${len}`);
      assertUntouched(path, before, `truncated at ${len}`);
    }),
    { numRuns: runs(40) },
  );
  const path = join(dir, 'cut.db');
  writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const before = snapshot(path);
  for (const args of [['add', 'x'], ['list'], ['recall', 'tea']]) {
    const r = cli(['--db', path, '--embedder', 'none', ...args]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^error: .*truncated.*Restore it from a backup/);
  }
  assertUntouched(path, before, 'CLI on a truncated file');
});

test('a corrupted database (bytes overwritten anywhere): every call resolves or fails typed, damage is NOT_A_DATABASE, a read-only session leaves it untouched', {
  timeout: 120_000,
}, async () => {
  const { bytes, records } = await realFile();
  const dir = tempDir();
  let n = 0;
  const seen = new Set<string>();
  const damage = fc.array(fc.record({ at: fc.integer({ min: 16, max: bytes.length - 1 }), len: fc.integer({ min: 1, max: 4096 }), seed: fc.integer() }), {
    minLength: 1,
    maxLength: 4,
  });
  await property(
    fc.asyncProperty(damage, fc.boolean(), async (ds, readonly) => {
      const copy = Buffer.from(bytes);
      for (const d of ds) for (let i = 0; i < d.len && d.at + i < copy.length; i++) copy[d.at + i] = (d.seed + i * 2654435761) & 0xff;
      const path = join(dir, `c${n++}.db`);
      writeFileSync(path, copy);
      const before = snapshot(path);
      let mem: Memory | undefined;
      const code = await typed('open', async () => {
        mem = await openMemory({ path, embedder: new HashEmbedder(), readonly });
      });
      seen.add(String(code));
      if (mem) {
        const r = await readEverything(mem, 'corrupted');
        await typed('close', () => mem!.close());
        r.codes.forEach((c) => seen.add(String(c)));
        // Whatever comes back is made of the file's own records (a damaged page may drop some).
        if (r.exported) for (const rec of r.exported) assert.equal(typeof (JSON.parse(rec) as { content: unknown }).content, 'string');
        void records;
      }
      // A writable Memory may write (e.g. the query-vector cache) before it reaches a damaged
      // page; a read-only one never writes.
      if (readonly || code !== null) assertUntouched(path, before, 'corrupted');
    }),
    { numRuns: runs(50) },
  );
  assert.ok(seen.has('NOT_A_DATABASE'), 'damage is reported as NOT_A_DATABASE');
});

/** A file whose last transaction is still in its -wal (as left by a crashed or still-running writer). */
function withPendingWal(src: string, mutate: (db: Database.Database) => void): string {
  const dir = tempDir();
  const path = join(dir, 'pending.db');
  const db = new Database(src);
  db.pragma('wal_autocheckpoint = 0');
  mutate(db);
  copyFileSync(src, path);
  copyFileSync(`${src}-wal`, `${path}-wal`);
  db.close();
  assert.ok(readFileSync(`${path}-wal`).length > 0);
  return path;
}

test('a newer schema version is refused with SCHEMA_TOO_NEW; the file and its pending -wal stay byte-for-byte untouched', async () => {
  const { path: src } = await realFile(20);
  // Rollback-journal file: the simple case.
  const plainDir = tempDir();
  const plain = join(plainDir, 'plain.db');
  copyFileSync(src, plain);
  const p = new Database(plain);
  p.pragma('journal_mode = DELETE');
  p.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  p.close();
  // WAL file whose newer-schema commit has not been checkpointed yet: closing a writable
  // connection would checkpoint it into the main file, so opening must not use one.
  const pending = withPendingWal(src, (db) => {
    db.pragma(`user_version = ${SCHEMA_VERSION + 7}`);
    db.exec("CREATE TABLE future_feature (x); INSERT INTO meta(key, value) VALUES ('future', 'yes')");
  });
  for (const path of [plain, pending]) {
    for (const readonly of [false, true]) {
      const before = snapshot(path);
      const code = await typed('open', () => openMemory({ path, embedder: new HashEmbedder(), readonly }));
      assert.equal(code, 'SCHEMA_TOO_NEW');
      await assert.rejects(openMemory({ path, embedder: 'none', readonly }), /newer mnemolite.*Upgrade mnemolite/);
      assertUntouched(path, before, `newer schema (${readonly ? 'readonly' : 'writable'})`);
    }
    const before = snapshot(path);
    for (const args of [
      ['add', 'x'],
      ['import', '-'],
    ]) {
      const r = cli(['--db', path, '--embedder', 'none', ...args], { input: '{"content":"x"}\n' });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /newer mnemolite/);
    }
    assertUntouched(path, before, 'newer schema via the CLI');
  }
});

test("another application's SQLite file (with or without application_id, pending -wal) is refused and untouched", async () => {
  const dir = tempDir();
  const base = join(dir, 'app.db');
  const db = new Database(base);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices(total) VALUES (9.5)');
  db.close();
  const noId = withPendingWal(base, (d) => d.exec('INSERT INTO invoices(total) VALUES (1)'));
  const withId = withPendingWal(base, (d) => {
    d.pragma('application_id = 1234');
    d.exec('INSERT INTO invoices(total) VALUES (2)');
  });
  for (const path of [noId, withId]) {
    const before = snapshot(path);
    for (const readonly of [false, true]) assert.equal(await typed('open', () => openMemory({ path, embedder: 'none', readonly })), 'NOT_A_DATABASE');
    assert.equal(cli(['--db', path, '--embedder', 'none', 'add', 'x']).code, 1);
    assertUntouched(path, before, 'foreign database');
  }
});

test('readonly: true — reads work, every write is READ_ONLY, and the file is byte-for-byte untouched', async () => {
  const { path, records } = await realFile(60);
  const before = snapshot(path);
  const mem = await openMemory({ path, embedder: new HashEmbedder(), readonly: true });
  const r = await readEverything(mem, 'readonly');
  assert.deepEqual(
    r.codes,
    r.codes.map(() => null),
    'every read works',
  );
  assert.deepEqual(r.exported, records);
  const id = JSON.parse(records[0]!).id as string;
  const writes: [string, () => Promise<unknown>][] = [
    ['add', () => mem.add('new')],
    ['addMany', () => mem.addMany([{ content: 'new' }])],
    ['update', () => mem.update(id, { content: 'changed' })],
    ['forget', () => mem.forget(id)],
    ['import', () => mem.import([{ content: 'imported' }])],
    ['reindex', () => mem.reindex()],
  ];
  for (const [name, fn] of writes) assert.equal(await typed(name, fn), 'READ_ONLY', name);
  await mem.close();
  assertUntouched(path, before, 'readonly session');
  // Missing file opened read-only: NOT_FOUND, and nothing is created.
  const missing = join(tempDir(), 'missing.db');
  assert.equal(await typed('open missing', () => openMemory({ path: missing, embedder: 'none', readonly: true })), 'NOT_FOUND');
  assert.equal(existsSync(missing), false);
});

const ROOT_USER = process.getuid?.() === 0;
const NOBODY = 65534;

/** Run the CLI as an unprivileged user (root ignores file permissions, so drop to uid 65534). */
function cliAs(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MNEMOLITE_DB: '' },
    timeout: 60_000,
    ...(ROOT_USER ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** As root, the unprivileged user must be able to run the CLI at all (the checkout may be private). */
const canDrop = !ROOT_USER || spawnSync(process.execPath, [CLI, '--version'], { uid: NOBODY, gid: NOBODY }).status === 0;

test('real permissions: a read-only file and a read-only directory give a clear READ_ONLY error and are untouched', {
  skip: !canDrop && 'uid 65534 cannot read this checkout',
}, async () => {
  // A directory the (unprivileged) CLI user may enter but the file it may not write.
  const dir = tempDir();
  chmodSync(dir, 0o777);
  const path = join(dir, 'm.db');
  assert.equal(cli(['--db', path, '--embedder', 'none', 'add', 'written before the lock']).code, 0);
  chmodSync(path, 0o444);
  const before = snapshot(path);
  const add = cliAs(['--db', path, '--embedder', 'none', 'add', 'should not land']);
  assert.equal(add.code, 1, add.stderr);
  assert.match(add.stderr, /^error: .*not writable.*Check permissions/);
  const list = cliAs(['--db', path, '--embedder', 'none', '--json', 'list']);
  assert.equal(list.code, 0, `reading a read-only file works: ${list.stderr}`);
  assert.deepEqual(
    (JSON.parse(list.stdout) as { content: string }[]).map((m) => m.content),
    ['written before the lock'],
  );
  assertUntouched(path, before, 'read-only file');
  // A file the user may not even read.
  chmodSync(path, 0o000);
  for (const args of [['list'], ['add', 'x']]) {
    const r = cliAs(['--db', path, '--embedder', 'none', ...args]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^error: Cannot read .*Check its permissions/);
  }
  chmodSync(path, 0o444);
  assertUntouched(path, before, 'unreadable file');

  // A read-only directory: new files cannot be created there, existing ones cannot be written.
  const roDir = join(tempDir(), 'ro');
  mkdirSync(roDir);
  const inRo = join(roDir, 'm.db');
  assert.equal(cli(['--db', inRo, '--embedder', 'none', 'add', 'before']).code, 0);
  chmodSync(inRo, 0o666);
  chmodSync(roDir, 0o555);
  chmodSync(join(roDir, '..'), 0o755);
  const beforeRo = snapshot(inRo);
  const w = cliAs(['--db', inRo, '--embedder', 'none', 'add', 'x']);
  assert.equal(w.code, 1, w.stderr);
  assert.match(w.stderr, /^error: .*not writable/);
  const fresh = cliAs(['--db', join(roDir, 'new.db'), '--embedder', 'none', 'add', 'x']);
  assert.equal(fresh.code, 1, fresh.stderr);
  assert.match(fresh.stderr, /^error: .*not writable/);
  assert.equal(existsSync(join(roDir, 'new.db')), false);
  assertUntouched(inRo, beforeRo, 'file in a read-only directory');
  chmodSync(roDir, 0o755);
});

function chattr(flag: '+i' | '-i', path: string): boolean {
  return spawnSync('chattr', [flag, path]).status === 0;
}

test('an immutable file (chattr +i): writes fail READ_ONLY through the API, reads work, file untouched', {
  skip: !ROOT_USER && 'chattr needs root',
}, async (t) => {
  const { path, records } = await realFile(10);
  if (!chattr('+i', path)) {
    t.skip('chattr +i is not supported here');
    return;
  }
  try {
    const before = snapshot(path);
    const mem = await openMemory({ path, embedder: new HashEmbedder() });
    assert.equal(await typed('add', () => mem.add('should not land')), 'READ_ONLY');
    assert.equal(await typed('forget', () => mem.forget(JSON.parse(records[0]!).id as string)), 'READ_ONLY');
    assert.deepEqual(
      [...mem.export()].map((r) => JSON.stringify(r)),
      records,
    );
    await mem.close();
    assertUntouched(path, before, 'immutable file');
  } finally {
    chattr('-i', path);
  }
});

test('a file deleted or replaced while open: every write is FILE_REPLACED and writes nothing (it used to be acknowledged, then lost); HTTP answers it without the path', async () => {
  const dir = tempDir();
  for (const how of ['deleted', 'replaced by a restore', 'renamed away']) {
    const path = join(dir, `${how.replace(/\W+/g, '-')}.db`);
    const mem = await openMemory({ path, embedder: 'none' });
    const { id } = await mem.add('written before the file went away');
    if (how === 'deleted') {
      for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    } else if (how === 'replaced by a restore') {
      const other = join(dir, 'restore.db');
      const o = await openMemory({ path: other, embedder: 'none' });
      await o.add('the restored copy');
      await o.close();
      renameSync(other, path);
    } else {
      renameSync(path, join(dir, 'moved.db'));
    }
    const writes: [string, () => Promise<unknown>][] = [
      ['add', () => mem.add('lost if acknowledged')],
      ['addMany', () => mem.addMany([{ content: 'lost too' }])],
      ['update', () => mem.update(id, { content: 'changed' })],
      ['forget', () => mem.forget(id)],
      ['import', () => mem.import([{ content: 'imported' }])],
    ];
    for (const [what, run] of writes) {
      await assert.rejects(run, (err: MnemoliteError) => {
        assert.equal(err.code, 'FILE_REPLACED', `${how}, ${what}: ${err.message}`);
        assert.match(err.message, /Nothing was written; open the file again/);
        return true;
      });
    }
    // Reads still see the file that was opened.
    assert.equal((await mem.get(id))?.content, 'written before the file went away', how);
    await mem.close();
  }
  // Over HTTP: a 500 naming "the memory file", not the server's path.
  const path = join(dir, 'served.db');
  const mem = await openMemory({ path, embedder: 'none' });
  const app = createServer({ memory: mem, logError: () => {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    rmSync(path);
    const r = await fetch(`${serverUrl(app)}/api/memories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"content":"x"}' });
    const body = (await r.json()) as { error: { code: string; message: string } };
    assert.equal(r.status, 500);
    assert.equal(body.error.code, 'FILE_REPLACED');
    assert.ok(!body.error.message.includes(dir), body.error.message);
    assert.match(body.error.message, /the memory file was deleted/);
  } finally {
    await app.close();
    await mem.close();
  }
});
