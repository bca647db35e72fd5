/**
 * Prune: delete expired memories (never pinned ones) with their history, then reclaim space.
 *
 * Files created by this version use `auto_vacuum = INCREMENTAL`, so prune gives freed pages back
 * to the file system (`PRAGMA incremental_vacuum`, then a WAL checkpoint). Files created before
 * (schema 1) have `auto_vacuum = NONE`, which SQLite can only change by rebuilding the file: there
 * prune frees the pages for reuse by later writes but cannot shrink the file, unless asked for a
 * full `VACUUM` (which also switches the file to incremental mode for next time).
 */
import type { Store } from './store.js';
import { storageError } from './connection.js';
import type { PruneOptions, PruneResult } from '../types/lifecycle.js';

const MODES = ['none', 'full', 'incremental'] as const;
const MAX_IDS = 1000;

/** Run prune. `nowIso` decides what is expired. */
export function prune(store: Store, o: PruneOptions, nowIso: string): PruneResult {
  const db = store.db;
  const page = (): { free: number; size: number } => ({
    free: db.pragma('freelist_count', { simple: true }) as number,
    size: db.pragma('page_size', { simple: true }) as number,
  });
  const autoVacuum = MODES[db.pragma('auto_vacuum', { simple: true }) as number] ?? 'none';
  const before = page();
  const bytesBefore = store.fileBytes();
  const ns = o.namespace !== undefined ? ' AND namespace = ?' : '';
  const args: unknown[] = o.namespace !== undefined ? [nowIso, o.namespace] : [nowIso];

  const expired = store.read(
    'find expired memories',
    () =>
      db.prepare(`SELECT seq, id FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ? AND pinned = 0${ns} ORDER BY seq`).all(...args) as {
        seq: number;
        id: string;
      }[],
  );
  const pinnedKept = store.read(
    'count pinned memories',
    () =>
      db
        .prepare(`SELECT count(*) FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ? AND pinned = 1${ns}`)
        .pluck()
        .get(...args) as number,
  );
  const ids = JSON.stringify(expired.map((r) => r.id));
  const historyDeleted = store.read(
    'count history',
    () => db.prepare('SELECT count(*) FROM memory_history WHERE memory_id IN (SELECT value FROM json_each(?))').pluck().get(ids) as number,
  );

  const res: PruneResult = {
    deleted: expired.length,
    ids: expired.slice(0, MAX_IDS).map((r) => r.id),
    historyDeleted,
    pinnedKept,
    dryRun: !!o.dryRun,
    autoVacuum,
    vacuum: 'none',
    freePagesBefore: before.free,
    freePagesAfter: before.free,
    bytesBefore,
    bytesAfter: bytesBefore,
  };
  if (o.dryRun) return res;

  if (expired.length) {
    store.write('delete expired memories', () => {
      const seqs = JSON.stringify(expired.map((r) => r.seq));
      // The delete trigger keeps vectors of removed content in embedding_cache; pruning is about
      // space, so drop those cache entries again unless another memory still has that content.
      const hashes = db
        .prepare('SELECT DISTINCT embedding_model, content_hash FROM memories WHERE seq IN (SELECT value FROM json_each(?)) AND embedding_model IS NOT NULL')
        .raw()
        .all(seqs) as [string, string][];
      db.prepare('DELETE FROM memories WHERE seq IN (SELECT value FROM json_each(?))').run(seqs);
      const dropCache = db.prepare(
        'DELETE FROM embedding_cache WHERE model = ? AND content_hash = ? AND NOT EXISTS (SELECT 1 FROM memories WHERE content_hash = ?)',
      );
      for (const [model, hash] of hashes) dropCache.run(model, hash, hash);
      // No FTS5 merge needed: its secure-delete (schema 5) drops a deleted row's postings at once.
    });
  }

  const vacuum = o.vacuum ?? 'auto';
  try {
    if (vacuum === 'full') {
      db.pragma('auto_vacuum = INCREMENTAL');
      db.exec('VACUUM');
      res.vacuum = 'full';
    } else if (vacuum === 'auto' && autoVacuum === 'incremental') {
      db.pragma('incremental_vacuum');
      res.vacuum = 'incremental';
    }
    if (res.vacuum !== 'none' && store.path !== ':memory:') {
      const [cp] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (cp?.busy) res.note = 'Other connections were reading, so the WAL could not be checkpointed yet; the file shrinks at the next checkpoint.';
    }
  } catch (err) {
    throw storageError(
      err,
      store.path,
      vacuum === 'full' ? 'vacuum the file (VACUUM needs free disk space about the size of the file, and no other writer)' : 'reclaim free pages',
    );
  }

  const after = page();
  res.freePagesAfter = after.free;
  res.bytesAfter = store.fileBytes();
  if (autoVacuum === 'none' && vacuum !== 'full' && after.free > 0) {
    res.note =
      `This file was created before mnemolite enabled incremental vacuum (auto_vacuum = NONE). Its ${after.free} free pages ` +
      `(${Math.round((after.free * after.size) / 1024)} KiB) are reused by new memories, but the file does not shrink. ` +
      'Run prune once with vacuum "full" (CLI: mnemolite prune --vacuum full) to rebuild it smaller and switch it to incremental vacuum; that needs free disk space about the size of the file.';
  }
  return res;
}
