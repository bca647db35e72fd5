/**
 * The store interface: what {@link Memory} needs from a place that keeps memories.
 *
 * Two implementations: the SQLite file (src/backend/sqlite.ts, over src/store/ and the in-memory
 * indexes of src/search/) and PostgreSQL (src/pg/). Validation and embedding (src/memory/) and the
 * recall pipeline (src/recall/) live above this line and are shared; everything here takes
 * validated input. The small read interfaces the shared rules need ({@link RankSource},
 * {@link HistorySource}) are declared here or below, so each store can implement them.
 */
import type { HistorySource } from '../lifecycle/history.js';
import type { EraseResult, PruneOptions, PruneResult } from '../types/lifecycle.js';
import type { NamespacedProfileRow, ProfileRow } from '../types/profile.js';
import type { MemoryRow, RowFilter } from '../types/rows.js';
import type { AddResult } from '../types/memory.js';
import type { ParsedAdd, ParsedUpdate } from '../validate.js';

/** What the re-ranking reads about one candidate. */
export interface RankMeta {
  seq: number;
  created_at: string;
  category: string | null;
  pinned: number;
  importance: number | null;
  /** Seq of the successor (the memory that superseded this one), if it exists. */
  succ: number | null;
  /** Latest content change (only when asked for). */
  changed_at: string | null;
}

/** Where the re-ranking reads from: each store answers these in its own query language. */
export interface RankSource {
  /** Successor seq of each superseded memory among `seqs` (cheap when nothing is superseded). */
  successors(seqs: number[]): Promise<Map<number, number>>;
  rankMeta(seqs: number[], withChangedAt: boolean): Promise<RankMeta[]>;
  /** Stored vectors of `model` for `seqs`. */
  vectorsOf(seqs: number[], model: string): Promise<Map<number, Float32Array>>;
  contentsOf(seqs: number[]): Promise<Map<number, string>>;
}

/** Embedding identity recorded in the store. */
export interface EmbeddingIdentity {
  provider: string;
  model: string;
  dims: number;
}

/** One validated add, with its content hash and (when semantic) its normalised vector. */
export interface WriteItem {
  content: string;
  opts: ParsedAdd;
  hash: string;
  vector: Float32Array | null;
  /** Conversational context (src/lifecycle/context.ts): the preceding memories' contents, and the mean of their vectors. */
  context: string[] | null;
  contextVector: Float32Array | null;
}

/** Store-wide defaults for near-duplicate handling. */
export interface DedupDefaults {
  nearDuplicates?: 'off' | 'report' | 'merge';
  dedupThreshold?: number;
}

/** A validated update: the parsed input, plus the new content's hash and vector when it changes. */
export interface UpdateChange {
  u: ParsedUpdate;
  content?: string;
  hash?: string;
  /** New vector (content changed and re-embedded); `undefined` keeps or drops the old one by hash. */
  vector?: Float32Array;
}

/** A validated import record (see `ExportRecord`), with its content hash and vector. */
export interface ImportItem {
  id: string;
  content: string;
  key: string | null;
  namespace: string;
  category: string | null;
  sessionId: string | null;
  metadata: string;
  createdAt: string;
  updatedAt: string;
  /** When it happened, or null. */
  eventAt: string | null;
  expiresAt: string | null;
  pinned: boolean;
  importance: number | null;
  supersededBy: string | null;
  hash: string;
  vector: Float32Array | null;
  context: string[] | null;
  contextVector: Float32Array | null;
}

/** A row with its vector, for export. */
export type ExportRow = MemoryRow & { vector: Float32Array | null; contextVector: Float32Array | null };

/** Counts for `stats`. */
export interface StoreStats {
  memories: number;
  namespaces: Record<string, number>;
  embedded: number;
  cacheEntries: number;
  bytes: number;
  schemaVersion: number;
  expired: number;
}

/** Keyword and vector candidates of one recall, best first. */
export interface LegResults {
  /**
   * `bm25`: lower is better (FTS5 convention). `matched`: the summed idf of the query terms the
   * memory contains (each once), for the relevance's term coverage; absent when the store cannot tell.
   */
  keyword: { seq: number; bm25: number; matched?: number }[];
  vector: { seq: number; score: number }[];
  /** Session (namespace + session id, as one key) of the candidates that have one, for session evidence. */
  sessions?: Map<number, string>;
  /** Keyword candidates by their conversational context alone (src/lifecycle/context.ts); empty when no memory has one. */
  context: { seq: number; bm25: number }[];
  /** Sum of the query terms' idf (0 when the store cannot tell): the adaptive fusion's coverage signal. */
  idfMass: number;
  /** Successor seq of each superseded candidate, when the store read them with the legs (saves a round trip). */
  successors?: Map<number, number>;
  /** {@link Backend.scopeSize} of the recall's namespace, when the store read it with the legs. */
  scopeSize?: number;
}

/** What one recall asks of the legs. */
export interface LegQuery {
  /** Query text for the keyword leg, or null to skip it. */
  text: string | null;
  /** Query vector for the vector leg, or null to skip it. */
  vector: Float32Array | null;
  model: string | null;
  depth: number;
  filter: RowFilter;
  exact: boolean;
}

/**
 * A store of memories. Every method maps storage errors to {@link MnemoliteError}s; writes are
 * atomic (a batch is written entirely or not at all).
 */
export interface Backend extends RankSource, HistorySource {
  /** `sqlite` or `postgres`. */
  readonly kind: 'sqlite' | 'postgres';
  /** File path, or the connection URL without its password. */
  readonly location: string;

  identity(): Promise<EmbeddingIdentity | null>;
  setIdentity(e: EmbeddingIdentity): Promise<void>;

  /** Stored vectors of `model` for any of `hashes` (memories first, then the embedding cache), within `namespace` when given (see `VectorCache`). */
  cachedVectors(model: string, hashes: readonly string[], namespace?: string): Promise<Map<string, Float32Array>>;
  /** Keep a query vector in the embedding cache (best effort, bounded), under `namespace` when given. */
  cacheVector(model: string, hash: string, vector: Float32Array, namespace?: string): Promise<void>;

  addMany(items: WriteItem[], model: string | null, dedup: DedupDefaults): Promise<AddResult[]>;
  /** The last `n` memories of a session (newest last), with their vectors of `model` (null when they have none). */
  sessionTail(
    namespace: string,
    sessionId: string,
    n: number,
    model: string | null,
  ): Promise<{ content: string; vector: Float32Array | null; key: string | null }[]>;
  /**
   * Seqs of the turns around `seq` in its session (namespace `namespace`, session `sessionId`): up to
   * `before` just before it and `after` just after it, in seq order; expired ones left out.
   */
  sessionAround(namespace: string, sessionId: string, seq: number, before: number, after: number, now: string): Promise<number[]>;
  /** Apply an update to memory `id` (visible in namespace `ns`, or any when undefined); throws NOT_FOUND. */
  update(id: string, ns: string | undefined, change: UpdateChange, model: string | null): Promise<MemoryRow>;
  /**
   * Delete memory `id` (visible in namespace `ns`, or any when undefined) with every copy of its
   * text the store holds (src/lifecycle/erase.ts); false when there is no such memory.
   */
  forget(id: string, ns: string | undefined): Promise<boolean>;
  /** Delete every memory of a namespace with its history, the vectors cached for it and its keyword statistics. */
  erase(namespace: string): Promise<EraseResult>;

  /** The namespaces holding memories whose names start with `prefix`, sorted, at most `limit`. */
  namespacesWithPrefix(prefix: string, limit: number): Promise<string[]>;
  /** The current version of a namespace's profile (working memory), if any. */
  profileGet(namespace: string): Promise<ProfileRow | undefined>;
  /** Write a new profile version; CONFLICT when `expected` is not the stored version (src/lifecycle/profile.ts). */
  profileSet(namespace: string, content: string, expected: number | undefined, nowIso: string): Promise<ProfileRow>;
  /** A page of a profile's versions, newest first, with how many are kept. */
  profileHistory(namespace: string, offset: number, limit: number): Promise<{ rows: ProfileRow[]; total: number }>;
  /** Every kept profile version of one namespace (undefined: of all), by namespace then version (for an export). */
  profileExport(namespace: string | undefined): Promise<NamespacedProfileRow[]>;
  /** The same synchronously, for stores that can (the SQLite file). */
  profileExportSync?(namespace: string | undefined): NamespacedProfileRow[];
  /**
   * Write an imported profile's versions as they are (numbers and times kept), in one transaction:
   * `skip` leaves a namespace that already has a profile alone, `replace` drops its versions first.
   */
  profileImport(namespace: string, rows: ProfileRow[], onConflict: 'skip' | 'replace'): Promise<'imported' | 'replaced' | 'skipped'>;

  getById(id: string): Promise<MemoryRow | undefined>;
  list(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<MemoryRow[]>;
  count(f: RowFilter): Promise<number>;
  /** A page of `list` and the count of every match, read in one snapshot (so the two agree). */
  listPage(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<{ rows: MemoryRow[]; total: number }>;
  stats(f: RowFilter, model: string | null): Promise<StoreStats>;

  /** Both legs of a recall (one round trip where the store allows it). */
  legs(q: LegQuery): Promise<LegResults>;
  /**
   * Memories in one namespace (every namespace when undefined), for relevance's baseline
   * (src/recall/baseline.ts): exact on the file; on PostgreSQL its keyword statistics' count, which
   * lags writes by up to 10%.
   */
  scopeSize(namespace: string | undefined): Promise<number>;
  /**
   * For each of `vectors`, the best score the vector leg would give it among the memories of one
   * namespace (every namespace when undefined) with vectors of `model`; 0 when there are none.
   */
  bestCosines(vectors: readonly Float32Array[], model: string, namespace: string | undefined): Promise<number[]>;
  rowsBySeqs(seqs: number[]): Promise<Map<number, MemoryRow>>;

  prune(o: PruneOptions, nowIso: string): Promise<PruneResult>;
  /** Rows in seq order, with vectors when asked. */
  exportRows(f: RowFilter, vectors: boolean): AsyncIterable<ExportRow>;
  /** The same synchronously, for stores that can (the SQLite file); undefined otherwise. */
  exportRowsSync?(f: RowFilter, vectors: boolean): Iterable<ExportRow>;
  importBatch(items: ImportItem[], model: string | null, onConflict: 'skip' | 'replace'): Promise<{ imported: number; replaced: number; skipped: number }>;

  /** How many memories lack a vector of `model`. */
  countToEmbed(model: string): Promise<number>;
  /** Memories lacking a vector of `model`, with `seq > after`, oldest first. */
  toEmbed(model: string, after: number, limit: number): Promise<{ seq: number; content: string; content_hash: string; context: string | null }[]>;
  /** New vectors (and context vectors, null when a memory has no context) of `model`. */
  setVectors(rows: { seq: number; vector: Float32Array; contextVector: Float32Array | null }[], model: string): Promise<void>;

  /** Consistent copy to a new file (SQLite); other stores throw UNSUPPORTED with what to use instead. */
  backup(dest: string): Promise<void>;
  close(): Promise<void>;
}
