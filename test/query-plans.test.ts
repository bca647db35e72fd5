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
import { openMemory } from '../src/index.js';
import type { Memory } from '../src/memory/memory.js';
import { HashEmbedder, tempDb } from './helpers.js';

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
  return `Note ${i}: the ${a} plan mentions ${b} and item ${i * 31}`;
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
  for (let n = 0; n < 60; n++) await mem.addMany(Array.from({ length: 20 }, (_, j) => ({ content: text(10_000 + n * 20 + j), namespace: `ns${n}` })));
}

/** One of each path: recall (new and repeated questions, every mode), add, update, forget, import, erase. */
async function exercise(mem: Memory): Promise<void> {
  for (const q of ['what about the deploy budget?', 'coffee printer holiday', 'which tennis recipe was it']) {
    await mem.recall(q, { namespace: BIG });
    await mem.recall(q, { namespace: BIG });
    await mem.recall(q, { namespace: 'ns3', mode: 'vector' });
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
