import type { OpenOptions } from '../index.js';
import { isPostgresUrl } from '../pg/url.js';

/** The global flags that say where memories are kept. */
export interface StoreFlags {
  db: string;
  pgSchema?: string;
}

/** `--db` (a file or a postgres:// URL) and `--pg-schema` as openMemory options. */
export function storeOptions(g: StoreFlags): Pick<OpenOptions, 'path' | 'url' | 'postgres'> {
  if (!isPostgresUrl(g.db)) return { path: g.db };
  return { url: g.db, ...(g.pgSchema !== undefined ? { postgres: { schema: g.pgSchema } } : {}) };
}
