import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EmbeddingService, contentHash } from './embed/cache.js';
import { resolveEmbedder } from './embed/index.js';
import type { Embedder } from './embed/provider.js';
import { MnemoliteError, invalid } from './errors.js';
import { uuidv7 } from './ids.js';
import { addConversation, type ConversationMemory, type ConversationOptions, type ConversationTurn } from './ingest/conversation.js';
import { ADAPTIVE_DEFAULTS, fuse, type FusedHit } from './search/fusion.js';
import { CHANGES_KEPT, VectorLeg } from './search/vector-leg.js';
import { blobToVector, vectorToBlob } from './search/vector-index.js';
import type { MemoryRow, RowFilter } from './store/rows.js';
import { Store } from './store/store.js';
import { NearDuplicates, type NearCandidate } from './lifecycle/dedup.js';
import { memoryHistory } from './lifecycle/history.js';
import { DEFAULT_DEDUP_THRESHOLD, parseOpenDedup } from './lifecycle/options.js';
import { prune as pruneExpired } from './lifecycle/prune.js';
import { lifecycleRank } from './lifecycle/rank.js';
import { isExpired, withLifecycle } from './lifecycle/record.js';
import type { MemoryVersion, NearDuplicateMode, PruneOptions, PruneResult } from './lifecycle/types.js';
import { setLifecycle, updateLifecycle, writeMemory, type NearContext } from './lifecycle/write.js';
import type {
  AddInput, AddOptions, AddResult, Filter, ListOptions, MemoryRecord, OpenOptions, RecallHit, RecallOptions, Stats, UpdateInput,
} from './types.js';
import {
  ALL_NAMESPACES, DEFAULT_NAMESPACE, checkContent, checkId, checkQuery, parseAdd, parseList, parseRecall, parseScope, parseUpdate, toRowFilter,
  type ParsedAdd,
} from './validate.js';

/** One line of an export (JSON Lines): everything needed for a lossless round trip. */
export interface ExportRecord {
  id: string;
  content: string;
  key: string | null;
  namespace: string;
  category: string | null;
  sessionId: string | null;
  metadata: Record<string, unknown>;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  /** Present when exported with `vectors: true`. */
  embedding?: number[];
  /** Model that made `embedding`. */
  embeddingModel?: string;
  /** Lifecycle fields (ISO 8601 dates), present only when set. */
  expiresAt?: string;
  pinned?: true;
  importance?: number;
  supersededBy?: string;
}

/** Options for {@link Memory.export}. */
export interface ExportOptions extends Filter {
  /** Include vectors (default false: they are re-made on import). */
  vectors?: boolean;
  /** Include expired memories not yet pruned (default true: an export is a backup). */
  includeExpired?: boolean;
}

/** Options for {@link Memory.import}. */
export interface ImportOptions {
  /** What to do when a record's id (or namespace+key) already exists: `skip` (default) or `replace`. */
  onConflict?: 'skip' | 'replace';
  /** Records per transaction (default 500). All records are validated before the first is written. */
  batchSize?: number;
  /** Called after each batch. */
  onProgress?: (done: number) => void;
}

/** Result of {@link Memory.import}. */
export interface ImportResult {
  imported: number;
  replaced: number;
  skipped: number;
}

/** Options for {@link Memory.reindex}. */
export interface ReindexOptions {
  /** Memories per batch (default 64); each batch commits, so an interrupted reindex resumes. */
  batchSize?: number;
  /** Called after each batch with (done, total). */
  onProgress?: (done: number, total: number) => void;
}

const MAX_CANDIDATES = 1000;

/** The metadata column as an object; text that is not JSON means the file is damaged. */
function storedMetadata(r: { id: string; metadata: string }): Record<string, unknown> {
  try {
    return JSON.parse(r.metadata) as Record<string, unknown>;
  } catch {
    throw new MnemoliteError('NOT_A_DATABASE', `The metadata of memory ${r.id} is not valid JSON, so the file is damaged. Restore it from a backup.`);
  }
}

function toRecord(r: MemoryRow): MemoryRecord {
  return withLifecycle({
    id: r.id,
    content: r.content,
    key: r.key,
    namespace: r.namespace,
    category: r.category,
    sessionId: r.session_id,
    metadata: storedMetadata(r),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  }, r);
}

/**
 * Long-term memory in one SQLite file. Create with {@link openMemory}.
 *
 * Writes are transactional; recall runs a keyword leg (FTS5 BM25) and a vector leg
 * (cosine over stored embeddings) and fuses them with Reciprocal Rank Fusion.
 */
export class Memory {
  /** Absolute path of the file (or `:memory:`). */
  readonly path: string;
  /** The embedder in use, or `null` when semantic recall is off. */
  readonly embedder: Embedder | null;
  /** Whether the file was opened read-only. */
  readonly readonly: boolean;
  private readonly store: Store;
  private readonly embeddings: EmbeddingService | null;
  private readonly vectors: VectorLeg;
  private readonly semanticOff: string | undefined;
  private writes = 0;
  private closed = false;
  private readonly dedupDefaults: { nearDuplicates?: NearDuplicateMode; dedupThreshold?: number };

  /** @internal Use {@link openMemory}. */
  constructor(store: Store, embedder: Embedder | null, readonly: boolean, semanticOff?: string, dedup: { nearDuplicates?: NearDuplicateMode; dedupThreshold?: number } = {}) {
    this.store = store;
    this.dedupDefaults = dedup;
    this.path = store.path;
    this.embedder = embedder;
    this.readonly = readonly;
    this.semanticOff = semanticOff;
    this.embeddings = embedder ? new EmbeddingService(embedder, store, !readonly) : null;
    // The search index serves both legs; without an embedder it holds keywords only.
    this.vectors = new VectorLeg(store, embedder?.id ?? null, embedder?.dims ?? 0);
  }

  private live(): void {
    if (this.closed) throw new MnemoliteError('CLOSED', 'This Memory is closed. Open it again with openMemory().');
  }

  private writable(): void {
    this.live();
    if (this.readonly) throw new MnemoliteError('READ_ONLY', `${this.path} was opened read-only. Open it without readonly to write.`);
  }

  private afterWrite(n = 1): void {
    this.vectors?.markDirty();
    this.writes += n;
    if (this.writes >= 1000) {
      this.writes = 0;
      try {
        this.store.write('trim the change log', () => this.store.pruneChanges(CHANGES_KEPT));
      } catch {
        // Housekeeping only: the caller's write is already committed, so it must not be reported
        // as failed (a retry would write it twice). A busy file just postpones the trim.
      }
    }
  }

  /** Whether recall can use vectors. */
  get semantic(): boolean {
    return this.embedder !== null;
  }

  // ---- writes ----------------------------------------------------------------

  /**
   * Remember one text. With a `key` already used in the namespace, the memory is replaced
   * (same id and createdAt).
   */
  async add(content: string, options: AddOptions = {}): Promise<AddResult> {
    const [r] = await this.addMany([{ ...(options ?? {}), content }]);
    return r!;
  }

  /** Remember many texts in one transaction, embedding them in batches. All or nothing. */
  async addMany(items: AddInput[]): Promise<AddResult[]> {
    this.writable();
    if (!Array.isArray(items)) throw invalid('addMany expects an array of { content, ...options }.');
    const parsed = items.map((it, i) => {
      if (it === null || typeof it !== 'object') throw invalid(`addMany: item ${i} must be an object with a content string.`);
      const { content, ...opts } = it;
      return { content: checkContent(content, items.length > 1 ? `item ${i} content` : 'content'), opts: parseAdd(opts) };
    });
    const hashes = parsed.map((p) => contentHash(p.content));
    const vecs = this.embeddings ? await this.embeddings.embedMany(parsed.map((p, i) => ({ text: p.content, hash: hashes[i]! }))) : null;
    this.live();
    const model = this.embedder?.id ?? null;
    const near = this.nearContexts(parsed.map((p) => p.opts), vecs);
    const results = this.store.write('add memories', () =>
      parsed.map((p, i) => this.writeOne(p.content, p.opts, hashes[i]!, vecs ? vectorToBlob(vecs[i]!) : null, model, near[i])),
    );
    this.afterWrite(results.length);
    return results;
  }

  /**
   * Remember a conversation: one memory per turn, content prefixed by the speaker ("Caroline: ..."),
   * metadata `{ speaker, turn }`, `createdAt` from each turn's `at`; very short turns ("ok",
   * "haha yes") are merged into a neighbour. One transaction, embeddings batched.
   */
  async addConversation(turns: ConversationTurn[], options: ConversationOptions = {}): Promise<ConversationMemory[]> {
    this.writable();
    return addConversation(this, turns, options);
  }

  /** Near-duplicate candidates per item (src/lifecycle/dedup.ts), searched before the write transaction. */
  private nearContexts(opts: ParsedAdd[], vecs: Float32Array[] | null): (NearContext | undefined)[] {
    const finder = new NearDuplicates(this.store);
    return opts.map((o, i) => {
      const mode = o.nearDuplicates ?? this.dedupDefaults.nearDuplicates ?? 'off';
      if (mode === 'off' || !vecs || o.force || o.key !== undefined) return undefined;
      const threshold = o.dedupThreshold ?? this.dedupDefaults.dedupThreshold ?? DEFAULT_DEDUP_THRESHOLD;
      const f = toRowFilter({ namespace: o.namespace ?? DEFAULT_NAMESPACE });
      const candidates: NearCandidate[] = this.vectors.search(vecs[i]!, 5, f).map((h) => ({ seq: h.seq, similarity: h.score }));
      return { finder, candidates, vec: vecs[i]!, mode, threshold };
    });
  }

  private writeOne(content: string, o: ParsedAdd, hash: string, embedding: Buffer | null, model: string | null, near?: NearContext): AddResult {
    const namespace = o.namespace ?? DEFAULT_NAMESPACE;
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
    };
    const existing = o.key !== undefined ? this.store.getByKey(namespace, o.key) : undefined;
    // Upsert, dedup (exact / near), merge or insert, with expiry, pinning, importance, supersession.
    return writeMemory(this.store, { row, opts: o, existing, nowIso: now, near, newId: uuidv7 });
  }

  /** Change a memory. Content changes are re-embedded. Throws `NOT_FOUND` if the id is unknown (in the scope). */
  async update(id: string, input: UpdateInput, scope: { namespace?: string } = {}): Promise<MemoryRecord> {
    this.writable();
    checkId(id);
    const u = parseUpdate(input);
    const ns = parseScope(scope).namespace;
    const content = u.content !== undefined ? checkContent(u.content) : undefined;
    const current = this.findRow(id, ns);
    const hash = content !== undefined ? contentHash(content) : current.content_hash;
    let embedding: Buffer | null | undefined;
    if (content !== undefined && this.embeddings && hash !== current.content_hash) {
      const [v] = await this.embeddings.embedMany([{ text: content, hash }]);
      embedding = vectorToBlob(v!);
    }
    this.live();
    const row = this.store.write('update a memory', () => {
      const cur = this.store.getById(id);
      if (!cur || (ns !== undefined && ns !== ALL_NAMESPACES && cur.namespace !== ns)) throw this.notFound(id);
      const key = u.key === undefined ? cur.key : u.key;
      if (key !== null && key !== cur.key) {
        const other = this.store.getByKey(cur.namespace, key);
        if (other && other.seq !== cur.seq) throw invalid(`The key "${key}" is already used by memory ${other.id} in namespace "${cur.namespace}". Choose another key or forget that memory first.`);
      }
      const keepVector = embedding === undefined;
      const old = keepVector ? this.store.vectorsBySeqs([cur.seq]).get(cur.seq) ?? null : null;
      this.store.replace(cur.seq, {
        namespace: cur.namespace,
        key,
        content: content ?? cur.content,
        category: u.category === undefined ? cur.category : u.category,
        session_id: u.sessionId === undefined ? cur.session_id : u.sessionId,
        metadata: u.metadata ?? cur.metadata,
        updated_at: new Date().toISOString(),
        content_hash: hash,
        embedding: keepVector ? (content !== undefined && hash !== cur.content_hash ? null : old) : embedding!,
        embedding_model: keepVector ? (content !== undefined && hash !== cur.content_hash ? null : cur.embedding_model) : this.embedder!.id,
      });
      updateLifecycle(this.store, cur.seq, u, new Date().toISOString()); // expiresAt / ttl / pinned / importance
      return this.store.getById(id)!;
    });
    this.afterWrite();
    return toRecord(row);
  }

  /** Delete a memory. Returns `false` when no such memory exists (in the scope). */
  async forget(id: string, scope: { namespace?: string } = {}): Promise<boolean> {
    this.writable();
    checkId(id);
    const ns = parseScope(scope).namespace;
    const gone = this.store.write('forget a memory', () => {
      const row = this.store.getById(id);
      if (!row || (ns !== undefined && ns !== ALL_NAMESPACES && row.namespace !== ns)) return false;
      return this.store.deleteBySeq(row.seq);
    });
    if (gone) this.afterWrite();
    return gone;
  }

  // ---- reads -------------------------------------------------------------------

  private notFound(id: string): MnemoliteError {
    return new MnemoliteError('NOT_FOUND', `No memory with id ${id}. List ids with mnemolite list.`, { id });
  }

  private findRow(id: string, ns: string | undefined): MemoryRow {
    const row = this.store.read('read a memory', () => this.store.getById(id));
    if (!row || (ns !== undefined && ns !== ALL_NAMESPACES && row.namespace !== ns)) throw this.notFound(id);
    return row;
  }

  /** One memory by id, or `null`. With `namespace`, memories of other namespaces are invisible. */
  async get(id: string, scope: { namespace?: string; includeExpired?: boolean } = {}): Promise<MemoryRecord | null> {
    this.live();
    checkId(id);
    const { includeExpired, ...rest } = scope ?? {};
    if (includeExpired !== undefined && typeof includeExpired !== 'boolean') throw invalid('options: includeExpired must be true or false.');
    const ns = parseScope(rest).namespace;
    const row = this.store.read('read a memory', () => this.store.getById(id));
    if (!row || (ns !== undefined && ns !== ALL_NAMESPACES && row.namespace !== ns)) return null;
    if (!includeExpired && isExpired(row, new Date().toISOString())) return null;
    return toRecord(row);
  }

  /** Memories matching filters, newest first by default. Namespace defaults to `"default"`; `"*"` lists all. */
  async list(options: ListOptions = {}): Promise<MemoryRecord[]> {
    this.live();
    const o = parseList(options);
    const f = toRowFilter(o);
    return this.store.read('list memories', () => this.store.list(f, o.limit ?? 100, o.offset ?? 0, o.order ?? 'desc')).map(toRecord);
  }

  /** Count memories matching filters. */
  async count(options: Filter & { includeExpired?: boolean } = {}): Promise<number> {
    this.live();
    const f = toRowFilter(parseList(options));
    return this.store.read('count memories', () => this.store.count(f));
  }

  /**
   * Find memories relevant to a query. Hybrid mode (the default with an embedder) runs the
   * keyword and vector legs with the same filters and fuses them (query-adaptive convex
   * combination by default; RRF with `fusion: 'rrf'`); every hit says which rank it had in each leg.
   */
  async recall(query: string, options: RecallOptions = {}): Promise<RecallHit[]> {
    this.live();
    const q = checkQuery(query);
    const o = parseRecall(options);
    const f = toRowFilter(o);
    const mode = o.mode ?? (this.embedder ? 'hybrid' : 'keyword');
    if (mode !== 'keyword' && !this.embeddings) {
      throw new MnemoliteError('SEMANTIC_DISABLED', `Semantic recall is off (${this.semanticOff ?? 'no embedder'}), so mode "${mode}" cannot run. Use mode "keyword", or open with an embedder.`);
    }
    const limit = o.limit ?? 10;
    const depth = Math.min(MAX_CANDIDATES, Math.max(o.candidates ?? Math.max(50, limit * 3), limit));
    const signals = { keywordIdfMass: 0 };
    const kw = mode === 'vector' ? [] : this.keywordLeg(q, f, depth, signals);
    const vec = mode === 'keyword' ? [] : this.vectors.search(await this.embeddings!.embedQuery(q), depth, f, { exact: o.exact === true });
    this.live();
    let fused: FusedHit[];
    if (mode === 'keyword') fused = kw.map((h, i) => ({ seq: h.seq, score: -h.bm25, keywordRank: i + 1 }));
    else if (mode === 'vector') fused = vec.map((h, i) => ({ seq: h.seq, score: h.score, vectorRank: i + 1 }));
    else {
      fused = fuse(kw.map((h) => ({ seq: h.seq, score: -h.bm25 })), vec, {
        method: o.fusion ?? 'adaptive',
        weights: { keyword: o.weights?.keyword ?? 1, vector: o.weights?.vector ?? 1 },
        rrfK: o.rrfK ?? 60,
        adaptive: ADAPTIVE_DEFAULTS,
        signals,
      });
    }
    // Supersession, and opt-in importance / recency / MMR (src/lifecycle/rank.ts).
    fused = this.store.read('rank by lifecycle', () => lifecycleRank(this.store, fused, o, this.embedder?.id ?? null, limit));
    const top = fused.slice(0, limit);
    const rows = this.store.read('read recalled memories', () => this.store.getBySeqs(top.map((h) => h.seq)));
    const hits: RecallHit[] = [];
    for (const h of top) {
      const r = rows.get(h.seq);
      if (!r) continue; // deleted between legs and fetch
      const hit: RecallHit = { ...toRecord(r), score: h.score };
      if (h.keywordRank !== undefined) hit.keywordRank = h.keywordRank;
      if (h.vectorRank !== undefined) hit.vectorRank = h.vectorRank;
      hits.push(hit);
    }
    return hits;
  }

  private keywordLeg(q: string, f: RowFilter, depth: number, signals?: { keywordIdfMass: number }): { seq: number; bm25: number }[] {
    const stats = { idfMass: 0 };
    const hits = this.vectors.keyword(q, depth, f, stats);
    if (signals) signals.keywordIdfMass = stats.idfMass;
    return hits;
  }

  /** Counts, embedding identity and file size. `namespace` narrows the counts (default: all namespaces). */
  async stats(scope: { namespace?: string } = {}): Promise<Stats> {
    this.live();
    const ns = parseScope(scope).namespace ?? ALL_NAMESPACES;
    const f = toRowFilter({ namespace: ns });
    return this.store.read('compute stats', () => {
      const memories = this.store.count(f);
      const embedded = this.embedder ? this.store.countEmbedded(f, this.embedder.id) : 0;
      const s: Stats = {
        path: this.path,
        memories,
        namespaces: this.store.countByNamespace(f),
        embedded,
        unembedded: memories - embedded,
        semantic: this.embedder !== null,
        embedding: this.store.getEmbeddingIdentity(),
        cacheEntries: this.store.cacheEntries(),
        fileBytes: this.store.fileBytes(),
        schemaVersion: this.store.schemaVersion(),
        expired: this.store.count({ ...f, activeAt: undefined }) - memories,
      };
      if (!this.embedder) s.semanticReason = this.semanticOff ?? 'no embedder configured';
      return s;
    });
  }

  // ---- lifecycle (src/lifecycle/) -------------------------------------------------

  /**
   * Versions of a memory, oldest first; the last is its current content. Content changes (by
   * `update` or a key upsert) keep the previous text here, and memories it superseded (`supersedes`)
   * contribute theirs. Empty when the memory does not exist (in the scope). `forget` deletes history.
   */
  async history(id: string, scope: { namespace?: string } = {}): Promise<MemoryVersion[]> {
    this.live();
    checkId(id);
    const ns = parseScope(scope).namespace;
    return this.store.read('read the history', () => {
      const row = this.store.getById(id);
      if (!row || (ns !== undefined && ns !== ALL_NAMESPACES && row.namespace !== ns)) return [];
      return memoryHistory(this.store, id);
    });
  }

  /**
   * Delete expired memories (pinned ones never) with their history, and reclaim the space:
   * incremental vacuum on files created by this version; see {@link PruneOptions.vacuum} for older files.
   */
  async prune(options: PruneOptions = {}): Promise<PruneResult> {
    this.writable();
    if (options === null || typeof options !== 'object') throw invalid('prune options must be an object.');
    const { namespace, dryRun, vacuum, ...rest } = options;
    if (Object.keys(rest).length) throw invalid(`prune options has unknown option(s): ${Object.keys(rest).join(', ')}. Check the spelling.`);
    if (vacuum !== undefined && vacuum !== 'auto' && vacuum !== 'full' && vacuum !== 'none') throw invalid('prune: vacuum must be "auto", "full" or "none".');
    if (dryRun !== undefined && typeof dryRun !== 'boolean') throw invalid('prune: dryRun must be true or false.');
    const ns = parseScope(namespace !== undefined ? { namespace } : {}).namespace;
    const res = pruneExpired(this.store, {
      ...(ns !== undefined && ns !== ALL_NAMESPACES ? { namespace: ns } : {}),
      ...(dryRun ? { dryRun } : {}),
      ...(vacuum ? { vacuum } : {}),
    }, new Date().toISOString());
    if (res.deleted && !res.dryRun) this.afterWrite(res.deleted);
    return res;
  }

  // ---- whole-file operations ------------------------------------------------------

  /** Stream memories as plain records (for JSON Lines). Namespace defaults to `"*"` (all). */
  *export(options: ExportOptions = {}): IterableIterator<ExportRecord> {
    this.live();
    const { vectors, ...filter } = options ?? {};
    const f = toRowFilter(parseList({ namespace: ALL_NAMESPACES, includeExpired: true, ...filter }));
    for (const r of this.store.iterate(f)) {
      const rec: ExportRecord = {
        id: r.id, content: r.content, key: r.key, namespace: r.namespace, category: r.category, sessionId: r.session_id,
        metadata: storedMetadata(r), createdAt: r.created_at, updatedAt: r.updated_at,
      };
      if (r.expires_at) rec.expiresAt = r.expires_at;
      if (r.pinned) rec.pinned = true;
      if (r.importance !== null && r.importance !== undefined) rec.importance = r.importance;
      if (r.superseded_by) rec.supersededBy = r.superseded_by;
      if (vectors && r.embedding && r.embedding_model) {
        rec.embedding = Array.from(blobToVector(r.embedding));
        rec.embeddingModel = r.embedding_model;
      }
      yield rec;
    }
  }

  /**
   * Import records from {@link Memory.export} (any iterable, e.g. parsed JSON Lines), keeping ids
   * and timestamps. Vectors are reused when they come from the current model, else re-embedded.
   */
  async import(records: Iterable<unknown> | AsyncIterable<unknown>, options: ImportOptions = {}): Promise<ImportResult> {
    this.writable();
    if (options.batchSize !== undefined && !(Number.isInteger(options.batchSize) && options.batchSize >= 1)) throw invalid('batchSize must be a whole number, 1 or more.');
    const batchSize = Math.max(1, Math.min(10_000, options.batchSize ?? 500));
    const onConflict = options.onConflict ?? 'skip';
    if (onConflict !== 'skip' && onConflict !== 'replace') throw invalid('onConflict must be "skip" or "replace".');
    const it = records as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown } | null;
    if (it === null || typeof it !== 'object' || (typeof it[Symbol.iterator] !== 'function' && typeof it[Symbol.asyncIterator] !== 'function')) {
      throw invalid('import expects an array or other iterable of records, e.g. the output of export() or parsed JSON Lines.');
    }
    const res: ImportResult = { imported: 0, replaced: 0, skipped: 0 };
    // Validate everything before writing anything: a bad record on line 10,000 must not leave a half import.
    const all: ExportRecord[] = [];
    let line = 0;
    for await (const rec of records as AsyncIterable<unknown>) all.push(this.checkRecord(rec, ++line));
    // Embed everything before writing anything, too: a model failure on record 10,000 must not leave a half import.
    const blobs = await this.importVectors(all);
    for (let i = 0; i < all.length; i += batchSize) {
      await this.importBatch(all.slice(i, i + batchSize), blobs.slice(i, i + batchSize), onConflict, res);
      options.onProgress?.(res.imported + res.replaced + res.skipped);
    }
    return res;
  }

  private checkRecord(rec: unknown, line: number): ExportRecord {
    const at = `import record ${line}`;
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) throw invalid(`${at} is not an object.`);
    const r = rec as Record<string, unknown>;
    const out: ExportRecord = {
      id: r.id === undefined ? uuidv7() : checkId(r.id),
      content: checkContent(r.content, `${at} content`),
      key: null, namespace: DEFAULT_NAMESPACE, category: null, sessionId: null, metadata: {}, createdAt: '', updatedAt: '',
    };
    let o: ParsedAdd;
    try {
      o = parseAdd({
        ...(r.namespace != null ? { namespace: r.namespace } : {}),
        ...(r.key != null ? { key: r.key } : {}),
        ...(r.category != null ? { category: r.category } : {}),
        ...(r.sessionId != null ? { sessionId: r.sessionId } : {}),
        ...(r.metadata != null ? { metadata: r.metadata } : {}),
        ...(r.createdAt != null ? { createdAt: r.createdAt } : {}),
        ...(r.expiresAt != null ? { expiresAt: r.expiresAt } : {}),
        ...(r.pinned != null ? { pinned: r.pinned } : {}),
        ...(r.importance != null ? { importance: r.importance } : {}),
      });
      if (r.supersededBy != null) out.supersededBy = checkId(r.supersededBy);
    } catch (err) {
      throw invalid(`${at}: ${(err as Error).message}`);
    }
    if (o.expiresAt !== undefined) out.expiresAt = o.expiresAt;
    if (o.pinned) out.pinned = true;
    if (o.importance !== undefined) out.importance = o.importance;
    out.namespace = o.namespace ?? DEFAULT_NAMESPACE;
    out.key = o.key ?? null;
    out.category = o.category ?? null;
    out.sessionId = o.sessionId ?? null;
    out.metadata = JSON.parse(o.metadata ?? '{}') as Record<string, unknown>;
    const now = new Date().toISOString();
    out.createdAt = o.createdAt ?? now;
    out.updatedAt = r.updatedAt != null ? parseAdd({ createdAt: r.updatedAt }).createdAt! : out.createdAt;
    if (Array.isArray(r.embedding) && typeof r.embeddingModel === 'string') {
      out.embedding = r.embedding as number[];
      out.embeddingModel = r.embeddingModel;
    }
    return out;
  }

  /** Vectors for import records: their own when they come from the current model, else embedded. */
  private async importVectors(batch: ExportRecord[]): Promise<(Buffer | null)[]> {
    const model = this.embedder?.id ?? null;
    const hashes = batch.map((r) => contentHash(r.content));
    const blobs: (Buffer | null)[] = batch.map(() => null);
    if (this.embeddings) {
      const need: number[] = [];
      batch.forEach((r, i) => {
        if (r.embedding && r.embeddingModel === model && r.embedding.length === this.embedder!.dims && r.embedding.every(Number.isFinite)) {
          blobs[i] = vectorToBlob(Float32Array.from(r.embedding));
        } else need.push(i);
      });
      if (need.length) {
        const vecs = await this.embeddings.embedMany(need.map((i) => ({ text: batch[i]!.content, hash: hashes[i]! })));
        need.forEach((i, k) => { blobs[i] = vectorToBlob(vecs[k]!); });
      }
    }
    return blobs;
  }

  private async importBatch(batch: ExportRecord[], blobs: (Buffer | null)[], onConflict: 'skip' | 'replace', res: ImportResult): Promise<void> {
    const model = this.embedder?.id ?? null;
    const hashes = batch.map((r) => contentHash(r.content));
    this.live();
    this.store.write('import memories', () => {
      batch.forEach((r, i) => {
        const row = {
          namespace: r.namespace, key: r.key, content: r.content, category: r.category, session_id: r.sessionId,
          metadata: JSON.stringify(r.metadata), updated_at: r.updatedAt, content_hash: hashes[i]!,
          embedding: blobs[i]!, embedding_model: blobs[i] ? model : null,
        };
        const life = { expires_at: r.expiresAt ?? null, pinned: r.pinned ? 1 : 0, importance: r.importance ?? null, superseded_by: r.supersededBy ?? null };
        const byId = this.store.getById(r.id);
        const byKey = r.key !== null ? this.store.getByKey(r.namespace, r.key) : undefined;
        const existing = byId ?? byKey;
        if (existing) {
          if (onConflict === 'skip') { res.skipped++; return; }
          if (byId && byKey && byId.seq !== byKey.seq) this.store.deleteBySeq(byKey.seq);
          this.store.replace(existing.seq, row);
          setLifecycle(this.store, existing.seq, life);
          res.replaced++;
          return;
        }
        this.store.insert({ ...row, ...life, id: r.id, created_at: r.createdAt });
        res.imported++;
      });
    });
    this.afterWrite(batch.length);
  }

  /**
   * Write a consistent copy of the file to `dest` with SQLite's online backup API
   * (safe while other processes write). Refuses to overwrite an existing file.
   */
  async backup(dest: string): Promise<void> {
    this.live();
    if (typeof dest !== 'string' || !dest.trim()) throw invalid('backup needs a destination file path.');
    // better-sqlite3 trims the name and C cuts it at a NUL: either would let the backup land on (and overwrite or delete) another file.
    if (dest !== dest.trim() || /[\u0000-\u001f\u007f]/.test(dest)) throw invalid('The backup destination must not start or end with spaces or contain control characters. Choose a plain file path.');
    if (!existsSync(dirname(resolve(dest)))) throw invalid(`The directory of ${dest} does not exist. Create it first or choose another path.`);
    if (this.path !== ':memory:' && resolve(dest) === resolve(this.path)) throw invalid('The backup destination is the database itself. Choose another path.');
    if (existsSync(dest)) throw invalid(`${dest} already exists. Choose a new path; backups never overwrite files.`);
    await this.store.backup(dest);
  }

  /**
   * Embed every memory that has no vector from the current embedder (after switching models,
   * or for memories added with `embedder: 'none'`). Commits per batch, so it can be interrupted
   * and resumed.
   */
  async reindex(options: ReindexOptions = {}): Promise<{ embedded: number; total: number }> {
    this.writable();
    if (!this.embeddings || !this.embedder) {
      throw new MnemoliteError('SEMANTIC_DISABLED', 'reindex needs an embedder; open the file with embedder "local" or another provider.');
    }
    if (options.batchSize !== undefined && !(Number.isInteger(options.batchSize) && options.batchSize >= 1)) throw invalid('batchSize must be a whole number, 1 or more.');
    const batchSize = Math.max(1, Math.min(1000, options.batchSize ?? 64));
    const model = this.embedder.id;
    const total = this.store.read('count memories', () => this.store.count({}) - this.store.countEmbedded({}, model));
    let done = 0;
    let after = 0;
    options.onProgress?.(0, total);
    for (;;) {
      const rows = this.store.read('read memories to embed', () => this.store.rowsNeedingEmbedding(model, after, batchSize));
      if (!rows.length) break;
      const vecs = await this.embeddings.embedMany(rows.map((r) => ({ text: r.content, hash: r.content_hash })));
      this.live();
      this.store.write('store new vectors', () => {
        rows.forEach((r, i) => this.store.setEmbedding(r.seq, vectorToBlob(vecs[i]!), model));
      });
      this.afterWrite(rows.length);
      after = rows[rows.length - 1]!.seq;
      done += rows.length;
      options.onProgress?.(Math.min(done, total), total);
    }
    return { embedded: done, total };
  }

  /** Close the file (and the embedder). Further calls throw `CLOSED`. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.store.close();
    await this.embedder?.close?.();
  }
}

/**
 * Open (or create) a memory file.
 *
 * @example
 * const mem = await openMemory({ path: 'memory.db' });
 * await mem.add('We deploy on a Raspberry Pi 4', { key: 'deploy-target' });
 * const hits = await mem.recall('ARM hardware');
 */
export async function openMemory(options: OpenOptions = {}): Promise<Memory> {
  if (options === null || typeof options !== 'object') throw invalid('openMemory expects an options object.');
  const path = options.path ?? 'memory.db';
  if (typeof path !== 'string' || !path.trim() || path.includes('\u0000')) throw invalid('path must be a file path such as "memory.db".');
  if (options.busyTimeoutMs !== undefined && !(Number.isFinite(options.busyTimeoutMs) && options.busyTimeoutMs >= 0)) {
    throw invalid('busyTimeoutMs must be a number of milliseconds, 0 or more (default 5000).');
  }
  const embedder = resolveEmbedder(options.embedder);
  const readonly = !!options.readonly;
  const store = new Store(path, { readonly, ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}) });
  try {
    const recorded = store.read('read the embedding model', () => store.getEmbeddingIdentity());
    if (embedder) {
      const mine = { provider: embedder.provider, model: embedder.id, dims: embedder.dims };
      if (recorded && (recorded.model !== mine.model || recorded.dims !== mine.dims)) {
        if (!options.allowModelChange) {
          throw new MnemoliteError(
            'EMBEDDING_MISMATCH',
            `${path} holds vectors from ${recorded.provider} model "${recorded.model}" (${recorded.dims} dims), but it was opened with "${mine.model}" (${mine.dims} dims). ` +
              `Open it with the same embedder, or switch the file to the new one with: mnemolite reindex --db ${path}`,
            { recorded, requested: mine },
          );
        }
        if (readonly) throw new MnemoliteError('READ_ONLY', 'Switching the embedding model needs a writable file.');
      }
      if (!readonly && (!recorded || recorded.model !== mine.model || recorded.dims !== mine.dims || recorded.provider !== mine.provider)) {
        store.write('record the embedding model', () => store.setEmbeddingIdentity(mine));
      }
    }
    const off = embedder ? undefined : options.embedder === 'none' ? "embedder 'none' was chosen: keyword recall only" : 'no embedder';
    const dedup = parseOpenDedup(options);
    return new Memory(store, embedder, readonly, off, dedup);
  } catch (err) {
    store.close();
    throw err;
  }
}
