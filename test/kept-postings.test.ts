/**
 * The keyword postings kept in the file (src/search/kept-postings.ts): written at close, read by
 * the next process instead of FTS5's occurrences, with the change log's writes since overlaid, and
 * giving the same hits and scores as FTS5's own postings in every case (real files, real
 * connections). Which path served a term is read from work counters, never from a clock.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import type { Memory } from '../src/memory/memory.js';
import { KEPT_MIN_DF, KEPT_MIN_MEMORIES, KeptChanges, decodeKept, encodeKept } from '../src/search/kept-postings.js';
import { KEYWORD_WORK } from '../src/search/keyword-index.js';
import { SCHEMA_VERSION } from '../src/store/schema.js';
import { tempDb } from './helpers.js';

const WORDS = (
  'river garden lamp copper violin harbor pepper meadow engine canvas lantern orbit pillow ' +
  'quartz saddle timber velvet walnut anchor basket candle desert falcon glacier hammer island ' +
  'jacket kettle ladder magnet needle oyster pencil quiver ribbon silver tunnel umbrella wagon'
).split(' ');

/** Deterministic pseudo-random texts over a small vocabulary: every word is held by far more than KEPT_MIN_DF memories. */
function texts(n: number, seed: number): string[] {
  let x = seed >>> 0;
  // mulberry32: a period long enough that no two texts repeat (a repeat would be merged).
  const next = (): number => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: n }, () => {
    const len = 6 + Math.floor(next() * 10);
    return Array.from({ length: len }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
  });
}

/** Words none of QUERIES has: asked only after a write, so their postings are read after it (the overlay fed by the sync). */
const LATER = ['garden orbit pillow', 'quartz saddle', 'timber velvet basket candle', 'falcon glacier hammer', 'needle oyster pencil'];
const QUERIES = [
  'river lamp',
  'copper violin harbor',
  'pepper',
  'meadow engine canvas lantern',
  'walnut anchor',
  'quiver ribbon silver',
  'tunnel wagon umbrella',
];

async function build(path: string, n = KEPT_MIN_MEMORIES + 500): Promise<void> {
  const mem = await openMemory({ path, embedder: 'none' });
  const all = texts(n, 7);
  for (let i = 0; i < all.length; i += 500) await mem.addMany(all.slice(i, i + 500).map((content) => ({ content })));
  await mem.close();
}

/** Every query's keyword hits (ids and scores), read by `mem`. */
async function answers(mem: Memory, queries = QUERIES): Promise<string[]> {
  const out: string[] = [];
  for (const q of queries)
    for (const h of await mem.recall(q, { mode: 'keyword', limit: 25, preferCurrent: false })) out.push(`${q}|${h.id}|${h.score.toFixed(12)}`);
  return out;
}

/** The same file (its WAL included: a consistent copy) without its kept rows: FTS5 serves every term. */
function withoutKept(path: string): string {
  const copy = tempDb('plain.db');
  const src = new Database(path, { readonly: true });
  src.prepare('VACUUM INTO ?').run(copy);
  src.close();
  const db = new Database(copy);
  db.exec('DELETE FROM keyword_postings');
  db.close();
  return copy;
}

function keptRows(path: string, field = 'content'): { rows: number; versions: number[] } {
  const db = new Database(path, { readonly: true });
  const rows = db.prepare('SELECT count(*) FROM keyword_postings WHERE field = ?').pluck().get(field) as number;
  const versions = db.prepare('SELECT DISTINCT version FROM keyword_postings WHERE field = ?').pluck().all(field) as number[];
  db.close();
  return { rows, versions };
}

/** A chat of `n` turns in sessions of 40, two speakers: every turn after the first of its session has a context. */
async function buildChat(path: string, n: number): Promise<void> {
  const mem = await openMemory({ path, embedder: 'none' });
  const all = texts(n, 11);
  for (let i = 0; i < n; i += 40)
    await mem.addConversation(
      all.slice(i, i + 40).map((content, j) => ({ speaker: j % 2 ? 'Ana' : 'Ben', content })),
      { sessionId: `s${i / 40}`, minWords: 0 },
    );
  await mem.close();
}

describe('kept postings: encoding', () => {
  test('FTS5 instance rowids round-trip through a kept row, repeats counted as term frequencies', () => {
    const { blob, n } = encodeKept('3,3,8,200,200,200,70000,123456789');
    assert.equal(n, 5);
    const d = decodeKept(blob, n)!;
    assert.deepEqual(Array.from(d.seqs), [3, 8, 200, 70000, 123456789]);
    assert.deepEqual(Array.from(d.tfs), [2, 1, 3, 1, 1]);
    assert.equal(encodeKept('').n, 0);
  });

  test('a row that does not hold exactly its postings decodes to null (FTS5 is read instead)', () => {
    const { blob, n } = encodeKept('5,9,9,12');
    assert.equal(decodeKept(blob, n + 1), null, 'fewer postings than it says');
    assert.equal(decodeKept(blob, n - 1), null, 'bytes left over');
    assert.equal(decodeKept(blob.subarray(0, blob.length - 1), n), null, 'truncated');
    assert.equal(decodeKept(Buffer.from([5, 1, 0, 1]), 2), null, 'a repeated seq');
    assert.equal(decodeKept(Buffer.from([5, 0]), 1), null, 'a zero term frequency');
    assert.equal(decodeKept(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 1), null, 'a varint without end');
  });

  test('the overlay replaces the postings of memories changed after the row, keeps the others', () => {
    const row = decodeKept(encodeKept('1,2,2,5,9').blob, 4)!;
    const ch = new KeptChanges(10);
    ch.note(2, 12, ['lamp', 'lamp', 'lamp']); // changed after the row: its current tf
    ch.note(5, 12, null); // deleted after the row
    ch.note(7, 12, ['lamp']); // added after the row
    ch.note(9, 11, ['river']); // no longer holds the term
    const at11 = ch.apply('lamp', row, 11);
    assert.deepEqual(Array.from(at11.seqs.subarray(0, at11.n)), [1, 2, 7, 9]);
    assert.deepEqual(Array.from(at11.tfs.subarray(0, at11.n)), [1, 3, 1, 1]);
    const at10 = ch.apply('lamp', row, 10);
    assert.deepEqual(Array.from(at10.seqs.subarray(0, at10.n)), [1, 2, 7]);
    // A row written after every change needs nothing.
    assert.equal(ch.apply('lamp', row, 12), row);
  });
});

describe('kept postings: a real file', () => {
  test('close keeps the common terms of a big enough file; the next process reads them, with the same hits as FTS5', async () => {
    const path = tempDb();
    await build(path);
    const kept = keptRows(path);
    assert.ok(kept.rows >= WORDS.length, `every word is common: ${kept.rows} rows`);
    assert.equal(kept.versions.length, 1);
    const plain = withoutKept(path);
    const a = await openMemory({ path, embedder: 'none', readonly: true });
    const b = await openMemory({ path: plain, embedder: 'none', readonly: true });
    const k0 = KEYWORD_WORK.kept,
      p0 = KEYWORD_WORK.parsed;
    const fromKept = await answers(a);
    assert.ok(KEYWORD_WORK.kept > k0, 'kept rows served');
    assert.equal(KEYWORD_WORK.parsed, p0, 'no term read from FTS5');
    assert.deepEqual(fromKept, await answers(b));
    assert.ok(KEYWORD_WORK.parsed > p0, 'the plain copy reads FTS5');
    await a.close();
    await b.close();
    assert.equal(keptRows(path).rows, kept.rows, 'a read-only close writes nothing');
  });

  test("writes after the rows (this connection's and another's) are overlaid: the same hits as FTS5", async () => {
    const path = tempDb();
    await build(path);
    const { versions } = keptRows(path);
    // Another connection adds memories and changes metadata (the rows stay; the log says what changed).
    const w = await openMemory({ path, embedder: 'none' });
    const added = await w.addMany(texts(300, 99).map((content) => ({ content })));
    for (const id of added.slice(0, 20).map((m) => m.id)) await w.update(id, { metadata: { touched: true } });
    const r = await openMemory({ path, embedder: 'none' });
    const k0 = KEYWORD_WORK.kept;
    const before = await answers(r);
    assert.ok(KEYWORD_WORK.kept > k0, 'kept rows served');
    assert.deepEqual(keptRows(path).versions, versions, 'rows still from before the writes');
    // More writes while `r` holds terms read from the rows; then a term it has not read yet.
    await w.addMany(texts(200, 5).map((content) => ({ content: `${content} river lamp` })));
    await r.add('pepper pepper walnut anchor');
    const after = await answers(r);
    assert.notDeepEqual(after, before);
    const k1 = KEYWORD_WORK.kept;
    const later = await answers(r, LATER);
    assert.ok(KEYWORD_WORK.kept > k1, 'terms first read after the writes come from the rows');
    const plain = await openMemory({ path: withoutKept(path), embedder: 'none', readonly: true });
    assert.deepEqual(after, await answers(plain));
    assert.deepEqual(later, await answers(plain, LATER));
    await plain.close();
    await r.close();
    await w.close();
  });

  test("forget and new content drop every kept row (a forgotten memory's words leave the file); close keeps them again", async () => {
    const path = tempDb();
    await build(path);
    const mem = await openMemory({ path, embedder: 'none' });
    const [gone] = await mem.recall('copper violin harbor', { mode: 'keyword', limit: 1 });
    await mem.forget(gone!.id);
    assert.equal(keptRows(path).rows, 0, 'forget dropped them');
    await mem.close();
    assert.ok(keptRows(path).rows > 0, 'close kept them again');
    const db = new Database(path, { readonly: true });
    const seq = db.prepare('SELECT max(version) FROM keyword_postings').pluck().get() as number;
    db.close();
    assert.ok(seq > 0);
    // The rows written after the forget do not hold the forgotten memory.
    const r = await openMemory({ path, embedder: 'none', readonly: true });
    const plain = await openMemory({ path: withoutKept(path), embedder: 'none', readonly: true });
    assert.deepEqual(await answers(r), await answers(plain));
    assert.ok(!(await answers(r)).some((a) => a.includes(gone!.id)));
    await r.close();
    await plain.close();
    const m2 = await openMemory({ path, embedder: 'none' });
    const [one] = await m2.recall('pepper', { mode: 'keyword', limit: 1 });
    await m2.update(one!.id, { content: 'entirely new words here' });
    assert.equal(keptRows(path).rows, 0, 'new content dropped them');
    await m2.close();
  });

  test('a connection that neither searched nor wrote many memories leaves missing rows to a later close', async () => {
    const path = tempDb();
    await build(path);
    const w = await openMemory({ path, embedder: 'none' });
    const [one] = await w.list({ limit: 1 });
    await w.forget(one!.id);
    await w.close();
    assert.equal(keptRows(path).rows, 0, 'a one-off forget does not rebuild them');
    const r = await openMemory({ path, embedder: 'none' });
    await r.recall('river', { mode: 'keyword' });
    await r.close();
    assert.ok(keptRows(path).rows > 0, 'a connection that searched does');
  });

  test('rows the change log no longer covers are not used; FTS5 serves, with the same hits', async () => {
    const path = tempDb();
    await build(path);
    const db = new Database(path);
    // As if the log had been trimmed past the rows' version after later writes.
    const v = db.prepare('SELECT max(version) FROM keyword_postings').pluck().get() as number;
    db.prepare(
      "INSERT INTO memories(id, namespace, content, created_at, updated_at, content_hash) VALUES ('x1', 'default', 'river lamp river', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'h')",
    ).run();
    db.prepare('DELETE FROM changes WHERE version <= ?').run(v + 1);
    db.close();
    const r = await openMemory({ path, embedder: 'none', readonly: true });
    const plain = await openMemory({ path: withoutKept(path), embedder: 'none', readonly: true });
    const k0 = KEYWORD_WORK.kept;
    const got = await answers(r);
    assert.equal(KEYWORD_WORK.kept, k0, 'no kept row used');
    assert.deepEqual(got, await answers(plain));
    await r.close();
    await plain.close();
  });

  test("a chat's context field is kept too; writes and a forget's rewritten contexts are overlaid or drop it, with the same hits as FTS5", async () => {
    const path = tempDb();
    await buildChat(path, KEPT_MIN_MEMORIES + 600);
    const ctx = keptRows(path, 'context');
    assert.ok(ctx.rows >= WORDS.length, `context rows: ${ctx.rows}`);
    const plainOf = async (): Promise<Memory> => openMemory({ path: withoutKept(path), embedder: 'none', readonly: true });
    const r = await openMemory({ path, embedder: 'none', readonly: true });
    const k0 = KEYWORD_WORK.kept,
      p0 = KEYWORD_WORK.parsed;
    const first = await answers(r);
    assert.ok(KEYWORD_WORK.kept > k0);
    assert.equal(KEYWORD_WORK.parsed, p0, 'neither field read from FTS5');
    let plain = await plainOf();
    assert.deepEqual(first, await answers(plain));
    await plain.close();
    // Another connection continues a session (new turns with contexts): overlaid in `r`.
    const w = await openMemory({ path, embedder: 'none' });
    await w.addConversation(
      texts(60, 3).map((content, j) => ({ speaker: j % 2 ? 'Ana' : 'Ben', content: `${content} harbor violin` })),
      { sessionId: 's1', minWords: 0 },
    );
    assert.equal(keptRows(path, 'context').rows, ctx.rows, 'added turns leave the rows');
    // Turns whose only match for "jacket" is their context (the turn before says it three times),
    // asked only now: the context field's row for it needs the overlay of the turns just added.
    await w.addConversation(
      Array.from({ length: 40 }, (_, j) => ({ speaker: j % 2 ? 'Ana' : 'Ben', content: j % 2 ? 'ok then' : 'jacket jacket jacket' })),
      { sessionId: 's3', minWords: 0 },
    );
    const after = await answers(r);
    const later = await answers(r, LATER);
    const jacket = await r.recall('jacket', { mode: 'keyword', limit: 1000, preferCurrent: false });
    const byContext = (await w.list({ sessionId: 's3', limit: 100 })).filter((m) => m.content.endsWith('ok then')).map((m) => m.id);
    assert.ok(
      jacket.some((h) => byContext.includes(h.id)),
      'a turn found by its context alone',
    );
    plain = await plainOf();
    assert.deepEqual(after, await answers(plain));
    assert.deepEqual(later, await answers(plain, LATER));
    assert.deepEqual(
      jacket.map((h) => `${h.id}|${h.score.toFixed(12)}`),
      (await plain.recall('jacket', { mode: 'keyword', limit: 1000, preferCurrent: false })).map((h) => `${h.id}|${h.score.toFixed(12)}`),
    );
    await plain.close();
    // A forget rewrites the next turns' contexts: both fields' rows go.
    const [turn] = await w.list({ sessionId: 's2', limit: 1 });
    await w.forget(turn!.id);
    assert.equal(keptRows(path, 'context').rows, 0);
    assert.equal(keptRows(path).rows, 0);
    await r.close();
    await w.recall('river', { mode: 'keyword' });
    await w.close();
    assert.ok(keptRows(path, 'context').rows > 0, 'written again at close');
    const r2 = await openMemory({ path, embedder: 'none', readonly: true });
    plain = await plainOf();
    assert.deepEqual(await answers(r2), await answers(plain));
    await r2.close();
    await plain.close();
  });

  test('a file of the first schema 9 (one field, rows keyed by term) migrates: its rows go, close keeps both fields again', async () => {
    const path = tempDb();
    await build(path);
    const plain = withoutKept(path);
    // Back to the layout schema 9 first shipped, with a row of it, as that build left files.
    const db = new Database(path);
    db.exec(`DROP TRIGGER memories_kept_delete; DROP TRIGGER memories_kept_update; DROP TRIGGER memories_kept_context; DROP TABLE keyword_postings;
      CREATE TABLE keyword_postings (term TEXT PRIMARY KEY, version INTEGER NOT NULL, n INTEGER NOT NULL, docs BLOB NOT NULL);
      CREATE TRIGGER memories_kept_delete AFTER DELETE ON memories BEGIN DELETE FROM keyword_postings; END;
      CREATE TRIGGER memories_kept_update AFTER UPDATE OF content ON memories WHEN old.content IS NOT new.content BEGIN DELETE FROM keyword_postings; END;
      INSERT INTO keyword_postings VALUES ('river', 1, 1, x'0101');
      PRAGMA user_version = 9;`);
    db.close();
    const mem = await openMemory({ path, embedder: 'none' });
    const raw = new Database(path, { readonly: true });
    assert.equal(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual((raw.prepare("SELECT name FROM pragma_table_info('keyword_postings') ORDER BY cid").pluck().all() as string[]).slice(0, 2), [
      'field',
      'term',
    ]);
    assert.equal(raw.prepare('SELECT count(*) FROM keyword_postings').pluck().get(), 0, "the old layout's rows are gone");
    raw.close();
    const b = await openMemory({ path: plain, embedder: 'none', readonly: true });
    assert.deepEqual(await answers(mem), await answers(b));
    await b.close();
    await mem.close();
    assert.ok(keptRows(path).rows >= WORDS.length, 'the close of a connection that searched keeps them again');
  });

  test('a small file keeps nothing', async () => {
    const path = tempDb();
    await build(path, KEPT_MIN_MEMORIES - 1);
    assert.equal(keptRows(path).rows, 0);
    assert.ok(KEPT_MIN_DF > 1);
  });
});
