import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EmbeddingService, contentHash } from './embed/cache.js';
import { resolveEmbedder } from './embed/index.js';
import type { Embedder } from './embed/provider.js';
import { MnemoliteError, invalid } from './errors.js';
import { uuidv7 } from './ids.js';
import { addConversation, type ConversationMemory, type ConversationOptions, type ConversationTurn } from './ingest/conversation.js';
import { evidenceFor, relevanceOf } from './search/relevance.js';
import { applyPreferences } from './recall/prefer.js';
import { resolveAutoSupersede } from './lifecycle/auto-supersede.js';
import { buildContext, type ContextOptions, type ContextResult } from './context-block.js';
import { ADAPTIVE_DEFAULTS, fuse, type FusedHit } from './search/fusion.js';
import type { MemoryRow } from './store/rows.js';
import { SqliteBackend } from './backend/sqlite.js';
import { inScope, notFound } from './backend/scope.js';
import type { Backend, DedupDefaults, ExportRow, ImportItem } from './backend/types.js';
import { memoryHistory } from './lifecycle/history.js';
import { parseOpenDedup } from './lifecycle/options.js';
import { lifecycleRank } from './lifecycle/rank.js';
import { isExpired, withLifecycle } from './lifecycle/record.js';
import type { MemoryVersion, PruneOptions, PruneResult } from './lifecycle/types.js';
import { isPostgresUrl } from './pg/url.js';
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

const TEXT_COLUMNS = ['id', 'namespace', 'content', 'metadata', 'created_at', 'updated_at'] as const;
const OPTIONAL_TEXT_COLUMNS = ['key', 'category', 'session_id'] as const;

/**
 * The metadata column as an object. A row whose text columns are not text (a damaged page can
 * turn them into BLOBs or numbers), or whose metadata is not JSON, means the file is damaged.
 */
function storedMetadata(r: MemoryRow): Record<string, unknown> {
  const bad = TEXT_COLUMNS.find((c) => typeof r[c] !== 'string') ?? OPTIONAL_TEXT_COLUMNS.find((c) => r[c] !== null && typeof r[c] !== 'string');
  if (bad) throw new MnemoliteError('NOT_A_DATABASE', `The ${bad} of a memory (row ${r.seq}) is not text, so the store is damaged. Restore it from a backup.`);
  try {
    return JSON.parse(r.metadata) as Record<string, unknown>;
  } catch {
    throw new MnemoliteError('NOT_A_DATABASE', `The metadata of memory ${r.id} is not valid JSON, so the file is damaged. Restore it from a backup.`);
  }
}

/** What {@link Memory.export} returns: iterate with `for await` (any store) or `for` (the SQLite file). */
export interface MemoryExport extends AsyncIterable<ExportRecord>, Iterable<ExportRecord> {}

function exportRecord(r: ExportRow): ExportRecord {
  const rec: ExportRecord = {
    id: r.id, content: r.content, key: r.key, namespace: r.namespace, category: r.category, sessionId: r.session_id,
    metadata: storedMetadata(r), createdAt: r.created_at, updatedAt: r.updated_at,
  };
  if (r.expires_at) rec.expiresAt = r.expires_at;
  if (r.pinned) rec.pinned = true;
  if (r.importance !== null && r.importance !== undefined) rec.importance = r.importance;
  if (r.superseded_by) rec.supersededBy = r.superseded_by;
  if (r.vector && r.embedding_model) {
    rec.embedding = Array.from(r.vector);
    rec.embeddingModel = r.embedding_model;
  }
  return rec;
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
 * Long-term memory in one SQLite file, or in PostgreSQL. Create with {@link openMemory}.
 *
 * Writes are transactional; recall runs a keyword leg (BM25) and a vector leg (cosine over stored
 * embeddings) with the same filters and fuses them (query-adaptive by default, RRF on request).
 */
export class Memory {
  /** Absolute path of the file (or `:memory:`), or the PostgreSQL URL without its password. */
  readonly path: string;
  /** Where the memories are kept: `sqlite` (one file) or `postgres`. */
  readonly storage: 'sqlite' | 'postgres';
  /** The embedder in use, or `null` when semantic recall is off. */
  readonly embedder: Embedder | null;
  /** Whether the store was opened read-only. */
  readonly readonly: boolean;
  private readonly backend: Backend;
  private readonly embeddings: EmbeddingService | null;
  private readonly semanticOff: string | undefined;
  private closed = false;
  private readonly dedupDefaults: DedupDefaults;

  /** @internal Use {@link openMemory}. */
  constructor(backend: Backend, embedder: Embedder | null, readonly: boolean, semanticOff?: string, dedup: DedupDefaults = {}) {
    this.backend = backend;
    this.dedupDefaults = dedup;
    this.path = backend.location;
    this.storage = backend.kind;
    this.embedder = embedder;
    this.readonly = readonly;
    this.semanticOff = semanticOff;
    this.embeddings = embedder ? new EmbeddingService(embedder, backend, !readonly) : null;
  }

  private live(): void {
    if (this.closed) throw new MnemoliteError('CLOSED', 'This Memory is closed. Open it again with openMemory().');
  }

  private writable(): void {
    this.live();
    if (this.readonly) throw new MnemoliteError('READ_ONLY', `${this.path} was opened read-only. Open it without readonly to write.`);
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
    // supersede: 'auto' (issue 15): find the memory each such item updates before writing.
    const links = parsed.some((p) => p.opts.supersede === 'auto') ? await resolveAutoSupersede((q, o) => this.recall(q, o), parsed) : null;
    const hashes = parsed.map((p) => contentHash(p.content));
    const vecs = this.embeddings ? await this.embeddings.embedMany(parsed.map((p, i) => ({ text: p.content, hash: hashes[i]! }))) : null;
    this.live();
    const results = await this.backend.addMany(parsed.map((p, i) => ({ content: p.content, opts: p.opts, hash: hashes[i]!, vector: vecs ? vecs[i]! : null })), this.embedder?.id ?? null, this.dedupDefaults);
    if (links) for (const [i, id] of links) results[i]!.autoSuperseded = id;
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

  /** Change a memory. Content changes are re-embedded. Throws `NOT_FOUND` if the id is unknown (in the scope). */
  async update(id: string, input: UpdateInput, scope: { namespace?: string } = {}): Promise<MemoryRecord> {
    this.writable();
    checkId(id);
    const u = parseUpdate(input);
    const ns = parseScope(scope).namespace;
    const content = u.content !== undefined ? checkContent(u.content) : undefined;
    const current = await this.findRow(id, ns);
    const hash = content !== undefined ? contentHash(content) : current.content_hash;
    let vector: Float32Array | undefined;
    if (content !== undefined && this.embeddings && hash !== current.content_hash) {
      [vector] = await this.embeddings.embedMany([{ text: content, hash }]);
    }
    this.live();
    const row = await this.backend.update(id, ns, {
      u, ...(content !== undefined ? { content, hash } : {}), ...(vector ? { vector } : {}),
    }, this.embedder?.id ?? null);
    return toRecord(row);
  }

  /** Delete a memory. Returns `false` when no such memory exists (in the scope). */
  async forget(id: string, scope: { namespace?: string } = {}): Promise<boolean> {
    this.writable();
    checkId(id);
    const ns = parseScope(scope).namespace;
    return this.backend.forget(id, ns);
  }

  // ---- reads -------------------------------------------------------------------

  private async findRow(id: string, ns: string | undefined): Promise<MemoryRow> {
    const row = await this.backend.getById(id);
    if (!row || !inScope(row, ns)) throw notFound(id);
    return row;
  }

  /** One memory by id, or `null`. With `namespace`, memories of other namespaces are invisible. */
  async get(id: string, scope: { namespace?: string; includeExpired?: boolean } = {}): Promise<MemoryRecord | null> {
    this.live();
    checkId(id);
    const { includeExpired, ...rest } = scope ?? {};
    if (includeExpired !== undefined && typeof includeExpired !== 'boolean') throw invalid('options: includeExpired must be true or false.');
    const ns = parseScope(rest).namespace;
    const row = await this.backend.getById(id);
    this.live();
    if (!row || !inScope(row, ns)) return null;
    if (!includeExpired && isExpired(row, new Date().toISOString())) return null;
    return toRecord(row);
  }

  /** Memories matching filters, newest first by default. Namespace defaults to `"default"`; `"*"` lists all. */
  async list(options: ListOptions = {}): Promise<MemoryRecord[]> {
    this.live();
    const o = parseList(options);
    const f = toRowFilter(o);
    return (await this.backend.list(f, o.limit ?? 100, o.offset ?? 0, o.order ?? 'desc')).map(toRecord);
  }

  /** Count memories matching filters. */
  async count(options: Filter & { includeExpired?: boolean } = {}): Promise<number> {
    this.live();
    const f = toRowFilter(parseList(options));
    return this.backend.count(f);
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
    const qvec = mode === 'keyword' ? null : await this.embeddings!.embedQuery(q);
    this.live();
    const legs = await this.backend.legs({
      text: mode === 'vector' ? null : q, vector: qvec, model: this.embedder?.id ?? null, depth, filter: f, exact: o.exact === true,
    });
    const kw = legs.keyword;
    const vec = legs.vector;
    let fused: FusedHit[];
    if (mode === 'keyword') fused = kw.map((h, i) => ({ seq: h.seq, score: -h.bm25, keywordRank: i + 1 }));
    else if (mode === 'vector') fused = vec.map((h, i) => ({ seq: h.seq, score: h.score, vectorRank: i + 1 }));
    else {
      fused = fuse(kw.map((h) => ({ seq: h.seq, score: -h.bm25 })), vec, {
        method: o.fusion ?? 'adaptive',
        weights: { keyword: o.weights?.keyword ?? 1, vector: o.weights?.vector ?? 1 },
        rrfK: o.rrfK ?? 60,
        adaptive: ADAPTIVE_DEFAULTS,
        signals: { keywordIdfMass: legs.idfMass },
      });
    }
    // Time windows named in the query, and current over stale (issue 15, src/recall/prefer.ts).
    fused = await applyPreferences(this.backend, fused, q, o, this.embedder?.id ?? null, mode === 'vector' ? null : kw);
    // Supersession, and opt-in importance / recency / MMR (src/lifecycle/rank.ts).
    fused = await lifecycleRank(this.backend, fused, o, this.embedder?.id ?? null, limit, legs.successors);
    // Calibrated relevance from the raw leg evidence (src/search/relevance.ts), then the threshold.
    const evidence = await evidenceFor(this.backend, fused.slice(0, limit), {
      keyword: mode === 'vector' ? null : kw, idfMass: legs.idfMass, vector: qvec ? vec : null, qvec, model: this.embedder?.id ?? null,
    });
    const relevance = new Map([...evidence].map(([seq, e]) => [seq, relevanceOf(e)]));
    const top = fused.slice(0, limit).filter((h) => relevance.get(h.seq)! >= (o.minRelevance ?? 0));
    const rows = await this.backend.rowsBySeqs(top.map((h) => h.seq));
    this.live();
    const hits: RecallHit[] = [];
    for (const h of top) {
      const r = rows.get(h.seq);
      if (!r) continue; // deleted between legs and fetch
      const hit: RecallHit = { ...toRecord(r), score: h.score, relevance: relevance.get(h.seq)!, evidence: evidence.get(h.seq)! };
      if (h.keywordRank !== undefined) hit.keywordRank = h.keywordRank;
      if (h.vectorRank !== undefined) hit.vectorRank = h.vectorRank;
      hits.push(hit);
    }
    return hits;
  }

  /**
   * A compact, prompt-ready block of the memories relevant to `query` (issue 15): above the
   * relevance threshold (default `DEFAULT_MIN_RELEVANCE`), with dates, current facts first,
   * superseded ones left out, within `maxTokens` (src/context-block.ts).
   */
  async context(query: string, options: ContextOptions = {}): Promise<ContextResult> {
    return buildContext((q, o) => this.recall(q, o), query, options);
  }

  /** Counts, embedding identity and file size. `namespace` narrows the counts (default: all namespaces). */
  async stats(scope: { namespace?: string } = {}): Promise<Stats> {
    this.live();
    const ns = parseScope(scope).namespace ?? ALL_NAMESPACES;
    const f = toRowFilter({ namespace: ns });
    const model = this.embedder?.id ?? null;
    const st = await this.backend.stats(f, model);
    const s: Stats = {
      path: this.path,
      memories: st.memories,
      namespaces: st.namespaces,
      embedded: st.embedded,
      unembedded: st.memories - st.embedded,
      semantic: this.embedder !== null,
      embedding: await this.backend.identity(),
      cacheEntries: st.cacheEntries,
      fileBytes: st.bytes,
      schemaVersion: st.schemaVersion,
      expired: st.expired,
    };
    if (!this.embedder) s.semanticReason = this.semanticOff ?? 'no embedder configured';
    return s;
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
    const row = await this.backend.getById(id);
    if (!row || !inScope(row, ns)) return [];
    return memoryHistory(this.backend, id);
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
    return this.backend.prune({
      ...(ns !== undefined && ns !== ALL_NAMESPACES ? { namespace: ns } : {}),
      ...(dryRun ? { dryRun } : {}),
      ...(vacuum ? { vacuum } : {}),
    }, new Date().toISOString());
  }

  // ---- whole-file operations ------------------------------------------------------

  /**
   * Stream memories as plain records (for JSON Lines). Namespace defaults to `"*"` (all).
   * Iterate with `for await` (any store) or plain `for` (the SQLite file only).
   */
  export(options: ExportOptions = {}): MemoryExport {
    this.live();
    const { vectors, ...filter } = options ?? {};
    const f = toRowFilter(parseList({ namespace: ALL_NAMESPACES, includeExpired: true, ...filter }));
    const backend = this.backend;
    const withVectors = vectors === true;
    return {
      [Symbol.asyncIterator]: async function* () {
        for await (const r of backend.exportRows(f, withVectors)) yield exportRecord(r);
      },
      [Symbol.iterator]: function* () {
        if (!backend.exportRowsSync) {
          throw new MnemoliteError('UNSUPPORTED', `Export from ${backend.kind} is asynchronous: iterate it with "for await (const record of memory.export())".`);
        }
        for (const r of backend.exportRowsSync(f, withVectors)) yield exportRecord(r);
      },
    };
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
  private async importVectors(batch: ExportRecord[]): Promise<(Float32Array | null)[]> {
    const model = this.embedder?.id ?? null;
    const out: (Float32Array | null)[] = batch.map(() => null);
    if (this.embeddings) {
      const need: number[] = [];
      batch.forEach((r, i) => {
        if (r.embedding && r.embeddingModel === model && r.embedding.length === this.embedder!.dims && r.embedding.every(Number.isFinite)) {
          out[i] = Float32Array.from(r.embedding);
        } else need.push(i);
      });
      if (need.length) {
        const vecs = await this.embeddings.embedMany(need.map((i) => ({ text: batch[i]!.content, hash: contentHash(batch[i]!.content) })));
        need.forEach((i, k) => { out[i] = vecs[k]!; });
      }
    }
    return out;
  }

  private async importBatch(batch: ExportRecord[], vecs: (Float32Array | null)[], onConflict: 'skip' | 'replace', res: ImportResult): Promise<void> {
    this.live();
    const items: ImportItem[] = batch.map((r, i) => ({
      id: r.id, content: r.content, key: r.key, namespace: r.namespace, category: r.category, sessionId: r.sessionId,
      metadata: JSON.stringify(r.metadata), createdAt: r.createdAt, updatedAt: r.updatedAt,
      expiresAt: r.expiresAt ?? null, pinned: r.pinned === true, importance: r.importance ?? null, supersededBy: r.supersededBy ?? null,
      hash: contentHash(r.content), vector: vecs[i] ?? null,
    }));
    const n = await this.backend.importBatch(items, this.embedder?.id ?? null, onConflict);
    res.imported += n.imported;
    res.replaced += n.replaced;
    res.skipped += n.skipped;
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
    await this.backend.backup(dest);
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
    const total = await this.backend.countToEmbed(model);
    // Batches of 64 are small: announce the whole job so a worker-thread embedder starts its workers.
    this.embedder.prepareBulk?.(total);
    let done = 0;
    let after = 0;
    options.onProgress?.(0, total);
    for (;;) {
      const rows = await this.backend.toEmbed(model, after, batchSize);
      if (!rows.length) break;
      const vecs = await this.embeddings.embedMany(rows.map((r) => ({ text: r.content, hash: r.content_hash })));
      this.live();
      await this.backend.setVectors(rows.map((r, i) => ({ seq: r.seq, vector: vecs[i]! })), model);
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
    await this.backend.close();
    await this.embedder?.close?.();
  }
}

/** Options for {@link migrateMemories}. */
export interface MigrateOptions {
  /** Records per transaction in the destination (default 500). */
  batchSize?: number;
  /** What to do with ids (or namespace+keys) the destination already has: `skip` (default, so a stopped migration resumes) or `replace`. */
  onConflict?: 'skip' | 'replace';
  /** Called after each batch with (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** Result of {@link migrateMemories}. */
export interface MigrateResult extends ImportResult {
  /** Memories read from the source (expired ones included). */
  total: number;
}

/**
 * Copy every memory of `from` into `to` (a file into PostgreSQL, or back): ids, timestamps,
 * metadata, lifecycle fields and vectors, streamed in batches. Vectors are reused when both sides
 * use the same embedding model, else re-embedded by `to`'s embedder. History (previous contents)
 * is not copied.
 */
export async function migrateMemories(from: Memory, to: Memory, options: MigrateOptions = {}): Promise<MigrateResult> {
  if (!(from instanceof Memory) || !(to instanceof Memory)) throw invalid('migrateMemories expects two open Memory objects.');
  if (from === to || (from.storage === to.storage && from.path === to.path && from.path !== ':memory:')) throw invalid('The source and the destination are the same store.');
  if (options.batchSize !== undefined && !(Number.isInteger(options.batchSize) && options.batchSize >= 1)) throw invalid('batchSize must be a whole number, 1 or more.');
  const batchSize = Math.min(10_000, options.batchSize ?? 500);
  const s = await from.stats();
  const total = s.memories + s.expired;
  const res: MigrateResult = { imported: 0, replaced: 0, skipped: 0, total };
  let batch: ExportRecord[] = [];
  const flush = async (): Promise<void> => {
    if (!batch.length) return;
    const r = await to.import(batch, { batchSize, onConflict: options.onConflict ?? 'skip' });
    res.imported += r.imported;
    res.replaced += r.replaced;
    res.skipped += r.skipped;
    batch = [];
    options.onProgress?.(res.imported + res.replaced + res.skipped, total);
  };
  options.onProgress?.(0, total);
  for await (const rec of from.export({ vectors: true })) {
    batch.push(rec);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return res;
}

/**
 * Open (or create) a memory file, or a PostgreSQL store with `url`.
 *
 * @example
 * const mem = await openMemory({ path: 'memory.db' });
 * await mem.add('We deploy on a Raspberry Pi 4', { key: 'deploy-target' });
 * const hits = await mem.recall('ARM hardware');
 *
 * @example
 * const shared = await openMemory({ url: process.env.DATABASE_URL }); // same API on PostgreSQL (pgvector for vectors)
 */
export async function openMemory(options: OpenOptions = {}): Promise<Memory> {
  if (options === null || typeof options !== 'object') throw invalid('openMemory expects an options object.');
  if (options.busyTimeoutMs !== undefined && !(Number.isFinite(options.busyTimeoutMs) && options.busyTimeoutMs >= 0)) {
    throw invalid('busyTimeoutMs must be a number of milliseconds, 0 or more (default 5000).');
  }
  const url = options.url ?? (typeof options.path === 'string' && isPostgresUrl(options.path) ? options.path : undefined);
  if (url !== undefined && (typeof url !== 'string' || !isPostgresUrl(url))) throw invalid('url must be a PostgreSQL connection URL such as "postgres://user@host:5432/db".');
  if (url !== undefined && options.path !== undefined && options.path !== url) throw invalid('Give either path (a SQLite file) or url (PostgreSQL), not both.');
  const path = options.path ?? 'memory.db';
  if (url === undefined && (typeof path !== 'string' || !path.trim() || path.includes('\u0000'))) throw invalid('path must be a file path such as "memory.db".');
  const embedder = resolveEmbedder(options.embedder);
  const readonly = !!options.readonly;
  const dedup = parseOpenDedup(options);
  const backend: Backend = url !== undefined
    ? await (await import('./pg/backend.js')).openPostgres(url, { readonly, embedder, lockTimeoutMs: options.busyTimeoutMs ?? 5000, ...(options.postgres ?? {}) })
    : new SqliteBackend(path, {
      readonly, model: embedder?.id ?? null, dims: embedder?.dims ?? 0,
      ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    });
  try {
    const recorded = await backend.identity();
    if (embedder) {
      const mine = { provider: embedder.provider, model: embedder.id, dims: embedder.dims };
      const where = backend.kind === 'sqlite' ? path : backend.location;
      if (recorded && (recorded.model !== mine.model || recorded.dims !== mine.dims)) {
        if (!options.allowModelChange) {
          throw new MnemoliteError(
            'EMBEDDING_MISMATCH',
            `${where} holds vectors from ${recorded.provider} model "${recorded.model}" (${recorded.dims} dims), but it was opened with "${mine.model}" (${mine.dims} dims). ` +
              `Open it with the same embedder, or switch ${backend.kind === 'sqlite' ? 'the file' : 'the database'} to the new one with: mnemolite reindex --db ${where}`,
            { recorded, requested: mine },
          );
        }
        if (readonly) throw new MnemoliteError('READ_ONLY', 'Switching the embedding model needs a writable store.');
      }
      if (!readonly && (!recorded || recorded.model !== mine.model || recorded.dims !== mine.dims || recorded.provider !== mine.provider)) {
        await backend.setIdentity(mine);
      }
    }
    const off = embedder ? undefined : options.embedder === 'none' ? "embedder 'none' was chosen: keyword recall only" : 'no embedder';
    return new Memory(backend, embedder, readonly, off, dedup);
  } catch (err) {
    await backend.close();
    throw err;
  }
}
