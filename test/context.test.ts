/**
 * Conversational context (src/lifecycle/context.ts) on every store: a memory of a session is indexed
 * with the memories before it, recall returns the memory itself, the window option (0 = off), a
 * later memory never changes an earlier one's context, and export → import and migrate keep it.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import { MnemoliteError, migrateMemories, openMemory, type ExportRecord, type Memory, type OpenOptions } from '../src/index.js';
import { MIGRATIONS } from '../src/store/schema.js';
import { PG_SCHEMA_VERSION } from '../src/pg/schema.js';
import { HashEmbedder, tempDb } from './helpers.js';
import { storeTargets, type Location } from './store-matrix.js';
import { freshSchema } from './pg-servers.js';

const targets = await storeTargets();
const { pglite } = targets;

const CHAT = [
  { speaker: 'Mel', content: 'What did you paint last weekend at the lake house?' },
  { speaker: 'Caroline', content: 'A sunset over the water, all orange and violet.' },
  { speaker: 'Mel', content: 'Wow, I love that, you should frame it for sure.' },
];

async function exportAll(mem: Memory): Promise<ExportRecord[]> {
  const out: ExportRecord[] = [];
  for await (const r of mem.export({ vectors: true })) out.push(r);
  return out;
}

for (const T of targets) {
  const open = (loc: Location, o: Partial<OpenOptions> = {}): Promise<Memory> =>
    openMemory({ ...loc, embedder: T.vectors ? new HashEmbedder() : 'none', ...o });

  describe(`${T.name}: conversational context`, () => {
    test('addConversation indexes each turn with the two before it; recall returns the turn itself', async () => {
      const mem = await open(T.fresh());
      try {
        const res = await mem.addConversation(CHAT, { sessionId: 's1', minWords: 0 });
        const hits = await mem.recall('paint lake house', { mode: 'keyword', limit: 3 });
        assert.deepEqual(hits.map((h) => h.id).sort(), res.map((r) => r.id).sort(), 'the answer turns are found through their context');
        assert.equal(hits[0]!.id, res[0]!.id, 'the turn that says the words ranks first');
        assert.equal(hits.find((h) => h.id === res[1]!.id)!.content, 'Caroline: A sunset over the water, all orange and violet.');
        const rec = await exportAll(mem);
        assert.equal(rec[0]!.context, undefined, 'the first turn has no context');
        assert.deepEqual(rec[1]!.context, ['Mel: What did you paint last weekend at the lake house?']);
        assert.deepEqual(
          rec[2]!.context,
          CHAT.slice(0, 2).map((t) => `${t.speaker}: ${t.content}`),
        );
        if (T.vectors) {
          assert.equal(rec[1]!.contextEmbedding?.length, 64);
          assert.equal(rec[0]!.contextEmbedding, undefined);
          const v = await mem.recall('paint lake house', { mode: 'vector', limit: 3 });
          assert.ok(
            v.some((h) => h.id === res[1]!.id),
            'the vector leg finds the answer through its context too',
          );
        }
      } finally {
        await mem.close();
      }
    });

    test('in a chat with an assistant a turn is not found through its context alone; between named people it is', async () => {
      const mem = await open(T.fresh());
      try {
        const roles = CHAT.map((t, i) => ({ ...t, speaker: i % 2 ? 'assistant' : 'user' }));
        const r = await mem.addConversation(roles, { sessionId: 'r', minWords: 0, namespace: 'roles' });
        const n = await mem.addConversation(CHAT, { sessionId: 'n', minWords: 0, namespace: 'names' });
        const byRole = await mem.recall('paint lake house', { mode: 'keyword', namespace: 'roles' });
        assert.deepEqual(
          byRole.map((h) => h.id),
          [r[0]!.id],
          'only the turn that says the words: the next turns ride on it as context between a user and an assistant',
        );
        const byName = await mem.recall('paint lake house', { mode: 'keyword', namespace: 'names' });
        assert.equal(byName.length, 3, 'named speakers keep the context (LoCoMo)');
        assert.equal(byName[0]!.id, n[0]!.id);
        const rec = (await exportAll(mem)).filter((x) => x.namespace === 'roles');
        assert.deepEqual(
          rec[1]!.context,
          ['user: What did you paint last weekend at the lake house?'],
          'the context is still stored: only its weight at query time differs',
        );
      } finally {
        await mem.close();
      }
    });

    test('contextWindow: 0 turns context off; 1 keeps one memory; bad windows are refused and write nothing', async () => {
      const mem = await open(T.fresh());
      try {
        await mem.addConversation(CHAT, { sessionId: 'off', minWords: 0, contextWindow: 0, namespace: 'a' });
        assert.equal((await mem.recall('paint lake house', { mode: 'keyword', namespace: 'a' })).length, 1, 'without context only the asking turn matches');
        await mem.addConversation(CHAT, { sessionId: 'one', minWords: 0, contextWindow: 1, namespace: 'b' });
        const rec = (await exportAll(mem)).filter((r) => r.namespace === 'b');
        assert.deepEqual(
          rec.map((r) => r.context?.length ?? 0),
          [0, 1, 1],
        );
        for (const w of [-1, 11, 1.5, '2']) {
          await assert.rejects(
            mem.add('x', { sessionId: 's', contextWindow: w as number }),
            (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT' && /contextWindow/.test(e.message),
          );
        }
        assert.equal(await mem.count({ namespace: '*' }), 6);
      } finally {
        await mem.close();
      }
    });

    test('one by one with a sessionId: context from the memories stored before, across calls; a later memory never changes it', async () => {
      const mem = await open(T.fresh());
      try {
        const a = await mem.add('Mel: What did you paint last weekend?', { sessionId: 's' });
        const b = await mem.add('Caroline: A sunset over the water.', { sessionId: 's' });
        const other = await mem.add('Unrelated note in another session', { sessionId: 't' });
        const before = (await exportAll(mem)).find((r) => r.id === b.id)!;
        assert.deepEqual(before.context, ['Mel: What did you paint last weekend?']);
        await mem.add('Mel: Lovely, frame it!', { sessionId: 's' });
        await mem.update(a.id, { content: 'Mel: What did you paint on Saturday?' });
        const after = (await exportAll(mem)).find((r) => r.id === b.id)!;
        assert.deepEqual(after.context, before.context, 'neither a later memory nor an edit of an earlier one changes a context');
        assert.equal((await exportAll(mem)).find((r) => r.id === other.id)!.context, undefined, 'sessions do not mix');
        assert.ok((await mem.recall('what did you paint', { mode: 'keyword' })).some((h) => h.id === b.id));
      } finally {
        await mem.close();
      }
    });

    test('export → import (with and without vectors) and migrate keep the context and its vectors', async () => {
      const src = await open(T.fresh());
      const dstV = await open(T.fresh());
      const dstN = await open(T.fresh());
      const dstM = await open({ path: tempDb() });
      try {
        await src.addConversation(CHAT, { sessionId: 's1', minWords: 0 });
        const recs = await exportAll(src);
        await dstV.import(recs);
        const plain: ExportRecord[] = [];
        for await (const r of src.export()) plain.push(r);
        await dstN.import(plain);
        await migrateMemories(src, dstM);
        for (const dst of [dstV, dstN, dstM]) {
          const got = await exportAll(dst);
          assert.deepEqual(
            got.map((r) => r.context),
            recs.map((r) => r.context),
          );
          if (T.vectors)
            assert.deepEqual(
              got.map((r) => r.contextEmbedding?.map((x) => Math.round(x * 1e5))),
              recs.map((r) => r.contextEmbedding?.map((x) => Math.round(x * 1e5))),
              'context vectors equal (re-made from the context texts when not exported)',
            );
          assert.equal((await dst.recall('paint lake house', { mode: 'keyword', limit: 3 })).length, 3);
        }
        await assert.rejects(
          dstV.import([{ content: 'x', context: ['y'] }]),
          (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT' && /sessionId/.test(e.message),
        );
        await assert.rejects(
          dstV.import([{ content: 'x', sessionId: 's', context: [''] }]),
          (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
        );
        assert.equal(await dstV.count({ namespace: '*' }), 3, 'refused imports wrote nothing');
      } finally {
        for (const m of [src, dstV, dstN, dstM]) await m.close();
      }
    });
  });
}

test('a schema-2 file is migrated losslessly: old memories keep everything and have no context; new sessions get one', async () => {
  const path = tempDb();
  const db = new Database(path);
  db.exec(MIGRATIONS[0]!);
  db.exec(MIGRATIONS[1]!);
  db.pragma('user_version = 2');
  db.prepare(`INSERT INTO memories(id, namespace, content, session_id, metadata, created_at, updated_at, content_hash)
    VALUES ('0190f7c2-0000-7000-8000-000000000001', 'default', 'We deploy on a Raspberry Pi', 's', '{"a":1}', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', 'h')`).run();
  db.close();
  const mem = await openMemory({ path, embedder: 'none' });
  try {
    const [r] = await exportAllPlain(mem);
    assert.equal(r!.content, 'We deploy on a Raspberry Pi');
    assert.deepEqual(r!.metadata, { a: 1 });
    assert.equal(r!.context, undefined);
    const b = await mem.add('It runs the home dashboard', { sessionId: 's' });
    const got = (await exportAllPlain(mem)).find((x) => x.id === b.id)!;
    assert.deepEqual(got.context, ['We deploy on a Raspberry Pi']);
    assert.equal((await mem.recall('raspberry dashboard', { mode: 'keyword' }))[0]!.id, b.id);
  } finally {
    await mem.close();
  }
});

async function exportAllPlain(mem: Memory): Promise<ExportRecord[]> {
  const out: ExportRecord[] = [];
  for await (const r of mem.export()) out.push(r);
  return out;
}

test('a key upsert in a session does not take its own earlier version as context', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  try {
    await mem.add('Mel: the garden needs water', { sessionId: 's' });
    await mem.add('Caroline: I moved to Berlin', { sessionId: 's', key: 'home' });
    const r = await mem.add('Caroline: I moved to Munich', { sessionId: 's', key: 'home' });
    assert.equal(r.replaced, true);
    const rec = (await exportAllPlain(mem)).find((x) => x.id === r.id)!;
    assert.deepEqual(rec.context, ['Mel: the garden needs water']);
  } finally {
    await mem.close();
  }
});

test('the context rules: own + weighted context BM25, session evidence, mean and blended vectors, batch windows', async () => {
  const { meanVector, blendedVector, batchContexts } = await import('../src/lifecycle/context.js');
  const { withContext, withSessionEvidence, KEYWORD_EVIDENCE } = await import('../src/recall/context-evidence.js');
  const own = [
    { seq: 1, bm25: -6 },
    { seq: 2, bm25: -1 },
  ];
  const ctx = [
    { seq: 3, bm25: -10 },
    { seq: 2, bm25: -2 },
  ];
  const kw = withContext(own, ctx, 10);
  assert.deepEqual(
    kw.map((h) => h.seq),
    [1, 3, 2],
  );
  // Seq 2: own 1, context 2: the context adds its excess, weighted; seq 3 matches by context alone.
  assert.ok(Math.abs(kw.find((h) => h.seq === 2)!.bm25 - (-1 - (2 - 1) * KEYWORD_EVIDENCE.context)) < 1e-12);
  assert.ok(Math.abs(kw.find((h) => h.seq === 3)!.bm25 - -10 * KEYWORD_EVIDENCE.context) < 1e-12);
  const echo = withContext([{ seq: 7, bm25: -5 }], [{ seq: 7, bm25: -4 }], 10);
  assert.equal(echo[0]!.bm25, -5, 'a context weaker than the memory itself adds nothing');
  assert.deepEqual(withContext(own, ctx, 10, 0), own, 'weight 0 is the own field alone');
  const roleCtx = withContext(own, ctx, 10, undefined, { role: new Set([2, 3]) });
  assert.deepEqual(
    roleCtx.map((h) => [h.seq, h.bm25]),
    [
      [1, -6],
      [2, -1 - (2 - 1) * KEYWORD_EVIDENCE.context * KEYWORD_EVIDENCE.roleContext],
    ],
    'a role turn gets roleContext of the weight; one matched by its context alone is no match when that share is 0',
  );
  assert.equal(KEYWORD_EVIDENCE.roleContext, 0);
  // Session evidence in a chat with an assistant: a role turn longer than its session's median candidate gains none.
  const turns = [
    { seq: 10, bm25: -8 },
    { seq: 11, bm25: -2 },
    { seq: 12, bm25: -2 },
    { seq: 13, bm25: -2 },
  ];
  const one = new Map(turns.map((h) => [h.seq, 's']));
  const shaped = withSessionEvidence(turns, one, undefined, {
    length: new Map([
      [10, 100],
      [11, 50],
      [12, 2000],
      [13, 100],
    ]),
    role: new Set([10, 11, 12]),
  });
  const gain = (seq: number): number => shaped.find((h) => h.seq === seq)!.bm25 - turns.find((h) => h.seq === seq)!.bm25;
  assert.ok(Math.abs(gain(11) - KEYWORD_EVIDENCE.session * -8) < 1e-12, 'a role turn no longer than the median gains it all');
  assert.equal(gain(12), 0, 'a role turn longer than the median gains nothing');
  assert.ok(Math.abs(gain(13) - KEYWORD_EVIDENCE.session * -8) < 1e-12, 'a named speaker turn is not shaped by length');
  const sessions = new Map([
    [1, 'a'],
    [3, 'b'],
    [2, 'b'],
  ]);
  const ev = withSessionEvidence(kw, sessions);
  assert.ok(
    Math.abs(ev.find((h) => h.seq === 2)!.bm25 - (kw.find((h) => h.seq === 2)!.bm25 + KEYWORD_EVIDENCE.session * -10 * KEYWORD_EVIDENCE.context)) < 1e-12,
    'a session lifts its members by its best match',
  );
  assert.deepEqual(
    withSessionEvidence(kw, new Map()).map((h) => h.seq),
    kw.map((h) => h.seq),
    'no sessions, no change',
  );
  const m = meanVector([Float32Array.from([1, 0]), Float32Array.from([0, 1])])!;
  assert.ok(Math.abs(m[0]! - Math.SQRT1_2) < 1e-6 && Math.abs(m[1]! - Math.SQRT1_2) < 1e-6);
  assert.equal(meanVector([]), null);
  assert.equal(meanVector([Float32Array.from([1, 0]), Float32Array.from([-1, 0])]), null, 'opposite vectors have no direction');
  const b = blendedVector(Float32Array.from([1, 0]), Float32Array.from([0, 1]));
  assert.ok(Math.abs(Math.hypot(b[0]!, b[1]!) - 1) < 1e-6);
  const tails: Record<string, { content: string; vector: Float32Array | null; key: string | null }[]> = {
    '["n","s"]': [{ content: 'old', vector: Float32Array.from([1, 0]), key: null }],
  };
  const out = await batchContexts(
    [
      { namespace: 'n', sessionId: 's', window: 2 },
      { namespace: 'n', sessionId: 's', window: 2 },
      { namespace: 'n', sessionId: null, window: 2 },
      { namespace: 'n', sessionId: 's', window: 0 },
    ],
    ['first', 'second', 'loose', 'off'],
    [Float32Array.from([0, 1]), Float32Array.from([1, 0]), null, Float32Array.from([1, 1])],
    async (ns, sid) => tails[JSON.stringify([ns, sid])] ?? [],
  );
  assert.deepEqual(
    out.map((o) => o.texts),
    [['old'], ['old', 'first'], null, null],
  );
  assert.ok(out[1]!.vector !== null && Math.abs(out[1]!.vector[0]! - Math.SQRT1_2) < 1e-6);
});

test('the default fusion is adaptive with the cross-validated keyword weight 0.7', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  try {
    await mem.addMany(['apple banana cherry', 'banana split', 'cherry pie', 'banana bread recipe', 'unrelated text'].map((content) => ({ content })));
    const def = await mem.recall('banana cherry');
    const same = await mem.recall('banana cherry', { fusion: 'adaptive', weights: { keyword: 1, vector: 1 } });
    assert.deepEqual(
      def.map((h) => [h.id, h.score]),
      same.map((h) => [h.id, h.score]),
    );
    const { ADAPTIVE_DEFAULTS } = await import('../src/recall/fusion.js');
    assert.equal(ADAPTIVE_DEFAULTS.keywordWeight, 0.7);
  } finally {
    await mem.close();
  }
});

test('PostgreSQL: a schema-2 store with vectors is migrated; the vector leg searches own + context vectors, kept on update and reindex', {
  skip: !pglite.vectors && 'needs pgvector',
}, async () => {
  const { default: pg } = await import('pg');
  const { blendedVector } = await import('../src/lifecycle/context.js');
  const { parseVector } = await import('../src/pg/sql.js');
  const schema = freshSchema();
  const loc = { url: pglite.url, postgres: { schema, poolSize: 1 } };
  const sql = async <T = Record<string, unknown>>(text: string): Promise<T[]> => {
    const c = new pg.Client({ connectionString: pglite.url });
    await c.connect();
    try {
      return (await c.query(text)).rows as T[];
    } finally {
      await c.end();
    }
  };
  // A store as schema 2 left it: the own vector with the HNSW index, no context anywhere.
  let mem = await open2();
  const old = await mem.addConversation(CHAT, { sessionId: 's1', minWords: 0, contextWindow: 0 });
  await mem.close();
  await sql(`ALTER TABLE "${schema}".memories DROP COLUMN context CASCADE, DROP COLUMN context_embedding, DROP COLUMN search_embedding, DROP COLUMN event_at;
    DROP TABLE "${schema}".ctx_term_stats; DROP TABLE "${schema}".namespace_stats; DROP INDEX "${schema}".memories_session;
    DROP TABLE "${schema}".term_stats; CREATE TABLE "${schema}".term_stats (term text PRIMARY KEY, df integer NOT NULL);
    CREATE INDEX memories_embedding_hnsw ON "${schema}".memories USING hnsw (embedding vector_cosine_ops);
    UPDATE "${schema}".meta SET value = '2' WHERE key = 'schema_version'`);
  const indexes = async (): Promise<string[]> =>
    (await sql<{ i: string }>(`SELECT indexname AS i FROM pg_indexes WHERE schemaname = '${schema}' AND indexname LIKE '%hnsw'`)).map((r) => r.i);
  assert.deepEqual(await indexes(), ['memories_embedding_hnsw']);

  mem = await open2();
  try {
    assert.equal((await mem.stats()).schemaVersion, PG_SCHEMA_VERSION);
    assert.deepEqual(await indexes(), ['memories_search_hnsw'], 'the HNSW index moved to the searched vector');
    const [kept] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${schema}".memories WHERE search_embedding IS NOT NULL AND search_embedding = embedding AND context IS NULL`,
    );
    assert.equal(kept!.n, 3, 'old memories are searched by their own vectors');
    assert.equal((await mem.recall('sunset over the water orange violet', { mode: 'vector', limit: 1 }))[0]!.id, old[1]!.id);

    // New turns of the session get context; the searched vector is the blend of own and context vectors.
    const added = await mem.add('Caroline: Thanks, I will hang it in the hall.', { sessionId: 's1' });
    const searched = async (id: string): Promise<{ own: Float32Array; ctx: Float32Array | null; search: Float32Array }> => {
      const [r] = await sql<{ e: string; c: string | null; s: string }>(
        `SELECT embedding::text AS e, context_embedding::text AS c, search_embedding::text AS s FROM "${schema}".memories WHERE id = '${id}'`,
      );
      return { own: parseVector(r!.e), ctx: r!.c ? parseVector(r!.c) : null, search: parseVector(r!.s) };
    };
    const near = (a: Float32Array, b: Float32Array): boolean => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) < 1e-6);
    let v = await searched(added.id);
    assert.ok(v.ctx, 'the new turn has a context vector');
    assert.ok(near(v.search, blendedVector(v.own, v.ctx!)) && !near(v.search, v.own));
    const exact = await mem.recall('hang it in the hall frame', { mode: 'vector', limit: 4, exact: true });
    const approx = await mem.recall('hang it in the hall frame', { mode: 'vector', limit: 4 });
    assert.deepEqual(
      approx.map((h) => h.id),
      exact.map((h) => h.id),
      'exact and HNSW agree on a small store',
    );
    assert.equal(exact[0]!.id, added.id);

    // An edit re-embeds the memory: its context vector stays, and the blend follows the new own vector.
    await mem.update(added.id, { content: 'Caroline: Thanks, it goes above the fireplace.' });
    const edited = await searched(added.id);
    assert.ok(near(edited.ctx!, v.ctx!) && !near(edited.own, v.own));
    assert.ok(near(edited.search, blendedVector(edited.own, edited.ctx!)));
    v = edited;
  } finally {
    await mem.close();
  }

  // A model of another width: the three vector columns change width; reindex remakes own and context vectors, and the blend.
  mem = await openMemory({ ...loc, embedder: new HashEmbedder('hash-32', 32), allowModelChange: true });
  try {
    await mem.reindex();
    const [r] = await sql<{
      e: string;
      c: string;
      s: string;
      m: string;
    }>(`SELECT embedding::text AS e, context_embedding::text AS c, search_embedding::text AS s, embedding_model AS m
      FROM "${schema}".memories WHERE context IS NOT NULL`);
    assert.equal(r!.m, 'hash-32');
    assert.equal(parseVector(r!.s).length, 32);
    assert.deepEqual(await indexes(), ['memories_search_hnsw']);
    assert.deepEqual(
      parseVector(r!.s).map((x) => Math.round(x * 1e5)),
      blendedVector(parseVector(r!.e), parseVector(r!.c)).map((x) => Math.round(x * 1e5)),
    );
    const rec = (await exportAll(mem)).find((x) => x.context);
    assert.deepEqual(
      rec!.context,
      CHAT.slice(1, 3).map((t) => `${t.speaker}: ${t.content}`),
    );
  } finally {
    await mem.close();
  }

  function open2(): Promise<Memory> {
    return openMemory({ ...loc, embedder: new HashEmbedder() });
  }
});

test('PostgreSQL keyword leg: with context and session evidence it ranks a conversation as the file does', async () => {
  const results: string[][] = [];
  for (const loc of [{ path: tempDb() }, { url: pglite.url, postgres: { schema: freshSchema(), poolSize: 1 } }] as Location[]) {
    const mem = await openMemory({ ...loc, embedder: 'none' });
    try {
      // Two equally weak matches; the later one's session also holds the strong match (and a turn found by its context).
      await mem.add('We went to the lake', { sessionId: 'quiet', contextWindow: 0 });
      await mem.add('Paint lake house plans', { sessionId: 'busy', contextWindow: 0 });
      await mem.add('She went to the lake', { sessionId: 'busy', contextWindow: 0 });
      await mem.add('Sounds like fun', { sessionId: 'busy', contextWindow: 2 });
      await mem.addMany(
        [
          'grocery list',
          'dentist on Monday',
          'the printer is broken',
          'call the bank',
          'book flights',
          'water the plants',
          'car service due',
          'buy a gift',
        ].map((content) => ({ content })),
      );
      results.push((await mem.recall('paint lake house', { mode: 'keyword', limit: 10 })).map((h) => h.content));
    } finally {
      await mem.close();
    }
  }
  assert.ok(results[0]!.indexOf('She went to the lake') < results[0]!.indexOf('We went to the lake'), 'session evidence lifts the busy session');
  assert.deepEqual(results[1], results[0], 'PostgreSQL ranks as the file does');
});

test('surfaces: the CLI and the HTTP API take the context window; a bad one is refused and writes nothing', async () => {
  const { cli, CLI } = await import('./helpers.js');
  const { spawn } = await import('node:child_process');
  const db = tempDb();
  assert.equal(cli(['--db', db, '--embedder', 'none', 'add', 'Mel: what did you paint?', '--session', 's']).code, 0);
  assert.equal(cli(['--db', db, '--embedder', 'none', 'add', 'Caroline: a sunset', '--session', 's', '--context-window', '0']).code, 0);
  assert.equal(cli(['--db', db, '--embedder', 'none', 'add', 'Mel: lovely', '--session', 's', '--context-window', '1']).code, 0);
  const bad = cli(['--db', db, '--embedder', 'none', 'add', 'x', '--session', 's', '--context-window', 'two']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /--context-window must be a whole number from 0 to 10/);
  const proc = spawn(process.execPath, [CLI, '--db', db, '--embedder', 'none', 'serve', '--port', '0'], {
    env: { ...process.env, MNEMOLITE_DB: '', MNEMOLITE_TOKEN: '', MNEMOLITE_TOKENS: '', MNEMOLITE_HOST: '', MNEMOLITE_PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (d) => {
        out += d;
        const m = /listening(?: on |":")(http:\/\/[^\s"]+)/.exec(out);
        if (m) resolve(m[1]!.replace(/^http:\/\/(0\.0\.0\.0|\[::\])/, 'http://127.0.0.1'));
      });
      proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const post = (body: unknown): Promise<Response> =>
      fetch(`${url}/api/memories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post({ content: 'Caroline: frame it', sessionId: 's', contextWindow: 2 })).status, 201);
    assert.equal((await post({ content: 'y', sessionId: 's', contextWindow: 11 })).status, 400);
  } finally {
    proc.kill('SIGTERM');
  }
  const mem = await openMemory({ path: db, embedder: 'none' });
  try {
    const recs = await exportAllPlain(mem);
    assert.deepEqual(
      recs.map((r) => r.context?.length ?? 0),
      [0, 0, 1, 2],
    );
  } finally {
    await mem.close();
  }
});

test('with the bundled model, a memory takes its context only when related to it: chat turns do, unrelated facts of one session do not', async () => {
  const { CONTEXT_MIN_SIMILARITY, contextGate } = await import('../src/lifecycle/context.js');
  const { LOCAL_MODEL_ID } = await import('../src/embed/local.js');
  assert.equal(contextGate(LOCAL_MODEL_ID), CONTEXT_MIN_SIMILARITY, 'the gate is measured for the bundled model');
  assert.equal(contextGate('hash-64'), -1, 'other embedders: no gate');
  const mem = await openMemory({ path: tempDb() });
  try {
    await mem.addConversation(
      [
        { speaker: 'Mel', content: 'What did you paint last weekend at the lake house?' },
        { speaker: 'Caroline', content: 'I painted the sunset over the lake, all orange and violet.' },
      ],
      { sessionId: 'chat' },
    );
    await mem.addMany([
      { content: 'The staging database runs PostgreSQL 15 on port 5433.', sessionId: 'notes' },
      { content: 'Alice is allergic to peanuts.', sessionId: 'notes' },
    ]);
    const recs = await exportAllPlain(mem);
    assert.deepEqual(
      recs.map((r) => r.context?.length ?? 0),
      [0, 1, 0, 0],
    );
  } finally {
    await mem.close();
  }
});

test('a context never crosses namespaces, even with the same sessionId', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  try {
    await mem.add('secret plan of agent one', { namespace: 'a1', sessionId: 's' });
    const b = await mem.add('hello from agent two', { namespace: 'a2', sessionId: 's' });
    assert.equal((await exportAllPlain(mem)).find((r) => r.id === b.id)!.context, undefined);
    assert.equal((await mem.recall('secret plan', { namespace: 'a2', mode: 'keyword' })).length, 0);
  } finally {
    await mem.close();
  }
});
