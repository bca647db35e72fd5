/**
 * The connection pool (driver `pg`), transactions, and the mapping of driver errors to
 * {@link MnemoliteError}s: no raw PostgreSQL error reaches a caller.
 */
import pg from 'pg';
import { MnemoliteError } from '../errors.js';

/** One connection's query function. */
export type Query = <R = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<R[]>;

/** Settings for {@link PgClient}. */
export interface PgClientOptions {
  schema: string;
  poolSize: number;
  connectTimeoutMs: number;
  /** How long a statement waits for a lock held by another connection before failing with BUSY. */
  lockTimeoutMs: number;
}

/** mnemolite's tables: every statement names them with the store's schema. */
const TABLES = ['memories', 'meta', 'embedding_cache', 'memory_history', 'term_stats', 'ctx_term_stats', 'namespace_stats', 'profiles'];

/** Retry a transaction this many times on serialization failures and deadlocks. */
const TX_RETRIES = 5;

/** SQLSTATE classes and codes mapped to typed errors. */
function mapError(err: unknown, where: string, action: string): MnemoliteError {
  if (err instanceof MnemoliteError) return err;
  const e = err as { code?: string; message?: string; errno?: number };
  const code = e?.code ?? '';
  const msg = e?.message ?? String(err);
  const opts = { cause: err };
  if (
    [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EAI_AGAIN',
      'ETIMEDOUT',
      'ECONNRESET',
      'EHOSTUNREACH',
      '57P01',
      '57P02',
      '57P03',
      '08000',
      '08003',
      '08006',
      '08001',
      '08004',
    ].includes(code) ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(msg)
  ) {
    return new MnemoliteError(
      'UNAVAILABLE',
      `Cannot reach PostgreSQL at ${where} to ${action} (${msg}). Check that the server is running and the URL is right, then retry.`,
      { code },
      opts,
    );
  }
  if (code === '28P01' || code === '28000') {
    return new MnemoliteError('UNAVAILABLE', `PostgreSQL at ${where} refused the login (${msg}). Check the user and password in the URL.`, { code }, opts);
  }
  if (code === '3D000') return new MnemoliteError('UNAVAILABLE', `${msg} at ${where}. Create it first (createdb) or fix the URL.`, { code }, opts);
  if (code === '42501')
    return new MnemoliteError(
      'STORAGE',
      `PostgreSQL denied a permission to ${action} (${msg}). Grant the user rights on the mnemolite schema, or use an owner account.`,
      { code },
      opts,
    );
  if (code === '25006') return new MnemoliteError('READ_ONLY', `${where} was opened read-only. Open it without readonly to write.`, { code }, opts);
  if (code === '55P03')
    return new MnemoliteError(
      'BUSY',
      `Could not ${action}: another connection held a lock on ${where} for longer than busyTimeoutMs; nothing was written. Retry, or open with a larger busyTimeoutMs.`,
      { code },
      opts,
    );
  if (code === '40001' || code === '40P01')
    return new MnemoliteError('BUSY', `PostgreSQL could not ${action} because of concurrent writers (${msg}); nothing was written. Retry.`, { code }, opts);
  if (code === '53100' || code === '53200' || code === '53300')
    return new MnemoliteError('STORAGE', `PostgreSQL is out of a resource while trying to ${action} (${msg}).`, { code }, opts);
  return new MnemoliteError('STORAGE', `PostgreSQL failed to ${action} (${code ? `${code}: ` : ''}${msg}).`, code ? { code } : undefined, opts);
}

/** A pool of connections to one database, with the store's schema first on the search path. */
export class PgClient {
  private readonly pool: pg.Pool;
  private readonly setup: string;
  private readonly tables: RegExp;
  private readonly prefix: string;
  private readonly ready = new WeakSet<pg.PoolClient>();
  readonly where: string;

  constructor(url: string, where: string, o: PgClientOptions) {
    this.where = where;
    this.pool = new pg.Pool({
      connectionString: url,
      max: o.poolSize,
      connectionTimeoutMillis: o.connectTimeoutMs,
      application_name: 'mnemolite',
    });
    this.tables = new RegExp(`(?<![."\\w])(${TABLES.join('|')})(?![\\w"])`, 'g');
    this.prefix = `"${o.schema}".`;
    // HNSW: search deeper than the default 40 candidates, and keep scanning when filters drop rows
    // (pgvector 0.8+; an unknown setting is ignored before the extension loads). Nothing else is
    // kept in the session: tables are named with their schema in every statement, so poolers
    // and shared sessions (PGlite) cannot mix two stores up.
    // lock_timeout: the file's busyTimeoutMs (0 would mean wait forever in PostgreSQL, so at least 1 ms).
    this.setup = `SET hnsw.ef_search = 100; SET hnsw.iterative_scan = relaxed_order; SET lock_timeout = ${Math.max(1, Math.round(o.lockTimeoutMs))};`;
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    this.pool.on('error', () => {});
  }

  /** A connection with the session settings applied (once per connection). */
  private async acquire(): Promise<pg.PoolClient> {
    const c = await this.pool.connect();
    if (!this.ready.has(c)) {
      try {
        await c.query(this.setup);
      } catch (err) {
        c.release(true);
        throw err;
      }
      this.ready.add(c);
    }
    return c;
  }

  /** The statement with mnemolite's table names qualified by the schema. */
  qualify(sql: string): string {
    return sql.replace(this.tables, (t) => this.prefix + t);
  }

  /** Run one statement outside a transaction. */
  async query<R = Record<string, unknown>>(action: string, sql: string, params: unknown[] = []): Promise<R[]> {
    let c: pg.PoolClient | undefined;
    try {
      c = await this.acquire();
      return (await c.query(this.qualify(sql), params)).rows as R[];
    } catch (err) {
      throw mapError(err, this.where, action);
    } finally {
      c?.release();
    }
  }

  /** Run `fn` in one transaction (retried on serialization failures and deadlocks); all or nothing. */
  async tx<T>(action: string, fn: (q: Query) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.acquire();
      } catch (err) {
        throw mapError(err, this.where, action);
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        const q: Query = async <R>(sql: string, params: unknown[] = []) => (await client.query(this.qualify(sql), params)).rows as R[];
        const out = await fn(q);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const code = (err as { code?: string })?.code;
        if ((code === '40001' || code === '40P01') && attempt < TX_RETRIES) {
          await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
          continue;
        }
        throw mapError(err, this.where, action);
      } finally {
        client.release(broken);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

export { mapError };
