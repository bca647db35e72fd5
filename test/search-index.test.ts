// The in-memory search index (src/search/): tokenizer and BM25 parity with FTS5, SIMD kernels
// against plain-JS references, approximate vs exact vector recall, and staying in sync with
// writes from this process and from another process. Real SQLite files in temp dirs; no timing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openMemory, type Embedder } from '../src/index.js';
import { KERNEL_WASM, instantiateKernels, newMemory, simdSupported } from '../src/search/simd.js';
import { stem, tokenizeAscii } from '../src/search/tokenize.js';
import { VectorIndex } from '../src/search/vector-index.js';
import { generateMemories, generateQueries, syntheticVectors } from '../bench/corpus.js';
import { PROBES } from '../src/recall/probes.js';
import { ROOT, tempDb } from './helpers.js';
import { gauss, mulberry32, textVector } from './rng.js';

function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const k = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i]! *= k;
  return v;
}

/** The int8 index's score of `v` for query `q` in plain JS: per-vector scale max|v| / `levels`, int16 query. */
function int8Score(v: Float32Array, q: Float32Array, levels: number): number {
  const dp = Math.ceil(v.length / 16) * 16;
  const Q = Math.min(32767, Math.floor((2 ** 31 - 1) / (127 * (dp / 4))));
  const mv = v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  const mq = q.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  let d = 0;
  for (let j = 0; j < v.length; j++) d += Math.round(v[j]! * Math.fround(levels / mv)) * Math.round(Math.fround(q[j]!) * (Q / mq));
  return (d * (mv / levels)) / (Q / mq);
}

/** n unit vectors in `clusters` clusters with a shared offset, like sentence embeddings. */
function clustered(n: number, dims: number, clusters: number, seed: number): Float32Array[] {
  const r = mulberry32(seed);
  const dir = (): Float32Array => unit(Float32Array.from({ length: dims }, () => gauss(r)));
  const mean = dir();
  const centres = Array.from({ length: clusters }, dir);
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(r() * clusters)]!;
    return unit(Float32Array.from({ length: dims }, (_, j) => 0.5 * mean[j]! + 0.7 * c[j]! + (0.6 * gauss(r)) / Math.sqrt(dims)));
  });
}

/** The unit vector along axis `k`. */
function axis(dims: number, k: number): Float32Array {
  const v = new Float32Array(dims);
  v[k] = 1;
  return v;
}

/** An Embedder returning vectors registered per text (a real implementation of the interface). */
class TableEmbedder implements Embedder {
  readonly provider = 'test';
  readonly id: string;
  readonly dims: number;
  readonly table = new Map<string, Float32Array>();
  constructor(dims: number, id = `table-${dims}`) {
    this.dims = dims;
    this.id = id;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => {
      // Relevance's probe questions (src/recall/baseline.ts): a direction of their own.
      const v = this.table.get(t) ?? (PROBES.includes(t) ? axis(this.dims, this.dims - 1) : undefined);
      if (!v) throw new Error(`no vector for ${t}`);
      return v;
    });
  }
}

const WORDS =
  'deploy deployment deploying database migration postgres redis cache latency budget alice bob carol standup meeting notes editor theme dark vegetarian peanuts flight berlin lisbon birthday present gift incident disk alert rotation'.split(
    ' ',
  );

function sentences(n: number, seed: number): string[] {
  const r = mulberry32(seed);
  const pick = (): string => WORDS[Math.floor(r() ** 1.5 * WORDS.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const k = 4 + Math.floor(r() * 10);
    const ws = Array.from({ length: k }, pick);
    return `${ws.join(' ')} item${i} and the ${pick()}s were ${pick()}ed.`;
  });
}

test('ASCII tokenizer and Porter stemmer match FTS5 porter unicode61 on sentences and words', () => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(c, tokenize='porter unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);");
  const texts = [
    ...sentences(200, 1),
    "Don't re-deploy the DB-prod_01 server's v2.3.1 config; it's e-mail'd to Alice@Example.com at 10:45!",
    'relational conditional rational valency hesitancy digitizer conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti',
    'triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize',
    'caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky probate rate cease controll roll',
  ];
  const ins = db.prepare('INSERT INTO t(rowid, c) VALUES (?, ?)');
  texts.forEach((t, i) => ins.run(i + 1, t));
  const byDoc = new Map<number, string[]>();
  for (const [doc, term] of db.prepare('SELECT doc, term FROM v ORDER BY doc, offset').raw().all() as [number, string][]) {
    byDoc.set(doc, [...(byDoc.get(doc) ?? []), term]);
  }
  texts.forEach((t, i) => assert.deepEqual(tokenizeAscii(t), byDoc.get(i + 1) ?? [], t));
  assert.equal(stem('deployment'), 'deploy');
  assert.equal(stem('at'), 'at'); // shorter than 3: unchanged, as in FTS5
});

test('SIMD kernels agree with plain-JS references (odd dims use the generic Hamming kernel)', () => {
  assert.ok(simdSupported());
  assert.ok(KERNEL_WASM.byteLength > 0);
  for (const dims of [100, 512, 24]) {
    const n = 300;
    const vecs = clustered(n, dims, 7, dims);
    const idx = new VectorIndex(dims);
    vecs.forEach((v, i) => idx.set(i, v));
    const q = clustered(1, dims, 1, 99)[0]!;
    // Exact scan = JS dot products, same order.
    const dot = (v: Float32Array): number => v.reduce((s, x, j) => s + x * q[j]!, 0);
    const want = vecs
      .map((v, i) => ({ i, s: dot(v) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 20);
    // Exact scan over the int8 vectors = the same quantisation in plain JS (per-vector scale
    // max|v| / 127, int16 query), same order; within 0.01 of the float dot products.
    const got = idx.search(q, 20, { exact: true });
    const ref = vecs.map((v, i) => ({ i, s: int8Score(v, q, 127) })).sort((a, b) => b.s - a.s);
    assert.deepEqual(
      got.map((h) => h.slot),
      ref.slice(0, 20).map((w) => w.i),
      `int8 exact order, dims ${dims}`,
    );
    got.forEach((h, k) => {
      assert.ok(Math.abs(h.score - ref[k]!.s) < 1e-5, `int8 score, dims ${dims}`);
      assert.ok(Math.abs(h.score - dot(vecs[h.slot]!)) < 0.01, `int8 score near float, dims ${dims}`);
    });
    const floatTop = new Set(want.map((w) => w.i));
    assert.ok(got.filter((h) => floatTop.has(h.slot)).length >= 18, `int8 top-20 overlaps float top-20, dims ${dims}`);
    // With at least as many candidates as vectors, the approximate path scores every vector too.
    assert.deepEqual(
      idx.search(q, 20, { minCandidates: n }).map((h) => h.slot),
      got.map((h) => h.slot),
    );
  }
  // Hamming + histogram on raw memory against a JS popcount.
  const mem = newMemory(4);
  const k = instantiateKernels(mem);
  const u8 = new Uint8Array(mem.buffer);
  const r = mulberry32(5);
  const n = 50,
    cb = 64,
    codes = 0,
    q = 4096,
    mask = 8192,
    dist = 9000,
    hist = 12000;
  for (let i = 0; i < n * cb; i++) u8[codes + i] = Math.floor(r() * 256);
  for (let i = 0; i < cb; i++) u8[q + i] = Math.floor(r() * 256);
  for (let i = 0; i < n; i++) u8[mask + i] = i % 7 === 0 ? 0 : 1;
  const pop = (x: number): number => {
    let c = 0;
    for (; x; x >>= 1) c += x & 1;
    return c;
  };
  for (const fn of ['hamming', 'hamming4'] as const) {
    new Uint32Array(mem.buffer, hist, 600).fill(0);
    k[fn]!(codes, n, cb, q, mask, dist, hist);
    const d = new Uint16Array(mem.buffer, dist, n);
    const h = new Uint32Array(mem.buffer, hist, 600);
    const counts = new Array<number>(600).fill(0);
    for (let i = 0; i < n; i++) {
      if (!u8[mask + i]) {
        assert.equal(d[i], 0xffff);
        continue;
      }
      let want = 0;
      for (let b = 0; b < cb; b++) want += pop(u8[codes + i * cb + b]! ^ u8[q + b]!);
      assert.equal(d[i], want, `${fn} slot ${i}`);
      counts[want]!++;
    }
    assert.deepEqual([...h], counts);
  }
  // select: slots under the cut-off, then the first eqLeft at it, in slot order (odd counts: the 8-wide blocks leave a tail).
  for (const count of [n, 45, 7]) {
    const d = new Uint16Array(mem.buffer, dist, n);
    const t = [...d].filter((x) => x !== 0xffff).sort((a, b) => a - b)[10]!;
    for (const eqLeft of [0, 1, 100]) {
      const got = k.select(dist, count, t, eqLeft, hist);
      let left = eqLeft;
      const want = [...d.subarray(0, count)].flatMap((x, i) => (x < t || (x === t && left-- > 0) ? [i] : []));
      assert.deepEqual([...new Int32Array(mem.buffer, hist, got)], want, `select over ${count}, eqLeft ${eqLeft}`);
    }
  }
  // encode: bit j of byte k is float 8k + j > centre; bytes past dp / 8 are zero (odd byte counts: 13 for dp 104).
  for (const edp of [24, 104, 512]) {
    const ecb = Math.ceil(edp / 8 / 16) * 16,
      ev = 40000,
      ec = 60000,
      centre = 62000,
      nv = 3;
    const fv = new Float32Array(mem.buffer, ev, edp * nv);
    for (let i = 0; i < fv.length; i++) fv[i] = r() - 0.5;
    const cen = new Float32Array(mem.buffer, centre, edp);
    for (let i = 0; i < edp; i++) cen[i] = i % 3 === 0 ? 0.1 : 0;
    new Uint8Array(mem.buffer, ec, ecb * nv).fill(0xaa);
    k.encode(ev, edp, ec, ecb, centre, 0, nv);
    for (let v = 0; v < nv; v++) {
      const want = new Array<number>(ecb).fill(0);
      for (let j = 0; j < edp; j++) if (fv[v * edp + j]! - cen[j]! > 0) want[j >> 3]! |= 1 << (j & 7);
      assert.deepEqual([...new Uint8Array(mem.buffer, ec + v * ecb, ecb)], want, `encode dp ${edp} vector ${v}`);
    }
  }
  // quantise: r = v - centre, round(r * f32(127 / max|r|)) to nearest-even, scale max|r| / 127; an all-zero r gets scale 0.
  const dq = 64,
    fsrc = 20000,
    i8 = 30000,
    sc = 34000,
    rows = 24;
  const f32 = new Float32Array(mem.buffer);
  for (let i = 0; i < rows * dq; i++) f32[fsrc / 4 + i] = i < dq ? (i % 4 === 0 ? 0.25 : 0) : (r() - 0.5) * (1 + (i % 5));
  const cen = 35000;
  const cf = new Float32Array(mem.buffer, cen, dq);
  for (let i = 0; i < dq; i++) cf[i] = i % 4 === 0 ? 0.25 : 0;
  k.quantise(fsrc, dq, i8, sc, rows, cen);
  const q8 = new Int8Array(mem.buffer, i8, rows * dq);
  for (let v = 0; v < rows; v++) {
    const row = f32.subarray(fsrc / 4 + v * dq, fsrc / 4 + (v + 1) * dq).map((x, j) => x - cf[j]!);
    const mx = row.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    assert.equal(new Float32Array(mem.buffer, sc, rows)[v], Math.fround(Math.fround(mx) / 127));
    const s = mx > 0 ? Math.fround(127 / mx) : 0;
    const roundEven = (x: number): number => (Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x));
    assert.deepEqual(
      [...q8.subarray(v * dq, (v + 1) * dq)],
      [...row].map((x) => roundEven(Math.fround(x * s)) || 0),
      `quantise row ${v}`,
    );
  }
  // dotsI8x1 = plain-JS integer dot products x scales; dotsI8x8 and scanI8 give the same floats.
  const q16 = 36000,
    slots = 37000,
    out1 = 38000,
    out8 = 39000,
    all = 40000,
    mask8 = 41000,
    qs = 0.001;
  const qi = new Int16Array(mem.buffer, q16, dq);
  for (let i = 0; i < dq; i++) qi[i] = Math.round((r() - 0.5) * 60000);
  const picked = [3, 17, 0, 23, 5, 5, 11, 2, 9, 1, 22, 4, 4, 8, 19, 7];
  new Int32Array(mem.buffer, slots, picked.length).set(picked);
  k.dotsI8x1(i8, dq, q16, slots, picked.length, out1, sc, qs);
  k.dotsI8x8(i8, dq, q16, slots, picked.length, out8, sc, qs);
  const scales = new Float32Array(mem.buffer, sc, rows);
  const one = new Float32Array(mem.buffer, out1, picked.length);
  picked.forEach((p, i) => {
    let d = 0;
    for (let j = 0; j < dq; j++) d += q8[p * dq + j]! * qi[j]!;
    assert.equal(one[i], Math.fround(Math.fround(Math.fround(d) * scales[p]!) * Math.fround(qs)), `dotsI8x1 slot ${p}`);
  });
  assert.deepEqual([...new Float32Array(mem.buffer, out8, picked.length)], [...one]);
  new Uint8Array(mem.buffer, mask8, rows).fill(1);
  new Uint8Array(mem.buffer, mask8, rows)[6] = 0;
  new Float32Array(mem.buffer, all, rows).fill(-7);
  k.scanI8(i8, dq, rows, q16, mask8, all, sc, qs);
  const scanned = new Float32Array(mem.buffer, all, rows);
  picked.forEach((p, i) => assert.equal(scanned[p], one[i]));
  assert.equal(scanned[6], -7, 'scanI8 leaves masked-out slots alone');
});

test('approximate vector recall@10 stays >= 0.95 of exact on a clustered set; exact:true equals brute force', async () => {
  const dims = 256,
    n = 4000;
  const vecs = clustered(n, dims, 60, 11);
  const queries = clustered(40, dims, 60, 11).map((v, i) => unit(v.map((x, j) => x + 0.02 * Math.sin(i + j))));
  const emb = new TableEmbedder(dims);
  const texts = vecs.map((_, i) => `memory number ${i}`);
  texts.forEach((t, i) => emb.table.set(t, vecs[i]!));
  queries.forEach((v, i) => emb.table.set(`question ${i}`, v));
  const mem = await openMemory({ path: tempDb(), embedder: emb });
  const ids = await mem.addMany(texts.map((content) => ({ content })));
  const index = new Map(ids.map((r, i) => [r.id, i]));
  let recall = 0;
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi]!;
    const brute = vecs
      .map((v, i) => ({ i, s: v.reduce((s, x, j) => s + x * q[j]!, 0) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((x) => x.i);
    const exact = (await mem.recall(`question ${qi}`, { mode: 'vector', limit: 10, exact: true })).map((h) => index.get(h.id));
    assert.deepEqual(exact, brute, `exact:true is a float scan (question ${qi})`);
    const approx = new Set((await mem.recall(`question ${qi}`, { mode: 'vector', limit: 10 })).map((h) => index.get(h.id)));
    recall += brute.filter((i) => approx.has(i)).length / 10;
  }
  assert.ok(recall / queries.length >= 0.95, `recall@10 ${recall / queries.length}`);
  await mem.close();
});

test('int8 vectors keep the float order: recall@10 >= 0.98 against a float exact top-10, bench-shaped vectors from a real file', async () => {
  const n = 3000,
    dims = 512,
    nq = 60;
  const mems = generateMemories(n);
  const qs = generateQueries(mems, nq);
  const v = syntheticVectors(mems, qs, dims);
  const doc = (i: number): Float32Array => v.docs.subarray(i * dims, (i + 1) * dims);
  const emb = new TableEmbedder(dims, 'bench-shaped');
  mems.forEach((m, i) => emb.table.set(m.text, doc(i)));
  qs.forEach((_, i) => emb.table.set(`question ${i}`, v.queries.subarray(i * dims, (i + 1) * dims)));
  const path = tempDb();
  const mem = await openMemory({ path, embedder: emb });
  const ids = await mem.addMany(mems.map((m) => ({ content: m.text })));
  await mem.close();
  // The index as recall builds it, from the file's float32 rows.
  const db = new Database(path, { readonly: true });
  const rows = db.prepare('SELECT seq, embedding FROM memories ORDER BY seq').raw().all() as [number, Buffer][];
  db.close();
  assert.equal(rows.length, new Set(ids.map((r) => r.id)).size);
  const floats = rows.map(([, b]) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)));
  // Loaded as open loads it: runs of 256 rows (the first run sets the quantisation centre).
  const idx = new VectorIndex(dims);
  for (let at = 0; at < rows.length; at += 256) {
    const run = rows.slice(at, at + 256).map(([, b]) => b);
    idx.setRange(at, Buffer.concat(run), run.length);
  }
  let recall = 0;
  for (let qi = 0; qi < nq; qi++) {
    const q = v.queries.subarray(qi * dims, (qi + 1) * dims);
    const exact = floats
      .map((f, i) => ({ i, s: f.reduce((a, x, j) => a + x * q[j]!, 0) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((x) => x.i);
    const got = new Set(idx.search(q, 10, { exact: true }).map((h) => h.slot));
    recall += exact.filter((i) => got.has(i)).length / 10;
  }
  assert.ok(recall / nq >= 0.98, `int8 recall@10 vs float exact ${recall / nq}`);
  // And through recall: exact:true is the float order (int8 candidates re-scored from the file).
  const again = await openMemory({ path, embedder: emb });
  const seqOfId = new Map((await again.list({ limit: 10_000, order: 'asc' })).map((r, i) => [r.id, i]));
  for (let qi = 0; qi < 10; qi++) {
    const q = v.queries.subarray(qi * dims, (qi + 1) * dims);
    const exact = floats
      .map((f, i) => ({ i, s: f.reduce((a, x, j) => a + x * q[j]!, 0) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((x) => x.i);
    const hits = await again.recall(`question ${qi}`, { mode: 'vector', limit: 10, exact: true });
    assert.deepEqual(
      hits.map((h) => seqOfId.get(h.id)),
      exact,
      `exact:true order (question ${qi})`,
    );
  }
  await again.close();
});

test('keyword leg ranks like FTS5 bm25 (ORDER BY rank) over the same terms', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  const texts = sentences(1500, 3);
  await mem.addMany(texts.map((content) => ({ content })));
  const ids = new Map((await mem.list({ limit: 10_000, order: 'asc' })).map((r, i) => [r.id, i + 1]));
  const db = new Database(path, { readonly: true });
  const fts = db.prepare('SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT 10').raw();
  const r = mulberry32(9);
  for (let i = 0; i < 40; i++) {
    const words = Array.from({ length: 2 + Math.floor(r() * 4) }, () => WORDS[Math.floor(r() * WORDS.length)]!);
    if (i % 5 === 0) words.push('deploying', 'deployed'); // two words, one stem: FTS5 counts both
    const q = `what about the ${words.join(' and ')}?`;
    const got = await mem.recall(q, { mode: 'keyword', limit: 10, preferCurrent: false });
    // FTS5 stems the quoted words itself (as toMatchExpression's query would).
    const want = fts.all([...new Set(words)].map((t) => `"${t}"`).join(' OR ')) as [number, number][];
    // Same BM25 values, rank by rank (ties may list different rows with equal scores).
    assert.equal(got.length, want.length, q);
    got.forEach((h, k) =>
      assert.ok(Math.abs(h.score + want[k]![1]) < 1e-5 * Math.max(1, Math.abs(h.score)), `${q}: rank ${k + 1} ${h.score} vs ${-want[k]![1]}`),
    );
    // And the same rows wherever the score is not tied at the cut.
    const cut = got[got.length - 1]?.score;
    const wantRows = new Set(want.filter(([, r]) => Math.abs(-r - (cut ?? 0)) > 1e-5).map(([id]) => id));
    const gotRows = new Set(got.map((h) => ids.get(h.id)));
    for (const id of wantRows) assert.ok(gotRows.has(id), `${q}: row ${id}`);
  }
  db.close();
  await mem.close();
});

test('index follows updates, deletes, namespaces, expiry and non-ASCII text in this process', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const a = await mem.add('We deploy on a Raspberry Pi in the garage');
  await mem.add('Crème brûlée recipe from the bakery in Zürich');
  await mem.add('The Raspberry Pi in the other namespace', { namespace: 'other' });
  assert.equal((await mem.recall('raspberry', { mode: 'keyword' })).length, 1);
  assert.equal((await mem.recall('creme zurich', { mode: 'keyword' }))[0]?.content, 'Crème brûlée recipe from the bakery in Zürich');
  assert.equal((await mem.recall('Zürich crème', { mode: 'keyword' })).length, 1);
  await mem.update(a.id, { content: 'We deploy on a NAS in the basement' });
  assert.equal((await mem.recall('raspberry', { mode: 'keyword' })).length, 0);
  assert.equal((await mem.recall('basement nas', { mode: 'keyword' }))[0]?.id, a.id);
  await mem.forget(a.id);
  assert.equal((await mem.recall('basement nas', { mode: 'keyword' })).length, 0);
  assert.equal((await mem.recall('raspberry', { mode: 'keyword', namespace: 'other' })).length, 1);
  // Expired memories are invisible to recall (the filter runs in memory).
  await mem.add('Temporary note about the parking garage pass', { expiresAt: new Date(Date.now() - 1000) } as never);
  await mem.add('Permanent note about the parking garage gate');
  const hits = await mem.recall('parking garage', { mode: 'keyword' });
  assert.deepEqual(
    hits.map((h) => h.content),
    ['Permanent note about the parking garage gate'],
  );
  // Many changes at once: the index reloads from the file and still agrees.
  const many = await mem.addMany(Array.from({ length: 3000 }, (_, i) => ({ content: `bulk memory ${i} about turnips` })));
  assert.equal((await mem.recall('turnips', { mode: 'keyword', limit: 1000 })).length, 1000);
  for (const r of many.slice(0, 2500)) await mem.forget(r.id);
  assert.equal((await mem.recall('turnips', { mode: 'keyword', limit: 1000 })).length, 500);
  await mem.close();
});

test('index follows another process that adds and deletes memories', async () => {
  const path = tempDb();
  const dims = 32;
  const emb = new TableEmbedder(dims, 'hashed-32');
  const vec = (s: string): Float32Array => {
    return unit(textVector(s, dims)); // the child process (search-index-child.ts) makes the same vectors
  };
  const texts = Array.from({ length: 200 }, (_, i) => `parent memory ${i} about apples`);
  for (const t of [...texts, 'apples', 'pears from the child']) emb.table.set(t, vec(t));
  const mem = await openMemory({ path, embedder: emb });
  const added = await mem.addMany(texts.map((content) => ({ content })));
  assert.equal((await mem.recall('apples', { limit: 500 })).length, 200);
  // The child deletes 50 of ours and adds one, through its own connection.
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'search-index-child.ts'), path, JSON.stringify(added.slice(0, 50).map((r) => r.id))],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(child.status, 0, child.stderr);
  const after = await mem.recall('apples', { limit: 500 });
  assert.equal(after.length, 151); // 150 of ours left, plus the child's (vector leg returns everything)
  assert.ok(after.some((h) => h.content === 'pears from the child'));
  const gone = new Set(added.slice(0, 50).map((r) => r.id));
  assert.ok(
    after.every((h) => !gone.has(h.id)),
    'no deleted memory comes back',
  );
  const vecHits = await mem.recall('pears from the child', { mode: 'vector', limit: 1 });
  assert.equal(vecHits[0]?.content, 'pears from the child');
  const kwHits = await mem.recall('pears', { mode: 'keyword' });
  assert.equal(kwHits[0]?.content, 'pears from the child');
  await mem.close();
});

test('vector leg: expired memories and other namespaces are filtered in memory, exact or not', async () => {
  const dims = 16;
  const emb = new TableEmbedder(dims, 'table-16');
  const vecs = clustered(60, dims, 3, 21);
  const texts = vecs.map((_, i) => `note ${i}`);
  texts.forEach((t, i) => emb.table.set(t, vecs[i]!));
  emb.table.set('expired twin', vecs[0]!);
  emb.table.set('other twin', vecs[0]!);
  emb.table.set('query', vecs[0]!);
  const mem = await openMemory({ path: tempDb(), embedder: emb });
  await mem.addMany(texts.map((content) => ({ content })));
  await mem.add('expired twin', { expiresAt: new Date(Date.now() - 1000) } as never);
  await mem.add('other twin', { namespace: 'elsewhere' });
  for (const exact of [false, true]) {
    const hits = await mem.recall('query', { mode: 'vector', limit: 5, exact });
    assert.equal(hits[0]?.content, 'note 0');
    assert.ok(hits.every((h) => h.content !== 'expired twin' && h.content !== 'other twin'));
    const other = await mem.recall('query', { mode: 'vector', limit: 5, exact, namespace: 'elsewhere' });
    assert.deepEqual(
      other.map((h) => h.content),
      ['other twin'],
    );
  }
  await mem.close();
});
