import type { Embedder } from '../embed/provider.js';
import type { DedupInfo, LifecycleAddOptions, LifecycleFields, LifecycleRecallOptions, LifecycleUpdateInput, NearDuplicateMode } from './lifecycle.js';
import type { RelevanceEvidence, RelevanceRecallOptions } from './recall.js';

/** JSON-serialisable metadata attached to a memory. */
export type Metadata = Record<string, unknown>;

/** A stored memory as returned by the API. */
export interface MemoryRecord extends LifecycleFields {
  /** Stable id (UUID v7, time-ordered). */
  id: string;
  /** The remembered text. */
  content: string;
  /** Optional caller-chosen key, unique within its namespace (used for upserts). */
  key: string | null;
  /** Isolation boundary, e.g. one per agent or user. Defaults to `"default"`. */
  namespace: string;
  /** Free-form category, e.g. `"core"`, `"preference"`. */
  category: string | null;
  /** Conversation or run the memory came from. */
  sessionId: string | null;
  /** Caller metadata, stored as JSON. */
  metadata: Metadata;
  /** When the memory was first stored (or the `createdAt` given on add / import). */
  createdAt: Date;
  /**
   * When what it says happened (a chat's date, a meeting's date), when the caller gave one; `null`
   * otherwise. "When it happened" is `eventAt ?? createdAt`: `since` / `until` and the time
   * preference of recall use it.
   */
  eventAt: Date | null;
  /** When the memory last changed. */
  updatedAt: Date;
}

/** A recall hit: the memory plus why it ranked where it did. */
export interface RecallHit extends MemoryRecord {
  /** Fused score (higher is better). In single-leg modes, the leg's own score. */
  score: number;
  /** 1-based rank in the keyword (FTS5 BM25) leg, if the memory appeared there. */
  keywordRank?: number;
  /** 1-based rank in the vector (cosine) leg, if the memory appeared there. */
  vectorRank?: number;
  /**
   * Calibrated relevance in [0, 1], comparable across queries and fusion methods (unlike `score`):
   * filter with `minRelevance`. See src/recall/relevance.ts.
   */
  relevance: number;
  /** The raw leg evidence `relevance` was computed from. */
  evidence: RelevanceEvidence;
  /**
   * Set on the single hit `bestMatch: true` returns when nothing reached `minRelevance`: the closest
   * memory, below the threshold. Surfaces should say so ("best match, low confidence").
   */
  lowConfidence?: true;
  /**
   * With the `neighbours` option, for a hit in a session: the turns just before and after it in
   * that session (same namespace, oldest first), leaving out turns that are hits themselves or were
   * shown around a better hit.
   */
  neighbours?: { before: MemoryRecord[]; after: MemoryRecord[] };
}

/** Options for {@link Memory.add}. */
export interface AddOptions extends LifecycleAddOptions {
  /**
   * `'auto'`: find the older memory this one updates (same subject and attribute, an update cue
   * such as "now" or "moved", close in meaning) and link it as with `supersedes`; the link is
   * reported in `autoSuperseded`. Nothing is deleted. Opt-in; see src/lifecycle/auto-supersede.ts.
   */
  supersede?: 'auto';
  /** Namespace (default `"default"`). */
  namespace?: string;
  /** Key: adding with a key already used in the namespace replaces that memory (keeps id and createdAt). */
  key?: string;
  /** Category label. */
  category?: string;
  /** Session / conversation id. */
  sessionId?: string;
  /**
   * With a `sessionId`: how many memories before this one in its session are indexed with it as its
   * conversational context (default 2; 0 turns it off; at most 10). Recall still returns the memory itself.
   */
  contextWindow?: number;
  /** JSON-serialisable metadata. */
  metadata?: Metadata;
  /** Creation time (default: now). Useful when importing history. */
  createdAt?: Date | string;
  /**
   * When what it says happened (e.g. the conversation's date), if it differs from when it is
   * stored. Recall's `since` / `until` and time preference use it instead of `createdAt`. A key
   * upsert without it clears the old value (the memory is restated); a near-duplicate merge keeps
   * the old one unless given.
   */
  eventAt?: Date | string;
}

/** One item of {@link Memory.addMany}. */
export interface AddInput extends AddOptions {
  /** The text to remember. */
  content: string;
}

/** Result of an add. */
export interface AddResult extends DedupInfo {
  /** Id of the stored (or replaced) memory. */
  id: string;
  /** `true` when an existing memory with the same key was replaced. */
  replaced: boolean;
  /** With `supersede: 'auto'`: the id of the older memory this one was linked to as its update. */
  autoSuperseded?: string;
}

/** Filters shared by recall, list and export. */
export interface Filter {
  /** Only this namespace (default: `"default"`). Use `"*"` with list/export to see all namespaces. */
  namespace?: string;
  /** Only this category. */
  category?: string;
  /** Only this session. */
  sessionId?: string;
  /** Only memories that happened at or after this time (see `timeField`). */
  since?: Date | string;
  /** Only memories that happened before this time (see `timeField`). */
  until?: Date | string;
  /**
   * Which time of a memory `since` / `until` (and, in recall, the time preference) use:
   * `'event'` (default): when it happened, `eventAt ?? createdAt`; `'created'`: when it was stored, `createdAt`.
   */
  timeField?: 'event' | 'created';
  /** Equality filters on top-level metadata fields (string, number, boolean or null values). */
  metadata?: Record<string, string | number | boolean | null>;
}

/**
 * The namespaces of a recall, list or count: one name, `"*"` (every namespace), a prefix pattern
 * such as `"user-1/*"` (every namespace starting with `user-1/`), or a list of names (at most 100).
 */
export type NamespaceScope = string | readonly string[];

/** Filters of recall, list and count, whose namespace may be a {@link NamespaceScope}. */
export interface ScopedFilter extends Omit<Filter, 'namespace'> {
  /** One namespace (default `"default"`), `"*"`, a prefix `"user-1/*"`, or a list of namespaces. */
  namespace?: NamespaceScope;
}

/** Which legs recall runs. */
export type RecallMode = 'hybrid' | 'keyword' | 'vector';

/** Options for {@link Memory.recall}. */
export interface RecallOptions extends ScopedFilter, LifecycleRecallOptions, RelevanceRecallOptions {
  /** Maximum hits (1..1000, default 10). */
  limit?: number;
  /**
   * Each hit in a session comes with up to `before` turns before it and `after` turns after it in
   * that session (0..20 each; Mastra's `messageRange`): what an agent needs to read a chat answer
   * in context. Off by default.
   */
  neighbours?: { before?: number; after?: number };
  /** `hybrid` (default when an embedder is configured), `keyword` or `vector`. */
  mode?: RecallMode;
  /**
   * How hybrid mode merges the legs: `'adaptive'` (default: a convex combination of normalised
   * scores whose keyword share follows how decisive each leg is for this query), `'convex'`
   * (fixed share from `weights`), or `'rrf'` (Reciprocal Rank Fusion, `Σ w/(k + rank)`).
   */
  fusion?: 'adaptive' | 'convex' | 'rrf';
  /** Relative leg weights (default `{ keyword: 1, vector: 1 }`); only the ratio matters. */
  weights?: { keyword?: number; vector?: number };
  /** RRF constant k for `fusion: 'rrf'` (default 60). */
  rrfK?: number;
  /** Candidates each leg contributes before fusion (default max(50, limit*3)). */
  candidates?: number;
  /** Vector leg in exact float order over every memory in scope (SQLite: every int8 vector in memory is scored and the best max(2k, k + 32) re-scored from the file's float32 vectors; PostgreSQL: every row). By default SQLite re-scores the best max(256, 8 × candidates) by sign-code distance with the int8 vectors. */
  exact?: boolean;
}

/** Options for {@link Memory.list}. */
export interface ListOptions extends ScopedFilter {
  /** Include expired memories that `prune` has not deleted yet (default false). */
  includeExpired?: boolean;
  /** Maximum rows (default 100, max 10,000). */
  limit?: number;
  /** Rows to skip. */
  offset?: number;
  /** Sort order by creation time (default `desc`: newest first). */
  order?: 'asc' | 'desc';
}

/** Fields {@link Memory.update} can change. */
export interface UpdateInput extends LifecycleUpdateInput {
  /** New content (re-embedded). */
  content?: string;
  /** New category (`null` clears it). */
  category?: string | null;
  /** New session id (`null` clears it). */
  sessionId?: string | null;
  /** Replace the metadata. */
  metadata?: Metadata;
  /** New key (`null` clears it). */
  key?: string | null;
  /** When it happened (`null` clears it, so its time is `createdAt` again). */
  eventAt?: Date | string | null;
}

/** Numbers about a memory file. */
export interface Stats {
  /** Path of the SQLite file, or the PostgreSQL URL without its password. */
  path: string;
  /** Memories in scope (one namespace, or all). */
  memories: number;
  /** Memory count per namespace (only namespaces in scope). */
  namespaces: Record<string, number>;
  /** Memories whose vector was made by the current embedder. */
  embedded: number;
  /** Memories with no vector from the current embedder (run `mnemolite reindex`). */
  unembedded: number;
  /** Whether semantic (vector) recall is available. */
  semantic: boolean;
  /** Why semantic recall is off, when it is. */
  semanticReason?: string;
  /** The embedding identity recorded in the file, if any. */
  embedding: { provider: string; model: string; dims: number } | null;
  /** Entries in the embedding cache. */
  cacheEntries: number;
  /** File size in bytes (main file + WAL); on PostgreSQL, the size of the store's tables and indexes. */
  fileBytes: number;
  /** Schema version of the file. */
  schemaVersion: number;
  /** Expired memories in scope not yet deleted by `prune` (not counted in `memories`). */
  expired: number;
}

/** PostgreSQL settings for {@link openMemory}. */
export interface PostgresOptions {
  /** Schema that holds mnemolite's tables (default `mnemolite`); one schema per independent store. */
  schema?: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** Milliseconds to wait for a connection (default 10000). */
  connectTimeoutMs?: number;
}

/** Options for {@link openMemory}. */
export interface OpenOptions {
  /**
   * Path of the SQLite file (default `memory.db`). `:memory:` works for throwaway use.
   * A `postgres://` URL here is taken as {@link OpenOptions.url}.
   */
  path?: string;
  /**
   * A PostgreSQL connection URL (`postgres://user:password@host:5432/db`): keep the memories in
   * PostgreSQL (full-text search and pgvector) instead of a file, with the same API.
   */
  url?: string;
  /** PostgreSQL settings (only with {@link OpenOptions.url}). */
  postgres?: PostgresOptions;
  /**
   * Embedding provider: `'local'` (default, bundled model), `'none'` (keyword only),
   * or any object implementing {@link Embedder}.
   */
  embedder?: 'local' | 'none' | Embedder;
  /**
   * Worker threads for bulk embedding with the bundled model (`addMany`, `addConversation`,
   * imports, `reindex`), besides the calling thread, which embeds too. `'auto'` (default): one
   * fewer than the CPU cores, at most 3, or `MNEMOLITE_EMBED_WORKERS`; `0`: the calling thread
   * only. Started at the first bulk call of 256+ texts and kept until `close()`. Only with
   * `embedder: 'local'`; a {@link LocalEmbedder} you build takes its own `workers` option.
   */
  embedWorkers?: number | 'auto';
  /**
   * On the file, from 20,000 memories with vectors: run the vector leg's scan on one worker thread
   * while the keyword leg runs on the calling thread (default `true`; the hits are the same either
   * way). The thread holds ~10 MB; a process runs at most one per CPU core but one, and an index
   * that finds none free scans on the calling thread. From 200,000 memories, the first recall's
   * load of the index also has a worker thread (with its own read-only connection, stopped after
   * the load) copy part of the stored vector codes. `false`: neither thread. Ignored on PostgreSQL.
   */
  searchThread?: boolean;
  /** Open read-only. */
  readonly?: boolean;
  /** Milliseconds to wait on a locked database before failing with `BUSY` (default 5000); on PostgreSQL, the connections' `lock_timeout`. */
  busyTimeoutMs?: number;
  /**
   * Accept an embedder different from the one recorded in the file and switch the file over to it.
   * Vectors of the old model are ignored until re-embedded by {@link Memory.reindex}. Used by `mnemolite reindex`.
   */
  allowModelChange?: boolean;
  /** Default near-duplicate handling of `add` / `addMany` (default `'off'`); see {@link AddOptions.nearDuplicates}. */
  nearDuplicates?: NearDuplicateMode;
  /** Default cosine threshold for near-duplicates (default 0.92). */
  dedupThreshold?: number;
}

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
  /** When it happened (ISO 8601), present only when set; exports made before schema 4 have none. */
  eventAt?: string;
  /** Present when exported with `vectors: true`. */
  embedding?: number[];
  /** Model that made `embedding`. */
  embeddingModel?: string;
  /** Conversational context: the contents of the memories before this one in its session (oldest first), when indexed with one. */
  context?: string[];
  /** Normalised mean of the context's vectors (same model), present with `embedding`. */
  contextEmbedding?: number[];
  /** Lifecycle fields (ISO 8601 dates), present only when set. */
  expiresAt?: string;
  pinned?: true;
  importance?: number;
  supersededBy?: string;
}
