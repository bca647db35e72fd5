/**
 * The {@link Memory} class: the public entry of the library. It validates, embeds and calls the
 * store; recall runs the pipeline of src/recall/pipeline.ts. Opening is src/memory/open.ts, export
 * and import src/memory/transfer.ts, migration src/memory/migrate.ts.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { inScope, notFound } from '../backend/scope.js';
import { toRecord } from '../backend/records.js';
import type { Backend, DedupDefaults } from '../backend/types.js';
import { DEFAULTS } from '../defaults.js';
import { EmbeddingService, contentHash } from '../embed/cache.js';
import { RelevanceBaseline } from '../recall/baseline.js';
import type { Embedder } from '../embed/provider.js';
import { MnemoliteError, invalid } from '../errors.js';
import { resolveAutoSupersede } from '../lifecycle/auto-supersede.js';
import { DEFAULT_CONTEXT_WINDOW, batchContexts, contextGate, contextVectorsOf } from '../lifecycle/context.js';
import { memoryHistory } from '../lifecycle/history.js';
import { isExpired } from '../lifecycle/record.js';
import { namespaceFor } from '../namespaces.js';
import { buildContext, type ContextOptions, type ContextResult } from '../recall/context-block.js';
import { recall } from '../recall/pipeline.js';
import { isMultiScope, mergeHits, resolveScope } from '../recall/scope.js';
import type { EraseOptions, EraseResult, HistoryOptions, MemoryVersion, PruneOptions, PruneResult } from '../types/lifecycle.js';
import type {
  AddInput,
  AddOptions,
  AddResult,
  ListOptions,
  MemoryRecord,
  RecallHit,
  RecallOptions,
  ScopedFilter,
  Stats,
  UpdateInput,
  ExportRecord,
} from '../types/memory.js';
import type { ProfileExportRecord } from '../types/profile.js';
import type { RowFilter } from '../types/rows.js';
import type { MemoryRow } from '../types/rows.js';
import {
  ALL_NAMESPACES,
  DEFAULT_NAMESPACE,
  checkContent,
  checkId,
  parseAdd,
  parseErase,
  parseHistory,
  parseList,
  parseScope,
  parseUpdate,
  toRowFilter,
} from '../validate.js';
import { addConversation, type ConversationMemory, type ConversationOptions, type ConversationTurn } from './conversation.js';
import type { ChatMessageInput } from './chat-messages.js';
import { ProfileApi } from './profile.js';
import { exportMemories, importRecords, type ExportOptions, type ImportOptions, type ImportResult, type MemoryExport } from './transfer.js';

/** Options for {@link Memory.reindex}. */
export interface ReindexOptions {
  /** Memories per batch (default 64); each batch commits, so an interrupted reindex resumes. */
  batchSize?: number;
  /** Called after each batch with (done, total). */
  onProgress?: (done: number, total: number) => void;
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
  /** Relevance's baseline per namespace (src/recall/baseline.ts), or null without an embedder. */
  private readonly baseline: RelevanceBaseline | null;
  private readonly semanticOff: string | undefined;
  private closed = false;
  private readonly dedupDefaults: DedupDefaults;
  /** Working memory: one small document per namespace, always current, read in full at the top of {@link Memory.context}. */
  readonly profile: ProfileApi;

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
    this.baseline = embedder && this.embeddings ? new RelevanceBaseline(backend, this.embeddings, embedder.id) : null;
    this.profile = new ProfileApi(
      backend,
      () => this.live(),
      () => this.writable(),
    );
  }

  private live(): void {
    if (this.closed) throw new MnemoliteError('CLOSED', 'This Memory is closed. Open it again with openMemory().');
  }

  private writable(): void {
    this.live();
    if (this.readonly) throw new MnemoliteError('READ_ONLY', `${this.path} was opened read-only. Open it without readonly to write.`);
  }

  /** Whether recall can use vectors. */
  /**
   * @internal Texts the embedding caches answered (`hits`) and texts sent to the model
   * (`misses`) by this Memory; zeros without an embedder. For tests of cache scoping.
   */
  get embeddingCacheCounters(): { hits: number; misses: number } {
    return { ...(this.embeddings?.counters ?? { hits: 0, misses: 0 }) };
  }

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
    // supersede: 'auto': find the memory each such item updates before writing.
    const links = parsed.some((p) => p.opts.supersede === 'auto') ? await resolveAutoSupersede((q, o) => this.recall(q, o), parsed) : null;
    const hashes = parsed.map((p) => contentHash(p.content));
    // Each text's cache lookup stays inside its own namespace (no timing signal about others).
    const vecs = this.embeddings
      ? await this.embeddings.embedMany(parsed.map((p, i) => ({ text: p.content, hash: hashes[i]!, scope: namespaceFor('add', p.opts.namespace) })))
      : null;
    this.live();
    const model = this.embedder?.id ?? null;
    const contexts = await batchContexts(
      parsed.map((p) => ({
        namespace: namespaceFor('add', p.opts.namespace),
        sessionId: p.opts.sessionId ?? null,
        window: p.opts.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
        ...(p.opts.key !== undefined ? { key: p.opts.key } : {}),
      })),
      parsed.map((p) => p.content),
      vecs,
      (ns, sid, n) => this.backend.sessionTail(ns, sid, n, model),
      contextGate(model),
    );
    this.live();
    const results = await this.backend.addMany(
      parsed.map((p, i) => ({
        content: p.content,
        opts: p.opts,
        hash: hashes[i]!,
        vector: vecs ? vecs[i]! : null,
        context: contexts[i]!.texts,
        contextVector: contexts[i]!.vector,
      })),
      model,
      this.dedupDefaults,
    );
    if (links) for (const [i, id] of links) results[i]!.autoSuperseded = id;
    return results;
  }

  /**
   * Remember a conversation: one memory per turn, content prefixed by the speaker ("Caroline: ..."),
   * metadata `{ speaker, turn }`, `eventAt` and `createdAt` from each turn's `at` (`eventAt` from
   * `options.eventAt` for turns without one, e.g. the session's date); very short turns ("ok",
   * "haha yes") are merged into a neighbour. One transaction, embeddings batched. `turns` may also be
   * chat messages as the SDKs give them (OpenAI Chat Completions or Responses items, Anthropic
   * Messages, the AI SDK's ModelMessage / UIMessage): system and tool messages are skipped unless
   * `keepSystem` / `keepTools`, images and files become placeholders such as "[image]".
   */
  async addConversation(turns: readonly (ConversationTurn | ChatMessageInput)[], options: ConversationOptions = {}): Promise<ConversationMemory[]> {
    this.writable();
    return addConversation(this, turns, options);
  }

  /** Change a memory. Content changes are re-embedded. Throws `NOT_FOUND` if the id is unknown (in the scope). */
  async update(id: string, input: UpdateInput, scope: { namespace?: string } = {}): Promise<MemoryRecord> {
    this.writable();
    checkId(id);
    const u = parseUpdate(input);
    const ns = parseScope(scope, 'update').namespace;
    const content = u.content !== undefined ? checkContent(u.content) : undefined;
    const current = await this.findRow(id, ns);
    const hash = content !== undefined ? contentHash(content) : current.content_hash;
    let vector: Float32Array | undefined;
    if (content !== undefined && this.embeddings && hash !== current.content_hash) {
      [vector] = await this.embeddings.embedMany([{ text: content, hash, scope: current.namespace }]);
    }
    this.live();
    const row = await this.backend.update(
      id,
      ns,
      {
        u,
        ...(content !== undefined ? { content, hash } : {}),
        ...(vector ? { vector } : {}),
      },
      this.embedder?.id ?? null,
    );
    return toRecord(row);
  }

  /**
   * Delete a memory, and every copy of its text the store holds: its history, the conversational
   * context of the memories after it in its session, its cached vectors; on the file, the deleted
   * bytes are overwritten and the WAL is checkpointed (src/lifecycle/erase.ts). Returns `false`
   * when no such memory exists (in the scope).
   */
  async forget(id: string, scope: { namespace?: string } = {}): Promise<boolean> {
    this.writable();
    checkId(id);
    const ns = parseScope(scope, 'forget').namespace;
    return this.backend.forget(id, ns);
  }

  /**
   * Erase everything of one namespace (mem0's `deleteAll({ userId })`): its memories, their
   * history, the vectors cached for it and its keyword statistics, with the same guarantee as
   * {@link Memory.forget} (no trace in the file's bytes). Other namespaces are untouched.
   */
  async erase(options: EraseOptions): Promise<EraseResult> {
    this.writable();
    const { namespace } = parseErase(options);
    return this.backend.erase(namespace);
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
    const ns = parseScope(rest, 'get').namespace;
    const row = await this.backend.getById(id);
    this.live();
    if (!row || !inScope(row, ns)) return null;
    if (!includeExpired && isExpired(row, new Date().toISOString())) return null;
    return toRecord(row);
  }

  /**
   * The parsed list options and their row filter; a namespace list or prefix (src/recall/scope.ts)
   * becomes the filter's `namespaces`.
   */
  private async listFilter(
    verb: 'list' | 'count',
    options: ScopedFilter & Record<string, unknown>,
  ): Promise<{ o: ReturnType<typeof parseList>; f: RowFilter }> {
    const multi = options !== null && typeof options === 'object' && isMultiScope(options.namespace) ? options.namespace : undefined;
    if (multi === undefined) {
      const o = parseList(options);
      return { o, f: toRowFilter(verb, o) };
    }
    const { namespace: _scope, ...rest } = options;
    const o = parseList(rest);
    const f = toRowFilter(verb, { ...o, namespace: ALL_NAMESPACES });
    f.namespaces = await resolveScope(this.backend, multi);
    return { o, f };
  }

  /**
   * Memories matching filters, newest first by default. Namespace defaults to `"default"`; `"*"`
   * lists all; a list of namespaces or a prefix (`"user-1/*"`) lists those.
   */
  async list(options: ListOptions = {}): Promise<MemoryRecord[]> {
    this.live();
    const { o, f } = await this.listFilter('list', options as ListOptions & Record<string, unknown>);
    return (await this.backend.list(f, o.limit ?? DEFAULTS.listLimit, o.offset ?? 0, o.order ?? 'desc')).map(toRecord);
  }

  /**
   * @internal A page of {@link Memory.list} and the {@link Memory.count} of the same filters, read
   * in one snapshot (HTTP list pages and the memory_list tool), so a write in between cannot make
   * the total disagree with the page.
   */
  async listWithTotal(options: ListOptions = {}): Promise<{ memories: MemoryRecord[]; total: number }> {
    this.live();
    const { o, f } = await this.listFilter('list', options as ListOptions & Record<string, unknown>);
    const { rows, total } = await this.backend.listPage(f, o.limit ?? DEFAULTS.listLimit, o.offset ?? 0, o.order ?? 'desc');
    return { memories: rows.map(toRecord), total };
  }

  /** Count memories matching filters (a list of namespaces or a prefix counts them all). */
  async count(options: ScopedFilter & { includeExpired?: boolean } = {}): Promise<number> {
    this.live();
    const { f } = await this.listFilter('count', options as ScopedFilter & Record<string, unknown>);
    return this.backend.count(f);
  }

  /**
   * Find memories relevant to a query. Hybrid mode (the default with an embedder) runs the
   * keyword and vector legs with the same filters and fuses them (query-adaptive convex
   * combination by default; RRF with `fusion: 'rrf'`); every hit says which rank it had in each leg.
   */
  async recall(query: string, options: RecallOptions = {}): Promise<RecallHit[]> {
    this.live();
    if (options !== null && typeof options === 'object' && isMultiScope(options.namespace)) {
      // Several namespaces: one recall each (its own statistics), merged by relevance (src/recall/scope.ts).
      const namespaces = await resolveScope(this.backend, options.namespace);
      const lists: RecallHit[][] = [];
      // Each resolved name is one namespace, read literally (a stored name may itself end in "*").
      for (const namespace of namespaces) lists.push(await this.recallOne(query, { ...options, namespace }));
      if (!namespaces.length) await this.recallOne(query, { ...options, namespace: DEFAULT_NAMESPACE }); // validates the query and options all the same
      return mergeHits(lists, options.limit ?? DEFAULTS.recallLimit);
    }
    return this.recallOne(query, options);
  }

  private recallOne(query: string, options: RecallOptions): Promise<RecallHit[]> {
    return recall(
      {
        backend: this.backend,
        embeddings: this.embeddings,
        baseline: this.baseline,
        model: this.embedder?.id ?? null,
        semanticOff: this.semanticOff,
        live: () => this.live(),
      },
      query,
      options,
    );
  }

  /**
   * A compact, prompt-ready block of the memories relevant to `query`: above the
   * relevance threshold (default `DEFAULT_MIN_RELEVANCE`), with dates, current facts first,
   * superseded ones left out, within `maxTokens` (src/recall/context-block.ts).
   */
  async context(query: string, options: ContextOptions = {}): Promise<ContextResult> {
    this.live();
    const o = options !== null && typeof options === 'object' ? options : {};
    if (o.profile !== undefined && typeof o.profile !== 'boolean') throw invalid('context: profile must be true or false.', { field: 'profile' });
    // The profile of the one namespace recalled (none for "*" or several namespaces).
    const ns = typeof o.namespace === 'string' ? o.namespace : namespaceFor('recall', undefined);
    const top =
      o.profile !== false && typeof ns === 'string' && !ns.endsWith('*') ? await this.profile.get({ namespace: ns }).catch(() => undefined) : undefined;
    return buildContext((q, ro) => this.recall(q, ro), query, options, top);
  }

  /** Counts, embedding identity and file size. `namespace` narrows the counts (default: all namespaces). */
  async stats(scope: { namespace?: string } = {}): Promise<Stats> {
    this.live();
    const ns = parseScope(scope, 'stats').namespace;
    const f = toRowFilter('stats', { namespace: ns });
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
   * `offset` and `limit` page the versions (oldest first); only the page's texts are read.
   */
  async history(id: string, options: HistoryOptions = {}): Promise<MemoryVersion[]> {
    this.live();
    checkId(id);
    const { namespace: ns, offset, limit } = parseHistory(options);
    const row = await this.backend.getById(id);
    if (!row || !inScope(row, ns)) return [];
    return memoryHistory(this.backend, id, { ...(offset !== undefined ? { offset } : {}), ...(limit !== undefined ? { limit } : {}) });
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
    const ns = parseScope(namespace !== undefined ? { namespace } : {}, 'prune').namespace;
    return this.backend.prune(
      {
        ...(ns !== undefined && ns !== ALL_NAMESPACES ? { namespace: ns } : {}),
        ...(dryRun ? { dryRun } : {}),
        ...(vacuum ? { vacuum } : {}),
      },
      new Date().toISOString(),
    );
  }

  // ---- whole-file operations ------------------------------------------------------

  /**
   * Stream memories as plain records (for JSON Lines). Namespace defaults to `"*"` (all).
   * Iterate with `for await` (any store) or plain `for` (the SQLite file only).
   */
  export(options?: ExportOptions & { profiles?: false }): MemoryExport;
  /** With `profiles: true`: the memories, then one {@link ProfileExportRecord} per namespace that has a profile. */
  export(options: ExportOptions & { profiles: true }): MemoryExport<ExportRecord | ProfileExportRecord>;
  export(options: ExportOptions): MemoryExport<ExportRecord | ProfileExportRecord>;
  export(options: ExportOptions = {}): MemoryExport<ExportRecord | ProfileExportRecord> {
    this.live();
    return exportMemories(this.backend, options);
  }

  /**
   * Import records from {@link Memory.export} (any iterable, e.g. parsed JSON Lines), keeping ids
   * and timestamps; profile records (`kind: "profile"`) restore a namespace's profile with its
   * versions (`onConflict` decides over a namespace that already has one). Vectors are reused when they come from the current model, else re-embedded.
   */
  async import(records: Iterable<unknown> | AsyncIterable<unknown>, options: ImportOptions = {}): Promise<ImportResult> {
    this.writable();
    return importRecords({ backend: this.backend, embedder: this.embedder, embeddings: this.embeddings, live: () => this.live() }, records, options);
  }

  /**
   * Write a consistent copy of the file to `dest` with SQLite's online backup API
   * (safe while other processes write). Refuses to overwrite an existing file.
   */
  async backup(dest: string): Promise<void> {
    this.live();
    if (typeof dest !== 'string' || !dest.trim()) throw invalid('backup needs a destination file path.');
    // better-sqlite3 trims the name and C cuts it at a NUL: either would let the backup land on (and overwrite or delete) another file.
    if (dest !== dest.trim() || /[\u0000-\u001f\u007f]/.test(dest))
      throw invalid('The backup destination must not start or end with spaces or contain control characters. Choose a plain file path.');
    if (!existsSync(dirname(resolve(dest)))) throw invalid(`The directory of ${dest} does not exist. Create it first or choose another path.`);
    if (this.path !== ':memory:' && resolve(dest) === resolve(this.path)) throw invalid('The backup destination is the database itself. Choose another path.');
    if (existsSync(dest)) throw invalid(`${dest} already exists. Choose a new path; backups never overwrite files.`);
    await this.backend.backup(dest);
  }

  /** Vectors of some texts (by hash from the store or cache when known, else embedded). */
  private async embedTexts(texts: string[]): Promise<Float32Array[]> {
    return this.embeddings!.embedMany(texts.map((t) => ({ text: t, hash: contentHash(t) })));
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
    if (options.batchSize !== undefined && !(Number.isInteger(options.batchSize) && options.batchSize >= 1))
      throw invalid('batchSize must be a whole number, 1 or more.');
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
      const withCtx = rows.flatMap((r, i) => (r.context ? [i] : []));
      const ctxVecs: (Float32Array | null)[] = rows.map(() => null);
      const made = await contextVectorsOf(
        withCtx.map((i) => JSON.parse(rows[i]!.context!) as string[]),
        (texts) => this.embedTexts(texts),
      );
      withCtx.forEach((i, k) => {
        ctxVecs[i] = made[k]!;
      });
      this.live();
      await this.backend.setVectors(
        rows.map((r, i) => ({ seq: r.seq, vector: vecs[i]!, contextVector: ctxVecs[i]! })),
        model,
      );
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
