/** Opening a store: checking the options, choosing the store, and checking its embedding identity. */
import { resolveEmbedder } from '../embed/index.js';
import type { Embedder } from '../embed/provider.js';
import { MnemoliteError, invalid } from '../errors.js';
import { SqliteBackend } from '../backend/sqlite.js';
import type { Backend, EmbeddingIdentity } from '../backend/types.js';
import { parseOpenDedup } from '../options/lifecycle.js';
import { Memory } from './memory.js';
import { isPostgresUrl } from '../pg/url.js';
import type { OpenOptions } from '../types/memory.js';

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
  if (options.searchThread !== undefined && typeof options.searchThread !== 'boolean') throw invalid('searchThread must be true or false (default true).');
  if (options.busyTimeoutMs !== undefined && !(Number.isFinite(options.busyTimeoutMs) && options.busyTimeoutMs >= 0)) {
    throw invalid('busyTimeoutMs must be a number of milliseconds, 0 or more (default 5000).');
  }
  const url = options.url ?? (typeof options.path === 'string' && isPostgresUrl(options.path) ? options.path : undefined);
  if (url !== undefined && (typeof url !== 'string' || !isPostgresUrl(url)))
    throw invalid('url must be a PostgreSQL connection URL such as "postgres://user@host:5432/db".');
  if (url !== undefined && options.path !== undefined && options.path !== url) throw invalid('Give either path (a SQLite file) or url (PostgreSQL), not both.');
  const path = options.path ?? 'memory.db';
  if (url === undefined && (typeof path !== 'string' || !path.trim() || path.includes('\u0000')))
    throw invalid('path must be a file path such as "memory.db".');
  const embedder = resolveEmbedder(options.embedder, options.embedWorkers);
  const readonly = !!options.readonly;
  const dedup = parseOpenDedup(options);
  const backend: Backend =
    url !== undefined
      ? await (await import('../pg/open.js')).openPostgres(url, {
          readonly,
          embedder,
          lockTimeoutMs: options.busyTimeoutMs ?? 5000,
          ...(options.postgres ?? {}),
        })
      : new SqliteBackend(path, {
          readonly,
          model: embedder?.id ?? null,
          dims: embedder?.dims ?? 0,
          searchThread: options.searchThread !== false,
          ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
        });
  try {
    // Read even without an embedder: it is the first read of the store, and refuses a damaged one.
    const recorded = await backend.identity();
    if (embedder) {
      await checkIdentity(backend, recorded, embedder, {
        where: backend.kind === 'sqlite' ? path : backend.location,
        readonly,
        allowModelChange: !!options.allowModelChange,
      });
    }
    const off = embedder ? undefined : options.embedder === 'none' ? "embedder 'none' was chosen: keyword recall only" : 'no embedder';
    return new Memory(backend, embedder, readonly, off, dedup);
  } catch (err) {
    await backend.close();
    throw err;
  }
}

/**
 * Refuse a store whose vectors come from another model (unless `allowModelChange`), and record the
 * embedder's identity when it is new or changed.
 */
async function checkIdentity(
  backend: Backend,
  recorded: EmbeddingIdentity | null,
  embedder: Embedder,
  o: { where: string; readonly: boolean; allowModelChange: boolean },
): Promise<void> {
  const mine = { provider: embedder.provider, model: embedder.id, dims: embedder.dims };
  if (recorded && (recorded.model !== mine.model || recorded.dims !== mine.dims)) {
    if (!o.allowModelChange) {
      throw new MnemoliteError(
        'EMBEDDING_MISMATCH',
        `${o.where} holds vectors from ${recorded.provider} model "${recorded.model}" (${recorded.dims} dims), but it was opened with "${mine.model}" (${mine.dims} dims). ` +
          `Open it with the same embedder, or switch ${backend.kind === 'sqlite' ? 'the file' : 'the database'} to the new one with: mnemolite reindex --db ${o.where}`,
        { recorded, requested: mine },
      );
    }
    if (o.readonly) throw new MnemoliteError('READ_ONLY', 'Switching the embedding model needs a writable store.');
  }
  if (!o.readonly && (!recorded || recorded.model !== mine.model || recorded.dims !== mine.dims || recorded.provider !== mine.provider)) {
    await backend.setIdentity(mine);
  }
}
