/** What the parts of a PostgreSQL store (src/pg/write.ts, reads.ts, search.ts) share. */
import type { MemoryRow } from '../types/rows.js';
import type { PgClient } from './client.js';

/** One open PostgreSQL store, as its parts see it. */
export interface PgStore {
  readonly db: PgClient;
  /** The mnemolite schema (a checked SQL name). */
  readonly schema: string;
  /** The URL without its password. */
  readonly location: string;
  /** Whether the store has a vector column (pgvector, and an embedder once). */
  readonly vectors: boolean;
  /** Count rows written (and, when known, their namespaces), so the keyword statistics know when to refresh. */
  wrote(n: number, namespaces?: Iterable<string>): void;
}

/** Rows as {@link MemoryRow}s (the driver returns plain objects with the aliased columns). */
export const rows = (r: Record<string, unknown>[]): MemoryRow[] => r as unknown as MemoryRow[];
