import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MnemoliteError } from '../errors.js';
import { APPLICATION_ID, SCHEMA_VERSION, migrate } from './schema.js';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** Options for {@link openDatabase}. */
export interface ConnectionOptions {
  readonly?: boolean;
  busyTimeoutMs?: number;
}

/** Read the 16-byte header without letting SQLite touch the file. */
function checkHeader(path: string): void {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isDirectory()) {
    throw new MnemoliteError('NOT_A_DATABASE', `${path} is a directory, not a database file. Pass a file path with --db.`);
  }
  // A FIFO would block the open forever; /dev/null and other devices read as empty and then fail
  // mid-write, leaving "-journal" files beside them. Only regular files are databases.
  if (!st.isFile()) {
    throw new MnemoliteError(
      'NOT_A_DATABASE',
      `${path} is not a regular file (a FIFO, device or socket). Point --db at a mnemolite file or a new path; nothing was changed.`,
    );
  }
  if (st.size === 0) return; // an empty file is a fresh database to SQLite
  const buf = Buffer.alloc(100);
  try {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buf, 0, 100, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new MnemoliteError('READ_ONLY', `Cannot read ${path} (${(err as Error).message}). Check its permissions.`, undefined, { cause: err });
  }
  if (st.size < 100 || buf.toString('latin1', 0, 16) !== SQLITE_MAGIC) {
    throw new MnemoliteError(
      'NOT_A_DATABASE',
      `${path} is not a SQLite database (or is truncated). Point --db at a mnemolite file or a new path; the file was not changed.`,
    );
  }
  // Truncated? The header records the page count (valid when the change counter at offset 24
  // equals the version-valid-for number at 92). Without a pending -wal or -journal, which may
  // still hold pages, the file must contain all of them.
  const pageSize = buf.readUInt16BE(16) === 1 ? 65536 : buf.readUInt16BE(16);
  const pages = buf.readUInt32BE(28);
  // Another process may delete its -wal between two calls: stat once, without throwing on absence.
  const pending = [`${path}-wal`, `${path}-journal`].some((p) => (statSync(p, { throwIfNoEntry: false })?.size ?? 0) > 0);
  if (!pending && pages > 0 && buf.readUInt32BE(24) === buf.readUInt32BE(92) && st.size < pages * pageSize) {
    throw new MnemoliteError(
      'NOT_A_DATABASE',
      `${path} is truncated (${st.size} bytes; its header says ${pages * pageSize}). Restore it from a backup; the file was not changed.`,
    );
  }
}

/** Map a raw SQLite error to a typed error; rethrow anything already typed. */
export function storageError(err: unknown, path: string, action: string): MnemoliteError {
  if (err instanceof MnemoliteError) return err;
  const code = (err as { code?: string })?.code ?? '';
  const msg = (err as Error)?.message ?? String(err);
  if (err instanceof TypeError && /busy executing a query/.test(msg)) {
    return new MnemoliteError(
      'INVALID_INPUT',
      `Cannot ${action} while an export() of the same Memory is still being iterated. Finish or break that loop first, iterate [...memory.export()] instead, or use a second Memory.`,
      undefined,
      { cause: err },
    );
  }
  // better-sqlite3 loads its native module on first open: not built (install scripts skipped) or built for another Node.
  if (/Could not locate the bindings file|NODE_MODULE_VERSION|better_sqlite3\.node/.test(msg)) {
    return new MnemoliteError(
      'STORAGE',
      `SQLite's native module (better-sqlite3) is not built for this Node.js ${process.version}, so ${path} cannot be opened. Run: npm rebuild better-sqlite3 (npm must be allowed to run its install script). Detail: ${msg.split('\n')[0]}`,
      undefined,
      { cause: err },
    );
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new MnemoliteError(
      'NOT_A_DATABASE',
      `${path} is damaged or not a database (${msg}) while trying to ${action}. Restore it from a backup.`,
      undefined,
      { cause: err },
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new MnemoliteError('BUSY', `${path} stayed locked by another process while trying to ${action}. Retry, or raise busyTimeoutMs.`, undefined, {
      cause: err,
    });
  }
  if (
    code.startsWith('SQLITE_READONLY') ||
    code === 'SQLITE_CANTOPEN' ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code.startsWith('SQLITE_PERM') ||
    code.startsWith('SQLITE_AUTH')
  ) {
    return new MnemoliteError(
      'READ_ONLY',
      `Cannot ${action}: ${path} (or its directory) is not writable or cannot be opened (${msg}). Check permissions, or open it with readonly: true.`,
      undefined,
      { cause: err },
    );
  }
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) {
    return new MnemoliteError('STORAGE', `Disk error while trying to ${action} on ${path} (${msg}). Check free space and the disk.`, undefined, { cause: err });
  }
  return new MnemoliteError('STORAGE', `Database error while trying to ${action} on ${path}: ${msg}`, undefined, { cause: err });
}

/**
 * Throw unless the file is empty or a mnemolite file this version can read; returns its schema version.
 * One read transaction, so a migration committed by another process is seen whole or not at all.
 */
function checkVersions(db: Database.Database, path: string): number {
  const { version, appId, tables } = db.transaction(() => ({
    version: db.pragma('user_version', { simple: true }) as number,
    appId: db.pragma('application_id', { simple: true }) as number,
    tables: (db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as { n: number }).n,
  }))();
  if (version > SCHEMA_VERSION) {
    throw new MnemoliteError(
      'SCHEMA_TOO_NEW',
      `${path} was written by a newer mnemolite (schema ${version}; this version reads up to ${SCHEMA_VERSION}). Upgrade mnemolite; the file was not changed.`,
      { fileVersion: version, supported: SCHEMA_VERSION },
    );
  }
  if (appId !== 0 && appId !== APPLICATION_ID) {
    throw new MnemoliteError(
      'NOT_A_DATABASE',
      `${path} is a SQLite database of another application (application_id ${appId}). Use a separate file for mnemolite.`,
    );
  }
  if (version === 0 && tables > 0) {
    throw new MnemoliteError(
      'NOT_A_DATABASE',
      `${path} is a SQLite database that mnemolite did not create. Use a new file for mnemolite; this one was not changed.`,
    );
  }
  return version;
}

/**
 * Open (creating if needed) a mnemolite SQLite file, apply pragmas and migrations.
 * Refuses, without writing anything, files that are not SQLite, not mnemolite, or too new.
 */
export function openDatabase(path: string, opts: ConnectionOptions = {}): Database.Database {
  // Processes opening a new file together: SQLite answers BUSY at once, without its busy handler,
  // to some steps of the first open (switching to WAL, recovering another's WAL). The whole open is
  // retried (it writes nothing before it succeeds) until busyTimeoutMs has passed.
  const limit = Date.now() + Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000));
  for (let attempt = 1; ; attempt++) {
    try {
      return openOnce(path, opts);
    } catch (err) {
      if (!(err instanceof MnemoliteError) || err.code !== 'BUSY' || Date.now() >= limit) throw err;
      Atomics.wait(RETRY_WAIT, 0, 0, Math.min(50, 5 * attempt));
    }
  }
}

const RETRY_WAIT = new Int32Array(new SharedArrayBuffer(4));

function openOnce(path: string, opts: ConnectionOptions): Database.Database {
  const memory = path === ':memory:';
  if (!memory) {
    checkHeader(path);
    if (opts.readonly && !existsSync(path)) {
      throw new MnemoliteError('NOT_FOUND', `${path} does not exist, so it cannot be opened read-only. Check the path.`);
    }
    if (!opts.readonly && !existsSync(dirname(path) || '.')) {
      throw new MnemoliteError('INVALID_INPUT', `The directory of ${path} does not exist. Create it first or choose another --db path.`);
    }
  }
  if (!memory && !opts.readonly && existsSync(path) && statSync(path).size > 0) {
    // Refuse foreign or newer files through a read-only connection first: closing a writable
    // connection checkpoints a pending WAL into the file, which would change it.
    let probe: Database.Database | undefined;
    try {
      probe = new Database(path, { readonly: true, fileMustExist: true });
      probe.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
      checkVersions(probe, path);
    } catch (err) {
      throw storageError(err, path, 'open the database');
    } finally {
      probe?.close();
    }
  }
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: !!opts.readonly, fileMustExist: !!opts.readonly });
  } catch (err) {
    throw storageError(err, path, 'open the database');
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
    // Version checks first: nothing may be written to a file we do not understand.
    const version = checkVersions(db, path);
    if (opts.readonly) {
      if (version < SCHEMA_VERSION) {
        throw new MnemoliteError('READ_ONLY', `${path} uses an older schema (${version}) and must be upgraded; open it once without readonly.`);
      }
    } else {
      // New (empty) files reclaim the space of pruned memories with incremental vacuum; the
      // mode can only be chosen before the first table exists (see src/store/prune.ts).
      if (version === 0) db.pragma('auto_vacuum = INCREMENTAL');
      if (!memory) db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // Deleted rows and freed pages are overwritten with zeros: forgotten text leaves the file.
      db.pragma('secure_delete = ON');
      if (version < SCHEMA_VERSION) migrate(db, version);
    }
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -32000'); // 32 MB page cache
    return db;
  } catch (err) {
    db.close();
    throw storageError(err, path, 'open the database');
  }
}
