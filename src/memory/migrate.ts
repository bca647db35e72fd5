/** migrateMemories: copy every memory of one store into another (a file into PostgreSQL, or back). */
import { invalid } from '../errors.js';
import type { ExportRecord } from '../types/memory.js';
import type { ProfileExportRecord } from '../types/profile.js';
import { Memory } from './memory.js';
import type { ImportResult } from './transfer.js';

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
 * use the same embedding model, else re-embedded by `to`'s embedder. Each namespace's profile
 * (working memory) comes along with its kept versions. History (previous contents of memories)
 * is not copied.
 */
export async function migrateMemories(from: Memory, to: Memory, options: MigrateOptions = {}): Promise<MigrateResult> {
  if (!(from instanceof Memory) || !(to instanceof Memory)) throw invalid('migrateMemories expects two open Memory objects.');
  if (from === to || (from.storage === to.storage && from.path === to.path && from.path !== ':memory:'))
    throw invalid('The source and the destination are the same store.');
  if (options.batchSize !== undefined && !(Number.isInteger(options.batchSize) && options.batchSize >= 1))
    throw invalid('batchSize must be a whole number, 1 or more.');
  const batchSize = Math.min(10_000, options.batchSize ?? 500);
  const s = await from.stats();
  const total = s.memories + s.expired;
  const res: MigrateResult = { imported: 0, replaced: 0, skipped: 0, total };
  let batch: (ExportRecord | ProfileExportRecord)[] = [];
  const flush = async (): Promise<void> => {
    if (!batch.length) return;
    const r = await to.import(batch, { batchSize, onConflict: options.onConflict ?? 'skip' });
    res.imported += r.imported;
    res.replaced += r.replaced;
    res.skipped += r.skipped;
    if (r.profiles) {
      res.profiles ??= { imported: 0, replaced: 0, skipped: 0 };
      const p = res.profiles;
      p.imported += r.profiles.imported;
      p.replaced += r.profiles.replaced;
      p.skipped += r.profiles.skipped;
    }
    batch = [];
    options.onProgress?.(res.imported + res.replaced + res.skipped, total);
  };
  options.onProgress?.(0, total);
  for await (const rec of from.export({ vectors: true, profiles: true })) {
    batch.push(rec);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return res;
}
