/**
 * eventAt (issue 15, item 4): when a memory happened, not only when it was stored. On every store
 * (test/store-matrix.ts), through the schema 3 → 4 migration of the file and of PostgreSQL, and on
 * the surfaces (CLI child process, HTTP server, MCP server, function-calling tools).
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import { MnemoliteError, memoryTools, migrateMemories, openMemory, type ExportRecord } from '../src/index.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../src/pg/schema.js';
import { whereClause } from '../src/store/filter.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from '../src/store/schema.js';
import { HashEmbedder, cli, tempDb } from './helpers.js';
import { freshSchema } from './pg-servers.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

async function refused(p: Promise<unknown>, field: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT' && field.test(e.message));
}

for (const t of targets) {
  describe(`eventAt on ${t.name}`, () => {
    test('stored, read back by get/list/recall, null when not given; set and cleared by update', async () => {
      const mem = await openMemory({ ...t.fresh(), embedder: 'none' });
      try {
        const a = await mem.add('Quarterly budget meeting with the finance team', { eventAt: '2023-05-08T13:56:00+02:00' });
        const b = await mem.add('Plain note about the budget');
        assert.equal(iso((await mem.get(a.id))!.eventAt), '2023-05-08T11:56:00.000Z', 'normalised to UTC');
        assert.equal((await mem.get(b.id))!.eventAt, null);
        const listed = new Map((await mem.list()).map((m) => [m.id, iso(m.eventAt)]));
        assert.deepEqual(Object.fromEntries(listed), { [a.id]: '2023-05-08T11:56:00.000Z', [b.id]: null });
        const hits = await mem.recall('budget meeting', { mode: 'keyword' });
        assert.deepEqual(new Set(hits.map((h) => `${h.id}=${iso(h.eventAt)}`)), new Set([`${a.id}=2023-05-08T11:56:00.000Z`, `${b.id}=null`]));

        const u1 = await mem.update(b.id, { eventAt: new Date('2024-01-02T03:04:05Z') });
        assert.equal(iso(u1.eventAt), '2024-01-02T03:04:05.000Z');
        const u2 = await mem.update(b.id, { content: 'Plain note about the budget, edited' });
        assert.equal(iso(u2.eventAt), '2024-01-02T03:04:05.000Z', 'an update without eventAt keeps it');
        const u3 = await mem.update(b.id, { eventAt: null });
        assert.equal(u3.eventAt, null, 'null clears it');
      } finally {
        await mem.close();
      }
    });

    test('key upserts restate eventAt', async () => {
      const mem = await openMemory({ ...t.fresh(), embedder: 'none' });
      try {
        const r1 = await mem.add('User lives in Berlin', { key: 'home', eventAt: '2020-01-01' });
        const r2 = await mem.add('User lives in Munich', { key: 'home', eventAt: '2024-06-01' });
        assert.equal(r2.id, r1.id);
        assert.equal(iso((await mem.get(r1.id))!.eventAt), '2024-06-01T00:00:00.000Z');
        await mem.add('User lives in Hamburg', { key: 'home' });
        assert.equal((await mem.get(r1.id))!.eventAt, null, 'an upsert without eventAt is a new statement without one');
      } finally {
        await mem.close();
      }
    });

    test('a near-duplicate merge keeps the old eventAt unless the add gives one', { skip: !t.vectors && 'needs vectors' }, async () => {
      const mem = await openMemory({ ...t.fresh(), embedder: new HashEmbedder(), nearDuplicates: 'merge', dedupThreshold: 0.8 });
      try {
        const first = await mem.add('The team offsite is in Lisbon this spring with the whole team', { eventAt: '2020-03-01T00:00:00Z' });
        const merged = await mem.add('The team offsite is in Lisbon this spring with the entire team');
        assert.equal(merged.deduplicated, 'merged');
        assert.equal(merged.id, first.id);
        assert.equal(iso((await mem.get(first.id))!.eventAt), '2020-03-01T00:00:00.000Z');
        const again = await mem.add('The team offsite is in Lisbon this spring with all the team', { eventAt: '2021-04-01T00:00:00Z' });
        assert.equal(again.deduplicated, 'merged');
        assert.equal(iso((await mem.get(first.id))!.eventAt), '2021-04-01T00:00:00.000Z');
      } finally {
        await mem.close();
      }
    });

    test('since / until compare eventAt ?? createdAt; timeField "created" compares createdAt', async () => {
      const mem = await openMemory({ ...t.fresh(), embedder: 'none' });
      try {
        // Stored in 2026 about a 2023 meeting; stored in 2023 with no event time; stored in 2023 about a 2021 trip.
        const late = await mem.add('Budget meeting in Berlin', { createdAt: '2026-01-10T00:00:00Z', eventAt: '2023-05-08T00:00:00Z' });
        const plain = await mem.add('Budget review in Munich', { createdAt: '2023-05-20T00:00:00Z' });
        const old = await mem.add('Budget trip to Oslo', { createdAt: '2023-05-25T00:00:00Z', eventAt: '2021-07-01T00:00:00Z' });
        const may = { since: '2023-05-01T00:00:00Z', until: '2023-06-01T00:00:00Z' };
        const ids = (rs: { id: string }[]): string[] => rs.map((r) => r.id).sort();
        assert.deepEqual(ids(await mem.recall('budget', { ...may, mode: 'keyword' })), [late.id, plain.id].sort());
        assert.deepEqual(ids(await mem.list(may)), [late.id, plain.id].sort());
        assert.equal(await mem.count(may), 2);
        assert.deepEqual(ids(await mem.recall('budget', { ...may, timeField: 'created', mode: 'keyword' })), [old.id, plain.id].sort());
        assert.deepEqual(ids(await mem.list({ ...may, timeField: 'created' })), [old.id, plain.id].sort());
        const exported: string[] = [];
        for await (const r of mem.export({ since: '2023-01-01T00:00:00Z', until: '2024-01-01T00:00:00Z' })) exported.push(r.id);
        assert.deepEqual(exported.sort(), [late.id, plain.id].sort());
        await refused(mem.recall('budget', { timeField: 'stored' as 'created' }), /timeField/);
      } finally {
        await mem.close();
      }
    });

    test('the time preference uses eventAt over createdAt; context() shows the event date', async () => {
      const mem = await openMemory({ ...t.fresh(), embedder: 'none' });
      try {
        const now = '2026-03-20T12:00:00Z';
        // `stored` is the stronger keyword match and was stored in November 2025, but it happened in 2024;
        // `happened` was stored in 2026 about a November 2025 meeting.
        const stored = await mem.add('Budget meeting: the budget meeting agreed the budget for the budget year', {
          createdAt: '2025-11-12T00:00:00Z',
          eventAt: '2024-02-01T00:00:00Z',
        });
        const happened = await mem.add('Notes from a budget meeting with the board', { createdAt: '2026-03-01T00:00:00Z', eventAt: '2025-11-03T10:00:00Z' });
        const q = 'budget meeting in November 2025';
        const first = async (o: object): Promise<string> => (await mem.recall(q, { mode: 'keyword', now, ...o }))[0]!.id;
        assert.equal(await first({ timePreference: false }), stored.id, 'without the preference the stronger match leads');
        assert.equal(await first({}), happened.id, 'the memory that happened in the window leads');
        assert.equal(await first({ timeField: 'created' }), stored.id, 'by stored time, the other one is in the window');
        const block = await mem.context('budget meeting', { mode: 'keyword', minRelevance: 0, now });
        assert.match(block.text, /2025-11-03/);
        assert.match(block.text, /2024-02-01/);
        assert.doesNotMatch(block.text, /2026-03-01|2025-11-12/, 'creation dates are not shown when an event date is');
      } finally {
        await mem.close();
      }
    });

    test("addConversation: a turn's at, else the conversation's eventAt", async () => {
      const mem = await openMemory({ ...t.fresh(), embedder: 'none' });
      try {
        const res = await mem.addConversation(
          [
            { speaker: 'Caroline', content: 'I went to the support group yesterday and it was great' },
            { speaker: 'Melanie', content: 'That sounds wonderful, tell me more about it', at: '2023-05-08T14:00:00Z' },
          ],
          { sessionId: 'D1', eventAt: '2023-05-08T13:56:00Z', minWords: 0 },
        );
        const [m0, m1] = await Promise.all(res.map((r) => mem.get(r.id)));
        assert.equal(iso(m0!.eventAt), '2023-05-08T13:56:00.000Z');
        assert.ok(m0!.createdAt.getTime() > Date.parse('2025-01-01'), 'the conversation date leaves createdAt alone');
        assert.equal(iso(m1!.eventAt), '2023-05-08T14:00:00.000Z');
        assert.equal(iso(m1!.createdAt), '2023-05-08T14:00:00.000Z', "a turn's at is also its createdAt, as before");
        await refused(mem.addConversation([{ speaker: 'A', content: 'hello there friend' }], { sessionId: 'D2', eventAt: 'yesterday' }), /eventAt/);
      } finally {
        await mem.close();
      }
    });

    test('invalid eventAt is refused with INVALID_INPUT and nothing is written', async () => {
      const mem = await openMemory({ ...t.fresh(), embedder: 'none' });
      try {
        const kept = await mem.add('A memory to update', { eventAt: '2022-02-02T00:00:00Z' });
        for (const bad of ['not a date', '2023-02-30T25:00:00Z', '', 12345, {}] as unknown[]) {
          await refused(mem.add('never stored', { eventAt: bad as string }), /eventAt/);
          await refused(mem.addMany([{ content: 'first of two' }, { content: 'second of two', eventAt: bad as string }]), /eventAt/);
          await refused(mem.update(kept.id, { content: 'changed', eventAt: bad as string }), /eventAt/);
        }
        assert.equal(await mem.count(), 1);
        const m = (await mem.get(kept.id))!;
        assert.equal(m.content, 'A memory to update');
        assert.equal(iso(m.eventAt), '2022-02-02T00:00:00.000Z');
      } finally {
        await mem.close();
      }
    });

    test('export → import keeps eventAt; records without it (older exports) import with none', async () => {
      const src = await openMemory({ ...t.fresh(), embedder: 'none' });
      const dst = await openMemory({ path: tempDb(), embedder: 'none' });
      try {
        const a = await src.add('Trip to Lisbon', { eventAt: '2019-09-09T09:09:09.009Z' });
        const b = await src.add('Trip to Porto');
        const recs: ExportRecord[] = [];
        for await (const r of src.export()) recs.push(r);
        assert.equal(recs.find((r) => r.id === a.id)!.eventAt, '2019-09-09T09:09:09.009Z');
        assert.equal('eventAt' in recs.find((r) => r.id === b.id)!, false, 'absent when not set, as in exports before schema 4');
        const older = { id: '01900000-0000-7000-8000-000000000001', content: 'From an old export', createdAt: '2024-01-01T00:00:00.000Z' };
        assert.deepEqual(await dst.import([...recs.map((r) => JSON.parse(JSON.stringify(r)) as unknown), older]), { imported: 3, replaced: 0, skipped: 0 });
        assert.equal(iso((await dst.get(a.id))!.eventAt), '2019-09-09T09:09:09.009Z');
        assert.equal((await dst.get(b.id))!.eventAt, null);
        assert.equal((await dst.get(older.id))!.eventAt, null);
        await assert.rejects(
          dst.import([{ content: 'bad', eventAt: 'soon' }]),
          (e: unknown) => e instanceof MnemoliteError && /record 1.*eventAt/.test(e.message),
        );
        assert.equal(await dst.count(), 3);
      } finally {
        await src.close();
        await dst.close();
      }
    });
  });
}

test('migrate file → PostgreSQL → file keeps eventAt', async () => {
  const file = await openMemory({ path: tempDb(), embedder: 'none' });
  const pg = await openMemory({ ...targets[1]!.fresh(), embedder: 'none' });
  const back = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    const a = await file.add('Concert in Vienna', { eventAt: '2018-12-31T20:00:00Z' });
    const b = await file.add('No date here');
    await migrateMemories(file, pg);
    await migrateMemories(pg, back);
    for (const m of [pg, back]) {
      assert.equal(iso((await m.get(a.id))!.eventAt), '2018-12-31T20:00:00.000Z', m.storage);
      assert.equal((await m.get(b.id))!.eventAt, null, m.storage);
    }
  } finally {
    await file.close();
    await pg.close();
    await back.close();
  }
});

test('a schema-3 file (an earlier DDL) migrates to the current schema: rows kept without eventAt, the time index is used', async () => {
  const path = tempDb();
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.slice(0, 3)) raw.exec(m);
  raw.pragma('user_version = 3');
  raw.pragma(`application_id = ${APPLICATION_ID}`);
  raw.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', '3')").run();
  raw
    .prepare(`INSERT INTO memories(id, namespace, content, created_at, updated_at, content_hash)
      VALUES ('old-1', 'default', 'Legacy memory about Oslo', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'h')`)
    .run();
  raw.close();
  assert.ok(SCHEMA_VERSION >= 4);
  const mem = await openMemory({ path, embedder: 'none' });
  try {
    assert.equal((await mem.stats()).schemaVersion, SCHEMA_VERSION);
    assert.equal((await mem.get('old-1'))!.eventAt, null);
    const n = await mem.add('New memory about Oslo', { eventAt: '2020-02-02T00:00:00Z' });
    assert.deepEqual(
      (await mem.recall('Oslo', { mode: 'keyword', until: '2024-01-01T00:00:00Z' })).map((h) => h.id),
      [n.id],
    );
  } finally {
    await mem.close();
  }
  const db = new Database(path, { readonly: true });
  try {
    const cols = (db.prepare('PRAGMA table_info(memories)').all() as { name: string }[]).map((c) => c.name);
    assert.ok(cols.includes('event_at'));
    // The filter's own SQL (src/store/filter.ts) can be answered from the index on (namespace, coalesce(event_at, created_at)):
    // INDEXED BY fails to prepare when the index cannot serve the WHERE clause.
    const w = whereClause({ namespace: 'default', since: '2020-01-01T00:00:00Z', until: '2021-01-01T00:00:00Z' });
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN SELECT m.seq FROM memories m INDEXED BY memories_namespace_time WHERE ${w.sql}`).all(...w.params) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(' | ');
    assert.match(plan, /USING (COVERING )?INDEX memories_namespace_time \(namespace=\? AND <expr>>\? AND <expr><\?\)/);
  } finally {
    db.close();
  }
});

for (const from of [3, 4]) {
  test(`a PostgreSQL schema-${from} store (the earlier DDL) migrates to ${PG_SCHEMA_VERSION}: rows kept without eventAt, the time index made`, async () => {
    const { default: pg } = await import('pg');
    const schema = freshSchema();
    const c = new pg.Client({ connectionString: targets.pglite.url });
    await c.connect();
    try {
      await c.query(`CREATE SCHEMA "${schema}"; SET search_path TO "${schema}", public`);
      for (const m of PG_MIGRATIONS.slice(0, from)) await c.query(m);
      await c.query(`INSERT INTO meta(key, value) VALUES ('schema_version', $1)`, [String(from)]);
      await c.query(`INSERT INTO memories(id, namespace, content, created_at, updated_at, content_hash)
        VALUES ('old-1', 'default', 'Legacy memory about Oslo', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 'h')`);
    } finally {
      await c.end();
    }
    assert.ok(PG_SCHEMA_VERSION >= 5, 'schema 4 of PostgreSQL is the per-namespace keyword statistics; eventAt is 5');
    const mem = await openMemory({ url: targets.pglite.url, postgres: { schema, poolSize: 1 }, embedder: 'none' });
    try {
      assert.equal((await mem.stats()).schemaVersion, PG_SCHEMA_VERSION);
      assert.equal((await mem.get('old-1'))!.eventAt, null);
      const n = await mem.add('New memory about Oslo', { eventAt: '2020-02-02T00:00:00Z' });
      assert.deepEqual(
        (await mem.recall('Oslo', { mode: 'keyword', until: '2024-01-01T00:00:00Z' })).map((h) => h.id),
        [n.id],
      );
    } finally {
      await mem.close();
    }
    const c2 = new pg.Client({ connectionString: targets.pglite.url });
    await c2.connect();
    try {
      const r = await c2.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = 'memories_namespace_time'`, [schema]);
      assert.equal(r.rows.length, 1);
    } finally {
      await c2.end();
    }
  });
}

// ---- surfaces ------------------------------------------------------------------------------

test('CLI: add/update --event-at, shown by get, list and recall (human and --json); bad dates refused', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  const add = cli([...base, '--json', 'add', '--event-at', '2023-05-08T13:56:00Z', 'Budget meeting with the board']);
  assert.equal(add.code, 0, add.stderr);
  const id = (JSON.parse(add.stdout) as { id: string }).id;
  const get = cli([...base, '--json', 'get', id]);
  assert.equal((JSON.parse(get.stdout) as { eventAt: string }).eventAt, '2023-05-08T13:56:00.000Z');
  assert.match(cli([...base, 'get', id]).stdout, /happened: +2023-05-08T13:56:00\.000Z/);
  const list = cli([...base, 'list']).stdout;
  assert.match(list.split('\n')[0]!, /happened/);
  assert.match(list, /2023-05-08 13:56/);
  const recall = cli([...base, 'recall', 'budget']).stdout;
  assert.match(recall, /2023-05-08/);
  const rj = JSON.parse(cli([...base, '--json', 'recall', 'budget']).stdout) as { eventAt: string }[];
  assert.equal(rj[0]!.eventAt, '2023-05-08T13:56:00.000Z');
  assert.equal(JSON.parse(cli([...base, '--json', 'list', '--since', '2023-05-01', '--until', '2023-06-01']).stdout).length, 1);
  assert.equal(JSON.parse(cli([...base, '--json', 'list', '--since', '2023-05-01', '--until', '2023-06-01', '--time-field', 'created']).stdout).length, 0);

  const upd = cli([...base, '--json', 'update', id, '--event-at', '2024-01-01']);
  assert.equal(upd.code, 0, upd.stderr);
  assert.equal((JSON.parse(upd.stdout) as { eventAt: string }).eventAt, '2024-01-01T00:00:00.000Z');
  const cleared = cli([...base, '--json', 'update', id, '--no-event-at']);
  assert.equal((JSON.parse(cleared.stdout) as { eventAt: string | null }).eventAt, null);

  const bad = cli([...base, 'add', '--event-at', 'someday', 'Never stored']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /eventAt/);
  const badUpd = cli([...base, 'update', id, '--event-at', '2023-99-99']);
  assert.notEqual(badUpd.code, 0);
  assert.match(badUpd.stderr, /eventAt/);
  assert.equal(JSON.parse(cli([...base, '--json', 'list']).stdout).length, 1, 'nothing was written');
});

test('HTTP: eventAt on add, update (null clears), records, recall, the OpenAPI document; bad dates are 400', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const app = createServer({ memory: mem, inspector: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = serverUrl(app);
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const r = await fetch(`${url}${path}`, {
      method,
      ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
    return { status: r.status, json: await r.json() };
  };
  try {
    const add = await call('POST', '/api/memories', { content: 'Budget meeting with the board', eventAt: '2023-05-08T13:56:00Z' });
    assert.equal(add.status, 201, JSON.stringify(add.json));
    const id = add.json.id as string;
    assert.equal((await call('GET', `/api/memories/${id}`)).json.eventAt, '2023-05-08T13:56:00.000Z');
    const plain = await call('POST', '/api/memories', { content: 'Budget note' });
    assert.equal((await call('GET', `/api/memories/${plain.json.id}`)).json.eventAt, null);
    const hits = (await call('POST', '/api/recall', { query: 'budget meeting', since: '2023-05-01T00:00:00Z', until: '2023-06-01T00:00:00Z' })).json.hits;
    assert.deepEqual(
      hits.map((h: { id: string; eventAt: string }) => [h.id, h.eventAt]),
      [[id, '2023-05-08T13:56:00.000Z']],
    );
    const listed = (await call('GET', '/api/memories?since=2023-05-01T00:00:00Z&until=2023-06-01T00:00:00Z&timeField=created')).json;
    assert.equal(listed.total, 0);
    assert.equal((await call('PATCH', `/api/memories/${id}`, { eventAt: null })).json.eventAt, null);
    const bad = await call('POST', '/api/memories', { content: 'Never stored', eventAt: 'not a date' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.code, 'INVALID_INPUT');
    assert.equal(await mem.count(), 2);
    const doc = (await call('GET', '/openapi.json')).json;
    const text = JSON.stringify(doc.components.schemas);
    for (const s of ['AddRequest', 'UpdateRequest', 'Memory', 'RecallHit', 'ExportRecord'])
      assert.ok(JSON.stringify(doc.components.schemas[s]).includes('eventAt'), `${s} documents eventAt`);
    assert.ok(text.includes('timeField'));
  } finally {
    await app.close();
    await mem.close();
  }
});

test('tools: memory_store takes eventAt; recall, get and list results carry it', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    const tools = memoryTools(mem);
    const stored = await tools.execute('memory_store', { content: 'Dentist appointment about the crown', eventAt: '2026-04-02T09:30:00Z' });
    assert.equal(stored.ok, true);
    const rec = await tools.execute('memory_recall', { query: 'dentist appointment', minRelevance: 0 });
    assert.ok(rec.ok);
    const hit = (rec.data.hits as { eventAt: string | null }[])[0]!;
    assert.equal(hit.eventAt, '2026-04-02T09:30:00.000Z');
    assert.match(rec.text, /happened: 2026-04-02 09:30 UTC/);
    const bad = await tools.execute('memory_store', { content: 'Never stored', eventAt: 'next week' });
    assert.equal(bad.ok, false);
    assert.equal(await mem.count(), 1);
    assert.ok(JSON.stringify(tools.definitions.find((d) => d.name === 'memory_store')!.parameters).includes('eventAt'));
  } finally {
    await mem.close();
  }
});

test('MCP server: memory_store with eventAt, memory_get shows it', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { CLI } = await import('./helpers.js');
  const db = tempDb();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--db', db, '--embedder', 'none', 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  const client = new Client({ name: 'mnemolite-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: 'memory_store', arguments: { content: 'Flight to Tokyo', eventAt: '2026-07-01T06:00:00Z' } })) as unknown as {
      structuredContent: { id: string };
      isError?: boolean;
    };
    assert.ok(!r.isError);
    const g = (await client.callTool({ name: 'memory_get', arguments: { id: r.structuredContent.id } })) as unknown as {
      structuredContent: { memory: { eventAt: string } };
      content: { type: string; text: string }[];
    };
    assert.equal(g.structuredContent.memory.eventAt, '2026-07-01T06:00:00.000Z');
    assert.match(g.content[0]!.text, /happened: 2026-07-01 06:00 UTC/);
  } finally {
    await client.close();
  }
});
