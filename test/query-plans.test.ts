/**
 * Every SQL statement the recall, add, update, forget, import and erase paths run, planned by the
 * real database over a real file: none may scan `memories`, and none may walk a whole namespace
 * (`USING INDEX ... (namespace=?)`) when it filters on something narrower (a hash, an id, a key,
 * a seq, a session). A query-vector lookup that walked the namespace cost 100 ms at 50,000
 * memories before the index on (content_hash, namespace) (schema 6).
 *
 * The file: one namespace holding most memories, and many small namespaces, planned fresh (no
 * ANALYZE statistics, as every user's file is) and again after ANALYZE. PostgreSQL: the same
 * statements' shapes on the real server (MNEMOLITE_TEST_PG_URL), with sequential scans priced
 * out, fail when no index can serve them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openMemory } from '../src/index.js';
import type { Memory } from '../src/memory/memory.js';
import { HashEmbedder, tempDb } from './helpers.js';
import { freshSchema } from './pg-servers.js';

interface Seen {
  sql: string;
  params: unknown[];
}

/** Statements seen while `fn` runs, each with the first parameters it ran with. */
async function capture(fn: () => Promise<void>): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  const saved: Record<string, (...a: unknown[]) => unknown> = {};
  for (const m of ['run', 'get', 'all', 'iterate']) {
    const orig = proto[m]!;
    saved[m] = orig;
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      if (!seen.has(this.source)) seen.set(this.source, { sql: this.source, params: args });
      return orig.apply(this, args);
    };
  }
  try {
    await fn();
  } finally {
    for (const m of Object.keys(saved)) proto[m] = saved[m]!;
  }
  return seen;
}

/** Statements that read every row on purpose (whole-file loads at open, the file's counts). */
const WHOLE_FILE = [
  /^SELECT seq, content FROM memories$/,
  /^SELECT seq, \(SELECT group_concat\(value, ' '\) FROM json_each\(context\)\) FROM memories WHERE context IS NOT NULL$/,
  /^SELECT namespace, group_concat\(seq\) FROM memories GROUP BY namespace$/,
  /^SELECT seq, expires_at FROM memories WHERE expires_at IS NOT NULL AND pinned = 0$/,
];

/** Columns narrower than a namespace: a statement filtering on one must not walk the namespace. */
const NARROW = /\b(content_hash|dedup_hash|id|seq|key|session_id|superseded_by)\s*(=\s*\?|IN\s*\()/;

/**
 * `analyzed`: with statistics (SQLite's STAT4 knows the namespace given holds most of the file) a
 * scan is the better plan for a statement that filters on the namespace alone, and is allowed.
 */
function planProblems(db: Database.Database, seen: Map<string, Seen>, analyzed = false): string[] {
  const problems: string[] = [];
  for (const { sql, params } of seen.values()) {
    if (!/\bmemories\b/.test(sql) || /^\s*(PRAGMA|CREATE|DROP|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(sql)) continue;
    if (WHOLE_FILE.some((r) => r.test(sql.trim()))) continue;
    let rows: { detail: string }[];
    try {
      rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[];
    } catch (err) {
      problems.push(`cannot plan: ${sql}\n  ${(err as Error).message}`);
      continue;
    }
    const plan = rows.map((r) => r.detail);
    // "SCAN memories", "SCAN m" (an alias), "SCAN memories USING INDEX ..." (a whole index walk).
    const aliases = new Set(['memories', ...[...sql.matchAll(/\bmemories\s+(?:AS\s+)?([a-z]\w*)/gi)].map((m) => m[1]!)]);
    for (const d of plan) {
      const scan = /^SCAN (\w+)/.exec(d);
      if (scan && aliases.has(scan[1]!) && !/VIRTUAL TABLE/.test(d) && !(analyzed && !NARROW.test(sql)))
        problems.push(`scan of memories: ${sql}\n  ${plan.join('\n  ')}`);
      if (/^SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(namespace=\?\)$/.test(d) && aliases.has(/^SEARCH (\w+)/.exec(d)![1]!) && NARROW.test(sql))
        problems.push(`namespace-wide search where a narrower index exists: ${sql}\n  ${plan.join('\n  ')}`);
    }
  }
  return problems;
}

const BIG = 'main';
const QUESTION_WORDS = ['deploy', 'budget', 'meeting', 'coffee', 'garden', 'invoice', 'holiday', 'printer', 'recipe', 'tennis'];

function text(i: number): string {
  const a = QUESTION_WORDS[i % QUESTION_WORDS.length]!;
  const b = QUESTION_WORDS[(i * 7 + 3) % QUESTION_WORDS.length]!;
  // Rare words too (each in a few memories), as real questions' words mostly are.
  return `Note ${i}: the ${a} plan mentions ${b}, item ${i * 31} and code${i % 997}`;
}

async function fill(mem: Memory): Promise<void> {
  // One namespace with most of the file, and 60 small ones.
  for (let start = 0; start < 4000; start += 500) {
    await mem.addMany(
      Array.from({ length: 500 }, (_, j) => ({
        content: text(start + j),
        namespace: BIG,
        sessionId: `s${(start + j) % 40}`,
        ...((start + j) % 50 === 0 ? { key: `k${start + j}` } : {}),
      })),
    );
  }
  // Chat turns carry conversational context: recall then reads their sessions.
  await mem.addConversation(
    Array.from({ length: 30 }, (_, i) => ({
      speaker: i % 2 ? 'Ben' : 'Ana',
      content: text(20_000 + i),
      at: new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString(),
    })),
    { namespace: BIG, sessionId: 'chat-1' },
  );
  for (let n = 0; n < 60; n++) await mem.addMany(Array.from({ length: 20 }, (_, j) => ({ content: text(10_000 + n * 20 + j), namespace: `ns${n}` })));
}

/** One of each path: recall (new and repeated questions, every mode), add, update, forget, import, erase. */
async function exercise(mem: Memory, vectors = true): Promise<void> {
  for (const q of ['what about code17 and code403?', 'the deploy budget', 'code5 printer holiday code900']) {
    await mem.recall(q, { namespace: BIG });
    await mem.recall(q, { namespace: BIG });
    if (vectors) await mem.recall(q, { namespace: 'ns3', mode: 'vector' });
    await mem.recall(q, { namespace: BIG, mode: 'keyword' });
    await mem.context(q, { namespace: BIG });
  }
  await mem.recall('the meeting last week about the garden', { namespace: BIG, importanceWeight: 1, recency: { halfLife: '30d' }, mmr: true });
  const added = await mem.add('A fresh note about the deploy of the invoice printer', { namespace: BIG, sessionId: 's1', key: 'fresh' });
  await mem.add('A fresh note about the deploy of the invoice printer', { namespace: BIG });
  await mem.add('A fresh note about the deploy of the invoice printer!', { namespace: BIG, supersede: 'auto' } as never);
  await mem.add('Another fresh note', { namespace: BIG, key: 'fresh' });
  await mem.addMany([
    { content: 'batch one about coffee', namespace: 'ns1', sessionId: 'x' },
    { content: 'batch two about coffee', namespace: 'ns1', sessionId: 'x' },
  ]);
  await mem.update(added.id, { content: 'The updated note about the tennis budget' });
  await mem.update(added.id, { metadata: { a: 1 } });
  await mem.get(added.id);
  await mem.history(added.id);
  await mem.list({ namespace: 'ns2', limit: 5 });
  await mem.count({ namespace: BIG });
  await mem.forget(added.id);
  const rec = (await mem.list({ namespace: 'ns4', limit: 3 })).map((r) => ({ ...r, id: undefined, namespace: 'imported' }));
  await mem.import(rec);
  await mem.import(rec);
  await mem.erase({ namespace: 'ns5' });
}

describe('query plans: the file', () => {
  let path: string;
  let mem: Memory;
  before(async () => {
    path = tempDb();
    mem = await openMemory({ path, embedder: new HashEmbedder() });
    await fill(mem);
  });
  after(async () => {
    await mem.close();
  });

  test('no statement of recall, add, update, forget, import or erase scans memories or walks a namespace it need not (fresh file, no ANALYZE)', async () => {
    const seen = await capture(() => exercise(mem));
    assert.ok(seen.size > 20, `statements captured: ${seen.size}`);
    assert.ok(
      [...seen.keys()].some((s) => /content_hash/.test(s) && /namespace = \?/.test(s)),
      'the query-vector lookup within a namespace ran',
    );
    assert.ok(
      [...seen.keys()].some((s) => /json_array\(namespace, session_id\)/.test(s)),
      'the session lookup of chat turns ran',
    );
    const db = new Database(path, { readonly: true });
    try {
      assert.deepEqual(planProblems(db, seen), []);
    } finally {
      db.close();
    }
  });

  test('the same after ANALYZE', async () => {
    const seen = await capture(() => exercise(mem));
    const w = new Database(path);
    w.exec('ANALYZE');
    w.close();
    const db = new Database(path, { readonly: true });
    try {
      assert.deepEqual(planProblems(db, seen, true), []);
    } finally {
      db.close();
    }
  });

  test('the checker fails on the lookup that walked the namespace', () => {
    const db = new Database(path, { readonly: true });
    try {
      const old =
        'SELECT content_hash, embedding FROM memories WHERE content_hash IN (SELECT value FROM json_each(?)) AND embedding_model = ? AND namespace = ?';
      const seen = new Map([[old, { sql: old, params: ['["x"]', 'hash-64', BIG] }]]);
      // Without the (content_hash, namespace) index, SQLite plans it through memories_namespace_time.
      const copy = new Database(':memory:');
      copy.exec(
        'CREATE TABLE memories(seq INTEGER PRIMARY KEY, namespace TEXT, content_hash TEXT, embedding BLOB, embedding_model TEXT, event_at TEXT, created_at TEXT); CREATE INDEX memories_content_hash ON memories(content_hash); CREATE INDEX memories_namespace_time ON memories(namespace, coalesce(event_at, created_at));',
      );
      assert.equal(planProblems(copy, seen).length, 1);
      copy.close();
      assert.equal(
        planProblems(
          db,
          new Map([['SELECT * FROM memories WHERE content IS NOT NULL', { sql: 'SELECT * FROM memories WHERE content IS NOT NULL', params: [] }]]),
        ).length,
        1,
      );
    } finally {
      db.close();
    }
  });
});

/** Statements sent to PostgreSQL while `fn` runs, each with its first parameters. */
async function capturePg(fn: () => Promise<void>): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const orig = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [text, values] = args;
    if (typeof text === 'string' && !seen.has(text)) seen.set(text, { sql: text, params: Array.isArray(values) ? values : [] });
    return orig.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = orig;
  }
  return seen;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Statements the PostgreSQL store reads every row with on purpose (statistics rebuilt for a whole namespace or file). */
const PG_WHOLE = [
  /\bGROUP BY namespace\b/,
  /^ANALYZE/,
  /count\(\*\)::int AS n FROM memories$/,
  // The keyword statistics, made for the whole file once (first open, or after a migration).
  /count\(\*\)::float8 AS n, count\(context\)::float8 AS cn FROM "\w+"\.memories$/,
  /^INSERT INTO "\w+"\.(ctx_)?term_stats\(namespace, term, df\) SELECT m\.namespace, u\.lexeme, count\(\*\)/,
  /\(SELECT count\((\*|context)\)::text FROM "\w+"\.memories\)\) ON CONFLICT/,
];

/**
 * With sequential scans priced out (enable_seqscan = off), a Seq Scan of memories means no index
 * can serve the statement; an index walked without a condition is the same scan in another order;
 * a condition on the namespace alone, where the statement filters on something narrower, walks the namespace.
 */
async function pgPlanProblems(client: pg.Client, seen: Map<string, Seen>): Promise<string[]> {
  const problems: string[] = [];
  for (const { sql, params } of seen.values()) {
    if (!/^\s*(SELECT|UPDATE|DELETE|WITH|INSERT)/i.test(sql) || !/\bmemories\b/.test(sql) || PG_WHOLE.some((r) => r.test(sql.trim()))) continue;
    let plan: PlanNode;
    try {
      await client.query('SAVEPOINT p');
      plan = ((await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
      await client.query('RELEASE SAVEPOINT p');
    } catch (err) {
      await client.query('ROLLBACK TO SAVEPOINT p');
      problems.push(`cannot plan: ${sql}\n  ${(err as Error).message}`);
      continue;
    }
    const walk = (n: PlanNode): void => {
      if (n['Relation Name'] === 'memories' || (n['Index Name'] ?? '').startsWith('memories_')) {
        if (n['Node Type'] === 'Seq Scan') problems.push(`seq scan of memories: ${sql}`);
        // A partial index of rare rows (superseded, expiring) walked whole is bounded by those rows.
        const partial = ['memories_search_hnsw', 'memories_superseded_by', 'memories_expires'].includes(n['Index Name'] ?? '');
        if (/Index/.test(n['Node Type']) && !n['Index Cond'] && !partial) problems.push(`index walked whole (${n['Index Name']}): ${sql}`);
        const cond = n['Index Cond'] ?? '';
        if (/namespace/.test(cond) && !/AND/.test(cond) && /memories_namespace_(time|created)/.test(n['Index Name'] ?? '') && NARROW_PG.test(sql))
          problems.push(`namespace-wide search (${n['Index Name']}: ${cond}) where a narrower index exists: ${sql}`);
      }
      for (const c of n.Plans ?? []) walk(c);
    };
    walk(plan);
  }
  return problems;
}

const NARROW_PG = /\b(content_hash|dedup_hash|id|seq|key|session_id|superseded_by)\s*(=\s*(\$\d|ANY)|IN\s*\()/;

describe('query plans: PostgreSQL', { skip: process.env.MNEMOLITE_TEST_PG_URL ? false : 'MNEMOLITE_TEST_PG_URL not set' }, () => {
  const url = process.env.MNEMOLITE_TEST_PG_URL!;
  const schema = freshSchema();
  let mem: Memory;
  let vectors = true;
  before(async () => {
    try {
      mem = await openMemory({ url, postgres: { schema }, embedder: new HashEmbedder() });
    } catch (err) {
      // A server without pgvector: the keyword store (its statements are the ones it runs).
      if ((err as { code?: string }).code !== 'UNSUPPORTED') throw err;
      vectors = false;
      mem = await openMemory({ url, postgres: { schema }, embedder: 'none' });
    }
    await fill(mem);
  });
  after(async () => {
    await mem.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });

  test('no statement of recall, add, update, forget, import or erase needs a scan of memories or walks a namespace it need not', async () => {
    const seen = await capturePg(() => exercise(mem, vectors));
    assert.ok([...seen.keys()].filter((s) => /\bmemories\b/.test(s)).length > 20, `statements captured: ${seen.size}`);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query('BEGIN');
      await c.query(`SET LOCAL search_path TO "${schema}", public`);
      await c.query('ANALYZE memories');
      await c.query('SET LOCAL enable_seqscan = off');
      assert.deepEqual(await pgPlanProblems(c, seen), []);
      await c.query('ROLLBACK');
    } finally {
      await c.end();
    }
  });
});
