/**
 * Public types of the lifecycle features: dedup, expiry, pinning, importance, recency,
 * diversity (MMR), supersession and history.
 */

/** A duration: milliseconds, or a string such as `"90s"`, `"15m"`, `"12h"`, `"7d"`, `"2w"`, `"1y"`. */
export type Duration = number | `${number}${'ms' | 's' | 'm' | 'h' | 'd' | 'w' | 'y'}` | string;

/** What `add` does with a near-duplicate (cosine similarity at or above the threshold). */
export type NearDuplicateMode = 'off' | 'report' | 'merge';

/** Lifecycle fields of a stored memory. Each is present only when set, so plain memories look as before. */
export interface LifecycleFields {
  /** When the memory expires (it then disappears from recall, get and list; `prune` deletes it). */
  expiresAt?: Date;
  /** Pinned: never expires and is never pruned; exempt from recency decay. Present only when `true`. */
  pinned?: true;
  /** Importance in [0, 1] (unset = neutral 0.5); weighs recall when `importanceWeight` is given. */
  importance?: number;
  /** Id of the memory that replaced this one (see `supersedes`); recall ranks this one below it. */
  supersededBy?: string;
}

/** Lifecycle options of `add` / `addMany`. */
export interface LifecycleAddOptions {
  /** Absolute expiry time (Date or ISO 8601). */
  expiresAt?: Date | string;
  /** Time to live from `createdAt` (default now): ms or a string like `"7d"`. Not together with `expiresAt`. */
  ttl?: Duration;
  /** Pin the memory: it never expires and is never pruned. */
  pinned?: boolean;
  /** Importance in [0, 1]. */
  importance?: number;
  /** Id of a memory (same namespace) that this one replaces: it is marked superseded and ranks below this one. */
  supersedes?: string;
  /** Store even if an identical or near-identical memory exists (skips dedup). */
  force?: boolean;
  /**
   * Near-duplicate handling (needs an embedder): `'off'` (default, unless set at open), `'report'`
   * (store, and list near-duplicates in the result), `'merge'` (fold into the closest near-duplicate).
   */
  nearDuplicates?: NearDuplicateMode;
  /** Cosine similarity at or above which a memory is a near-duplicate (default 0.92). */
  dedupThreshold?: number;
}

/** Lifecycle fields {@link Memory.update} can change. */
export interface LifecycleUpdateInput {
  /** New expiry time; `null` removes the expiry. */
  expiresAt?: Date | string | null;
  /** New time to live, counted from now. */
  ttl?: Duration;
  /** Pin or unpin. */
  pinned?: boolean;
  /** New importance in [0, 1]; `null` unsets it. */
  importance?: number | null;
}

/** Recency decay options of recall. */
export interface RecencyOptions {
  /** Half-life: a memory this old scores half (ms or `"30d"`). */
  halfLife: Duration;
  /**
   * How much of the score decays, in [0, 1] (default 0.2): `score × ((1 − weight) + weight × 0.5^(age / halfLife))`,
   * so old memories keep a floor of `1 − weight`. Measured (EVAL.md): 0.1–0.3 makes recency a tie-breaker
   * that helps "latest value" questions; 1 (pure decay) lets recent, unrelated memories crowd out relevant ones.
   */
  weight?: number;
  /** Reference time for ages (default now). */
  asOf?: Date | string;
}

/** MMR (maximal marginal relevance) options of recall. */
export interface MmrOptions {
  /** Trade-off in [0, 1]: 1 = relevance only, 0 = diversity only (default 0.7). */
  lambda?: number;
}

/** Lifecycle options of recall. All are off by default. */
export interface LifecycleRecallOptions {
  /** Half-life decay of scores by age (pinned and category `core` memories are exempt). */
  recency?: RecencyOptions;
  /** Weight importance: `score × (0.5 + importance)^importanceWeight` (0 = off, the default; 1 is a good start). */
  importanceWeight?: number;
  /** Re-rank the candidates for diversity with MMR, using stored vectors (`true` = λ 0.7). */
  mmr?: boolean | MmrOptions;
}

/** Result details of an add when dedup applied. */
export interface DedupInfo {
  /**
   * `'exact'`: the same normalised content was already stored, `id` is that memory and nothing was written.
   * `'merged'`: folded into the near-duplicate `id` (its content is now the new text; the old text is in its history).
   */
  deduplicated?: 'exact' | 'merged';
  /** Near-duplicates at or above the threshold, most similar first (with `nearDuplicates: 'report' | 'merge'`). */
  nearDuplicates?: NearDuplicate[];
}

/** A near-duplicate found on add. */
export interface NearDuplicate {
  id: string;
  /** Cosine similarity to the added content. */
  similarity: number;
  content: string;
}

/** Options of {@link Memory.erase}. */
export interface EraseOptions {
  /** The namespace to erase: one concrete name (`"*"` is refused). */
  namespace: string;
}

/** What {@link Memory.erase} removed. */
export interface EraseResult {
  namespace: string;
  /** Memories deleted. */
  memories: number;
  /** Earlier versions (history) deleted with them. */
  historyVersions: number;
  /** Cached vectors removed: query vectors cached for the namespace, and the vectors of its texts. */
  cachedVectors: number;
}

/** Options of {@link Memory.history}. */
export interface HistoryOptions {
  /** Only find the memory in this namespace (default: any). */
  namespace?: string;
  /** Versions to skip, oldest first (default 0). */
  offset?: number;
  /** Most versions to return (default: all). Only the returned versions' texts are read. */
  limit?: number;
}

/** One version of a memory's content, from {@link Memory.history}. */
export interface MemoryVersion {
  /** Id of the memory this version belongs to (a predecessor's id for superseded memories). */
  id: string;
  content: string;
  category: string | null;
  metadata: Record<string, unknown>;
  /** When this content became current. */
  validFrom: Date;
  /** When it was replaced; `null` for current contents. */
  validUntil: Date | null;
  /** `true` for the memory's current content. */
  current: boolean;
  /** How this version ended: `'updated'` (content changed), `'superseded'` (another memory replaced it). Absent when current. */
  endedBy?: 'updated' | 'superseded';
}

/** Options for {@link Memory.prune}. */
export interface PruneOptions {
  /** Only this namespace (default: all). */
  namespace?: string;
  /** Report what would be deleted without deleting. */
  dryRun?: boolean;
  /**
   * Space reclaiming after the delete: `'auto'` (default: incremental vacuum when the file supports
   * it), `'full'` (rebuild the whole file with VACUUM, which also switches an old file to incremental
   * vacuum; needs free disk space about the file's size), or `'none'`.
   */
  vacuum?: 'auto' | 'full' | 'none';
}

/** What {@link Memory.prune} did. */
export interface PruneResult {
  /** Expired memories deleted (or that would be, with `dryRun`). */
  deleted: number;
  /** Their ids (at most 1,000 listed). */
  ids: string[];
  /** History versions deleted with them. */
  historyDeleted: number;
  /** Pinned memories whose `expiresAt` has passed: kept, because pinned memories are never pruned. */
  pinnedKept: number;
  dryRun: boolean;
  /** The file's auto_vacuum mode (before prune): `incremental` for files made by this version, `none` for older ones. */
  autoVacuum: 'none' | 'full' | 'incremental';
  /** What ran: `incremental` vacuum, `full` VACUUM, or `none`. */
  vacuum: 'incremental' | 'full' | 'none';
  /** Free pages in the file before and after. */
  freePagesBefore: number;
  freePagesAfter: number;
  /** File size (main file + WAL) before and after, in bytes. */
  bytesBefore: number;
  bytesAfter: number;
  /** What could not be reclaimed and why, when relevant. */
  note?: string;
}
