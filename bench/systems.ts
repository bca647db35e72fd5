/**
 * The systems under test, each driven the same way: ingest the corpus (vectors supplied),
 * reopen, then time keyword, vector and hybrid queries. Every runner returns a {@link Result}.
 */
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openMemory, type Memory } from '../src/index.js';
import { LOCAL_MODEL_ID } from '../src/embed/local.js';
import { rrf } from '../src/recall/fusion.js';
import { SearchIndex } from '../src/search/search-index.js';
import { Store } from '../src/store/store.js';
import { toMatchExpression } from '../src/search/keyword.js';
import { DIMS, pct, row, type Corpus } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';

/** Latency percentiles in ms. */
export interface Lat {
  p50: number;
  p95: number;
  p99: number;
}

/** What one system measured on one corpus. */
export interface Result {
  system: string;
  size: number;
  vectors: 'synthetic' | 'real';
  ingestPerSec: number;
  /** Open the stored data and answer the first hybrid query (null: nothing persisted to open). */
  openMs: number | null;
  fileBytes: number | null;
  rssBytesPerMemory: number;
  keyword: Lat;
  /** null: the store cannot answer this mode (PostgreSQL without pgvector). */
  vector: Lat | null;
  hybrid: Lat | null;
  /** Vector leg top-10 against the exact top-10 (ground truth); null without a vector mode. */
  recall10: number | null;
  /** Hybrid top-10 contains the memory the question was written about; null without a hybrid mode. */
  hit10: number | null;
  queries: number;
  /** PostgreSQL systems: the keyword top-10 contains the memory the question was written about. */
  keywordHit10?: number;
  /** PostgreSQL systems: the server (version, where it runs), set by bench/run.ts. */
  server?: string;
  /** PostgreSQL systems: what the numbers include and leave out. */
  note?: string;
  /** mnemolite-pglite: RSS of the PGlite server process after the query phase, set by bench/run.ts. */
  serverRssBytes?: number;
  /** mnemolite only: the keyword and vector legs timed alone (50 candidates each, as recall asks). */
  legs?: { keyword: Lat; vector: Lat };
  /** mnemolite only: the same queries with `exact: true`. */
  exact?: { vector: Lat; hybrid: Lat; recall10: number };
}

/** Per-query answers of one mode: corpus indexes, best first. */
type Ask = (qi: number) => Promise<number[]>;

export interface RunOptions {
  dir: string;
  queries: number;
  truth: number[][];
  /**
   * `ingest`: write the store and stop; `query`: a fresh process that loaded only the questions
   * opens the store (so RSS counts the store, not the corpus or ingest garbage); `all`: both.
   */
  phase: 'ingest' | 'query' | 'all';
}

/** What the ingest phase leaves for the query phase. */
interface IngestMeta {
  ingestPerSec: number;
  size: number;
  ids?: string[];
}

function saveMeta(o: RunOptions, m: IngestMeta): void {
  writeFileSync(`${o.dir}-meta.json`, JSON.stringify(m)); // beside the store, not counted in its size
}

function loadMeta(o: RunOptions): IngestMeta {
  return JSON.parse(readFileSync(`${o.dir}-meta.json`, 'utf8')) as IngestMeta;
}

/** Result of an ingest-only phase (the query phase reports everything). */
function ingestOnly(system: string, m: IngestMeta, kind: Corpus['kind']): Result {
  const z = { p50: 0, p95: 0, p99: 0 };
  return {
    system,
    size: m.size,
    vectors: kind,
    ingestPerSec: m.ingestPerSec,
    openMs: null,
    fileBytes: null,
    rssBytesPerMemory: 0,
    keyword: z,
    vector: z,
    hybrid: z,
    recall10: 0,
    hit10: 0,
    queries: 0,
  };
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    try {
      const s = statSync(join(dir, f));
      if (s.isFile()) n += s.size;
    } catch {
      /* gone */
    }
  }
  return n;
}

function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

/** Time the three modes (after one untimed pass each) and score quality. */
async function measure(
  c: Corpus,
  o: RunOptions,
  modes: { keyword: Ask; vector: Ask; hybrid: Ask },
  warmAll = false,
): Promise<{ keyword: Lat; vector: Lat; hybrid: Lat; recall10: number; hit10: number; queries: number }> {
  const n = Math.min(o.queries, c.queries.length);
  const out: Record<string, Lat> = {};
  let recall = 0,
    hits = 0;
  for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
    const ask = modes[mode];
    // Warm-up: JIT and caches; mnemolite also caches each question's vector on first use (a write), so all of them.
    for (let i = 0; i < (warmAll ? n : Math.min(n, 20)); i++) await ask(i);
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const got = await ask(i);
      ms.push(performance.now() - t);
      if (mode === 'vector' && i < o.truth.length) {
        const want = new Set(o.truth[i]);
        recall += got.slice(0, 10).filter((x) => want.has(x)).length / 10;
      }
      if (mode === 'hybrid' && got.slice(0, 10).includes(c.targets[i]!)) hits++;
    }
    out[mode] = pct(ms);
  }
  return { keyword: out.keyword!, vector: out.vector!, hybrid: out.hybrid!, recall10: recall / Math.min(n, o.truth.length), hit10: hits / n, queries: n };
}

// ---- mnemolite ---------------------------------------------------------------------

function embedderFor(c: Corpus): PrecomputedEmbedder {
  // Real vectors are recorded under the bundled model's id, so the file opens with LocalEmbedder too.
  const e = new PrecomputedEmbedder(c.kind === 'real' ? LOCAL_MODEL_ID : 'synthetic-512', DIMS, c.kind === 'real' ? 'local' : 'bench');
  e.add(c.texts, c.docs);
  e.add(c.queries, c.qvecs);
  return e;
}

/** Ingest the corpus through the API (`addMany`, batches of 1,000), close, and save what the query phase needs. */
async function ingestThroughApi(mem: Memory, c: Corpus, o: RunOptions): Promise<void> {
  const ids: string[] = [];
  const t0 = performance.now();
  const B = 1000;
  for (let i = 0; i < c.texts.length; i += B) {
    const res = await mem.addMany(c.texts.slice(i, i + B).map((content) => ({ content })));
    for (const r of res) ids.push(r.id);
  }
  saveMeta(o, { ingestPerSec: c.texts.length / ((performance.now() - t0) / 1000), size: c.texts.length, ids });
  await mem.close();
}

/** mnemolite through its public API (`openMemory`, `addMany`, `recall`). */
export async function runMnemolite(c: Corpus, o: RunOptions): Promise<Result> {
  const path = join(o.dir, 'mnemolite.db');
  const emb = embedderFor(c);
  let mem: Memory;
  if (o.phase !== 'query') {
    await ingestThroughApi(await openMemory({ path, embedder: emb }), c, o);
    if (o.phase === 'ingest') return ingestOnly('mnemolite', loadMeta(o), c.kind);
  }
  const meta = loadMeta(o);
  const idOf = new Map(meta.ids!.map((id, i) => [id, i]));
  const ingest = meta.ingestPerSec;
  const base = rss();
  const t1 = performance.now();
  mem = await openMemory({ path, embedder: emb });
  await mem.recall(c.queries[0]!, { limit: 10 });
  const openMs = performance.now() - t1;
  const ids = (hits: { id: string }[]): number[] => hits.map((h) => idOf.get(h.id) ?? -1);
  const m = await measure(
    c,
    o,
    {
      keyword: async (i) => ids(await mem.recall(c.queries[i]!, { limit: 10, mode: 'keyword' })),
      vector: async (i) => ids(await mem.recall(c.queries[i]!, { limit: 10, mode: 'vector' })),
      hybrid: async (i) => ids(await mem.recall(c.queries[i]!, { limit: 10 })),
    },
    true,
  );
  const rssPer = (rss() - base) / meta.size;
  // The same file and API with `exact: true`: a float scan of every vector.
  const e = await measure(
    c,
    o,
    {
      keyword: async () => [],
      vector: async (i) => ids(await mem.recall(c.queries[i]!, { limit: 10, mode: 'vector', exact: true })),
      hybrid: async (i) => ids(await mem.recall(c.queries[i]!, { limit: 10, exact: true })),
    },
    true,
  );
  await mem.close();
  // The legs alone (no API validation, fusion, lifecycle ranking or row fetch), on the same file.
  const store = new Store(path, { readonly: true });
  const leg = new SearchIndex(store, emb.id, DIMS);
  const f = { namespace: 'default', activeAt: new Date().toISOString() };
  const legs = await measure(
    c,
    o,
    {
      keyword: async (i) => leg.keyword(c.queries[i]!, 50, f).map((h) => h.seq),
      vector: async (i) => leg.search(row(c.qvecs, i), 50, f).map((h) => h.seq),
      hybrid: async () => [],
    },
    true,
  );
  store.close();
  return {
    legs: { keyword: legs.keyword, vector: legs.vector },
    system: 'mnemolite',
    size: meta.size,
    vectors: c.kind,
    ingestPerSec: ingest,
    openMs,
    fileBytes: dirBytes(o.dir),
    rssBytesPerMemory: rssPer,
    ...m,
    exact: { vector: e.vector, hybrid: e.hybrid, recall10: e.recall10 },
  };
}

// ---- mnemolite on PostgreSQL ------------------------------------------------------------

/**
 * The server of a PostgreSQL cell, handed over by bench/run.ts in the environment: URL, a schema
 * of its own (fresh for each cell), pool size, and whether the server has pgvector.
 */
function pgCell(): { url: string; schema: string; poolSize: number; vectors: boolean } {
  const url = process.env.BENCH_PG_CELL_URL,
    schema = process.env.BENCH_PG_CELL_SCHEMA;
  if (!url || !schema) throw new Error('BENCH_PG_CELL_URL and BENCH_PG_CELL_SCHEMA are set by bench/run.ts');
  return { url, schema, poolSize: Number(process.env.BENCH_PG_CELL_POOL ?? 10), vectors: process.env.BENCH_PG_CELL_VECTORS === '1' };
}

/**
 * mnemolite through the same public API as {@link runMnemolite}, stored in PostgreSQL (`openMemory({ url })`):
 * `mnemolite-pg` (a real server on loopback TCP) and `mnemolite-pglite` (PGlite in its own process
 * behind pglite-socket). Without pgvector on the server the store is opened with embedder 'none'
 * and only the keyword mode is timed; vector and hybrid are reported as null, not measured.
 * Size is `Memory.stats().fileBytes` (pg_total_relation_size of the schema's tables, indexes and
 * TOAST included); RSS is the client process's (the server's memory is elsewhere).
 */
export async function runMnemolitePg(system: string, c: Corpus, o: RunOptions): Promise<Result> {
  const cell = pgCell();
  const emb = embedderFor(c);
  const open = (): Promise<Memory> =>
    openMemory({ url: cell.url, embedder: cell.vectors ? emb : 'none', postgres: { schema: cell.schema, poolSize: cell.poolSize } });
  let mem: Memory;
  if (o.phase !== 'query') {
    await ingestThroughApi(await open(), c, o);
    if (o.phase === 'ingest') return ingestOnly(system, loadMeta(o), c.kind);
  }
  const meta = loadMeta(o);
  const idOf = new Map(meta.ids!.map((id, i) => [id, i]));
  const base = rss();
  const t1 = performance.now();
  mem = await open();
  await mem.recall(c.queries[0]!, { limit: 10 });
  const openMs = performance.now() - t1;
  const ids = (hits: { id: string }[]): number[] => hits.map((h) => idOf.get(h.id) ?? -1);
  const keywordTop = new Map<number, number[]>();
  const none = async (): Promise<number[]> => [];
  const m = await measure(
    c,
    o,
    {
      keyword: async (i) => {
        const got = ids(await mem.recall(c.queries[i]!, { limit: 10, mode: 'keyword' }));
        keywordTop.set(i, got);
        return got;
      },
      vector: cell.vectors ? async (i) => ids(await mem.recall(c.queries[i]!, { limit: 10, mode: 'vector' })) : none,
      hybrid: cell.vectors ? async (i) => ids(await mem.recall(c.queries[i]!, { limit: 10 })) : none,
    },
    true,
  );
  const rssPer = (rss() - base) / meta.size;
  const st = await mem.stats();
  await mem.close();
  let kwHits = 0;
  for (let i = 0; i < m.queries; i++) if (keywordTop.get(i)?.includes(c.targets[i]!)) kwHits++;
  const note = cell.vectors
    ? undefined
    : "keyword only: the server has no pgvector, so the store is opened with embedder 'none'; vector and hybrid recall are not available (—), not measured";
  return {
    system,
    size: meta.size,
    vectors: c.kind,
    ingestPerSec: meta.ingestPerSec,
    openMs,
    fileBytes: st.fileBytes,
    rssBytesPerMemory: rssPer,
    ...m,
    ...(cell.vectors ? {} : { vector: null, hybrid: null, recall10: null, hit10: null }),
    keywordHit10: kwHits / m.queries,
    ...(note ? { note } : {}),
  };
}

// ---- the straightforward recipe: FTS5 BM25 + sqlite-vec vec0 exact KNN + RRF ----------

/** FTS5 `ORDER BY rank` over quoted, OR-joined query words (stop words dropped), vec0 exact KNN, RRF k = 60. */
export async function runRecipe(c: Corpus, o: RunOptions): Promise<Result> {
  const sqliteVec = (await import('sqlite-vec')) as unknown as { load(db: Database.Database): void };
  const path = join(o.dir, 'recipe.db');
  let db: Database.Database;
  if (o.phase !== 'query') {
    db = new Database(path);
    sqliteVec.load(db);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE docs(id INTEGER PRIMARY KEY, content TEXT NOT NULL);
      CREATE VIRTUAL TABLE docs_fts USING fts5(content, content='docs', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE docs_vec USING vec0(embedding float[${DIMS}]);`);
    const insDoc = db.prepare('INSERT INTO docs(id, content) VALUES (?, ?)');
    const insFts = db.prepare('INSERT INTO docs_fts(rowid, content) VALUES (?, ?)');
    const insVec = db.prepare('INSERT INTO docs_vec(rowid, embedding) VALUES (?, ?)');
    const t0 = performance.now();
    const B = 1000;
    for (let i = 0; i < c.texts.length; i += B) {
      db.transaction(() => {
        for (let k = i; k < Math.min(i + B, c.texts.length); k++) {
          const id = BigInt(k + 1);
          insDoc.run(id, c.texts[k]!);
          insFts.run(id, c.texts[k]!);
          const v = row(c.docs, k);
          insVec.run(id, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
        }
      })();
    }
    saveMeta(o, { ingestPerSec: c.texts.length / ((performance.now() - t0) / 1000), size: c.texts.length });
    db.close();
    if (o.phase === 'ingest') return ingestOnly('recipe (FTS5 + sqlite-vec)', loadMeta(o), c.kind);
  }
  const meta = loadMeta(o);
  const ingest = meta.ingestPerSec;
  const base = rss();
  const t1 = performance.now();
  db = new Database(path);
  sqliteVec.load(db);
  const kwSt = db.prepare('SELECT rowid FROM docs_fts WHERE docs_fts MATCH ? ORDER BY rank LIMIT 50').pluck();
  const vecSt = db.prepare('SELECT rowid FROM docs_vec WHERE embedding MATCH ? AND k = 50').pluck();
  const rowsSt = db.prepare('SELECT id, content FROM docs WHERE id IN (SELECT value FROM json_each(?))');
  const kw = (i: number): number[] => {
    const m = toMatchExpression(c.queries[i]!);
    return m ? (kwSt.all(m) as number[]) : [];
  };
  const vq = (i: number): number[] => {
    const v = row(c.qvecs, i);
    return vecSt.all(Buffer.from(v.buffer, v.byteOffset, v.byteLength)) as number[];
  };
  const fetch = (ids: number[]): number[] => {
    rowsSt.all(JSON.stringify(ids));
    return ids.map((id) => id - 1);
  };
  const hybrid = (i: number): number[] =>
    fetch(
      rrf(kw(i), vq(i))
        .slice(0, 10)
        .map((h) => h.seq),
    );
  hybrid(0);
  const openMs = performance.now() - t1;
  const m = await measure(c, o, {
    keyword: async (i) => fetch(kw(i).slice(0, 10)),
    vector: async (i) => fetch(vq(i).slice(0, 10)),
    hybrid: async (i) => hybrid(i),
  });
  const rssPer = (rss() - base) / meta.size;
  db.close();
  return {
    system: 'recipe (FTS5 + sqlite-vec)',
    size: meta.size,
    vectors: c.kind,
    ingestPerSec: ingest,
    openMs,
    fileBytes: dirBytes(o.dir),
    rssBytesPerMemory: rssPer,
    ...m,
  };
}

// ---- Orama -----------------------------------------------------------------------------

/** Orama (in-memory): fulltext, vector and hybrid search modes. */
export async function runOrama(c: Corpus, o: RunOptions): Promise<Result> {
  const orama = await import('@orama/orama');
  const base = rss();
  const db = orama.create({ schema: { i: 'number', content: 'string', embedding: `vector[${DIMS}]` } as const });
  const t0 = performance.now();
  const B = 1000;
  for (let i = 0; i < c.texts.length; i += B) {
    const docs = [];
    for (let k = i; k < Math.min(i + B, c.texts.length); k++) docs.push({ i: k, content: c.texts[k]!, embedding: Array.from(row(c.docs, k)) });
    await orama.insertMultiple(db, docs, B);
  }
  const ingest = c.texts.length / ((performance.now() - t0) / 1000);
  const ids = (r: { hits: { document: { i: number } }[] }): number[] => r.hits.map((h) => h.document.i);
  const vec = (i: number) => ({ value: Array.from(row(c.qvecs, i)), property: 'embedding' });
  const m = await measure(c, o, {
    keyword: async (i) => ids((await orama.search(db, { term: c.queries[i]!, limit: 10 })) as never),
    vector: async (i) => ids((await orama.search(db, { mode: 'vector', vector: vec(i), similarity: 0, limit: 10 } as never)) as never),
    hybrid: async (i) => ids((await orama.search(db, { mode: 'hybrid', term: c.queries[i]!, vector: vec(i), similarity: 0, limit: 10 } as never)) as never),
  });
  const rssPer = (rss() - base) / c.texts.length;
  return { system: 'Orama', size: c.texts.length, vectors: c.kind, ingestPerSec: ingest, openMs: null, fileBytes: null, rssBytesPerMemory: rssPer, ...m };
}

// ---- LanceDB -----------------------------------------------------------------------------

/** LanceDB: FTS index on content, flat (exact) vector search, hybrid with its RRF reranker. */
export async function runLance(c: Corpus, o: RunOptions): Promise<Result> {
  const lancedb = await import('@lancedb/lancedb');
  const dir = join(o.dir, 'lance');
  mkdirSync(dir, { recursive: true });
  let conn: Awaited<ReturnType<typeof lancedb.connect>>;
  if (o.phase !== 'query') {
    conn = await lancedb.connect(dir);
    const t0 = performance.now();
    const B = 10_000;
    let table: Awaited<ReturnType<typeof conn.createTable>> | null = null;
    for (let i = 0; i < c.texts.length; i += B) {
      const data = [];
      for (let k = i; k < Math.min(i + B, c.texts.length); k++) data.push({ i: k, content: c.texts[k]!, vector: Array.from(row(c.docs, k)) });
      if (!table) table = await conn.createTable('memories', data);
      else await table.add(data);
    }
    await table!.createIndex('content', { config: lancedb.Index.fts() });
    saveMeta(o, { ingestPerSec: c.texts.length / ((performance.now() - t0) / 1000), size: c.texts.length });
    table!.close();
    conn.close();
    if (o.phase === 'ingest') return ingestOnly('LanceDB', loadMeta(o), c.kind);
  }
  const meta = loadMeta(o);
  const ingest = meta.ingestPerSec;
  const base = rss();
  const t1 = performance.now();
  conn = await lancedb.connect(dir);
  const t = await conn.openTable('memories');
  const reranker = await lancedb.rerankers.RRFReranker.create(60);
  type Row = { i: number };
  const ids = (rows: Row[]): number[] => rows.map((r) => Number(r.i));
  const hybrid = async (i: number): Promise<number[]> =>
    ids(
      (await t
        .query()
        .nearestTo(Array.from(row(c.qvecs, i)))
        .fullTextSearch(c.queries[i]!)
        .rerank(reranker)
        .select(['i', 'content'])
        .limit(10)
        .toArray()) as Row[],
    );
  await hybrid(0);
  const openMs = performance.now() - t1;
  const m = await measure(c, o, {
    keyword: async (i) => ids((await t.query().fullTextSearch(c.queries[i]!).select(['i', 'content']).limit(10).toArray()) as Row[]),
    vector: async (i) =>
      ids(
        (await t
          .query()
          .nearestTo(Array.from(row(c.qvecs, i)))
          .select(['i', 'content'])
          .limit(10)
          .toArray()) as Row[],
      ),
    hybrid,
  });
  const rssPer = (rss() - base) / meta.size;
  t.close();
  conn.close();
  return { system: 'LanceDB', size: meta.size, vectors: c.kind, ingestPerSec: ingest, openMs, fileBytes: dirBytes(dir), rssBytesPerMemory: rssPer, ...m };
}

/** Fresh scratch directory for one run. */
export function scratch(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
