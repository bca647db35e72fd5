// Dates are real calendar dates (issue 16, item 11): `2026-02-30` is refused instead of being
// stored as March 2, and old dates (year 0001 on) are accepted instead of refused before 1900.
// The same table goes through the library, the HTTP API and the CLI.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MnemoliteError, openMemory } from '../src/index.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { cli, tempDb } from './helpers.js';

/** [input, the ISO string it is stored as, or null: refused]. */
const TABLE: [string, string | null][] = [
  ['2026-02-28', '2026-02-28T00:00:00.000Z'],
  ['2026-02-29', null],
  ['2026-02-30', null],
  ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ['1900-02-29', null],
  ['2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z'],
  ['2026-04-31', null],
  ['2026-13-01', null],
  ['2026-00-10', null],
  ['2026-01-00', null],
  ['2026-01-01T24:00:00Z', null],
  ['2026-01-01T23:60:00Z', null],
  ['2026-01-01T23:59:60Z', null],
  ['2026-03-01T12:00:00+02:00', '2026-03-01T10:00:00.000Z'],
  ['2026-03-01T12:00:00+25:00', null],
  ['1899-12-31', '1899-12-31T00:00:00.000Z'],
  ['1066-10-14T09:00:00Z', '1066-10-14T09:00:00.000Z'],
  ['0050-06-15', '0050-06-15T00:00:00.000Z'],
  ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ['0000-12-31', null],
  ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
  ['last tuesday', null],
  ['2026/02/30', null],
];

const closers: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
});

test('dates: real calendar dates are stored exactly, impossible ones refused, old ones accepted (library and HTTP)', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const app = createServer({ memory: mem });
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(
    () => mem.close(),
    () => app.close(),
  );
  const base = serverUrl(app);
  for (const [input, stored] of TABLE) {
    const before = await mem.count({ namespace: '*' });
    const r = await mem.add(`api ${input}`, { createdAt: input }).then(
      (x) => x,
      (e: unknown) => e,
    );
    const res = await fetch(`${base}/api/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: `http ${input}`, createdAt: input }),
    });
    const body = (await res.json()) as { id?: string; error?: { code: string; message: string } };
    if (stored === null) {
      assert.ok(r instanceof MnemoliteError && r.code === 'INVALID_INPUT', `${input}: refused by the library (got ${String(r)})`);
      assert.match(r.message, /valid date/);
      assert.equal(res.status, 400, `${input}: refused over HTTP`);
      assert.equal(body.error?.code, 'INVALID_INPUT');
      assert.equal(await mem.count({ namespace: '*' }), before, `${input}: nothing written`);
      // Filters refuse them too (a since of Feb 30 would silently mean March 2).
      await assert.rejects(mem.list({ since: input }), { code: 'INVALID_INPUT' });
    } else {
      assert.ok(!(r instanceof Error), `${input}: accepted by the library (got ${String(r)})`);
      assert.equal((await mem.get((r as { id: string }).id))!.createdAt.toISOString(), stored, `${input}: stored as written`);
      assert.equal(res.status, 201, `${input}: accepted over HTTP (${JSON.stringify(body)})`);
      assert.equal((await mem.get(body.id!))!.createdAt.toISOString(), stored);
      assert.ok(Array.isArray(await mem.list({ since: input })));
    }
  }
  // A conversation turn's time goes through the same check.
  const n = await mem.count({ namespace: '*' });
  await assert.rejects(mem.addConversation([{ speaker: 'A', content: 'x', at: '2026-02-30T10:00:00Z' }]), { code: 'INVALID_INPUT' });
  assert.equal(await mem.count({ namespace: '*' }), n);
});

test('dates: the CLI refuses 2026-02-30 and keeps 1850-06-01', () => {
  const db = tempDb();
  const bad = cli(['--db', db, '--embedder', 'none', 'add', 'x', '--created-at', '2026-02-30']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /valid date/);
  const ok = cli(['--db', db, '--embedder', 'none', '--json', 'add', 'old', '--created-at', '1850-06-01']);
  assert.equal(ok.code, 0, ok.stderr);
  const got = JSON.parse(cli(['--db', db, '--json', 'get', JSON.parse(ok.stdout).id]).stdout);
  assert.equal(got.createdAt, '1850-06-01T00:00:00.000Z');
  const listed = cli(['--db', db, '--json', 'list', '--since', '2026-02-30']);
  assert.equal(listed.code, 1);
});
