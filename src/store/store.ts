import type Database from 'better-sqlite3';
import { CACHE_MAX_ROWS, scopedKey } from '../embed/cache.js';
import { statSync } from 'node:fs';
import { whereClause } from './filter.js';
import { MnemoliteError } from '../errors.js';
import { openDatabase, storageError, type ConnectionOptions } from './connection.js';
import type { MemoryRow, NewRow, RowFilter } from '../types/rows.js';

const ROW_COLUMNS =
  'm.seq, m.id, m.namespace, m.key, m.content, m.category, m.session_id, m.metadata, m.created_at, m.updated_at, m.content_hash, m.embedding_model, m.expires_at, m.pinned, m.importance, m.superseded_by, m.context, m.event_at';

/** A row of ROW_COLUMNS as an array, in that order. */
type RawRow = [
  MemoryRow['seq'],
  MemoryRow['id'],
  MemoryRow['namespace'],
  MemoryRow['key'],
  MemoryRow['content'],
  MemoryRow['category'],
  MemoryRow['session_id'],
  MemoryRow['metadata'],
  MemoryRow['created_at'],
  MemoryRow['updated_at'],
  MemoryRow['content_hash'],
  MemoryRow['embedding_model'],
  MemoryRow['expires_at'],
  MemoryRow['pinned'],
  MemoryRow['importance'],
  MemoryRow['superseded_by'],
  MemoryRow['context'],
  MemoryRow['event_at'],
];

/** The two keyword fields: a memory's own text, and its conversational context. */
export type FtsField = 'content' | 'context';
/** The cache table is trimmed to CACHE_MAX_ROWS every this many query vectors written. */
const CACHE_TRIM_EVERY = 500;
/** Query vectors waiting for one write at most (64 × 2 kB at 512 dims). */
export const CACHE_PENDING_MAX = 64;
/**
 * WAL pages after which a commit checkpoints: SQLite's default for every write, and a bulk write's
 * (64 MB of 4 KB pages). A checkpoint copies each page the WAL holds once, and a bulk ingest rewrites
 * the same index pages (FTS5 segments, B-tree interior pages) in transaction after transaction; at
 * SQLite's 1,000 pages every 1,000-memory `addMany` paid a checkpoint of its own (BENCHMARKS.md).
 */
export const CHECKPOINT_PAGES = 1000;
export const BULK_CHECKPOINT_PAGES = 16_384;
/** Items from which `addMany` writes as a bulk write (see {@link BULK_CHECKPOINT_PAGES}). */
export const BULK_MIN_ITEMS = 100;

const FTS_TABLE: Record<FtsField, string> = { content: 'memories_fts', context: 'memories_ctx_fts' };

/** What the search index needs of one memory. */
export interface IndexRow {
  seq: number;
  namespace: string;
  content: string;
  embedding_model: string | null;
  embedding: Buffer | null;
  expires_at: string | null;
  /** Context text (the preceding memories joined by spaces), or null. */
  context: string | null;
  context_embedding: Buffer | null;
}

/** A model's stored quantisation centre (table `vector_centres`, src/search/vector-codes.ts). */
export interface VectorCentre {
  id: number;
  dims: number;
  /** float32, little-endian. */
  centre: Buffer;
}

/** {@link Store.codeChunk}'s statement (also run by the open's code-loading thread, src/search/code-loader.ts). */
export const CODE_CHUNK_SQL = `SELECT count(*), max(seq), group_concat(CASE WHEN ok THEN seq END), CAST(group_concat(CASE WHEN ok THEN q END, '') AS BLOB),
  CAST(group_concat(CASE WHEN ok THEN scale END, '') AS BLOB), CAST(group_concat(CASE WHEN ok THEN sign END, '') AS BLOB),
  group_concat(CASE WHEN centre IS NOT @centre THEN seq END) FROM (
  SELECT seq, centre, q, scale, sign, centre IS @centre AND length(q) = @q AND length(scale) = 4 AND length(sign) = @sign AS ok
  FROM vector_codes WHERE seq > @after AND seq <= @until ORDER BY seq LIMIT @limit)`;

/** {@link Store.changeVersion}'s statement: the change log's position. */
export const CHANGE_VERSION_SQL = 'SELECT coalesce(max(version), 0) AS v FROM changes';

/** One chunk of `vector_codes` rows (see {@link Store.codeChunk}). */
export interface CodeChunk {
  /** Rows read; fewer than asked: the last chunk. */
  n: number;
  /** Highest seq read (continue after it). */
  last: number;
  /** Seqs of the rows coded with the centre asked for, and their bytes back to back. */
  seqs: string | null;
  q: Buffer | null;
  scale: Buffer | null;
  sign: Buffer | null;
  /** Seqs of rows that say the memory has no vector of that centre's model (a marker, or another model's code). */
  other: string | null;
}

/**
 * Called after a write of a memory's vector columns, inside its transaction (the file backend stores
 * the memory's code: src/search/vector-codes.ts). `context` undefined: the write kept the stored one.
 */
export type VectorsWritten = (seq: number, embedding: Buffer | null, model: string | null, context: Buffer | null | undefined) => void;

/** Embedding identity recorded in the meta table. */
export interface EmbeddingIdentity {
  provider: string;
  model: string;
  dims: number;
}

/**
 * The SQLite store: every read and write of the file goes through here.
 * Synchronous (better-sqlite3); all SQL is parameterised.
 */
export class Store {
  readonly db: Database.Database;
  readonly path: string;
  private readonly stmts = new Map<string, Database.Statement>();
  /** Query vectors waiting for {@link queueCache}'s write, by model and key. */
  private readonly pendingCache = new Map<string, { model: string; key: string; embedding: Buffer; namespace: string | null; usedAt: string }>();
  private flushQueued = false;
  private cacheWrites = 0;
  /** Counts {@link write} transactions: what was read inside one stays true until it ends. */
  writeSerial = 0;
  /** See {@link VectorsWritten}; null: nothing to do (keyword-only files). */
  onVectors: VectorsWritten | null = null;
  /** Device and inode of the file opened, to notice when the path names another file. */
  private readonly identity: { dev: number; ino: number } | null;

  constructor(path: string, opts: ConnectionOptions = {}) {
    this.path = path;
    this.db = openDatabase(path, opts);
    const st = path === ':memory:' ? undefined : statSync(path, { throwIfNoEntry: false });
    this.identity = st ? { dev: st.dev, ino: st.ino } : null;
  }

  /**
   * Refuse to write when the path no longer names the open file (deleted, or replaced by a copy or
   * a restore): the writes would go to an unlinked inode and be lost at close, though acknowledged.
   */
  private checkSameFile(action: string): void {
    if (!this.identity) return;
    const st = statSync(this.path, { throwIfNoEntry: false });
    if (st && st.dev === this.identity.dev && st.ino === this.identity.ino) return;
    throw new MnemoliteError(
      'FILE_REPLACED',
      `Cannot ${action}: ${this.path} ${st ? 'is now another file' : 'was deleted'} since this Memory opened it (moved, replaced or restored while open), so the write would be lost. Nothing was written; open the file again (restart the server).`,
    );
  }

  /** Cached prepared statement: the one statement cache of the file (the lifecycle and add SQL use it too). */
  stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /**
   * Run `fn` in one IMMEDIATE write transaction, mapping SQLite errors to typed ones. Query vectors
   * waiting to be cached go in first, so every later step of the write (an erase, say) sees them.
   * A `bulk` write commits with the larger checkpoint threshold ({@link BULK_CHECKPOINT_PAGES}); the
   * next ordinary write checkpoints what it left in the WAL.
   */
  write<T>(action: string, fn: () => T, bulk = false): T {
    this.checkSameFile(action);
    this.writeSerial++;
    // The threshold is read when the transaction commits, so it is raised around the whole of it.
    if (bulk) this.db.pragma(`wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`);
    try {
      return this.db
        .transaction(() => {
          this.drainCache();
          return fn();
        })
        .immediate();
    } catch (err) {
      throw storageError(err, this.path, action);
    } finally {
      if (bulk) this.db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    }
  }

  /**
   * Keep a query vector in the cache table, soon: the write waits for the event loop to be free
   * (or for {@link CACHE_PENDING_MAX} vectors), then all waiting vectors go in one transaction, so
   * a recall never pays an autocommit write (and its WAL checkpoints). Best effort, like the cache.
   */
  queueCache(model: string, key: string, embedding: Buffer, namespace: string | null): void {
    this.pendingCache.set(`${model}\u0000${key}`, { model, key, embedding, namespace, usedAt: new Date().toISOString() });
    if (this.pendingCache.size >= CACHE_PENDING_MAX) this.flushCache();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(() => {
        this.flushQueued = false;
        this.flushCache();
      }).unref();
    }
  }

  /** Write the waiting query vectors now (close and the cache's readers call it). A busy file drops them. */
  flushCache(): void {
    if (!this.pendingCache.size || !this.db.open) return;
    try {
      this.write('cache query vectors', () => {});
    } catch {
      this.pendingCache.clear(); // a cache entry is not worth retrying a busy or replaced file for
    }
  }

  private drainCache(): void {
    if (!this.pendingCache.size) return;
    for (const e of this.pendingCache.values()) this.putCache(e.model, e.key, e.embedding, e.namespace, e.usedAt);
    this.cacheWrites += this.pendingCache.size;
    this.pendingCache.clear();
    if (this.cacheWrites >= CACHE_TRIM_EVERY) {
      this.cacheWrites = 0;
      this.trimCache(CACHE_MAX_ROWS);
    }
  }

  /** Run a read, mapping SQLite errors to typed ones. */
  read<T>(action: string, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw storageError(err, this.path, action);
    }
  }

  // ---- meta --------------------------------------------------------------

  getMeta(key: string): string | undefined {
    const r = this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return r?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  getEmbeddingIdentity(): EmbeddingIdentity | null {
    const model = this.getMeta('embedding_model');
    if (!model) return null;
    return { provider: this.getMeta('embedding_provider') ?? 'unknown', model, dims: Number(this.getMeta('embedding_dims') ?? 0) };
  }

  setEmbeddingIdentity(e: EmbeddingIdentity): void {
    this.setMeta('embedding_provider', e.provider);
    this.setMeta('embedding_model', e.model);
    this.setMeta('embedding_dims', String(e.dims));
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** Changes whenever another connection commits to the file. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  // ---- memories: writes ----------------------------------------------------

  insert(r: NewRow): number {
    const info = this.stmt(
      `INSERT INTO memories(id, namespace, key, content, category, session_id, metadata, created_at, updated_at, content_hash, embedding, embedding_model,
         expires_at, pinned, importance, superseded_by, dedup_hash, context, context_embedding, event_at)
       VALUES (@id, @namespace, @key, @content, @category, @session_id, @metadata, @created_at, @updated_at, @content_hash, @embedding, @embedding_model,
         @expires_at, @pinned, @importance, @superseded_by, @dedup_hash, @context, @context_embedding, @event_at)`,
    ).run({
      expires_at: null,
      pinned: 0,
      importance: null,
      superseded_by: null,
      dedup_hash: null,
      context: null,
      context_embedding: null,
      event_at: null,
      ...r,
    });
    const seq = Number(info.lastInsertRowid);
    this.onVectors?.(seq, r.embedding, r.embedding_model, r.context_embedding ?? null);
    return seq;
  }

  /** Overwrite every mutable column of the row `seq` (id and created_at stay; context and event_at too when `undefined`). */
  replace(seq: number, r: Omit<NewRow, 'id' | 'created_at'>): void {
    this.stmt(
      `UPDATE memories SET namespace = @namespace, key = @key, content = @content, category = @category,
         session_id = @session_id, metadata = @metadata, updated_at = @updated_at, content_hash = @content_hash,
         embedding = @embedding, embedding_model = @embedding_model,
         context = CASE WHEN @keep_context THEN context ELSE @context END,
         context_embedding = CASE WHEN @keep_context THEN context_embedding ELSE @context_embedding END,
         event_at = CASE WHEN @keep_event THEN event_at ELSE @event_at END
       WHERE seq = @seq`,
    ).run({
      context: null,
      context_embedding: null,
      ...r,
      event_at: r.event_at ?? null,
      keep_context: r.context === undefined ? 1 : 0,
      keep_event: r.event_at === undefined ? 1 : 0,
      seq,
    });
    this.onVectors?.(seq, r.embedding, r.embedding_model, r.context === undefined ? undefined : (r.context_embedding ?? null));
  }

  setEmbedding(seq: number, embedding: Buffer, model: string, contextEmbedding: Buffer | null = null): void {
    this.stmt('UPDATE memories SET embedding = ?, embedding_model = ?, context_embedding = ? WHERE seq = ?').run(embedding, model, contextEmbedding, seq);
    this.onVectors?.(seq, embedding, model, contextEmbedding);
  }

  /** After a write of `seq`'s vector columns made in SQL here: tell {@link onVectors} what they hold now. */
  vectorsChanged(seq: number): void {
    if (!this.onVectors) return;
    const r = this.stmt('SELECT embedding, embedding_model, context_embedding FROM memories WHERE seq = ?').raw().get(seq) as
      | [Buffer | null, string | null, Buffer | null]
      | undefined;
    if (r) this.onVectors(seq, r[0], r[1], r[2]);
  }

  /** The last `n` memories of a session (newest last), with their vectors of `model`: the context of the next one. */
  sessionTail(namespace: string, sessionId: string, n: number, model: string | null): { content: string; embedding: Buffer | null; key: string | null }[] {
    const rows = this.stmt(`SELECT content, key, CASE WHEN embedding_model IS ? THEN embedding END AS embedding FROM memories
      WHERE namespace = ? AND session_id = ? ORDER BY seq DESC LIMIT ?`).all(model, namespace, sessionId, n) as {
      content: string;
      embedding: Buffer | null;
      key: string | null;
    }[];
    return rows.reverse();
  }

  /** See `Backend.sessionAround`: two seeks on the session index. */
  sessionAround(namespace: string, sessionId: string, seq: number, before: number, after: number, now: string): number[] {
    const live = '(expires_at IS NULL OR expires_at > ? OR pinned = 1)';
    const earlier = this.stmt(`SELECT seq FROM memories WHERE namespace = ? AND session_id = ? AND seq < ? AND ${live} ORDER BY seq DESC LIMIT ?`)
      .pluck()
      .all(namespace, sessionId, seq, now, before) as number[];
    const later = this.stmt(`SELECT seq FROM memories WHERE namespace = ? AND session_id = ? AND seq > ? AND ${live} ORDER BY seq LIMIT ?`)
      .pluck()
      .all(namespace, sessionId, seq, now, after) as number[];
    return [...earlier.reverse(), ...later];
  }

  deleteBySeq(seq: number): boolean {
    return this.stmt('DELETE FROM memories WHERE seq = ?').run(seq).changes > 0;
  }

  // ---- memories: reads -----------------------------------------------------

  getById(id: string): MemoryRow | undefined {
    return this.stmt(`SELECT ${ROW_COLUMNS} FROM memories m WHERE m.id = ?`).get(id) as MemoryRow | undefined;
  }

  getByKey(namespace: string, key: string): MemoryRow | undefined {
    return this.stmt(`SELECT ${ROW_COLUMNS} FROM memories m WHERE m.namespace = ? AND m.key = ?`).get(namespace, key) as MemoryRow | undefined;
  }

  getBySeqs(seqs: number[]): Map<number, MemoryRow> {
    const out = new Map<number, MemoryRow>();
    if (!seqs.length) return out;
    // Raw arrays, then plain objects built here: ~3x faster than better-sqlite3's row objects (recall's last step).
    const stmt = this.stmt(`SELECT ${ROW_COLUMNS} FROM memories m WHERE m.seq IN (SELECT value FROM json_each(?)) /* raw */`).raw();
    for (const r of stmt.all(JSON.stringify(seqs)) as RawRow[]) {
      out.set(r[0], {
        seq: r[0],
        id: r[1],
        namespace: r[2],
        key: r[3],
        content: r[4],
        category: r[5],
        session_id: r[6],
        metadata: r[7],
        created_at: r[8],
        updated_at: r[9],
        content_hash: r[10],
        embedding_model: r[11],
        expires_at: r[12],
        pinned: r[13],
        importance: r[14],
        superseded_by: r[15],
        context: r[16],
        event_at: r[17],
      });
    }
    return out;
  }

  list(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): MemoryRow[] {
    const w = whereClause(f);
    const dir = order === 'asc' ? 'ASC' : 'DESC';
    return this.stmt(`SELECT ${ROW_COLUMNS} FROM memories m WHERE ${w.sql} ORDER BY m.created_at ${dir}, m.seq ${dir} LIMIT ? OFFSET ?`).all(
      ...w.params,
      limit,
      offset,
    ) as MemoryRow[];
  }

  /** Iterate every row matching `f` with its vector (for export). */
  *iterate(f: RowFilter): IterableIterator<MemoryRow & { embedding: Buffer | null; context_embedding: Buffer | null }> {
    const w = whereClause(f);
    try {
      yield* this.stmt(`SELECT ${ROW_COLUMNS}, m.embedding, m.context_embedding FROM memories m WHERE ${w.sql} ORDER BY m.seq`).iterate(
        ...w.params,
      ) as IterableIterator<MemoryRow & { embedding: Buffer | null; context_embedding: Buffer | null }>;
    } catch (err) {
      throw storageError(err, this.path, 'export memories');
    }
  }

  /** Up to `limit` rows matching `f` with `seq > after`, in seq order, with vectors (paged export: no cursor stays open). */
  page(f: RowFilter, after: number, limit: number): (MemoryRow & { embedding: Buffer | null; context_embedding: Buffer | null })[] {
    const w = whereClause(f);
    return this.stmt(`SELECT ${ROW_COLUMNS}, m.embedding, m.context_embedding FROM memories m WHERE ${w.sql} AND m.seq > ? ORDER BY m.seq LIMIT ?`).all(
      ...w.params,
      after,
      limit,
    ) as (MemoryRow & { embedding: Buffer | null; context_embedding: Buffer | null })[];
  }

  count(f: RowFilter): number {
    const w = whereClause(f);
    return (this.stmt(`SELECT count(*) AS n FROM memories m WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  }

  countByNamespace(f: RowFilter): Record<string, number> {
    const w = whereClause(f);
    const out: Record<string, number> = {};
    for (const r of this.stmt(`SELECT m.namespace AS ns, count(*) AS n FROM memories m WHERE ${w.sql} GROUP BY m.namespace ORDER BY m.namespace`).all(
      ...w.params,
    ) as { ns: string; n: number }[]) {
      out[r.ns] = r.n;
    }
    return out;
  }

  countEmbedded(f: RowFilter, model: string): number {
    const w = whereClause(f);
    return (this.stmt(`SELECT count(*) AS n FROM memories m WHERE ${w.sql} AND m.embedding_model = ?`).get(...w.params, model) as { n: number }).n;
  }

  /** Seqs matching a filter (used to restrict the vector leg by metadata). */
  seqsMatching(f: RowFilter): number[] {
    const w = whereClause(f);
    return this.stmt(`SELECT m.seq FROM memories m WHERE ${w.sql}`)
      .pluck()
      .all(...w.params) as number[];
  }

  /** Rows whose vector is missing or from another model, oldest first (for reindex). */
  rowsNeedingEmbedding(model: string, afterSeq: number, limit: number): { seq: number; content: string; content_hash: string; context: string | null }[] {
    return this.stmt(
      'SELECT seq, content, content_hash, context FROM memories WHERE seq > ? AND (embedding_model IS NULL OR embedding_model <> ?) ORDER BY seq LIMIT ?',
    ).all(afterSeq, model, limit) as { seq: number; content: string; content_hash: string; context: string | null }[];
  }

  // ---- vectors ---------------------------------------------------------------

  vectorsBySeqs(seqs: number[]): Map<number, Buffer> {
    const out = new Map<number, Buffer>();
    const rows = this.stmt('SELECT seq, embedding FROM memories WHERE embedding IS NOT NULL AND seq IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(seqs),
    ) as { seq: number; embedding: Buffer }[];
    for (const r of rows) out.set(r.seq, r.embedding);
    return out;
  }

  // ---- bulk reads for the in-memory search index (src/search/search-index.ts) ----------

  /** Every memory's seq, grouped by namespace: `[namespace, "seq,seq,..."]` (index-only scan). */
  seqsByNamespace(): [string, string][] {
    return this.stmt('SELECT namespace, group_concat(seq) FROM memories GROUP BY namespace').raw().all() as [string, string][];
  }

  /**
   * Up to `limit` vectors of `model` with `seq > after`, in seq order, as one concatenated BLOB
   * plus their seqs: one row per chunk instead of one Buffer per memory (several times faster to load).
   */
  vectorChunk(model: string, bytes: number, after: number, limit: number): { seqs: string | null; blob: Buffer | null; n: number; withContext: string | null } {
    const r = this.stmt(
      `SELECT group_concat(seq), CAST(group_concat(embedding, '') AS BLOB), count(*), group_concat(CASE WHEN context_embedding IS NOT NULL THEN seq END) FROM (
         SELECT seq, embedding, context_embedding FROM memories WHERE seq > ? AND embedding_model = ? AND length(embedding) = ? ORDER BY seq LIMIT ?)`,
    )
      .raw()
      .get(after, model, bytes, limit) as [string | null, Buffer | null, number, string | null];
    return { seqs: r[0], blob: r[1], n: r[2], withContext: r[3] };
  }

  /** The stored quantisation centre of `model`, if one was chosen. */
  vectorCentre(model: string): VectorCentre | undefined {
    const r = this.stmt('SELECT id, dims, centre FROM vector_centres WHERE model = ?').raw().get(model) as [number, number, Buffer] | undefined;
    return r && { id: r[0], dims: r[1], centre: r[2] };
  }

  /** The first `n` vectors of `model` with `bytes` bytes, in seq order, back to back (to choose its centre). */
  firstVectors(model: string, bytes: number, n: number): { n: number; blob: Buffer | null } {
    const r = this.stmt(
      "SELECT count(*), CAST(group_concat(embedding, '') AS BLOB) FROM (SELECT embedding FROM memories WHERE embedding_model = ? AND length(embedding) = ? ORDER BY seq LIMIT ?)",
    )
      .raw()
      .get(model, bytes, n) as [number, Buffer | null];
    return { n: r[0], blob: r[1] };
  }

  /** Store `model`'s centre unless it has one (a centre never changes while codes made with it exist). */
  putVectorCentre(model: string, dims: number, centre: Buffer): void {
    this.stmt('INSERT OR IGNORE INTO vector_centres(model, dims, centre) VALUES (?, ?, ?)').run(model, dims, centre);
  }

  /** Store (or replace) code rows. */
  putCodes(rows: readonly (readonly [number, number | null, Buffer | null, Buffer | null, Buffer | null])[]): void {
    const st = this.stmt('INSERT OR REPLACE INTO vector_codes(seq, centre, q, scale, sign) VALUES (?, ?, ?, ?, ?)');
    for (const r of rows) st.run(r[0], r[1], r[2], r[3], r[4]);
  }

  /**
   * Store the codes of many memories in one statement: `seqs` in order, their parts packed back to
   * back (`qBytes` and `signBytes` each, 4 for the scale), all made with centre `centre`.
   */
  putPackedCodes(centre: number, seqs: readonly number[], q: Buffer, scale: Buffer, sign: Buffer, qBytes: number, signBytes: number): void {
    if (!seqs.length) return;
    this.stmt(
      `INSERT OR REPLACE INTO vector_codes(seq, centre, q, scale, sign)
       SELECT j.value, @centre, substr(@q, j.key * @qb + 1, @qb), substr(@scale, j.key * 4 + 1, 4), substr(@sign, j.key * @sb + 1, @sb) FROM json_each(@seqs) AS j`,
    ).run({ centre, q, scale, sign, qb: qBytes, sb: signBytes, seqs: JSON.stringify(seqs) });
  }

  /**
   * Up to `limit` rows of `vector_codes` with `after < seq <= until`, in seq order: the codes made
   * with centre `centre` (of the given sizes) as one concatenated BLOB per part, like
   * {@link vectorChunk}. Codes of that centre with other sizes are in neither list (their memories
   * are re-quantised).
   */
  codeChunk(centre: number, qBytes: number, signBytes: number, after: number, limit: number, until = Number.MAX_SAFE_INTEGER): CodeChunk {
    const r = this.stmt(CODE_CHUNK_SQL).raw().get({ centre, q: qBytes, sign: signBytes, after, until, limit }) as [
      number,
      number | null,
      string | null,
      Buffer | null,
      Buffer | null,
      Buffer | null,
      string | null,
    ];
    return { n: r[0], last: r[1] ?? after, seqs: r[2], q: r[3], scale: r[4], sign: r[5], other: r[6] };
  }

  /**
   * Of some memories: whether each has a vector at all, and its vectors when they are of `model`
   * with `bytes` bytes (the memories an open found no code for).
   */
  vectorsToCode(model: string, bytes: number, seqs: readonly number[]): [number, number, Buffer | null, Buffer | null][] {
    return this.stmt(
      `SELECT seq, embedding IS NOT NULL AND embedding_model IS NOT NULL, CASE WHEN embedding_model = @model AND length(embedding) = @bytes THEN embedding END,
         CASE WHEN embedding_model = @model AND length(embedding) = @bytes THEN context_embedding END
       FROM memories WHERE seq IN (SELECT value FROM json_each(@seqs))`,
    )
      .raw()
      .all({ model, bytes, seqs: JSON.stringify(seqs) }) as [number, number, Buffer | null, Buffer | null][];
  }

  /** Session key (namespace and session id) of those of some memories that have a session. */
  sessionsOf(seqs: number[]): Map<number, string> {
    return new Map(
      // `+session_id`: seek the seqs by rowid; on some files the planner walked the partial session index instead.
      this.stmt(`SELECT seq, json_array(namespace, session_id) FROM memories WHERE +session_id IS NOT NULL AND seq IN (SELECT value FROM json_each(?))`)
        .raw()
        .all(JSON.stringify(seqs)) as [number, string][],
    );
  }

  /** Float vectors (own and context) of some memories stored with `model`. */
  modelVectorsBySeqs(model: string, seqs: number[]): [number, Buffer, Buffer | null][] {
    return this.stmt(
      'SELECT seq, embedding, context_embedding FROM memories WHERE embedding_model = ? AND embedding IS NOT NULL AND seq IN (SELECT value FROM json_each(?))',
    )
      .raw()
      .all(model, JSON.stringify(seqs)) as [number, Buffer, Buffer | null][];
  }

  /** Context vectors of some memories (those that have one). */
  contextVectors(seqs: number[]): Map<number, Buffer> {
    const out = new Map<number, Buffer>();
    for (const r of this.stmt('SELECT seq, context_embedding FROM memories WHERE context_embedding IS NOT NULL AND seq IN (SELECT value FROM json_each(?))')
      .raw()
      .all(JSON.stringify(seqs)) as [number, Buffer][])
      out.set(r[0], r[1]);
    return out;
  }

  private readonly vocabReady = new Set<FtsField>();

  /** Rowids of one FTS5 term's instances in `field`, comma-separated in rowid order (a rowid repeats once per occurrence). */
  ftsTermDocs(term: string, field: FtsField = 'content'): string | null {
    const table = FTS_TABLE[field];
    if (!this.vocabReady.has(field)) {
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_instances USING fts5vocab(main, ${table}, instance)`);
      this.vocabReady.add(field);
    }
    return this.stmt(`SELECT group_concat(doc) FROM temp.${table}_instances WHERE term = ?`).pluck().get(term) as string | null;
  }

  /** Terms of a keyword field held by at least `minDf` memories (FTS5's `row` vocabulary counts rows, not occurrences). */
  ftsCommonTerms(minDf: number, field: FtsField = 'content'): string[] {
    const table = FTS_TABLE[field];
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_rows USING fts5vocab(main, ${table}, row)`);
    return this.stmt(`SELECT term FROM temp.${table}_rows WHERE doc >= ?`).pluck().all(minDf) as string[];
  }

  /** Rows of a keyword field's FTS5 table (one per memory that has the field), counted from its small docsize table. */
  ftsRowCount(field: FtsField = 'content'): number {
    return this.stmt(`SELECT count(*) FROM ${FTS_TABLE[field]}_docsize`).pluck().get() as number;
  }

  /** One term's kept postings in `field` (src/search/kept-postings.ts): `[version, n, docs]`, or undefined. */
  keptPostings(field: FtsField, term: string): [number, number, Buffer] | undefined {
    return this.stmt('SELECT version, n, docs FROM keyword_postings WHERE field = ? AND term = ?').raw().get(field, term) as
      | [number, number, Buffer]
      | undefined;
  }

  /** How many terms of `field` have kept postings, and the oldest version among them (null when none). */
  keptState(field: FtsField): { rows: number; version: number | null } {
    const r = this.stmt('SELECT count(*), min(version) FROM keyword_postings WHERE field = ?').raw().get(field) as [number, number | null];
    return { rows: r[0], version: r[1] };
  }

  /** Replace every kept row of `field` by `rows`, all exact at change-log `version`. */
  replaceKept(field: FtsField, version: number, rows: readonly [term: string, n: number, docs: Buffer][]): void {
    this.stmt('DELETE FROM keyword_postings WHERE field = ?').run(field);
    const ins = this.stmt('INSERT INTO keyword_postings(field, term, version, n, docs) VALUES (?, ?, ?, ?, ?)');
    for (const [term, n, docs] of rows) ins.run(field, term, version, n, docs);
  }

  /** Change-log entries after `version`, and the oldest entry kept (0 when the log is empty). */
  changeCountSince(version: number): { count: number; oldest: number } {
    const count = (this.stmt('SELECT count(*) FROM changes WHERE version > ?').pluck().get(version) as number) ?? 0;
    const oldest = this.stmt('SELECT coalesce(min(version), 0) FROM changes').pluck().get() as number;
    return { count, oldest };
  }

  /** A keyword field's text of some memories, as its FTS5 table indexes it (missing seqs were deleted; a context may be null). */
  fieldTextsBySeqs(field: FtsField, seqs: number[]): [number, string | null][] {
    const text = field === 'content' ? 'content' : "(SELECT group_concat(value, ' ') FROM json_each(context))";
    return this.stmt(`SELECT seq, ${text} FROM memories WHERE seq IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(seqs)) as [
      number,
      string | null,
    ][];
  }

  /**
   * Token count of every row of `memories_fts`, from its `docsize` table: the rowids, and their
   * `sz` records (one varint per row for this one-column table) concatenated in the same order.
   */
  ftsDocLengths(field: FtsField = 'content'): { ids: string | null; sz: Buffer | null } {
    const r = this.stmt(`SELECT group_concat(id), CAST(group_concat(sz, '') AS BLOB) FROM ${FTS_TABLE[field]}_docsize`).raw().get() as [
      string | null,
      Buffer | null,
    ];
    return { ids: r[0], sz: r[1] };
  }

  /** Every memory's content, or context text (fallback to count tokens when `ftsDocLengths` cannot be read). */
  allContent(field: FtsField = 'content'): [number, string][] {
    if (field === 'context') {
      return this.stmt("SELECT seq, (SELECT group_concat(value, ' ') FROM json_each(context)) FROM memories WHERE context IS NOT NULL").raw().all() as [
        number,
        string,
      ][];
    }
    return this.stmt('SELECT seq, content FROM memories').raw().all() as [number, string][];
  }

  /** Tokenize texts exactly as `memories_fts` does (same tokenizer, in a TEMP table; works read-only too). */
  ftsTokens(texts: string[]): string[][] {
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.mnemolite_tokenizer USING fts5(content, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.mnemolite_tokenizer_v USING fts5vocab(temp, mnemolite_tokenizer, instance);`);
    const out: string[][] = texts.map(() => []);
    const ins = this.stmt('INSERT INTO temp.mnemolite_tokenizer(rowid, content) VALUES (?, ?)');
    texts.forEach((t, i) => ins.run(i + 1, t));
    for (const [doc, term] of this.stmt('SELECT doc, term FROM temp.mnemolite_tokenizer_v ORDER BY doc, offset').raw().all() as [number, string][])
      out[doc - 1]!.push(term);
    this.stmt('DELETE FROM temp.mnemolite_tokenizer').run();
    return out;
  }

  /** `[seq, expires_at]` of memories that can expire (not pinned), for the in-memory expiry filter. */
  expiringSeqs(): [number, string][] {
    return this.stmt('SELECT seq, expires_at FROM memories WHERE expires_at IS NOT NULL AND pinned = 0').raw().all() as [number, string][];
  }

  /** What the search index needs of some memories (missing seqs were deleted); `expires_at` is null when pinned. */
  indexRowsBySeqs(seqs: number[]): IndexRow[] {
    // Every open file is at the current schema (migrated on open; read-only opens of older files are refused).
    return this.stmt(`SELECT seq, namespace, content, embedding_model, embedding, CASE WHEN pinned = 1 THEN NULL ELSE expires_at END AS expires_at,
        (SELECT group_concat(value, ' ') FROM json_each(context)) AS context, context_embedding
      FROM memories WHERE seq IN (SELECT value FROM json_each(?))`).all(JSON.stringify(seqs)) as IndexRow[];
  }

  /** Highest change-log version (0 when empty). */
  changeVersion(): number {
    return (this.stmt(CHANGE_VERSION_SQL).get() as { v: number }).v;
  }

  /** Seqs changed after `version`, and the lowest version still kept (to detect a pruned gap). */
  changesSince(version: number): { seqs: number[]; latest: number; oldest: number } {
    const rows = this.stmt('SELECT version, seq FROM changes WHERE version > ? ORDER BY version').all(version) as { version: number; seq: number }[];
    const oldest = (this.stmt('SELECT coalesce(min(version), 0) AS v FROM changes').get() as { v: number }).v;
    return { seqs: [...new Set(rows.map((r) => r.seq))], latest: rows.length ? rows[rows.length - 1]!.version : version, oldest };
  }

  /** Keep the change log short; readers that fall behind rebuild fully. */
  pruneChanges(keep: number): void {
    this.stmt('DELETE FROM changes WHERE version <= (SELECT max(version) FROM changes) - ?').run(keep);
  }

  // ---- embedding cache -------------------------------------------------------

  /** Vectors of `model` for any of `hashes`, from stored memories first, then the cache table. Two queries for a whole batch. */
  cachedEmbeddings(model: string, hashes: readonly string[], namespace?: string): Map<string, Buffer> {
    const out = new Map<string, Buffer>();
    if (!hashes.length) return out;
    const unique = [...new Set(hashes)];
    const want = JSON.stringify(unique);
    const rows =
      namespace === undefined
        ? this.stmt('SELECT m.content_hash, m.embedding FROM json_each(?) AS j CROSS JOIN memories m ON m.content_hash = j.value WHERE m.embedding_model = ?')
            .raw()
            .all(want, model)
        : // CROSS JOIN fixes the loop order (SQLite keeps it as written): each wanted hash is looked up
          // in memories_hash_namespace, never the namespace's rows walked (test/query-plans.test.ts).
          this.stmt(
            'SELECT m.content_hash, m.embedding FROM json_each(?) AS j CROSS JOIN memories m ON m.content_hash = j.value AND m.namespace = ? WHERE m.embedding_model = ?',
          )
            .raw()
            .all(want, namespace, model);
    for (const [h, e] of rows as [string, Buffer][]) out.set(h, e);
    if (out.size < unique.length) {
      // Scoped lookups use the namespace's own cache keys (see scopedKey), mapped back to hashes.
      const keyOf = new Map(unique.map((h) => [namespace === undefined ? h : scopedKey(namespace, h), h]));
      for (const [k, h] of keyOf) {
        const waiting = this.pendingCache.get(`${model}\u0000${k}`);
        if (waiting && !out.has(h)) out.set(h, waiting.embedding);
      }
      for (const [k, e] of this.stmt('SELECT content_hash, embedding FROM embedding_cache WHERE model = ? AND content_hash IN (SELECT value FROM json_each(?))')
        .raw()
        .all(model, JSON.stringify([...keyOf.keys()])) as [string, Buffer][]) {
        const h = keyOf.get(k)!;
        if (!out.has(h)) out.set(h, e);
      }
    }
    return out;
  }

  /** Keep a vector under `key`, recording the namespace it was cached for (null: every namespace). */
  putCache(model: string, key: string, embedding: Buffer, namespace: string | null, usedAt = new Date().toISOString()): void {
    this.stmt(
      'INSERT INTO embedding_cache(model, content_hash, embedding, used_at, namespace) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET used_at = excluded.used_at',
    ).run(model, key, embedding, usedAt, namespace);
  }

  /** Bound the cache to `max` entries, dropping the least recently used. */
  trimCache(max: number): void {
    this.stmt(
      'DELETE FROM embedding_cache WHERE (model, content_hash) IN (SELECT model, content_hash FROM embedding_cache ORDER BY used_at DESC LIMIT -1 OFFSET ?)',
    ).run(max);
  }

  cacheEntries(): number {
    this.flushCache();
    return (this.stmt('SELECT count(*) AS n FROM embedding_cache').get() as { n: number }).n;
  }

  // ---- file ----------------------------------------------------------------

  fileBytes(): number {
    if (this.path === ':memory:') return 0;
    let n = 0;
    for (const p of [this.path, `${this.path}-wal`]) {
      try {
        n += statSync(p).size;
      } catch {
        /* absent */
      }
    }
    return n;
  }

  async backup(dest: string): Promise<void> {
    try {
      await this.db.backup(dest);
    } catch (err) {
      throw storageError(err, dest, 'write the backup');
    }
  }

  /**
   * Copy the WAL into the file and truncate it to zero bytes, so old images of pages (a forgotten
   * memory's text) do not linger in it. Waits at most `busyMs` for other connections' readers and
   * writers; returns false when they kept it from completing (the next checkpoint finishes it).
   */
  checkpoint(busyMs: number): boolean {
    if (this.path === ':memory:' || !this.db.open) return true;
    const before = this.db.pragma('busy_timeout', { simple: true }) as number;
    try {
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyMs))}`);
      const [r] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      return !!r && r.busy === 0;
    } catch {
      // A locked file is not the forget's failure: it is committed; a later checkpoint finishes it.
      return false;
    } finally {
      this.db.pragma(`busy_timeout = ${before}`);
    }
  }

  close(): void {
    this.flushCache();
    if (this.db.open) this.db.close();
  }
}
