/**
 * The SQLite file as a {@link Backend}: SQL in src/store/, in-memory search indexes in
 * src/search/, the add decision in src/lifecycle/add.ts (the file's answers in src/store/write.ts).
 * Every call is synchronous underneath; the async signatures are the shared interface's.
 */
import { closeSync, constants as fsc, openSync, rmSync } from 'node:fs';
import { scopedKey } from '../embed/cache.js';
import { invalid } from '../errors.js';
import { uuidv7 } from '../ids.js';
import type { HistoryRow, HistoryText } from '../lifecycle/history.js';
import { nearPolicy } from '../lifecycle/add.js';
import type { RankMeta } from './types.js';
import type { EraseResult, PruneOptions, PruneResult } from '../types/lifecycle.js';
import { CHANGES_KEPT, SearchIndex } from '../search/search-index.js';
import { CodeWriter } from '../search/vector-codes.js';
import { blobToVector, blobView, vectorToBlob } from '../search/vector-index.js';
import type { MemoryRow, RowFilter } from '../types/rows.js';
import { NearDuplicates, type NearCandidate } from '../store/dedup.js';
import { prune as pruneExpired } from '../store/prune.js';
import { BULK_MIN_ITEMS, Store } from '../store/store.js';
import { eraseMemory, eraseNamespace } from './sqlite-erase.js';
import { profileExport, profileGet, profileHistory, profileImport, profileSet } from './profile.js';
import type { NamespacedProfileRow, ProfileRow } from '../types/profile.js';
import { setLifecycle, updateLifecycle, writeMemory, type NearContext } from '../store/write.js';
import type { ConnectionOptions } from '../store/connection.js';
import type { AddResult } from '../types/memory.js';
import { namespaceFor } from '../namespaces.js';
import { toRowFilter, type ParsedAdd } from '../validate.js';
import { inScope, keyTaken, notFound } from './scope.js';
import type { Backend, DedupDefaults, EmbeddingIdentity, ExportRow, ImportItem, LegQuery, LegResults, StoreStats, UpdateChange, WriteItem } from './types.js';
import { lap, tick } from '../stage-timer.js';

/** Rows per export page: 256 memories of at most 100 kB keep one page near 25 MB. */
const EXPORT_PAGE = 256;

function exportRow(r: MemoryRow & { embedding: Buffer | null; context_embedding: Buffer | null }, vectors: boolean): ExportRow {
  const { embedding, context_embedding, ...row } = r;
  const withVector = vectors && embedding && r.embedding_model;
  return {
    ...row,
    vector: withVector ? blobToVector(embedding) : null,
    contextVector: withVector && context_embedding ? blobToVector(context_embedding) : null,
  };
}

/** A memory file. */
export class SqliteBackend implements Backend {
  readonly kind = 'sqlite' as const;
  readonly location: string;
  /** @internal The store, for tests and tools that inspect the file. */
  readonly store: Store;
  private readonly index: SearchIndex;
  private writes = 0;
  /** Memories this connection wrote (any write), for the kept postings' rule at close. */
  private written = 0;
  /** How long forget waits for other connections before leaving the WAL's truncation to a later checkpoint. */
  private readonly checkpointWaitMs: number;

  /** `searchThread`: see `OpenOptions.searchThread` (default true). */
  constructor(path: string, opts: ConnectionOptions & { model: string | null; dims: number; searchThread?: boolean }) {
    const { model, dims, searchThread, ...conn } = opts;
    this.store = new Store(path, conn);
    this.location = path;
    this.checkpointWaitMs = Math.min(conn.busyTimeoutMs ?? 5000, 2000);
    // One search index serves both legs; without an embedder it holds keywords only.
    this.index = new SearchIndex(this.store, model, dims, { searchThread: searchThread !== false });
    // Every write of a memory's vectors stores its quantised form too (src/search/vector-codes.ts).
    if (model !== null && !conn.readonly) {
      const codes = new CodeWriter(this.store);
      this.store.onVectors = (seq, embedding, m, context) => codes.write(seq, embedding, m, context);
    }
  }

  private read<T>(action: string, fn: () => T): Promise<T> {
    return Promise.resolve(this.store.read(action, fn));
  }

  /** After a committed write: bring the index up to date, and now and then trim the change log. */
  private afterWrite(n = 1): void {
    this.index.markDirty();
    this.index.catchUp();
    this.writes += n;
    this.written += n;
    if (this.writes >= 1000) {
      this.writes = 0;
      try {
        // After a bulk write, as one: an ordinary commit here would checkpoint what the bulk write left in the WAL.
        this.store.write('trim the change log', () => this.store.pruneChanges(CHANGES_KEPT), n >= BULK_MIN_ITEMS);
      } catch {
        // Housekeeping only: the caller's write is already committed, so it must not be reported
        // as failed (a retry would write it twice). A busy file just postpones the trim.
      }
    }
  }

  async identity(): Promise<EmbeddingIdentity | null> {
    return this.read('read the embedding model', () => this.store.getEmbeddingIdentity());
  }

  async setIdentity(e: EmbeddingIdentity): Promise<void> {
    this.store.write('record the embedding model', () => this.store.setEmbeddingIdentity(e));
  }

  async cachedVectors(model: string, hashes: readonly string[], namespace?: string): Promise<Map<string, Float32Array>> {
    const blobs = this.store.read('read the embedding cache', () => this.store.cachedEmbeddings(model, hashes, namespace));
    const out = new Map<string, Float32Array>();
    for (const [h, b] of blobs) out.set(h, blobToVector(b));
    return out;
  }

  async cacheVector(model: string, hash: string, vector: Float32Array, namespace?: string): Promise<void> {
    this.store.queueCache(model, namespace === undefined ? hash : scopedKey(namespace, hash), vectorToBlob(vector), namespace ?? null);
  }

  // ---- writes ----------------------------------------------------------------

  async addMany(items: WriteItem[], model: string | null, dedup: DedupDefaults): Promise<AddResult[]> {
    const near = this.nearContexts(
      items.map((p) => p.opts),
      items.map((p) => p.vector),
      dedup,
    );
    const results = this.store.write('add memories', () => items.map((p, i) => this.writeOne(p, model, near[i])), items.length >= BULK_MIN_ITEMS);
    this.afterWrite(results.length);
    return results;
  }

  /** Near-duplicate candidates per item (src/store/dedup.ts), searched before the write transaction. */
  private nearContexts(opts: ParsedAdd[], vecs: (Float32Array | null)[], dedup: DedupDefaults): (NearContext | undefined)[] {
    const finder = new NearDuplicates(this.store);
    return opts.map((o, i) => {
      const vec = vecs[i];
      const policy = nearPolicy(o, dedup, !!vec);
      if (!policy || !vec) return undefined;
      const f = toRowFilter('add', { namespace: o.namespace });
      const candidates: NearCandidate[] = this.index.search(vec, 5, f).map((h) => ({ seq: h.seq, similarity: h.score }));
      return { finder, candidates, vec, policy };
    });
  }

  async sessionTail(
    namespace: string,
    sessionId: string,
    n: number,
    model: string | null,
  ): Promise<{ content: string; vector: Float32Array | null; key: string | null }[]> {
    const rows = this.store.read('read the session', () => this.store.sessionTail(namespace, sessionId, n, model));
    return rows.map((r) => ({ content: r.content, vector: r.embedding ? blobToVector(r.embedding) : null, key: r.key }));
  }

  async sessionAround(namespace: string, sessionId: string, seq: number, before: number, after: number, now: string): Promise<number[]> {
    return this.read('read the session', () => this.store.sessionAround(namespace, sessionId, seq, before, after, now));
  }

  private writeOne(p: WriteItem, model: string | null, near?: NearContext): AddResult {
    const { content, opts: o, hash } = p;
    const embedding = p.vector ? vectorToBlob(p.vector) : null;
    const namespace = namespaceFor('add', o.namespace);
    const now = new Date().toISOString();
    const row = {
      namespace,
      key: o.key ?? null,
      content,
      category: o.category ?? null,
      session_id: o.sessionId ?? null,
      metadata: o.metadata ?? '{}',
      updated_at: now,
      content_hash: hash,
      embedding,
      embedding_model: embedding ? model : null,
      context: p.context ? JSON.stringify(p.context) : null,
      context_embedding: embedding && p.contextVector ? vectorToBlob(p.contextVector) : null,
      // A key upsert restates the memory: without an eventAt it has none (src/store/write.ts keeps it on a merge).
      event_at: o.eventAt ?? null,
    };
    const existing = o.key !== undefined ? this.store.getByKey(namespace, o.key) : undefined;
    // Upsert, dedup (exact / near), merge or insert, with expiry, pinning, importance, supersession.
    return writeMemory(this.store, { row, opts: o, existing, nowIso: now, near, newId: uuidv7 });
  }

  async update(id: string, ns: string | undefined, c: UpdateChange, model: string | null): Promise<MemoryRow> {
    const u = c.u;
    const row = this.store.write('update a memory', () => {
      const cur = this.store.getById(id);
      if (!cur || !inScope(cur, ns)) throw notFound(id);
      const key = u.key === undefined ? cur.key : u.key;
      if (key !== null && key !== cur.key) {
        const other = this.store.getByKey(cur.namespace, key);
        if (other && other.seq !== cur.seq) throw keyTaken(key, other.id, cur.namespace);
      }
      const hash = c.hash ?? cur.content_hash;
      const changed = c.content !== undefined && hash !== cur.content_hash;
      const keepVector = c.vector === undefined;
      const old = keepVector && !changed ? (this.store.vectorsBySeqs([cur.seq]).get(cur.seq) ?? null) : null;
      this.store.replace(cur.seq, {
        namespace: cur.namespace,
        key,
        content: c.content ?? cur.content,
        category: u.category === undefined ? cur.category : u.category,
        session_id: u.sessionId === undefined ? cur.session_id : u.sessionId,
        metadata: u.metadata ?? cur.metadata,
        event_at: u.eventAt, // undefined keeps it, null clears it
        updated_at: new Date().toISOString(),
        content_hash: hash,
        embedding: keepVector ? old : vectorToBlob(c.vector!),
        embedding_model: keepVector ? (changed ? null : cur.embedding_model) : model,
      });
      updateLifecycle(this.store, cur.seq, u, new Date().toISOString()); // expiresAt / ttl / pinned / importance
      return this.store.getById(id)!;
    });
    this.afterWrite();
    return row;
  }

  async forget(id: string, ns: string | undefined): Promise<boolean> {
    const erased = this.store.write('forget a memory', () => {
      const row = this.store.getById(id);
      if (!row || !inScope(row, ns)) return null;
      return eraseMemory(this.store, row);
    });
    if (!erased) return false;
    this.afterWrite(1 + erased.contextsRewritten);
    // The WAL still holds the pages as they were before: copy and truncate it now.
    this.store.checkpoint(this.checkpointWaitMs);
    return true;
  }

  async erase(namespace: string): Promise<EraseResult> {
    const r = this.store.write('erase a namespace', () => eraseNamespace(this.store, namespace));
    if (r.memories) this.afterWrite(r.memories);
    this.store.checkpoint(this.checkpointWaitMs);
    return { namespace, memories: r.memories, historyVersions: r.historyVersions, cachedVectors: r.cachedVectors };
  }

  async namespacesWithPrefix(prefix: string, limit: number): Promise<string[]> {
    return this.store.read('list namespaces', () => {
      const out: string[] = [];
      // Names with the prefix sort together right after it (BINARY collation: code point order).
      for (const ns of this.store
        .stmt('SELECT DISTINCT namespace FROM memories WHERE namespace >= ? ORDER BY namespace')
        .pluck()
        .iterate(prefix) as IterableIterator<string>) {
        if (!ns.startsWith(prefix) || out.length >= limit) break;
        out.push(ns);
      }
      return out;
    });
  }

  async profileGet(namespace: string): Promise<ProfileRow | undefined> {
    return profileGet(this.store, namespace);
  }

  async profileSet(namespace: string, content: string, expected: number | undefined, nowIso: string): Promise<ProfileRow> {
    const r = profileSet(this.store, namespace, content, expected, nowIso);
    // Versions dropped beyond the bound leave no copy in the WAL either.
    this.store.checkpoint(this.checkpointWaitMs);
    return r;
  }

  async profileHistory(namespace: string, offset: number, limit: number): Promise<{ rows: ProfileRow[]; total: number }> {
    return profileHistory(this.store, namespace, offset, limit);
  }

  async profileExport(namespace: string | undefined): Promise<NamespacedProfileRow[]> {
    return profileExport(this.store, namespace);
  }

  profileExportSync(namespace: string | undefined): NamespacedProfileRow[] {
    return profileExport(this.store, namespace);
  }

  async profileImport(namespace: string, rows: ProfileRow[], onConflict: 'skip' | 'replace'): Promise<'imported' | 'replaced' | 'skipped'> {
    const r = profileImport(this.store, namespace, rows, onConflict);
    // Replaced versions leave no copy in the WAL either.
    if (r === 'replaced') this.store.checkpoint(this.checkpointWaitMs);
    return r;
  }

  async importBatch(
    items: ImportItem[],
    model: string | null,
    onConflict: 'skip' | 'replace',
  ): Promise<{ imported: number; replaced: number; skipped: number }> {
    const res = { imported: 0, replaced: 0, skipped: 0 };
    this.store.write('import memories', () => {
      for (const r of items) {
        const blob = r.vector ? vectorToBlob(r.vector) : null;
        const row = {
          namespace: r.namespace,
          key: r.key,
          content: r.content,
          category: r.category,
          session_id: r.sessionId,
          metadata: r.metadata,
          updated_at: r.updatedAt,
          content_hash: r.hash,
          embedding: blob,
          embedding_model: blob ? model : null,
          context: r.context ? JSON.stringify(r.context) : null,
          context_embedding: blob && r.contextVector ? vectorToBlob(r.contextVector) : null,
          event_at: r.eventAt,
        };
        const life = { expires_at: r.expiresAt, pinned: r.pinned ? 1 : 0, importance: r.importance, superseded_by: r.supersededBy };
        const byId = this.store.getById(r.id);
        const byKey = r.key !== null ? this.store.getByKey(r.namespace, r.key) : undefined;
        const existing = byId ?? byKey;
        if (existing) {
          if (onConflict === 'skip') {
            res.skipped++;
            continue;
          }
          if (byId && byKey && byId.seq !== byKey.seq) this.store.deleteBySeq(byKey.seq);
          this.store.replace(existing.seq, row);
          setLifecycle(this.store, existing.seq, life);
          res.replaced++;
          continue;
        }
        this.store.insert({ ...row, ...life, id: r.id, created_at: r.createdAt });
        res.imported++;
      }
    });
    this.afterWrite(items.length);
    return res;
  }

  async setVectors(rows: { seq: number; vector: Float32Array; contextVector: Float32Array | null }[], model: string): Promise<void> {
    this.store.write('store new vectors', () => {
      for (const r of rows) this.store.setEmbedding(r.seq, vectorToBlob(r.vector), model, r.contextVector ? vectorToBlob(r.contextVector) : null);
    });
    this.afterWrite(rows.length);
  }

  async prune(o: PruneOptions, nowIso: string): Promise<PruneResult> {
    const res = pruneExpired(this.store, o, nowIso);
    if (res.deleted && !res.dryRun) this.afterWrite(res.deleted);
    return res;
  }

  // ---- reads -------------------------------------------------------------------

  async getById(id: string): Promise<MemoryRow | undefined> {
    return this.read('read a memory', () => this.store.getById(id));
  }

  async list(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<MemoryRow[]> {
    return this.read('list memories', () => this.store.list(f, limit, offset, order));
  }

  async count(f: RowFilter): Promise<number> {
    return this.read('count memories', () => this.store.count(f));
  }

  async listPage(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<{ rows: MemoryRow[]; total: number }> {
    // One read transaction: another process's commit cannot land between the page and the count.
    return this.read('list memories', () =>
      this.store.db.transaction(() => ({ rows: this.store.list(f, limit, offset, order), total: this.store.count(f) }))(),
    );
  }

  async stats(f: RowFilter, model: string | null): Promise<StoreStats> {
    return this.read('compute stats', () => {
      const memories = this.store.count(f);
      return {
        memories,
        namespaces: this.store.countByNamespace(f),
        embedded: model ? this.store.countEmbedded(f, model) : 0,
        cacheEntries: this.store.cacheEntries(),
        bytes: this.store.fileBytes(),
        schemaVersion: this.store.schemaVersion(),
        expired: this.store.count({ ...f, activeAt: undefined }) - memories,
      };
    });
  }

  async legs(q: LegQuery): Promise<LegResults> {
    const stats = { idfMass: 0, matched: true };
    let t = tick();
    // One catch-up with the file for all three searches (one data_version read, not three).
    const { keyword, context, vector, scopeSize } = this.index.synced(() => {
      t = lap('sync', t);
      // The vector leg starts first: on a large index its sign-code scan runs on a worker thread
      // while this thread walks the keyword legs (src/search/scan-worker.ts).
      const finishVector = q.vector === null ? null : this.index.startSearch(q.vector, q.depth, q.filter, { exact: q.exact });
      t = lap('vector', t);
      const keyword = q.text === null ? [] : this.index.keyword(q.text, q.depth, q.filter, stats);
      t = lap('keyword', t);
      const context = q.text === null ? [] : this.index.keyword(q.text, q.depth, q.filter, undefined, 'context');
      t = lap('context-leg', t);
      const vector = finishVector ? finishVector() : [];
      t = lap('vector', t);
      return { keyword, context, vector, scopeSize: this.index.liveCount(q.filter.namespace) };
    });
    // Sessions of the keyword candidates (only memories with context have one that matters here).
    const sessions = context.length ? this.store.read('read sessions', () => this.store.sessionsOf([...keyword, ...context].map((h) => h.seq))) : undefined;
    lap('sessions', t);
    return { keyword, context, vector, scopeSize, idfMass: stats.idfMass, ...(sessions ? { sessions } : {}) };
  }

  async bestCosines(vectors: readonly Float32Array[], _model: string, namespace: string | undefined): Promise<number[]> {
    // The index holds the vectors of the file's one model.
    return this.index.bestScores(vectors, namespace);
  }

  async scopeSize(namespace: string | undefined): Promise<number> {
    return this.index.liveCount(namespace);
  }

  async rowsBySeqs(seqs: number[]): Promise<Map<number, MemoryRow>> {
    return this.read('read recalled memories', () => this.store.getBySeqs(seqs));
  }

  async countToEmbed(model: string): Promise<number> {
    return this.read('count memories', () => this.store.count({}) - this.store.countEmbedded({}, model));
  }

  async toEmbed(model: string, after: number, limit: number): Promise<{ seq: number; content: string; content_hash: string; context: string | null }[]> {
    return this.read('read memories to embed', () => this.store.rowsNeedingEmbedding(model, after, limit));
  }

  *exportRowsSync(f: RowFilter, vectors: boolean): IterableIterator<ExportRow> {
    for (const r of this.store.iterate(f)) yield exportRow(r, vectors);
  }

  /** Paged, so that no SQLite cursor stays open while the caller awaits (other calls share the connection). */
  async *exportRows(f: RowFilter, vectors: boolean): AsyncIterableIterator<ExportRow> {
    for (let after = 0; ; ) {
      const page = this.store.read('export memories', () => this.store.page(f, after, EXPORT_PAGE));
      for (const r of page) yield exportRow(r, vectors);
      if (page.length < EXPORT_PAGE) return;
      after = page[page.length - 1]!.seq;
    }
  }

  // ---- lifecycle sources (src/recall/rank.ts, history.ts) -------------------------

  async successors(seqs: number[]): Promise<Map<number, number>> {
    return this.read('rank by lifecycle', () => {
      // Most files have no superseded memory at all: one probe of the partial index answers that,
      // and saves a look-up per candidate on every recall.
      if (!this.store.stmt('SELECT 1 FROM memories WHERE superseded_by IS NOT NULL LIMIT 1').pluck().get()) return new Map();
      return new Map(
        this.store
          .stmt(
            `SELECT m.seq, s.seq FROM memories m JOIN memories s ON s.id = m.superseded_by
         WHERE m.seq IN (SELECT value FROM json_each(?)) AND m.superseded_by IS NOT NULL`,
          )
          .raw()
          .all(JSON.stringify(seqs)) as [number, number][],
      );
    });
  }

  async rankMeta(seqs: number[], withChangedAt: boolean): Promise<RankMeta[]> {
    return this.read(
      'rank by lifecycle',
      () =>
        this.store
          .stmt(
            `SELECT m.seq, m.created_at, m.category, m.pinned, m.importance,
         (SELECT s.seq FROM memories s WHERE s.id = m.superseded_by) AS succ,
         ${withChangedAt ? '(SELECT max(h.replaced_at) FROM memory_history h WHERE h.memory_id = m.id)' : 'NULL'} AS changed_at
       FROM memories m WHERE m.seq IN (SELECT value FROM json_each(?))`,
          )
          .all(JSON.stringify(seqs)) as RankMeta[],
    );
  }

  async vectorsOf(seqs: number[], model: string): Promise<Map<number, Float32Array>> {
    return this.read('rank by lifecycle', () => {
      const out = new Map<number, Float32Array>();
      // Raw rows, and each vector a view of its Buffer (better-sqlite3 copies every BLOB into a Buffer
      // of its own): ~35% cheaper than row objects and a second copy (current over stale reads these per recall).
      for (const [seq, blob] of this.store
        .stmt('SELECT seq, embedding FROM memories WHERE embedding_model = ? AND embedding IS NOT NULL AND seq IN (SELECT value FROM json_each(?)) /* raw */')
        .raw()
        .all(model, JSON.stringify(seqs)) as [number, Buffer][])
        out.set(seq, blobView(blob));
      return out;
    });
  }

  async contentsOf(seqs: number[]): Promise<Map<number, string>> {
    return this.read(
      'rank by lifecycle',
      () =>
        new Map(
          this.store.stmt('SELECT seq, content FROM memories WHERE seq IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(seqs)) as [
            number,
            string,
          ][],
        ),
    );
  }

  async historyRow(id: string): Promise<HistoryRow | undefined> {
    return this.read(
      'read the history',
      () => this.store.stmt('SELECT id, namespace, created_at FROM memories WHERE id = ?').get(id) as HistoryRow | undefined,
    );
  }

  async predecessors(id: string): Promise<HistoryRow[]> {
    return this.read(
      'read the history',
      () => this.store.stmt('SELECT id, namespace, created_at FROM memories WHERE superseded_by = ? ORDER BY seq').all(id) as HistoryRow[],
    );
  }

  async versions(id: string): Promise<{ version: number; replaced_at: string }[]> {
    return this.read(
      'read the history',
      () =>
        this.store.stmt('SELECT version, replaced_at FROM memory_history WHERE memory_id = ? ORDER BY version').all(id) as {
          version: number;
          replaced_at: string;
        }[],
    );
  }

  async versionTexts(versions: number[]): Promise<Map<number, HistoryText>> {
    return this.read('read the history', () => {
      const rows = this.store
        .stmt('SELECT version, content, category, metadata FROM memory_history WHERE version IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(versions)) as (HistoryText & { version: number })[];
      return new Map(rows.map(({ version, ...t }) => [version, t]));
    });
  }

  async memoryTexts(ids: string[]): Promise<Map<string, HistoryText>> {
    return this.read('read the history', () => {
      const rows = this.store
        .stmt('SELECT id, content, category, metadata FROM memories WHERE id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(ids)) as (HistoryText & { id: string })[];
      return new Map(rows.map(({ id, ...t }) => [id, t]));
    });
  }

  // ---- file ----------------------------------------------------------------------------

  async backup(dest: string): Promise<void> {
    // Create the destination ourselves, exclusively and without following a symlink: a dangling
    // link at `dest` would otherwise make SQLite create the link's target somewhere else.
    let fd: number;
    try {
      fd = openSync(dest, fsc.O_CREAT | fsc.O_EXCL | fsc.O_WRONLY | fsc.O_NOFOLLOW, 0o666);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ELOOP')
        throw invalid(`${dest} already exists (as a file or a link). Choose a new path; backups never overwrite or follow links.`);
      throw invalid(`Cannot create the backup file ${dest} (${code ?? 'error'}). Check the path and permissions.`);
    }
    closeSync(fd);
    try {
      await this.store.backup(dest);
    } catch (err) {
      rmSync(dest, { force: true });
      throw err;
    }
  }

  async close(): Promise<void> {
    // The next process reads common terms' postings from the file (src/search/kept-postings.ts).
    if (this.store.db.open) this.index.keepPostings(this.written);
    this.index.dispose();
    this.store.close();
  }
}
