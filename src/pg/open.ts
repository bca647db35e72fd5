/** Opening a PostgreSQL store: options, pgvector, creating or migrating the schema, the vector column. */
import type { Embedder } from '../embed/provider.js';
import { MnemoliteError, invalid } from '../errors.js';
import type { Backend } from '../backend/types.js';
import type { PostgresOptions } from '../types/memory.js';
import { PostgresBackend } from './backend.js';
import { PgClient, type Query } from './client.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION, SCHEMA_NAME, vectorColumnSql } from './schema.js';
import { redactUrl } from './url.js';

/** Options of {@link openPostgres}. */
export interface OpenPostgresOptions extends PostgresOptions {
  readonly: boolean;
  embedder: Embedder | null;
  /** `lock_timeout` of every connection (the file's `busyTimeoutMs`). */
  lockTimeoutMs: number;
}

/** Open (and create or migrate) a PostgreSQL store. */
export async function openPostgres(url: string, o: OpenPostgresOptions): Promise<Backend> {
  const schema = o.schema ?? 'mnemolite';
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema))
    throw invalid('postgres.schema must be a lower-case SQL name (letters, digits, _; 63 at most), e.g. "mnemolite".');
  const poolSize = o.poolSize ?? 10;
  if (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000) throw invalid('postgres.poolSize must be a whole number from 1 to 1000.');
  const connectTimeoutMs = o.connectTimeoutMs ?? 10_000;
  if (!Number.isFinite(connectTimeoutMs) || connectTimeoutMs < 0) throw invalid('postgres.connectTimeoutMs must be a number of milliseconds, 0 or more.');
  const location = redactUrl(url);

  const client = new PgClient(url, location, { schema, poolSize, connectTimeoutMs, lockTimeoutMs: o.lockTimeoutMs });
  try {
    const vectorSchema = await prepare(client, schema, location, o);
    const b = new PostgresBackend(client, location, schema);
    await b.init();
    if (o.embedder && !b.hasVectors) {
      throw new MnemoliteError(
        'READ_ONLY',
        `The mnemolite schema "${schema}" at ${location} has no vector column yet${vectorSchema ? '' : ' (pgvector is not enabled)'}; open it once without readonly to add it, or open with embedder 'none'.`,
      );
    }
    return b;
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** Find pgvector (enable it if needed), create or migrate the schema, add the vector column. Returns pgvector's schema. */
async function prepare(client: PgClient, schema: string, location: string, o: OpenPostgresOptions): Promise<string | null> {
  const [ext] = await client.query<{ installed: string | null; available: boolean }>(
    'check for pgvector',
    `SELECT (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'vector') AS installed,
            EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`,
  );
  let vectorSchema = ext?.installed ?? null;
  if (o.embedder && !vectorSchema) {
    if (!ext?.available) {
      throw new MnemoliteError(
        'UNSUPPORTED',
        `The PostgreSQL server at ${location} has no pgvector extension, which semantic recall needs. Install it on the server ` +
          '(Debian/Ubuntu: apt install postgresql-<version>-pgvector; see https://github.com/pgvector/pgvector#installation), ' +
          "or open with embedder 'none' (CLI: --embedder none) for keyword-only recall.",
      );
    }
    if (o.readonly)
      throw new MnemoliteError('READ_ONLY', `pgvector is not enabled in the database at ${location}; open it once without readonly to set it up.`);
    try {
      await client.query('enable pgvector', 'CREATE EXTENSION IF NOT EXISTS vector SCHEMA public');
    } catch (err) {
      if ((err as MnemoliteError).details?.code !== '42501') throw err;
      throw new MnemoliteError(
        'UNSUPPORTED',
        `pgvector is installed on the server at ${location} but not enabled in this database, and this user may not enable it. ` +
          "Ask a database superuser to run: CREATE EXTENSION vector; or open with embedder 'none' for keyword-only recall.",
        { code: '42501' },
        { cause: err },
      );
    }
    vectorSchema = 'public';
  }
  await migrate(client, schema, location, o.readonly);
  if (o.embedder && !o.readonly) {
    await client.tx('add the vector column', async (q) => {
      await q(`SELECT set_config('search_path', $1, true)`, [searchPath(schema, vectorSchema)]);
      await q('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`mnemolite:${schema}`]);
      const [col] = await q<{ dims: number }>(
        `SELECT atttypmod AS dims FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'embedding' AND NOT attisdropped`,
      );
      if (!col) await q(vectorColumnSql(o.embedder!.dims));
    });
  }
  return vectorSchema;
}

function searchPath(schema: string, vectorSchema: string | null): string {
  return [schema, ...(vectorSchema && vectorSchema !== schema ? [vectorSchema] : []), 'public'].map((s) => `"${s}"`).join(', ');
}

/** Create the schema or bring it up to {@link PG_SCHEMA_VERSION}, serialised by an advisory lock. */
async function migrate(c: PgClient, schema: string, where: string, readonly: boolean): Promise<void> {
  const current = async (q: Query): Promise<number> => {
    const [t] = await q<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [`"${schema}".meta`]);
    if (!t?.t) return 0;
    const [v] = await q<{ value: string }>(`SELECT value FROM "${schema}".meta WHERE key = 'schema_version'`);
    return Number(v?.value ?? 0);
  };
  const seen = await c.tx('read the schema version', current);
  if (seen > PG_SCHEMA_VERSION) {
    throw new MnemoliteError(
      'SCHEMA_TOO_NEW',
      `The mnemolite schema "${schema}" at ${where} is at version ${seen}, newer than this build understands (${PG_SCHEMA_VERSION}). Upgrade mnemolite.`,
      { version: seen },
    );
  }
  if (seen === PG_SCHEMA_VERSION) return;
  if (readonly)
    throw new MnemoliteError(
      'READ_ONLY',
      `The mnemolite schema "${schema}" at ${where} ${seen ? `is at version ${seen}` : 'does not exist yet'}; open it once without readonly to ${seen ? 'migrate' : 'create'} it.`,
    );
  await c.tx('create the mnemolite schema', async (q) => {
    await q('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`mnemolite:${schema}`]);
    await q(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await q(`SELECT set_config('search_path', $1, true)`, [`"${schema}", public`]);
    // Re-read under the lock: another server may have migrated meanwhile.
    const v = await current(q);
    for (let i = v; i < PG_SCHEMA_VERSION; i++) await q(PG_MIGRATIONS[i]!);
    if (v < PG_SCHEMA_VERSION) {
      await q(`INSERT INTO meta(key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(PG_SCHEMA_VERSION)]);
      await q(`INSERT INTO meta(key, value) VALUES ('created_at', $1) ON CONFLICT (key) DO NOTHING`, [new Date().toISOString()]);
    }
  });
}
