// The vector index's codes kept in the file (src/search/vector-codes.ts, schema 8): the writer's
// codes are the index's own, triggers drop stale ones, and a file without (some of) its codes, an
// old-schema file and a read-only open all recall exactly as an index built from the floats.
// Real SQLite files in temp dirs; no timing.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openMemory, type Memory } from '../src/index.js';
import { blendedBytes } from '../src/lifecycle/context.js';
import { SearchIndex } from '../src/search/search-index.js';
import { VectorIndex, blobToVector } from '../src/search/vector-index.js';
import { SCHEMA_VERSION } from '../src/store/schema.js';
import { Store } from '../src/store/store.js';
import { HashEmbedder, tempDir } from './helpers.js';
import { mulberry32 } from './rng.js';

// 40 dims: the int8 rows are padded to 48, the sign codes to 16 bytes.
const DIMS = 40;
const MODEL = 'hash-40';
const embedder = (): HashEmbedder => new HashEmbedder(MODEL, DIMS);

const WORDS =
  'deploy database migration postgres redis cache latency budget alice bob carol standup meeting notes editor theme dark vegetarian peanuts flight berlin lisbon birthday gift incident disk alert rotation'.split(
    ' ',
  );

function sentences(n: number, seed: number): string[] {
  const r = mulberry32(seed);
  return Array.from(
    { length: n },
    (_, i) => `${Array.from({ length: 3 + Math.floor(r() * 6) }, () => WORDS[Math.floor(r() * WORDS.length)]!).join(' ')} item${seed}x${i}`,
  );
}

const QUERIES = sentences(25, 99);

type CodeRow = { seq: number; centre: number | null; q: Buffer | null; scale: Buffer | null; sign: Buffer | null };

function raw(path: string, readonly = false): Database.Database {
  return new Database(path, { readonly });
}

function codeRows(path: string): Map<number, CodeRow> {
  const db = raw(path, true);
  try {
    return new Map((db.prepare('SELECT seq, centre, q, scale, sign FROM vector_codes').all() as CodeRow[]).map((r) => [r.seq, r]));
  } finally {
    db.close();
  }
}

/** What the index computes from each memory's floats (own vector blended with the context's) relative to the stored centre. */
function expectedCodes(path: string): { centre: number; codes: Map<number, { q: Buffer; scale: Buffer; sign: Buffer }>; withContext: number } {
  const db = raw(path, true);
  try {
    const c = db.prepare('SELECT id, centre FROM vector_centres WHERE model = ?').get(MODEL) as { id: number; centre: Buffer };
    assert.ok(c, 'the centre is stored');
    const vi = new VectorIndex(DIMS);
    vi.useCentre(blobToVector(c.centre));
    const codes = new Map<number, { q: Buffer; scale: Buffer; sign: Buffer }>();
    let withContext = 0;
    for (const r of db.prepare('SELECT seq, embedding, context_embedding FROM memories WHERE embedding_model = ?').all(MODEL) as {
      seq: number;
      embedding: Buffer;
      context_embedding: Buffer | null;
    }[]) {
      const own = new Uint8Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength);
      if (r.context_embedding) withContext++;
      vi.set(0, r.context_embedding ? blendedBytes(own, r.context_embedding) : own);
      codes.set(r.seq, vi.codesOf(0)!);
      vi.clear(0);
    }
    return { centre: c.id, codes, withContext };
  } finally {
    db.close();
  }
}

function assertCodesMatch(path: string): void {
  const want = expectedCodes(path);
  const rows = codeRows(path);
  assert.ok(want.codes.size > 0);
  for (const [seq, w] of want.codes) {
    const r = rows.get(seq);
    assert.ok(r, `memory ${seq} has a code`);
    assert.equal(r.centre, want.centre);
    assert.deepEqual([r.q, r.scale, r.sign], [w.q, w.scale, w.sign], `code of memory ${seq}`);
  }
  const db = raw(path, true);
  const total = db.prepare('SELECT count(*) FROM memories').pluck().get() as number;
  db.close();
  assert.equal(rows.size, total, 'every memory has a row: its code, or a marker when it has no vector');
}

function unit(v: number[]): Float32Array {
  const f = Float32Array.from(v);
  const n = Math.hypot(...f);
  return f.map((x) => x / n);
}

/** Vector-leg hits (approximate and exact) of the queries, from an index loaded from the file as it is. */
async function vectorHits(path: string, readonly = false): Promise<[number, number][][]> {
  const qs = (await embedder().embed(QUERIES)).map(unit);
  const store = new Store(path, { readonly });
  try {
    const idx = new SearchIndex(store, MODEL, DIMS);
    const out: [number, number][][] = [];
    for (const q of qs) {
      out.push(idx.search(q, 10, {}).map((h) => [h.seq, h.score]));
      out.push(idx.search(q, 10, {}, { exact: true }).map((h) => [h.seq, h.score]));
    }
    return out;
  } finally {
    store.close();
  }
}

async function recalls(path: string, readonly = false): Promise<[string, number][][]> {
  const mem = await openMemory({ path, embedder: embedder(), readonly });
  try {
    const out: [string, number][][] = [];
    for (const q of QUERIES) out.push((await mem.recall(q, { limit: 8 })).map((h) => [h.id, h.score]));
    return out;
  } finally {
    await mem.close();
  }
}

function assertSameHits<T>(got: [T, number][][], want: [T, number][][], what: string): void {
  assert.equal(got.length, want.length);
  got.forEach((g, i) => {
    assert.deepEqual(
      g.map((h) => h[0]),
      want[i]!.map((h) => h[0]),
      `${what}: same memories for query ${i}`,
    );
    g.forEach((h, k) => assert.ok(Math.abs(h[1] - want[i]![k]![1]) <= 1e-6, `${what}: same score for query ${i}`));
  });
}

/** A file written through the library: plain adds, a session (context vectors), updates, an import and a reindex. */
async function buildFile(dir: string): Promise<string> {
  const path = join(dir, 'm.db');
  const mem: Memory = await openMemory({ path, embedder: embedder() });
  const texts = sentences(200, 1);
  await mem.addMany(texts.map((content) => ({ content })));
  await mem.recall('deploy'); // the first search chooses the centre and writes the codes back
  const conv = sentences(40, 2);
  for (const t of conv) await mem.add(t, { sessionId: 'chat' });
  const ids = (await mem.list({ limit: 300 })).map((r) => r.id);
  for (const id of ids.slice(0, 5)) await mem.update(id, { content: `changed ${id} alert rotation` });
  await mem.update(ids[6]!, { metadata: { tag: 'kept vector' } });
  // An import (vectors of this model are reused) from another file.
  const other = await openMemory({ path: join(dir, 'other.db'), embedder: embedder() });
  await other.addMany(sentences(20, 3).map((content) => ({ content, namespace: 'imported' })));
  const records = [...other.export()];
  await other.close();
  await mem.import(records);
  await mem.close();
  // A memory written without a vector by another program, then embedded by reindex (the re-embed path).
  const db = raw(path);
  db.prepare(
    "INSERT INTO memories(id, namespace, content, metadata, created_at, updated_at, content_hash) VALUES ('raw-1', 'default', 'lisbon flight raw', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'h')",
  ).run();
  db.close();
  const again = await openMemory({ path, embedder: embedder() });
  assert.equal((await again.reindex()).embedded, 1);
  await again.close();
  return path;
}

test('codes written by add, update, import and reindex are what the index computes from the floats; triggers drop stale ones', async () => {
  const dir = tempDir();
  const path = await buildFile(dir);
  assert.ok(expectedCodes(path).withContext > 0, 'some memories are indexed by their vector blended with their context');
  assertCodesMatch(path);

  // Triggers: any change of a memory's vectors, its model or its seq drops its code; other columns do not.
  const db = raw(path);
  const seqs = db.prepare('SELECT seq FROM memories WHERE embedding IS NOT NULL ORDER BY seq LIMIT 6').pluck().all() as number[];
  const [a, b, c, d, e, f] = seqs as [number, number, number, number, number, number];
  const has = (seq: number): boolean => !!db.prepare('SELECT 1 FROM vector_codes WHERE seq = ?').get(seq);
  db.prepare('UPDATE memories SET importance = 0.9, content = content || ? WHERE seq = ?').run(' more', a);
  assert.ok(has(a), 'a change of other columns keeps the code');
  db.prepare('UPDATE memories SET embedding = (SELECT embedding FROM memories WHERE seq = ?) WHERE seq = ?').run(c, b);
  db.prepare("UPDATE memories SET embedding_model = 'other' WHERE seq = ?").run(c);
  db.prepare('UPDATE memories SET context_embedding = embedding WHERE seq = ?').run(d);
  db.prepare('DELETE FROM memories WHERE seq = ?').run(e);
  const top = db.prepare('SELECT max(seq) + 100 FROM memories').pluck().get() as number;
  db.prepare('UPDATE memories SET seq = ? WHERE seq = ?').run(top, f);
  for (const s of [b, c, d, e, f, top]) assert.ok(!has(s), `stale code of ${s} dropped`);
  const coded = db.prepare('SELECT count(*) FROM vector_codes WHERE centre IS NOT NULL').pluck().get() as number;
  assert.ok(coded > 100);
  // Changing a centre drops every code made with it.
  db.prepare('UPDATE vector_centres SET centre = centre').run();
  assert.equal(db.prepare('SELECT count(*) FROM vector_codes WHERE centre IS NOT NULL').pluck().get(), 0);
  db.close();
});

test('a file whose codes were emptied, partly deleted, or never made (old schema) recalls exactly as from its floats; read-only opens write nothing', async () => {
  const dir = tempDir();
  const path = await buildFile(dir);
  const fromCodes = await vectorHits(path);
  const recalled = await recalls(path);
  const codes = codeRows(path);

  const variant = (name: string, sql: string): string => {
    const p = join(dir, `${name}.db`);
    copyFileSync(path, p);
    const db = raw(p);
    db.exec(sql);
    db.close();
    return p;
  };

  // Emptied: the open quantises the floats (with the stored centre) and writes the codes back, byte for byte.
  const emptied = variant('emptied', 'DELETE FROM vector_codes');
  assertSameHits(await vectorHits(emptied), fromCodes, 'codes emptied');
  assert.deepEqual(codeRows(emptied), codes, 'the same codes are written back');
  assertSameHits(await recalls(emptied), recalled, 'codes emptied, recall');

  // Some rows deleted by another program: those memories are looked up and quantised alone.
  const partial = variant('partial', 'DELETE FROM vector_codes WHERE seq % 3 = 0');
  assertSameHits(await vectorHits(partial), fromCodes, 'a third of the codes deleted');
  assert.deepEqual(codeRows(partial), codes);

  // A memory another program added with a vector (no code) and one without a vector (a marker is written).
  const added = variant(
    'added',
    `INSERT INTO memories(id, namespace, content, metadata, created_at, updated_at, content_hash, embedding, embedding_model)
       SELECT 'raw-copy', 'default', 'raw copy', '{}', created_at, updated_at, 'h2', embedding, embedding_model FROM memories WHERE seq = (SELECT min(seq) FROM memories);
     INSERT INTO memories(id, namespace, content, metadata, created_at, updated_at, content_hash) VALUES ('raw-none', 'default', 'no vector', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'h3');`,
  );
  const first = (await vectorHits(path))[0]![0]![0];
  const withCopy = await vectorHits(added);
  const rawSeq = (() => {
    const db = raw(added, true);
    const s = db.prepare("SELECT seq FROM memories WHERE id = 'raw-copy'").pluck().get() as number;
    db.close();
    return s;
  })();
  assert.ok(
    withCopy.some((hits) => hits.some((h) => h[0] === rawSeq)),
    `the memory added without a code is found by its vector (first hit before: ${first})`,
  );
  const addedRows = codeRows(added);
  assert.ok(addedRows.get(rawSeq)?.q, 'its code was written back');
  assert.equal(addedRows.get(rawSeq + 1)?.centre, null, 'the memory without a vector is recorded as such');
  assertCodesMatch(added);

  // Read-only, without codes: the same results, and nothing written.
  const ro = variant('readonly', 'DELETE FROM vector_codes');
  assertSameHits(await vectorHits(ro, true), fromCodes, 'read-only without codes');
  assertSameHits(await recalls(ro, true), recalled, 'read-only without codes, recall');
  assert.equal(codeRows(ro).size, 0, 'a read-only open writes no codes');

  // An old-schema file (version 7: no code tables, nor the kept keyword postings of version 9): it
  // migrates, recalls as before, and the next open reads the codes it wrote.
  const old = variant(
    'old',
    `DROP TRIGGER memories_kept_delete; DROP TRIGGER memories_kept_update; DROP TRIGGER memories_kept_context; DROP TABLE keyword_postings;
     DROP TRIGGER memories_codes_insert; DROP TRIGGER memories_codes_update; DROP TRIGGER memories_codes_delete;
     DROP TRIGGER vector_centres_update; DROP TRIGGER vector_centres_delete; DROP TABLE vector_codes; DROP TABLE vector_centres;
     DELETE FROM sqlite_sequence WHERE name = 'vector_centres'; PRAGMA user_version = 7;`,
  );
  assertSameHits(await recalls(old), recalled, 'old schema, first open (from the floats)');
  const db = raw(old, true);
  assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  db.close();
  assert.deepEqual(codeRows(old), codes, 'the migrated file holds the same codes');
  assertSameHits(await recalls(old), recalled, 'old schema, second open (from the codes)');
  assertSameHits(await vectorHits(old), fromCodes, 'old schema, vector leg');
});
