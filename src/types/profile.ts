/**
 * Working memory: one small document per namespace (Mastra's workingMemory, Letta's core memory
 * blocks), always current, read in full at the top of `context()`. Versions are kept, bounded.
 */

/** Largest profile document, in UTF-8 bytes. */
export const PROFILE_MAX_BYTES = 8192;
/** Versions kept per namespace (the current one included); older ones are erased. */
export const PROFILE_VERSIONS_KEPT = 50;

/** A namespace's profile. `version` 0 and `content` "" when none was ever written. */
export interface Profile {
  namespace: string;
  /** The document: free Markdown or a filled-in template. */
  content: string;
  /** Increases by one on every write; pass it back as `expectedVersion` to update without losing another writer's change. */
  version: number;
  /** When this version was written, or null when there is no profile. */
  updatedAt: Date | null;
}

/** One stored version of a profile. */
export interface ProfileVersion {
  version: number;
  content: string;
  savedAt: Date;
}

/** Options of `mem.profile.set`. */
export interface ProfileSetOptions {
  /** Namespace of the profile (default `"default"`). */
  namespace?: string;
  /**
   * The version the caller read (0: there must be no profile yet). When the stored version differs,
   * nothing is written and the call throws `CONFLICT`: another writer changed it in between.
   */
  expectedVersion?: number;
}

/** Options of `mem.profile.history`. */
export interface ProfileHistoryOptions {
  namespace?: string;
  /** Versions to skip, newest first (default 0). */
  offset?: number;
  /** Versions per page (default 20, at most 50). */
  limit?: number;
}

/** A page of a profile's versions, newest first. */
export interface ProfileHistory {
  namespace: string;
  versions: ProfileVersion[];
  /** Versions kept in all. */
  total: number;
}

/** A stored profile version as both stores return it. */
export interface ProfileRow {
  version: number;
  content: string;
  saved_at: string;
}

/** A stored version with its namespace, as the stores list them for an export. */
export interface NamespacedProfileRow extends ProfileRow {
  namespace: string;
}

/**
 * A profile in an export (one JSON Lines record, after the memories): a namespace's kept
 * versions, oldest first. Told apart from a memory record by `kind`; memory records have none,
 * so files written before profiles were exported import as they did.
 */
export interface ProfileExportRecord {
  kind: 'profile';
  namespace: string;
  /** Every kept version, oldest first; the last is the current profile. */
  versions: { version: number; content: string; savedAt: string }[];
}
