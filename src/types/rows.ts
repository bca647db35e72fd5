/** A row of the `memories` table as the store hands it up (vector excluded). */
export interface MemoryRow {
  seq: number;
  id: string;
  namespace: string;
  key: string | null;
  content: string;
  category: string | null;
  session_id: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  content_hash: string;
  embedding_model: string | null;
  /** Lifecycle columns (schema 2, src/lifecycle/). */
  expires_at: string | null;
  pinned: number;
  importance: number | null;
  superseded_by: string | null;
  /** Conversational context (schema 3): JSON array of the preceding memories' contents in the session, or null. */
  context: string | null;
  /** When it happened (file schema 4, PostgreSQL 5): the caller's event time, ISO 8601 UTC, or null (its time is `created_at`). */
  event_at: string | null;
}

/** Validated filter in storage terms (dates as ISO strings). */
export interface RowFilter {
  /** `undefined` = all namespaces. */
  namespace?: string;
  /**
   * One of these namespaces (a scope of several, src/recall/scope.ts): list and count only. Recall
   * never gets it: it runs once per namespace, each with its own keyword statistics.
   */
  namespaces?: string[];
  category?: string;
  sessionId?: string;
  since?: string;
  until?: string;
  /** Which time `since` / `until` compare: `event` (default: `event_at`, else `created_at`) or `created` (`created_at`). */
  timeField?: 'event' | 'created';
  metadata?: Array<[path: string, value: string | number | boolean | null]>;
  /** ISO time: only memories not expired at this time (unexpired = no expires_at, a later one, or pinned). */
  activeAt?: string;
}

/** Values for inserting a memory. */
export interface NewRow {
  id: string;
  namespace: string;
  key: string | null;
  content: string;
  category: string | null;
  session_id: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  content_hash: string;
  embedding: Buffer | null;
  embedding_model: string | null;
  /** Lifecycle columns; default none / 0 / null. */
  expires_at?: string | null;
  pinned?: number;
  importance?: number | null;
  superseded_by?: string | null;
  dedup_hash?: string | null;
  /** Conversational context: JSON array of strings, and the normalised mean of their vectors. */
  context?: string | null;
  context_embedding?: Buffer | null;
  /** When it happened; on replace, `undefined` keeps the stored value. */
  event_at?: string | null;
}
