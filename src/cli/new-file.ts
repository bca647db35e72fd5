import { lstatSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isPostgresUrl } from '../pg/url.js';

/**
 * Run a command that may create the memory file, and remove the file again if the command fails
 * and the file it created holds no memories: a failed `import` into a new path must not leave an
 * empty database behind (the next run would find a file of the wrong shape or model). A file that
 * existed before, or that holds memories (another process wrote, or an interrupted multi-batch
 * import left resumable batches), is kept. With `dryRun`, the same holds after success.
 */
export async function removeCreatedOnFailure<T>(db: string, run: () => Promise<T>, o: { dryRun?: boolean } = {}): Promise<T> {
  const created = !isPostgresUrl(db) && !exists(db);
  const cleanUp = (): void => {
    if (created && exists(db) && holdsNoMemories(db)) {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(db + suffix, { force: true });
    }
  };
  try {
    const out = await run();
    // A dry run promises to write nothing: not even the empty file it had to open.
    if (o.dryRun) cleanUp();
    return out;
  } catch (err) {
    cleanUp();
    throw err;
  }
}

/** Whether anything is at `path`, a dangling symlink included. */
function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a regular SQLite file has no memories (or no memories table yet). Unsure: false. */
function holdsNoMemories(path: string): boolean {
  try {
    if (!lstatSync(path).isFile()) return false;
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memories'").get();
      return !table || db.prepare('SELECT count(*) FROM memories').pluck().get() === 0;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}
