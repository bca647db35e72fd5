/**
 * One store test suite, three targets: the SQLite file; PGlite (PostgreSQL 18 in WebAssembly,
 * with pgvector) over a loopback socket; a real PostgreSQL server over TCP (`.ci/run` starts
 * PostgreSQL 15, which has no pgvector: that target runs keyword-only and says so).
 * Same calls, same assertions: the Memory API must behave the same on every store.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MnemoliteError, migrateMemories, openMemory, type Embedder, type ExportRecord, type Memory, type OpenOptions } from '../src/index.js';
import { CLI, HashEmbedder, cliAsync, runTs, tempDb } from './helpers.js';
import { memory } from './arbitraries.js';
import { freshSchema, startPglite, startPostgres, type PgServer } from './pg-servers.js';
import { PG_SCHEMA_VERSION } from '../src/pg/schema.js';
import { erasedCacheKeys } from '../src/lifecycle/erase.js';

type Location = Pick<OpenOptions, 'path' | 'url' | 'postgres'>;

interface Target {
  name: string;
  /** Whether vectors can be stored (pgvector present, or the file). */
  vectors: boolean;
  /** Whether several processes may write at once (not PGlite: one backend session behind the socket). */
  concurrent: boolean;
  /** A new, empty store. */
  fresh(): Location;
}

const pglite = await startPglite();
let real: PgServer | null = null;
let realError = '';
try {
  real = await startPostgres();
} catch (err) {
  realError = (err as Error).message;
}
after(async () => {
  await pglite.stop();
  await real?.stop();
});

const targets: Target[] = [
  { name: 'SQLite file', vectors: true, concurrent: true, fresh: () => ({ path: tempDb() }) },
  // PGlite runs one backend session: the pool is kept at one connection.
  { name: pglite.label, vectors: true, concurrent: false, fresh: () => ({ url: pglite.url, postgres: { schema: freshSchema(), poolSize: 1 } }) },
];
if (real) {
  const r = real;
  targets.push({ name: r.label, vectors: r.vectors, concurrent: true, fresh: () => ({ url: r.url, postgres: { schema: freshSchema() } }) });
}

test('targets', (t) => {
  for (const x of targets) t.diagnostic(`${x.name}: ${x.vectors ? 'keyword + vector' : 'keyword only (no pgvector on this server; vector tests are skipped)'}`);
  if (!real) t.diagnostic(`real PostgreSQL server: not available (${realError || 'no MNEMOLITE_TEST_PG_URL and no initdb/pg_ctl'}); .ci/run provides one`);
  assert.ok(targets.length >= 2);
});

/** Typed error check: the call fails with `code`. */
async function rejects(code: string, fn: () => Promise<unknown>): Promise<MnemoliteError> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof MnemoliteError, `expected a MnemoliteError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected ${code}`);
}

async function all(mem: Memory): Promise<ExportRecord[]> {
  const out: ExportRecord[] = [];
  for await (const r of mem.export({ vectors: true })) out.push(r);
  return out;
}

/** Rows of the store's tables (memories with their context, history, cache) whose text holds `needle`, and cache rows under `keys`. */
async function rowsHolding(loc: Location, needle: string, keys: string[]): Promise<string[]> {
  const like = `%${needle}%`;
  const queries: [string, string][] = [
    ['memories', 'SELECT count(*) AS n FROM memories WHERE content LIKE $1 OR context::text LIKE $1'],
    ['memory_history', 'SELECT count(*) AS n FROM memory_history WHERE content LIKE $1'],
  ];
  const found: string[] = [];
  if (loc.path) {
    const db = new Database(loc.path, { readonly: true });
    try {
      for (const [t, q] of queries)
        if (
          (db
            .prepare(q.replace(/::text/g, '').replace(/\$1/g, '@like'))
            .pluck()
            .get({ like }) as number) > 0
        )
          found.push(t);
      if (
        (db
          .prepare('SELECT count(*) FROM embedding_cache WHERE content_hash IN (SELECT value FROM json_each(?))')
          .pluck()
          .get(JSON.stringify(keys)) as number) > 0
      )
        found.push('embedding_cache');
    } finally {
      db.close();
    }
    return found;
  }
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: loc.url });
  await c.connect();
  try {
    // Tables named with the schema: PGlite's one session is shared, so no SET search_path here.
    const qualified = (q: string): string => q.replace(/\b(memories|memory_history|embedding_cache)\b/g, `"${loc.postgres!.schema}".$1`);
    for (const [t, q] of queries) if (Number((await c.query(qualified(q), [like])).rows[0].n) > 0) found.push(t);
    if (Number((await c.query(qualified('SELECT count(*) AS n FROM embedding_cache WHERE content_hash = ANY($1)'), [keys])).rows[0].n) > 0)
      found.push('embedding_cache');
  } finally {
    await c.end();
  }
  return found;
}

for (const T of targets) {
  const emb = (): Embedder | 'none' => (T.vectors ? new HashEmbedder() : 'none');
  const open = (loc: Location, o: Partial<OpenOptions> = {}): Promise<Memory> => openMemory({ ...loc, embedder: emb(), ...o });

  describe(T.name, () => {
    test("import refuses supersededBy links to another namespace and replace of another namespace's id; history reads stay in the namespace", async () => {
      const loc = T.fresh();
      const mem = await open(loc);
      try {
        const secret = await mem.add('agent one private launch code 4471', { namespace: 'agent-1' });
        const before = await all(mem);
        const linked = await rejects('INVALID_INPUT', () => mem.import([{ content: 'agent two note', namespace: 'agent-2', supersededBy: secret.id }]));
        assert.match(linked.message, /record 1: supersededBy .* another namespace/);
        const inFile = '01900000-0000-7000-8000-0000000000aa';
        await rejects('INVALID_INPUT', () =>
          mem.import([
            { id: inFile, content: 'x', namespace: 'agent-1' },
            { content: 'y', namespace: 'agent-2', supersededBy: inFile },
          ]),
        );
        const moved = await rejects('INVALID_INPUT', () =>
          mem.import([{ id: secret.id, content: 'taken over', namespace: 'agent-2' }], { onConflict: 'replace' }),
        );
        assert.match(moved.message, /never moves a memory between namespaces/);
        assert.deepEqual(await all(mem), before, 'nothing written');
        // Same namespace: links and replace work.
        const r = await mem.import(
          [
            { content: 'agent one older note', namespace: 'agent-1', supersededBy: secret.id },
            { id: secret.id, content: 'agent one private launch code 4472', namespace: 'agent-1' },
          ],
          { onConflict: 'replace' },
        );
        assert.deepEqual([r.imported, r.replaced], [1, 1]);
        assert.deepEqual(
          (await mem.history(secret.id, { namespace: 'agent-1' })).map((v) => v.content).sort(),
          ['agent one older note', 'agent one private launch code 4471', 'agent one private launch code 4472'].sort(),
        );
        if (T.name === 'SQLite file') {
          // A link made by an older version: history read from agent-1 does not show agent-2's text.
          const other = await mem.add('agent two private diary', { namespace: 'agent-2' });
          await mem.close();
          const db = new Database((loc as { path: string }).path);
          db.prepare('UPDATE memories SET superseded_by = ? WHERE id = ?').run(secret.id, other.id);
          db.close();
          const again = await open(loc);
          try {
            const h = await again.history(secret.id, { namespace: 'agent-1' });
            assert.ok(h.length >= 2 && h.every((v) => !v.content.includes('diary')), JSON.stringify(h.map((v) => v.content)));
          } finally {
            await again.close();
          }
        }
      } finally {
        await mem.close().catch(() => {});
      }
    });

    test('import checks vectors: huge ones are normalised; zero, non-finite, non-numeric and wrong-length ones refuse the file with nothing written', {
      skip: !T.vectors,
    }, async () => {
      const mem = await open(T.fresh());
      try {
        const model = mem.embedder!.id,
          dims = mem.embedder!.dims;
        await mem.add('what is the weather today');
        const huge = await mem.import([{ content: 'poisoned record', embedding: Array.from({ length: dims }, () => 1e30), embeddingModel: model }]);
        assert.equal(huge.imported, 1);
        const rec = (await all(mem)).find((r) => r.content === 'poisoned record')!;
        assert.ok(Math.abs(Math.hypot(...rec.embedding!) - 1) < 1e-5, 'stored normalised');
        assert.equal((await mem.recall('what is the weather today', { mode: 'hybrid', limit: 1 }))[0]!.content, 'what is the weather today');
        const bad: [unknown[], RegExp][] = [
          [Array.from({ length: dims }, () => 0), /all zeros/],
          [Array.from({ length: dims }, (_, i) => (i === 3 ? Infinity : 0.1)), /\[3\] is Infinity/],
          [Array.from({ length: dims }, (_, i) => (i === 5 ? null : 0.1)), /\[5\] is null/],
          [Array.from({ length: dims }, (_, i) => (i === 1 ? '0.1' : 0.1)), /\[1\] is string/],
          [Array.from({ length: dims + 1 }, () => 0.1), new RegExp(`${dims + 1} numbers but model`)],
        ];
        const before = await mem.count({ namespace: '*' });
        for (const [embedding, msg] of bad) {
          const e = await rejects('INVALID_INPUT', () =>
            mem.import([{ content: 'fine record first' }, { content: 'bad vector', embedding, embeddingModel: model }]),
          );
          assert.match(e.message, msg);
          assert.match(e.message, /record 2/);
        }
        assert.equal(await mem.count({ namespace: '*' }), before, 'nothing written');
      } finally {
        await mem.close();
      }
    });

    test('the embedding caches are scoped by namespace: a text held only by another namespace never takes the cache-hit path', {
      skip: !T.vectors,
    }, async () => {
      const loc = T.fresh();
      const writer = await open(loc);
      const mem = await open(loc);
      try {
        const secrets = Array.from({ length: 20 }, (_, i) => `agent two private secret number ${i} kept in vault ${i * 7}`);
        const others = secrets.map((x) => `${x} (second copy)`);
        await writer.addMany([...secrets, ...others].map((content) => ({ content, namespace: 'agent-2' })));
        // agent-2 also recalls them, so the query-vector cache holds them too (under agent-2).
        for (const s of secrets) await writer.recall(s, { namespace: 'agent-2', mode: 'vector', limit: 1 });
        const delta = async (fn: () => Promise<unknown>): Promise<{ hits: number; misses: number }> => {
          const a = mem.embeddingCacheCounters;
          await fn();
          const b = mem.embeddingCacheCounters;
          return { hits: b.hits - a.hits, misses: b.misses - a.misses };
        };
        for (const s of secrets) {
          // A caller scoped to agent-1 (recall, and add as a probe) gets a miss every time.
          assert.deepEqual(await delta(() => mem.recall(s, { namespace: 'agent-1', mode: 'vector', limit: 1 })), { hits: 0, misses: 1 }, `recall: ${s}`);
          assert.deepEqual(await delta(() => mem.recall(`${s} `.trim(), { namespace: 'agent-3', mode: 'hybrid', limit: 1 })), { hits: 0, misses: 1 });
        }
        assert.deepEqual(
          await delta(() => mem.addMany(others.slice(0, 5).map((content) => ({ content, namespace: 'agent-1' })))),
          { hits: 0, misses: 5 },
          'add',
        );
        // Within a namespace the cache still works: agent-2's own texts, and agent-1's repeated query.
        assert.deepEqual(await delta(() => mem.recall(secrets[7]!, { namespace: 'agent-2', mode: 'vector', limit: 1 })), { hits: 1, misses: 0 });
        assert.deepEqual(await delta(() => mem.recall(secrets[7]!, { namespace: 'agent-1', mode: 'vector', limit: 1 })), { hits: 1, misses: 0 });
        assert.deepEqual(await delta(() => mem.addMany([{ content: secrets[9]!, namespace: 'agent-2', key: 'k9' }])), { hits: 1, misses: 0 });
        // Every namespace (no scope): the whole file's cache, as before.
        assert.deepEqual(await delta(() => mem.recall(secrets[12]!, { namespace: '*', mode: 'vector', limit: 1 })), { hits: 1, misses: 0 });
      } finally {
        await mem.close();
        await writer.close();
      }
    });

    test('add, get, list, count, update, forget; namespaces scope every call', async () => {
      const mem = await open(T.fresh());
      try {
        const a = await mem.add('Alice prefers green tea in the morning', { category: 'preference', metadata: { source: 'chat', n: 3, ok: true, none: null } });
        const b = await mem.add('Deploys go out on Tuesdays', { namespace: 'ops', sessionId: 's1' });
        const got = await mem.get(a.id);
        assert.equal(got?.content, 'Alice prefers green tea in the morning');
        assert.equal(got?.category, 'preference');
        assert.deepEqual(got?.metadata, { source: 'chat', n: 3, ok: true, none: null });
        assert.ok(got!.createdAt instanceof Date && got!.createdAt.getTime() <= Date.now());
        assert.equal(await mem.get(b.id, { namespace: 'default' }), null, 'other namespace is invisible');
        assert.equal((await mem.list()).length, 1);
        assert.equal((await mem.list({ namespace: '*' })).length, 2);
        assert.equal(await mem.count({ namespace: 'ops' }), 1);
        for (const [k, v] of [
          ['source', 'chat'],
          ['n', 3],
          ['ok', true],
          ['none', null],
        ] as const) {
          assert.equal((await mem.list({ metadata: { [k]: v } })).length, 1, `metadata ${k}`);
        }
        assert.equal((await mem.list({ metadata: { n: '3' } })).length, 0, 'a string does not match a number');
        const u = await mem.update(a.id, { content: 'Alice prefers black coffee', category: null, importance: 0.8 });
        assert.equal(u.content, 'Alice prefers black coffee');
        assert.equal(u.category, null);
        assert.equal(u.importance, 0.8);
        assert.ok(u.updatedAt.getTime() >= u.createdAt.getTime());
        await rejects('NOT_FOUND', () => mem.update(b.id, { content: 'x' }, { namespace: 'default' }));
        assert.equal(await mem.forget(b.id, { namespace: 'default' }), false, 'forget is scoped');
        assert.equal(await mem.forget(b.id), true);
        assert.equal(await mem.forget(b.id), false);
        const s = await mem.stats();
        assert.equal(s.memories, 1);
        assert.equal(s.schemaVersion > 0, true);
        if (mem.storage === 'sqlite') assert.equal([...mem.export()].length, 1, 'a file exports synchronously too');
        else await rejects('UNSUPPORTED', async () => [...mem.export()]);
      } finally {
        await mem.close();
      }
    });

    test('key upsert keeps id and createdAt; the old content goes to history', async () => {
      const mem = await open(T.fresh());
      try {
        const a = await mem.add('We deploy on a Raspberry Pi 4', { key: 'deploy-target', createdAt: '2024-01-02T03:04:05.678Z' });
        const b = await mem.add('We deploy on a Raspberry Pi 5', { key: 'deploy-target' });
        assert.equal(b.id, a.id);
        assert.equal(b.replaced, true);
        assert.equal(a.replaced, false);
        const m = await mem.get(a.id);
        assert.equal(m?.content, 'We deploy on a Raspberry Pi 5');
        assert.equal(m?.createdAt.toISOString(), '2024-01-02T03:04:05.678Z');
        const h = await mem.history(a.id);
        assert.deepEqual(
          h.map((v) => [v.content, v.current]),
          [
            ['We deploy on a Raspberry Pi 4', false],
            ['We deploy on a Raspberry Pi 5', true],
          ],
        );
        assert.equal(await mem.count(), 1);
      } finally {
        await mem.close();
      }
    });

    test('exact duplicates are stored once (force keeps both)', async () => {
      const mem = await open(T.fresh());
      try {
        const a = await mem.add('The wifi password is hunter2');
        const b = await mem.add('the wifi password is  HUNTER2.');
        assert.equal(b.id, a.id);
        assert.equal(b.deduplicated, 'exact');
        const c = await mem.add('The wifi password is hunter2', { force: true });
        assert.notEqual(c.id, a.id);
        const d = await mem.add('The wifi password is hunter2', { namespace: 'other' });
        assert.notEqual(d.id, a.id, 'dedup is per namespace');
        assert.equal(await mem.count({ namespace: '*' }), 3);
      } finally {
        await mem.close();
      }
    });

    test('keyword recall: stemming, ranks, filters inside the leg, the same hit shape', async () => {
      const mem = await open(T.fresh());
      try {
        await mem.addMany([
          { content: 'We deploy to Kubernetes in eu-west-1', category: 'infra' },
          { content: 'Bob is allergic to peanuts', category: 'health' },
          { content: 'Deploying requires the release checklist', namespace: 'ops' },
          { content: 'Invoice 4711 was paid on March 3', metadata: { kind: 'finance' }, createdAt: '2020-03-03T00:00:00.000Z' },
        ]);
        const hits = await mem.recall('deploys', { mode: 'keyword' });
        assert.deepEqual(
          hits.map((h) => h.content),
          ['We deploy to Kubernetes in eu-west-1'],
          'stemmed; other namespace excluded',
        );
        assert.equal(hits[0]!.keywordRank, 1);
        assert.deepEqual(Object.keys(hits[0]!).sort(), [
          'category',
          'content',
          'createdAt',
          'eventAt',
          'evidence',
          'id',
          'key',
          'keywordRank',
          'metadata',
          'namespace',
          'relevance',
          'score',
          'sessionId',
          'updatedAt',
        ]);
        assert.equal((await mem.recall('deploy', { mode: 'keyword', namespace: '*' })).length, 2, 'every namespace with "*"');
        assert.equal((await mem.recall('4711', { mode: 'keyword' }))[0]?.content, 'Invoice 4711 was paid on March 3', 'numbers are words');
        assert.equal((await mem.recall('invoice', { mode: 'keyword', metadata: { kind: 'finance' } })).length, 1);
        assert.equal((await mem.recall('invoice', { mode: 'keyword', until: '2020-01-01T00:00:00.000Z' })).length, 0);
        assert.equal((await mem.recall('peanuts deployment', { mode: 'keyword', category: 'health' })).length, 1);
        assert.deepEqual(await mem.recall('the of and', { mode: 'keyword' }), []);
        if (T.vectors) {
          const hy = await mem.recall('Bob peanuts', { limit: 2 });
          assert.equal(hy[0]!.content, 'Bob is allergic to peanuts');
          assert.ok(hy.every((h) => h.keywordRank !== undefined || h.vectorRank !== undefined));
        } else {
          await rejects('SEMANTIC_DISABLED', () => mem.recall('peanut', { mode: 'vector' }));
        }
      } finally {
        await mem.close();
      }
    });

    test('SQL and query operators in any input are plain text', async () => {
      const mem = await open(T.fresh());
      // Namespaces may not end in "*" (a prefix when reading): those two end in ":* ." and "z* ." there.
      const evil = [
        "'); DROP TABLE memories; --",
        'a & b | !c <-> d:* .',
        '"quoted" NEAR(x y) OR z* .',
        '$1 $2 ::vector',
        "\\' \\\\ %_",
        "tsv @@ to_tsquery('x')",
      ];
      try {
        for (const e of evil) await mem.add(`note ${e}`, { namespace: e, key: e, category: e, sessionId: e, metadata: { k: e } });
        for (const e of evil) {
          const hits = await mem.recall(`note ${e}`, { namespace: e, mode: 'keyword' });
          assert.equal(hits.length, 1, e);
          assert.equal(hits[0]!.content, `note ${e}`);
          assert.equal((await mem.list({ namespace: e, category: e, sessionId: e, metadata: { k: e } })).length, 1);
        }
        assert.equal(await mem.count({ namespace: '*' }), evil.length);
      } finally {
        await mem.close();
      }
    });

    test('expiry hides, prune deletes, pinned stays', async () => {
      const mem = await open(T.fresh());
      try {
        const past = new Date(Date.now() - 60_000).toISOString();
        const gone = await mem.add('temporary note about lunch', { createdAt: '2020-01-01T00:00:00.000Z', expiresAt: past });
        const kept = await mem.add('pinned note about lunch', { expiresAt: past, pinned: true });
        await mem.add('lasting note about lunch');
        assert.equal(await mem.get(gone.id), null);
        assert.ok(await mem.get(gone.id, { includeExpired: true }));
        assert.equal((await mem.recall('lunch', { mode: 'keyword' })).length, 2);
        assert.equal((await mem.stats()).expired, 1);
        const dry = await mem.prune({ dryRun: true });
        assert.equal(dry.deleted, 1);
        assert.ok(await mem.get(gone.id, { includeExpired: true }), 'dry run deletes nothing');
        const r = await mem.prune();
        assert.deepEqual([r.deleted, r.pinnedKept, r.ids], [1, 1, [gone.id]]);
        assert.equal(await mem.get(gone.id, { includeExpired: true }), null);
        assert.ok(await mem.get(kept.id));
      } finally {
        await mem.close();
      }
    });

    test('supersedes: the successor ranks first, history links both, a bad target writes nothing', async () => {
      const mem = await open(T.fresh());
      try {
        const old = await mem.add('Carol lives in Berlin');
        const neu = await mem.add('Carol moved to Lisbon, she lives in Lisbon now', { supersedes: old.id });
        const hits = await mem.recall('where does Carol live', { mode: 'keyword' });
        assert.deepEqual(
          hits.map((h) => h.id),
          [neu.id, old.id],
        );
        assert.equal((await mem.get(old.id))?.supersededBy, neu.id);
        assert.deepEqual(
          (await mem.history(neu.id)).map((v) => [v.content, v.endedBy ?? 'current']),
          [
            ['Carol lives in Berlin', 'superseded'],
            ['Carol moved to Lisbon, she lives in Lisbon now', 'current'],
          ],
        );
        // Paged: each page in order, across the superseded predecessor and the memory's own versions.
        await mem.update(neu.id, { content: 'Carol lives in Porto' });
        const whole = (await mem.history(neu.id)).map((v) => v.content);
        assert.equal(whole.length, 3);
        for (const [offset, limit] of [
          [0, 1],
          [1, 1],
          [1, 5],
          [2, 1],
          [3, 2],
        ] as const)
          assert.deepEqual(
            (await mem.history(neu.id, { offset, limit })).map((v) => v.content),
            whole.slice(offset, offset + limit),
            `offset ${offset}, limit ${limit}`,
          );
        await rejects('INVALID_INPUT', () => mem.history(neu.id, { limit: 0 }));
        const before = JSON.stringify(await all(mem));
        await rejects('NOT_FOUND', () => mem.add('Dave lives in Rome', { supersedes: '01900000-0000-7000-8000-000000000000' }));
        await rejects('NOT_FOUND', () => mem.add('Erin lives in Oslo', { supersedes: old.id, namespace: 'elsewhere' }));
        assert.equal(JSON.stringify(await all(mem)), before, 'failed adds write nothing');
        await mem.forget(neu.id);
        assert.equal((await mem.get(old.id))?.supersededBy, undefined, 'forgetting the successor frees the old memory');
      } finally {
        await mem.close();
      }
    });

    test('add and update refuse alike on every store (one add decision, one wording); an exact duplicate still supersedes', async () => {
      const mem = await open(T.fresh());
      try {
        const k = await mem.add('Frank lives in Madrid', { key: 'frank' });
        const self = await rejects('INVALID_INPUT', () => mem.add('Frank lives in Madrid now', { key: 'frank', supersedes: k.id }));
        assert.equal(self.message, `A memory cannot supersede itself (${k.id}).`);
        const unknown = '01900000-0000-7000-8000-000000000000';
        const gone = await rejects('NOT_FOUND', () => mem.add('Gina lives in Porto', { supersedes: unknown }));
        assert.equal(gone.message, `supersedes: no memory with id ${unknown} in namespace "default". Nothing was written.`);
        const hugo = await mem.add('Hugo lives in Lyon', { key: 'hugo' });
        const taken = await rejects('INVALID_INPUT', () => mem.update(hugo.id, { key: 'frank' }));
        assert.equal(
          taken.message,
          `The key "frank" is already used by memory ${k.id} in namespace "default". Choose another key or forget that memory first.`,
        );
        assert.equal((await mem.get(k.id))?.content, 'Frank lives in Madrid', 'the refused upsert changed nothing');
        const old = await mem.add('Ivy lives in Bern');
        const dup = await mem.add('frank lives in madrid.', { supersedes: old.id });
        assert.deepEqual([dup.id, dup.deduplicated], [k.id, 'exact']);
        assert.equal((await mem.get(old.id))?.supersededBy, k.id);
      } finally {
        await mem.close();
      }
    });

    test('bad input: typed errors, nothing changed', async () => {
      const mem = await open(T.fresh());
      try {
        const a = await mem.add('one', { key: 'k1' });
        await mem.add('two', { key: 'k2' });
        const before = JSON.stringify(await all(mem));
        await rejects('INVALID_INPUT', () => mem.update(a.id, { key: 'k2' }));
        await rejects('INVALID_INPUT', () => mem.addMany([{ content: 'fine' }, { content: '' }]));
        await rejects('INVALID_INPUT', () => mem.add('x', { metadata: 'nope' as unknown as Record<string, unknown> }));
        await rejects('INVALID_INPUT', () => mem.recall('x', { limit: -1 }));
        await rejects('NOT_FOUND', () => mem.update('no-such-id', { content: 'x' }));
        await rejects('INVALID_INPUT', () =>
          mem.import([
            { id: 'x1', content: 'ok' },
            { id: 'x2', content: 42 },
          ]),
        );
        assert.equal(JSON.stringify(await all(mem)), before);
      } finally {
        await mem.close();
      }
    });

    test('read-only opens cannot write', async () => {
      const loc = T.fresh();
      const w = await open(loc);
      await w.add('written before');
      await w.close();
      const r = await open(loc, { readonly: true });
      try {
        assert.equal((await r.recall('written', { mode: 'keyword' })).length, 1);
        await rejects('READ_ONLY', () => r.add('nope'));
      } finally {
        await r.close();
      }
      if (loc.url) await rejects('READ_ONLY', () => open({ ...loc, postgres: { ...loc.postgres, schema: freshSchema() } }, { readonly: true }));
    });

    test('the Raspberry Pi case with the bundled model: found by meaning, not by keywords', { skip: !T.vectors && 'no pgvector on this server' }, async () => {
      const mem = await openMemory({ ...T.fresh(), embedder: 'local' });
      try {
        await mem.addMany([
          { content: 'My Raspberry Pi setup' },
          { content: 'Grocery list: eggs, milk, bread' },
          { content: 'The quarterly report is due on Friday' },
          { content: 'Favourite film: Spirited Away' },
        ]);
        const q = 'deploying on ARM hardware';
        assert.equal((await mem.recall(q, { mode: 'vector' }))[0]!.content, 'My Raspberry Pi setup');
        assert.equal((await mem.recall(q))[0]!.content, 'My Raspberry Pi setup');
        assert.equal((await mem.recall(q, { mode: 'vector', exact: true }))[0]!.content, 'My Raspberry Pi setup');
        assert.ok(!(await mem.recall(q, { mode: 'keyword' })).some((h) => h.content === 'My Raspberry Pi setup'));
        const s = await mem.stats();
        assert.equal(s.embedded, 4);
        assert.equal(s.embedding?.dims, 512);
      } finally {
        await mem.close();
      }
    });

    test('switching to a model of another width: mismatch error, then reindex re-embeds everything', {
      skip: !T.vectors && 'no pgvector on this server',
    }, async () => {
      const loc = T.fresh();
      const a = await openMemory({ ...loc, embedder: new HashEmbedder('hash-64', 64) });
      await a.addMany([{ content: 'the cat sat on the mat' }, { content: 'dogs chase cars' }]);
      await a.close();
      await rejects('EMBEDDING_MISMATCH', () => openMemory({ ...loc, embedder: new HashEmbedder('hash-32', 32) }));
      const b = await openMemory({ ...loc, embedder: new HashEmbedder('hash-32', 32), allowModelChange: true });
      try {
        assert.equal((await b.stats()).embedded, 0, 'old vectors do not count for the new model');
        assert.deepEqual(await b.reindex({ batchSize: 1 }), { embedded: 2, total: 2 });
        const s = await b.stats();
        assert.deepEqual([s.embedded, s.embedding?.dims, s.embedding?.model], [2, 32, 'hash-32']);
        assert.equal((await b.recall('cat mat', { mode: 'vector' }))[0]!.content, 'the cat sat on the mat');
      } finally {
        await b.close();
      }
    });

    test('near-duplicates: report and merge', { skip: !T.vectors && 'no pgvector on this server' }, async () => {
      const m2 = await open(T.fresh(), { dedupThreshold: 0.9 });
      try {
        const a = await m2.add('the staging server runs ubuntu linux 22', { metadata: { a: 1 } });
        const r = await m2.add('staging server the runs ubuntu linux 22', { nearDuplicates: 'report' });
        assert.notEqual(r.id, a.id);
        assert.equal(r.nearDuplicates?.[0]?.id, a.id);
        assert.ok(r.nearDuplicates![0]!.similarity > 0.99);
        const m = await m2.add('ubuntu linux 22 runs the staging server', { nearDuplicates: 'merge', metadata: { b: 2 } });
        assert.equal(m.deduplicated, 'merged');
        const merged = await m2.get(m.id);
        assert.equal(merged?.content, 'ubuntu linux 22 runs the staging server');
        assert.ok(merged?.metadata.b === 2);
        assert.equal(await m2.count(), 2);
      } finally {
        await m2.close();
      }
    });

    test(`migrate to the SQLite file and back: lossless${T.vectors ? ', vectors included' : ' (keyword-only: no vectors)'}`, async () => {
      const src = await openMemory({ path: tempDb(), embedder: emb() });
      const here = await openMemory({ ...T.fresh(), embedder: emb() });
      const back = await openMemory({ path: tempDb(), embedder: emb() });
      try {
        await src.addMany([
          {
            content: 'Ünïcödé — 東京 🙂 and "quotes"',
            key: 'k',
            namespace: 'n1',
            category: 'c',
            sessionId: 's',
            metadata: { z: 1, a: [1, { b: null }], s: 'x\ny' },
            createdAt: '1999-12-31T23:59:59.999Z',
            pinned: true,
            importance: 0.123456789,
          },
          { content: 'expires later', expiresAt: '2199-01-01T00:00:00.000Z' },
          { content: 'plain' },
        ]);
        const first = (await src.list({ namespace: '*' })).find((m) => m.content === 'plain')!;
        await src.add('plain, but newer', { supersedes: first.id });
        await src.update(first.id, { content: 'plain, edited' });
        const progress: number[] = [];
        const r1 = await migrateMemories(src, here, { batchSize: 2, onProgress: (d) => progress.push(d) });
        assert.deepEqual([r1.total, r1.imported, r1.skipped], [4, 4, 0]);
        assert.deepEqual(progress, [0, 2, 4]);
        const r2 = await migrateMemories(here, back);
        assert.equal(r2.imported, 4);
        const a = await all(src);
        assert.deepEqual(await all(here), a);
        assert.deepEqual(await all(back), a);
        assert.equal(JSON.stringify(await all(back)), JSON.stringify(a), 'byte for byte, key order of metadata included');
        const again = await migrateMemories(src, here);
        assert.deepEqual([again.imported, again.skipped], [0, 4], 'a second run skips what is there (resumable)');
      } finally {
        await src.close();
        await here.close();
        await back.close();
      }
    });

    test('property: any accepted memory survives a round trip through this store', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(memory, { minLength: 1, maxLength: 8 }), async (recs) => {
          const src = await openMemory({ path: tempDb(), embedder: emb() });
          const dst = await openMemory({ ...T.fresh(), embedder: emb() });
          try {
            await src.addMany(
              recs.map((r) => ({ ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)), content: r.content, force: true })),
            );
            await migrateMemories(src, dst);
            assert.equal(JSON.stringify(await all(dst)), JSON.stringify(await all(src)));
          } finally {
            await src.close();
            await dst.close();
          }
        }),
        { numRuns: 12, seed: 7 },
      );
    });

    test('forget and erase leave no row holding the text: not its history, the next turns’ context, a cached vector; erase reports and spares the others', async () => {
      const loc = T.fresh();
      const mem = await open(loc);
      try {
        const secret = 'the door code is qzvxkplmt 4451';
        const before = 'the door code was wjrbnhgfd 1170';
        for (let i = 0; i < 3; i++) await mem.add(`we talked about the garden, turn ${i}`, { namespace: 'u1', sessionId: 's' });
        const { id } = await mem.add(before, { namespace: 'u1', sessionId: 's', key: 'door' });
        await mem.update(id, { content: secret });
        for (let i = 0; i < 3; i++) await mem.add(`and then about the garden again, turn ${i}`, { namespace: 'u1', sessionId: 's' });
        if (T.vectors) await mem.recall(secret, { namespace: 'u1' });
        const keys = erasedCacheKeys([secret, before], 'u1');
        // The scan finds them before: the content and a later turn's context, the earlier version in the history, the cache when vectors are kept.
        assert.ok((await rowsHolding(loc, 'qzvxkplmt', keys)).includes('memories'));
        assert.ok((await rowsHolding(loc, 'wjrbnhgfd', keys)).includes('memory_history'));
        if (T.vectors) assert.ok((await rowsHolding(loc, 'qzvxkplmt', keys)).includes('embedding_cache'));
        assert.equal(await mem.forget(id), true);
        for (const needle of ['qzvxkplmt', 'wjrbnhgfd']) assert.deepEqual(await rowsHolding(loc, needle, keys), [], needle);
        // The later turns keep their other context and are still found through it.
        const hits = await mem.recall('garden', { namespace: 'u1', mode: 'keyword', limit: 10 });
        assert.equal(hits.length, 6);
        if (T.vectors) assert.equal((await mem.recall('garden again turn', { namespace: 'u1', mode: 'vector', limit: 10 })).length, 6);
        // Erase: the namespace, not its neighbour.
        await mem.addMany([
          { content: 'u2 keeps this', namespace: 'u2' },
          { content: 'u2 and this too', namespace: 'u2' },
        ]);
        if (T.vectors) await mem.recall('what does u1 keep', { namespace: 'u1' });
        const other = JSON.stringify((await all(mem)).filter((r) => r.namespace === 'u2'));
        const r = await mem.erase({ namespace: 'u1' });
        assert.deepEqual([r.namespace, r.memories, r.historyVersions], ['u1', 6, 0]);
        if (T.vectors) assert.ok(r.cachedVectors >= 1, `${r.cachedVectors} cached vectors`);
        assert.equal(await mem.count({ namespace: 'u1' }), 0);
        assert.equal(JSON.stringify((await all(mem)).filter((x) => x.namespace === 'u2')), other);
        assert.deepEqual(Object.keys((await mem.stats()).namespaces), ['u2']);
        assert.equal((await mem.recall('keeps', { namespace: 'u2', mode: 'keyword' })).length, 1);
        assert.equal((await mem.recall('garden', { namespace: 'u1', mode: 'keyword' })).length, 0);
        await rejects('INVALID_INPUT', () => mem.erase({ namespace: '*' }));
      } finally {
        await mem.close();
      }
    });

    test('a list page and its total are one snapshot while another process writes (HTTP list pages, memory_list)', {
      skip: !T.concurrent && 'PGlite serves one backend session; covered by the other targets',
      timeout: 120_000,
    }, async () => {
      const loc = T.fresh();
      const mem = await open(loc);
      try {
        const shared = await mem.add('shared memory, version 0');
        const writer = runTs('test/workers/store-writer.ts', [JSON.stringify({ loc, vectors: false, shared: shared.id, rounds: 150 }), '9']);
        let done = false;
        void writer.then(() => {
          done = true;
        });
        let reads = 0;
        while (!done || reads < 5) {
          const { memories, total } = await mem.listWithTotal({ namespace: 'own', limit: 1000 });
          assert.equal(memories.length, total, `read ${reads}: a page of ${memories.length} with a total of ${total}`);
          reads++;
          // The file answers synchronously: let the event loop see the writer exit.
          await new Promise((r) => setImmediate(r));
        }
        assert.equal((await writer).code, 0);
        assert.equal((await mem.listWithTotal({ namespace: 'own', limit: 1000 })).total, 150);
        const page = await mem.listWithTotal({ namespace: 'own', limit: 10, offset: 145 });
        assert.deepEqual([page.memories.length, page.total], [5, 150]);
        const past = await mem.listWithTotal({ namespace: 'own', limit: 10, offset: 500 });
        assert.deepEqual([past.memories.length, past.total], [0, 150]);
      } finally {
        await mem.close();
      }
    });

    test('several processes write at once: no lost update, one row per key, one row per duplicate text', {
      skip: !T.concurrent && 'PGlite serves one backend session; covered by the other targets',
      timeout: 120_000,
    }, async () => {
      const loc = T.fresh();
      const mem = await open(loc);
      const shared = await mem.add('shared memory, version 0', { category: 'c-0' });
      const spec = JSON.stringify({ loc, vectors: T.vectors, shared: shared.id });
      const workers = [0, 1, 2, 3].map((i) => runTs('test/workers/store-writer.ts', [spec, String(i)]));
      const results = await Promise.all(workers);
      for (const r of results) assert.equal(r.code, 0, r.stderr);
      try {
        // 4 × 20 own memories, 5 shared keys, 1 shared text, 1 shared memory.
        assert.equal(await mem.count({ namespace: '*' }), 4 * 20 + 5 + 1 + 1);
        const s = await mem.get(shared.id);
        // Each worker changed one field of the same memory 20 times, all at once: every last write survives.
        assert.equal(s?.content, 'shared memory, version 20', 'worker 0: content');
        assert.equal(s?.category, 'c-20', 'worker 1: category');
        assert.equal(s?.importance, 0.02, 'worker 2: importance');
        assert.deepEqual(s?.metadata, { w3: 20 }, 'worker 3: metadata');
        assert.equal((await mem.history(shared.id)).length, 21, 'every content change is in the history');
        for (let k = 0; k < 5; k++) assert.equal((await mem.list({ namespace: 'keys', limit: 100 })).filter((m) => m.key === `key-${k}`).length, 1);
        assert.equal((await mem.recall('exactly once please', { mode: 'keyword', namespace: 'dup' })).length, 1);
      } finally {
        await mem.close();
      }
    });
  });
}

test('a PostgreSQL server without pgvector: a clear error for semantic use, keyword-only when asked', {
  skip: (!real || real.vectors) && 'needs a server without pgvector',
}, async () => {
  const loc = { url: real!.url, postgres: { schema: freshSchema() } };
  const err = await rejects('UNSUPPORTED', () => openMemory({ ...loc, embedder: new HashEmbedder() }));
  assert.match(err.message, /pgvector/);
  assert.match(err.message, /embedder 'none'/);
  const mem = await openMemory({ ...loc, embedder: 'none' });
  try {
    await mem.add('keyword only works');
    assert.equal((await mem.recall('keyword')).length, 1);
  } finally {
    await mem.close();
  }
});

test('connection problems are typed errors that say what to do', async () => {
  const err = await rejects('UNAVAILABLE', () =>
    openMemory({ url: 'postgres://nobody:secret@127.0.0.1:1/none', embedder: 'none', postgres: { connectTimeoutMs: 2000 } }),
  );
  assert.match(err.message, /Cannot reach PostgreSQL/);
  assert.ok(!err.message.includes('secret'), 'the password never appears in messages');
  await rejects('INVALID_INPUT', () => openMemory({ url: pglite.url, embedder: 'none', postgres: { schema: 'Robert"); DROP TABLE x;--' } }));
  await rejects('INVALID_INPUT', () => openMemory({ url: 'mysql://x', embedder: 'none' }));
});

test('the CLI takes postgres:// in --db, and migrate copies a file into PostgreSQL and back', { timeout: 120_000 }, async () => {
  // Async child processes: PGlite answers from this process, so it must not block on them.
  const db = tempDb();
  const schema = freshSchema();
  assert.equal((await cliAsync(['--db', db, '--embedder', 'none', 'add', 'The', 'CLI', 'stores', 'this'])).code, 0);
  const m = await cliAsync(['--embedder', 'none', '--json', 'migrate', '--from', db, '--to', pglite.url, '--to-schema', schema]);
  assert.equal(m.code, 0, m.stderr);
  assert.equal(JSON.parse(m.stdout).imported, 1);
  const env = { MNEMOLITE_PG_SCHEMA: schema };
  const r = await cliAsync(['--db', pglite.url, '--embedder', 'none', '--json', 'recall', 'stores'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout)[0].content, 'The CLI stores this');
  const s = await cliAsync(['--db', pglite.url, '--embedder', 'none', 'stats'], { env });
  assert.match(s.stdout, /^store: +postgres:\/\//m);
  const b = await cliAsync(['--db', pglite.url, '--embedder', 'none', 'backup', tempDb('x.db')], { env });
  assert.equal(b.code, 1);
  assert.match(b.stderr, /pg_dump|migrate/);
  const back = tempDb('back.db');
  assert.equal((await cliAsync(['--embedder', 'none', 'migrate', '--from', pglite.url, '--from-schema', schema, '--to', back])).code, 0);
  assert.equal(JSON.parse((await cliAsync(['--db', back, '--embedder', 'none', '--json', 'list'])).stdout)[0].content, 'The CLI stores this');
});

test('mcp and serve work on PostgreSQL too (--db postgres://)', { timeout: 120_000 }, async () => {
  const schema = freshSchema();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MNEMOLITE_PG_SCHEMA: schema };
  // MCP over stdio with the official SDK client.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--db', pglite.url, '--embedder', 'none', 'mcp', '-n', 'agent'],
    stderr: 'pipe',
    env,
  });
  const client = new Client({ name: 'mnemolite-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const stored = (await client.callTool({ name: 'memory_store', arguments: { content: 'The build server is called hopper' } })) as CallToolResult;
    assert.ok(!stored.isError, JSON.stringify(stored.content));
    const found = (await client.callTool({ name: 'memory_recall', arguments: { query: 'build server name' } })) as CallToolResult;
    assert.ok(!found.isError);
    assert.match(JSON.stringify(found.structuredContent), /hopper/);
  } finally {
    await client.close();
  }
  // HTTP: `serve` prints its address, then answers from the same PostgreSQL schema.
  const proc = spawn(process.execPath, [CLI, '--db', pglite.url, '--embedder', 'none', '--json', 'serve', '--port', '0'], {
    env: { ...env, MNEMOLITE_TOKEN: '', MNEMOLITE_TOKENS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (d) => {
        out += d;
        const m = /"listening":"(http:\/\/[^"]+)"/.exec(out);
        if (m) resolve(m[1]!.replace(/^http:\/\/(0\.0\.0\.0|\[::\])/, 'http://127.0.0.1'));
      });
      proc.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const res = await fetch(`${url}/api/recall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'hopper', namespace: 'agent' }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { hits: { content: string }[] };
    assert.equal(body.hits[0]?.content, 'The build server is called hopper');
  } finally {
    proc.kill('SIGTERM');
  }
});

test('PostgreSQL schema: an older schema is migrated forward on open, a newer one is refused untouched', { timeout: 60_000 }, async () => {
  const { default: pg } = await import('pg');
  const target = real ?? pglite;
  const schema = freshSchema();
  const loc = { url: target.url, postgres: { schema } };
  const mem = await openMemory({ ...loc, embedder: 'none' });
  await mem.add('kept across the migration');
  await mem.close();
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  try {
    // Put the schema back to version 1, as a store made by the first PostgreSQL release was
    // (without schema 2's term statistics, schema 3's conversational context, schema 4's per-namespace statistics and schema 5's event time).
    await c.query(`DROP TABLE "${schema}".term_stats; DROP TABLE "${schema}".ctx_term_stats; DROP TABLE "${schema}".namespace_stats; ALTER TABLE "${schema}".memories DROP COLUMN context CASCADE, DROP COLUMN event_at;
      DROP INDEX "${schema}".memories_session; UPDATE "${schema}".meta SET value = '1' WHERE key = 'schema_version'`);
    const again = await openMemory({ ...loc, embedder: 'none' });
    assert.equal((await again.stats()).schemaVersion, PG_SCHEMA_VERSION);
    assert.equal((await again.recall('migration'))[0]?.content, 'kept across the migration');
    await again.close();
    await c.query(`UPDATE "${schema}".meta SET value = '99' WHERE key = 'schema_version'`);
    const err = await rejects('SCHEMA_TOO_NEW', () => openMemory({ ...loc, embedder: 'none' }));
    assert.match(err.message, /version 99/);
    const after = await c.query(`SELECT value FROM "${schema}".meta WHERE key = 'schema_version'`);
    assert.equal(after.rows[0].value, '99', 'untouched');
  } finally {
    await c.end();
  }
});

test('PostgreSQL keyword leg: a one-memory store and a store full of one common word still find their memories', async () => {
  for (const n of [1, 1200]) {
    const mem = await openMemory({ url: (real ?? pglite).url, postgres: { schema: freshSchema() }, embedder: 'none' });
    try {
      await mem.addMany(Array.from({ length: n - 1 }, (_, i) => ({ content: `server log line ${i}`, force: true })));
      await mem.add('The build server is called hopper');
      assert.equal((await mem.recall('build server name'))[0]?.content, 'The build server is called hopper', `${n} memories`);
      assert.equal((await mem.recall('server')).length, Math.min(n, 10), 'a common word alone still selects');
    } finally {
      await mem.close();
    }
  }
});

test('PostgreSQL: a keyword-only store opened read-only with an embedder says how to add vectors', { skip: !pglite.vectors && 'needs pgvector' }, async () => {
  const loc = { url: pglite.url, postgres: { schema: freshSchema(), poolSize: 1 } };
  const w = await openMemory({ ...loc, embedder: 'none' });
  await w.add('keyword only so far');
  await w.close();
  const err = await rejects('READ_ONLY', () => openMemory({ ...loc, embedder: new HashEmbedder(), readonly: true }));
  assert.match(err.message, /no vector column yet/);
  const m = await openMemory({ ...loc, embedder: new HashEmbedder() });
  try {
    assert.equal((await m.reindex()).embedded, 1, 'opening writable adds the column; reindex embeds what was there');
    assert.equal((await m.recall('keyword only', { mode: 'vector' })).length, 1);
  } finally {
    await m.close();
  }
});

test('PostgreSQL: a row locked by another connection past busyTimeoutMs gives BUSY and writes nothing', {
  skip: !real && 'needs a real PostgreSQL server (PGlite has one session, so no lock waits)',
}, async () => {
  const { default: pg } = await import('pg');
  const schema = freshSchema();
  const mem = await openMemory({ url: real!.url, postgres: { schema }, embedder: 'none', busyTimeoutMs: 300 });
  const c = new pg.Client({ connectionString: real!.url });
  await c.connect();
  try {
    const { id } = await mem.add('locked for a while');
    await c.query('BEGIN');
    await c.query(`SELECT 1 FROM "${schema}".memories WHERE id = $1 FOR UPDATE`, [id]);
    // Without lock_timeout the update would wait for the lock forever (PostgreSQL's default).
    const err = await rejects('BUSY', () => mem.update(id, { content: 'changed' }));
    assert.match(err.message, /busyTimeoutMs/);
    await rejects('BUSY', () => mem.forget(id));
    await c.query('ROLLBACK');
    assert.equal((await mem.get(id))?.content, 'locked for a while', 'nothing was written');
    assert.equal((await mem.update(id, { content: 'changed' })).content, 'changed', 'works once the lock is gone');
  } finally {
    await c.end();
    await mem.close();
  }
});
