/**
 * PostgreSQL as a {@link Backend}: many app servers share one store. Keyword leg: a generated
 * `tsvector` (english stemming) with a GIN index, ranked by `ts_rank`; vector leg: pgvector with an
 * HNSW cosine index. Both legs run in one round trip; fusion and re-ranking are the shared code.
 *
 * Multi-writer rules: every write is one transaction; key upserts are `INSERT .. ON CONFLICT` on
 * the unique (namespace, key) index; exact dedup takes a transaction advisory lock on
 * (namespace, normalised content), so two servers adding the same text at once store it once;
 * updates lock their row (`SELECT .. FOR UPDATE`), so no update is lost.
 */
import { MnemoliteError, invalid } from '../errors.js';
import { uuidv7 } from '../ids.js';
import type { Embedder } from '../embed/provider.js';
import { dedupHash } from '../lifecycle/dedup.js';
import type { HistoryRow } from '../lifecycle/history.js';
import { mergedFields, type MergeFields } from '../lifecycle/write.js';
import { DEFAULT_DEDUP_THRESHOLD, expiryOnAdd, expiryOnUpdate } from '../lifecycle/options.js';
import type { RankMeta } from '../lifecycle/rank.js';
import type { PruneOptions, PruneResult } from '../lifecycle/types.js';
import { queryTerms } from '../search/keyword.js';
import type { MemoryRow, RowFilter } from '../store/rows.js';
import type { AddResult, PostgresOptions } from '../types.js';
import { DEFAULT_NAMESPACE } from '../validate.js';
import { inScope, notFound } from '../backend/scope.js';
import type {
  Backend, DedupDefaults, EmbeddingIdentity, ExportRow, ImportItem, LegQuery, LegResults, StoreStats, UpdateChange, WriteItem,
} from '../backend/types.js';
import { PgClient, type Query } from './client.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION, SCHEMA_NAME, vectorColumnSql, vectorWidthSql } from './schema.js';
import { Params, ROW_COLUMNS, iso, parseVector, vectorText, where } from './sql.js';
import { redactUrl } from './url.js';

const CACHE_MAX_ROWS = 20_000;
const EXPORT_PAGE = 1000;
/** Memories the rarest query terms should match before the commoner ones stop selecting candidates (see legs). */
const KEYWORD_POOL = 1000;
/** Near-duplicate candidates read per add (as in the SQLite file). */
const NEAR_K = 5;

type Row = Record<string, unknown>;

/**
 * A stem as a quoted tsquery operand: inside single quotes, quotes and backslashes are doubled,
 * so no character of it can act as an operator. The query is a value of `to_tsquery`, not SQL.
 */
function tsqueryLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A query stem with its document frequency and BM25 idf. */
interface TermWeight { lexeme: string; df: number; idf: number }

/** Options of {@link openPostgres}. */
export interface OpenPostgresOptions extends PostgresOptions {
  readonly: boolean;
  embedder: Embedder | null;
  /** `lock_timeout` of every connection (the file's `busyTimeoutMs`). */
  lockTimeoutMs: number;
}

/** Rows as {@link MemoryRow}s (the driver returns plain objects with the aliased columns). */
const rows = (r: Row[]): MemoryRow[] => r as unknown as MemoryRow[];

/** Open (and create or migrate) a PostgreSQL store. */
export async function openPostgres(url: string, o: OpenPostgresOptions): Promise<Backend> {
  const schema = o.schema ?? 'mnemolite';
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) throw invalid('postgres.schema must be a lower-case SQL name (letters, digits, _; 63 at most), e.g. "mnemolite".');
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
      throw new MnemoliteError('READ_ONLY', `The mnemolite schema "${schema}" at ${location} has no vector column yet${vectorSchema ? '' : ' (pgvector is not enabled)'}; open it once without readonly to add it, or open with embedder 'none'.`);
    }
    return b;
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** Find pgvector (enable it if needed), create or migrate the schema, add the vector column. Returns pgvector's schema. */
async function prepare(client: PgClient, schema: string, location: string, o: OpenPostgresOptions): Promise<string | null> {
  const [ext] = await client.query<{ installed: string | null; available: boolean }>('check for pgvector',
    `SELECT (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'vector') AS installed,
            EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`);
  let vectorSchema = ext?.installed ?? null;
  if (o.embedder && !vectorSchema) {
    if (!ext?.available) {
      throw new MnemoliteError('UNSUPPORTED',
        `The PostgreSQL server at ${location} has no pgvector extension, which semantic recall needs. Install it on the server ` +
        '(Debian/Ubuntu: apt install postgresql-<version>-pgvector; see https://github.com/pgvector/pgvector#installation), ' +
        "or open with embedder 'none' (CLI: --embedder none) for keyword-only recall.");
    }
    if (o.readonly) throw new MnemoliteError('READ_ONLY', `pgvector is not enabled in the database at ${location}; open it once without readonly to set it up.`);
    try {
      await client.query('enable pgvector', 'CREATE EXTENSION IF NOT EXISTS vector SCHEMA public');
    } catch (err) {
      if ((err as MnemoliteError).details?.code !== '42501') throw err;
      throw new MnemoliteError('UNSUPPORTED',
        `pgvector is installed on the server at ${location} but not enabled in this database, and this user may not enable it. ` +
        "Ask a database superuser to run: CREATE EXTENSION vector; or open with embedder 'none' for keyword-only recall.", { code: '42501' }, { cause: err });
    }
    vectorSchema = 'public';
  }
  await migrate(client, schema, location, o.readonly);
  if (o.embedder && !o.readonly) {
    await client.tx('add the vector column', async (q) => {
      await q(`SELECT set_config('search_path', $1, true)`, [searchPath(schema, vectorSchema)]);
      await q('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`mnemolite:${schema}`]);
      const [col] = await q<{ dims: number }>(`SELECT atttypmod AS dims FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'embedding' AND NOT attisdropped`);
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
    throw new MnemoliteError('SCHEMA_TOO_NEW', `The mnemolite schema "${schema}" at ${where} is at version ${seen}, newer than this build understands (${PG_SCHEMA_VERSION}). Upgrade mnemolite.`, { version: seen });
  }
  if (seen === PG_SCHEMA_VERSION) return;
  if (readonly) throw new MnemoliteError('READ_ONLY', `The mnemolite schema "${schema}" at ${where} ${seen ? `is at version ${seen}` : 'does not exist yet'}; open it once without readonly to ${seen ? 'migrate' : 'create'} it.`);
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

/** A PostgreSQL store. */
export class PostgresBackend implements Backend {
  readonly kind = 'postgres' as const;
  readonly location: string;
  private readonly db: PgClient;
  private readonly schema: string;
  /** Width of the `embedding` column, 0 when there is none (no pgvector or keyword-only). */
  private dims = 0;
  private cacheWrites = 0;

  constructor(db: PgClient, location: string, schema: string) {
    this.db = db;
    this.location = location;
    this.schema = schema;
  }

  /** @internal Read the vector column's width. */
  async init(): Promise<void> {
    const [col] = await this.db.query<{ dims: number }>('read the layout',
      `SELECT atttypmod AS dims FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'embedding' AND NOT attisdropped`, [`"${this.schema}".memories`]);
    this.dims = col?.dims ?? 0;
  }

  private get vectors(): boolean {
    return this.dims > 0;
  }

  /** Whether the store has a vector column. */
  get hasVectors(): boolean {
    return this.vectors;
  }

  // ---- meta and cache ------------------------------------------------------------

  async identity(): Promise<EmbeddingIdentity | null> {
    const r = await this.db.query<{ key: string; value: string }>('read the embedding model', `SELECT key, value FROM meta WHERE key LIKE 'embedding_%'`);
    const m = new Map(r.map((x) => [x.key, x.value]));
    const model = m.get('embedding_model');
    if (!model) return null;
    return { provider: m.get('embedding_provider') ?? 'unknown', model, dims: Number(m.get('embedding_dims') ?? 0) };
  }

  async setIdentity(e: EmbeddingIdentity): Promise<void> {
    await this.db.tx('record the embedding model', async (q) => {
      for (const [k, v] of [['embedding_provider', e.provider], ['embedding_model', e.model], ['embedding_dims', String(e.dims)]]) {
        await q('INSERT INTO meta(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [k, v]);
      }
      if (this.dims && this.dims !== e.dims) {
        // A model of another width: old vectors cannot stay in a vector(d) column; reindex re-embeds.
        await q('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`mnemolite:${this.schema}`]);
        await q(`SELECT set_config('search_path', $1, true)`, [`"${this.schema}", public`]);
        await q(vectorWidthSql(e.dims));
      }
    });
    if (this.dims) this.dims = e.dims;
  }

  async cachedVectors(model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (!hashes.length) return out;
    const want = [...new Set(hashes)];
    if (this.vectors) {
      for (const r of await this.db.query<{ h: string; e: string }>('read the embedding cache',
        'SELECT DISTINCT ON (content_hash) content_hash AS h, embedding::text AS e FROM memories WHERE content_hash = ANY($1) AND embedding_model = $2 AND embedding IS NOT NULL', [want, model])) {
        out.set(r.h, parseVector(r.e));
      }
    }
    if (out.size < want.length) {
      for (const r of await this.db.query<{ h: string; e: string }>('read the embedding cache',
        'SELECT content_hash AS h, embedding::text AS e FROM embedding_cache WHERE model = $1 AND content_hash = ANY($2)', [model, want])) {
        if (!out.has(r.h)) out.set(r.h, parseVector(r.e));
      }
    }
    return out;
  }

  async cacheVector(model: string, hash: string, vector: Float32Array): Promise<void> {
    await this.db.query('write the embedding cache',
      `INSERT INTO embedding_cache(model, content_hash, embedding, used_at) VALUES ($1, $2, $3::real[], now())
       ON CONFLICT (model, content_hash) DO UPDATE SET used_at = excluded.used_at`, [model, hash, `{${Array.from(vector).join(',')}}`]);
    if (++this.cacheWrites % 500 === 0) {
      await this.db.query('trim the embedding cache',
        'DELETE FROM embedding_cache WHERE (model, content_hash) IN (SELECT model, content_hash FROM embedding_cache ORDER BY used_at DESC OFFSET $1)', [CACHE_MAX_ROWS]);
    }
  }

  // ---- writes ----------------------------------------------------------------

  async addMany(items: WriteItem[], model: string | null, dedup: DedupDefaults): Promise<AddResult[]> {
    return this.db.tx('add memories', async (q) => {
      const out: AddResult[] = [];
      for (const it of items) out.push(await this.addOne(q, it, model, dedup));
      this.wrote(items.length);
      return out;
    });
  }

  private async addOne(q: Query, it: WriteItem, model: string | null, dedup: DedupDefaults): Promise<AddResult> {
    const o = it.opts;
    const ns = o.namespace ?? DEFAULT_NAMESPACE;
    const now = new Date().toISOString();
    const dh = dedupHash(it.content);
    const vec = it.vector && this.vectors ? vectorText(it.vector) : null;
    const p = new Params();
    const cols: [string, string][] = [
      ['namespace', p.add(ns)], ['content', p.add(it.content)], ['category', p.add(o.category ?? null)], ['session_id', p.add(o.sessionId ?? null)],
      ['metadata', `${p.add(o.metadata ?? '{}')}::json`], ['updated_at', `${p.add(now)}::timestamptz`], ['content_hash', p.add(it.hash)],
      ['embedding_model', p.add(vec ? model : null)], ['expires_at', `${p.add(expiryOnAdd(o, now))}::timestamptz`], ['pinned', p.add(o.pinned === true)],
      ['importance', p.add(o.importance ?? null)], ['dedup_hash', p.add(dh)],
    ];
    if (this.vectors) cols.push(['embedding', `${p.add(vec)}::vector`]);
    const insert = (id: string, key: string | null): string => {
      const all: [string, string][] = [...cols, ['id', p.add(id)], ['key', p.add(key)], ['created_at', `${p.add(o.createdAt ?? now)}::timestamptz`]];
      return `INSERT INTO memories(${all.map(([c]) => c).join(', ')}) VALUES (${all.map(([, v]) => v).join(', ')})`;
    };

    if (o.key !== undefined) {
      // Upsert on the unique (namespace, key) index: a concurrent writer of the same key cannot make a second row.
      const set = cols.filter(([c]) => c !== 'namespace').map(([c]) => `${c} = excluded.${c}`).join(', ');
      const sql = `${insert(uuidv7(), o.key)} ON CONFLICT (namespace, key) WHERE key IS NOT NULL DO UPDATE SET ${set}, superseded_by = NULL
         RETURNING id, (xmax <> 0) AS replaced`;
      const [r] = await q<{ id: string; replaced: boolean }>(sql, p.values);
      if (o.supersedes !== undefined) await this.supersede(q, o.supersedes, r!.id, ns);
      return { id: r!.id, replaced: r!.replaced };
    }

    const dedupOn = !o.force;
    if (dedupOn) {
      // Two servers adding the same text at once: the second waits here and then finds the first's row.
      await q('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${this.schema}\u001f${ns}\u001f${dh}`]);
      const [dup] = await q<{ id: string }>(
        `SELECT id FROM memories WHERE namespace = $1 AND dedup_hash = $2 AND superseded_by IS NULL
           AND (expires_at IS NULL OR expires_at > $3::timestamptz OR pinned) ORDER BY seq LIMIT 1`, [ns, dh, now]);
      if (dup) {
        if (o.supersedes !== undefined && o.supersedes !== dup.id) await this.supersede(q, o.supersedes, dup.id, ns);
        return { id: dup.id, replaced: false, deduplicated: 'exact' };
      }
    }
    let near: AddResult['nearDuplicates'];
    const mode = o.nearDuplicates ?? dedup.nearDuplicates ?? 'off';
    if (dedupOn && mode !== 'off' && vec && model) {
      const threshold = o.dedupThreshold ?? dedup.dedupThreshold ?? DEFAULT_DEDUP_THRESHOLD;
      const found = await q<{ seq: number; id: string; content: string; sim: number }>(
        `SELECT seq::float8 AS seq, id, content, 1 - (embedding <=> $1::vector) AS sim FROM memories
         WHERE namespace = $2 AND embedding_model = $3 AND superseded_by IS NULL AND (expires_at IS NULL OR expires_at > $4::timestamptz OR pinned)
         ORDER BY embedding <=> $1::vector LIMIT ${NEAR_K}`, [vec, ns, model, now]);
      const matches = found.filter((m) => m.sim >= threshold && m.id !== o.supersedes)
        .sort((a, b) => b.sim - a.sim || a.seq - b.seq);
      if (matches.length) {
        near = matches.map((m) => ({ id: m.id, similarity: m.sim, content: m.content }));
        if (mode === 'merge') {
          const id = await this.merge(q, matches[0]!.id, it, vec, model, now, dh);
          if (o.supersedes !== undefined) await this.supersede(q, o.supersedes, id, ns);
          return { id, replaced: false, deduplicated: 'merged', nearDuplicates: near };
        }
      }
    }
    const id = uuidv7();
    await q(insert(id, null), p.values);
    if (o.supersedes !== undefined) await this.supersede(q, o.supersedes, id, ns);
    return near ? { id, replaced: false, nearDuplicates: near } : { id, replaced: false };
  }

  /** Fold an add into a near-duplicate, by the same rules as the SQLite file (src/lifecycle/write.ts). */
  private async merge(q: Query, id: string, it: WriteItem, vec: string, model: string, now: string, dh: string): Promise<string> {
    const o = it.opts;
    const [old] = await q<MergeFields>(
      `SELECT metadata::text AS metadata, category, session_id, ${iso('expires_at')} AS expires_at, pinned, importance FROM memories WHERE id = $1 FOR UPDATE`, [id]);
    const m = mergedFields(old!, { metadata: o.metadata ?? '{}', category: o.category ?? null, session_id: o.sessionId ?? null }, o, expiryOnAdd(o, now));
    await q(`UPDATE memories SET content = $2, category = $3, session_id = $4, metadata = $5::json, updated_at = $6::timestamptz, content_hash = $7,
               embedding = $8::vector, embedding_model = $9, expires_at = $10::timestamptz, pinned = $11, importance = $12, dedup_hash = $13 WHERE id = $1`,
    [id, it.content, m.category, m.session_id, m.metadata, now, it.hash, vec, model, m.expires_at, m.pinned, m.importance, dh]);
    return id;
  }

  /** Mark `targetId` (in `ns`) as superseded by `successorId`, refusing cycles. */
  private async supersede(q: Query, targetId: string, successorId: string, ns: string): Promise<void> {
    if (targetId === successorId) throw invalid(`A memory cannot supersede itself (${targetId}).`);
    const [t] = await q<{ namespace: string }>('SELECT namespace FROM memories WHERE id = $1 FOR UPDATE', [targetId]);
    if (!t || t.namespace !== ns) {
      throw new MnemoliteError('NOT_FOUND', `supersedes: no memory with id ${targetId} in namespace "${ns}". Nothing was written.`, { id: targetId });
    }
    const [cycle] = await q<{ found: boolean }>(
      `WITH RECURSIVE chain(id, depth) AS (
         SELECT superseded_by, 1 FROM memories WHERE id = $1
         UNION ALL SELECT m.superseded_by, c.depth + 1 FROM chain c JOIN memories m ON m.id = c.id WHERE c.depth < 10000)
       SELECT EXISTS (SELECT 1 FROM chain WHERE id = $2) AS found`, [successorId, targetId]);
    if (cycle?.found) throw invalid(`supersedes: ${successorId} is already (indirectly) superseded by ${targetId}; a cycle is not allowed.`);
    await q('UPDATE memories SET superseded_by = $2 WHERE id = $1', [targetId, successorId]);
  }

  async update(id: string, ns: string | undefined, c: UpdateChange, model: string | null): Promise<MemoryRow> {
    const u = c.u;
    return this.db.tx('update a memory', async (q) => {
      const [cur] = rows(await q(`SELECT ${ROW_COLUMNS} FROM memories m WHERE m.id = $1 FOR UPDATE`, [id]));
      if (!cur || !inScope(cur, ns)) throw notFound(id);
      const key = u.key === undefined ? cur.key : u.key;
      if (key !== null && key !== cur.key) {
        const [other] = await q<{ id: string }>('SELECT id FROM memories WHERE namespace = $1 AND key = $2', [cur.namespace, key]);
        if (other && other.id !== cur.id) throw invalid(`The key "${key}" is already used by memory ${other.id} in namespace "${cur.namespace}". Choose another key or forget that memory first.`);
      }
      const now = new Date().toISOString();
      const hash = c.hash ?? cur.content_hash;
      const changed = c.content !== undefined && hash !== cur.content_hash;
      const p = new Params();
      const sets = [
        `key = ${p.add(key)}`,
        `content = ${p.add(c.content ?? cur.content)}`,
        `category = ${p.add(u.category === undefined ? cur.category : u.category)}`,
        `session_id = ${p.add(u.sessionId === undefined ? cur.session_id : u.sessionId)}`,
        `metadata = ${p.add(u.metadata ?? cur.metadata)}::json`,
        `updated_at = ${p.add(now)}::timestamptz`,
        `content_hash = ${p.add(hash)}`,
      ];
      if (c.content !== undefined) sets.push(`dedup_hash = ${p.add(dedupHash(c.content))}`);
      if (c.vector !== undefined && this.vectors) sets.push(`embedding = ${p.add(vectorText(c.vector))}::vector`, `embedding_model = ${p.add(model)}`);
      else if (changed) sets.push(...(this.vectors ? ['embedding = NULL'] : []), 'embedding_model = NULL');
      const exp = expiryOnUpdate(u, now);
      if (exp !== undefined) sets.push(`expires_at = ${p.add(exp)}::timestamptz`);
      if (u.pinned !== undefined) sets.push(`pinned = ${p.add(u.pinned)}`);
      if (u.importance !== undefined) sets.push(`importance = ${p.add(u.importance)}`);
      await q(`UPDATE memories SET ${sets.join(', ')} WHERE id = ${p.add(id)}`, p.values);
      if (c.content !== undefined) this.wrote(1);
      return rows(await q(`SELECT ${ROW_COLUMNS} FROM memories m WHERE m.id = $1`, [id]))[0]!;
    });
  }

  async forget(id: string, ns: string | undefined): Promise<boolean> {
    return this.db.tx('forget a memory', async (q) => {
      const [r] = await q<{ namespace: string }>('SELECT namespace FROM memories WHERE id = $1 FOR UPDATE', [id]);
      if (!r || !inScope(r, ns)) return false;
      await q('DELETE FROM memories WHERE id = $1', [id]);
      this.wrote(1);
      return true;
    });
  }

  async importBatch(items: ImportItem[], model: string | null, onConflict: 'skip' | 'replace'): Promise<{ imported: number; replaced: number; skipped: number }> {
    return this.db.tx('import memories', async (q) => {
      const res = { imported: 0, replaced: 0, skipped: 0 };
      for (const r of items) {
        const [byId] = await q<{ seq: number }>('SELECT seq::float8 AS seq FROM memories WHERE id = $1 FOR UPDATE', [r.id]);
        const [byKey] = r.key !== null ? await q<{ seq: number }>('SELECT seq::float8 AS seq FROM memories WHERE namespace = $1 AND key = $2 FOR UPDATE', [r.namespace, r.key]) : [];
        const existing = byId ?? byKey;
        if (existing && onConflict === 'skip') { res.skipped++; continue; }
        if (byId && byKey && byId.seq !== byKey.seq) await q('DELETE FROM memories WHERE seq = $1', [byKey.seq]);
        const vec = r.vector && this.vectors ? vectorText(r.vector) : null;
        const p = new Params();
        const values: [string, string][] = [
          ['namespace', p.add(r.namespace)], ['key', p.add(r.key)], ['content', p.add(r.content)], ['category', p.add(r.category)],
          ['session_id', p.add(r.sessionId)], ['metadata', `${p.add(r.metadata)}::json`], ['updated_at', `${p.add(r.updatedAt)}::timestamptz`],
          ['content_hash', p.add(r.hash)], ['embedding_model', p.add(vec ? model : null)],
          ['expires_at', `${p.add(r.expiresAt)}::timestamptz`], ['pinned', p.add(r.pinned)], ['importance', p.add(r.importance)],
          ['superseded_by', p.add(r.supersededBy)], ['dedup_hash', p.add(dedupHash(r.content))],
        ];
        if (this.vectors) values.push(['embedding', `${p.add(vec)}::vector`]);
        if (existing) {
          await q(`UPDATE memories SET ${values.map(([c, v]) => `${c} = ${v}`).join(', ')} WHERE seq = ${p.add(existing.seq)}`, p.values);
          res.replaced++;
        } else {
          values.push(['id', p.add(r.id)], ['created_at', `${p.add(r.createdAt)}::timestamptz`]);
          await q(`INSERT INTO memories(${values.map(([c]) => c).join(', ')}) VALUES (${values.map(([, v]) => v).join(', ')})`, p.values);
          res.imported++;
        }
      }
      this.wrote(items.length);
      return res;
    });
  }

  async setVectors(list: { seq: number; vector: Float32Array }[], model: string): Promise<void> {
    if (!this.vectors) return;
    await this.db.tx('store new vectors', async (q) => {
      for (const r of list) await q('UPDATE memories SET embedding = $1::vector, embedding_model = $2 WHERE seq = $3', [vectorText(r.vector), model, r.seq]);
    });
  }

  async prune(o: PruneOptions, nowIso: string): Promise<PruneResult> {
    const p = new Params();
    const cond = `expires_at IS NOT NULL AND expires_at <= ${p.add(nowIso)}::timestamptz${o.namespace !== undefined ? ` AND namespace = ${p.add(o.namespace)}` : ''}`;
    const bytesBefore = await this.bytes();
    return this.db.tx('delete expired memories', async (q) => {
      const expired = await q<{ seq: number; id: string }>(`SELECT seq::float8 AS seq, id FROM memories WHERE ${cond} AND NOT pinned ORDER BY seq`, p.values);
      const [pinned] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE ${cond} AND pinned`, p.values);
      const ids = expired.map((r) => r.id);
      const [hist] = await q<{ n: number }>('SELECT count(*)::int AS n FROM memory_history WHERE memory_id = ANY($1)', [ids]);
      const res: PruneResult = {
        deleted: expired.length, ids: ids.slice(0, 1000), historyDeleted: hist?.n ?? 0, pinnedKept: pinned?.n ?? 0, dryRun: !!o.dryRun,
        autoVacuum: 'none', vacuum: 'none', freePagesBefore: 0, freePagesAfter: 0, bytesBefore, bytesAfter: bytesBefore,
        note: 'PostgreSQL reclaims the space of deleted rows itself (autovacuum); VACUUM FULL shrinks the tables.',
      };
      if (o.dryRun || !expired.length) return res;
      const seqs = expired.map((r) => r.seq);
      const hashes = await q<{ m: string; h: string }>('SELECT DISTINCT embedding_model AS m, content_hash AS h FROM memories WHERE seq = ANY($1::bigint[]) AND embedding_model IS NOT NULL', [seqs]);
      await q('DELETE FROM memories WHERE seq = ANY($1::bigint[])', [seqs]);
      this.wrote(seqs.length);
      // Pruning is about space: drop the vectors the delete trigger cached, unless the content lives on.
      for (const { m, h } of hashes) {
        await q('DELETE FROM embedding_cache WHERE model = $1 AND content_hash = $2 AND NOT EXISTS (SELECT 1 FROM memories WHERE content_hash = $2)', [m, h]);
      }
      return res;
    });
  }

  // ---- reads -------------------------------------------------------------------

  async getById(id: string): Promise<MemoryRow | undefined> {
    return rows(await this.db.query('read a memory', `SELECT ${ROW_COLUMNS} FROM memories m WHERE m.id = $1`, [id]))[0];
  }

  async list(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<MemoryRow[]> {
    const p = new Params();
    const dir = order === 'asc' ? 'ASC' : 'DESC';
    const w = where(f, p);
    return rows(await this.db.query('list memories',
      `SELECT ${ROW_COLUMNS} FROM memories m WHERE ${w} ORDER BY m.created_at ${dir}, m.seq ${dir} LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`, p.values));
  }

  async count(f: RowFilter): Promise<number> {
    const p = new Params();
    const [r] = await this.db.query<{ n: number }>('count memories', `SELECT count(*)::int AS n FROM memories m WHERE ${where(f, p)}`, p.values);
    return r?.n ?? 0;
  }

  private async bytes(): Promise<number> {
    const [r] = await this.db.query<{ n: number }>('measure the tables',
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'r'`, [this.schema]);
    return r?.n ?? 0;
  }

  async stats(f: RowFilter, model: string | null): Promise<StoreStats> {
    const p = new Params();
    const w = where(f, p);
    const pa = new Params();
    const wAll = where({ ...f, activeAt: undefined }, pa);
    const byNs = await this.db.query<{ ns: string; n: number }>('compute stats', `SELECT m.namespace AS ns, count(*)::int AS n FROM memories m WHERE ${w} GROUP BY m.namespace ORDER BY m.namespace`, p.values);
    const memories = byNs.reduce((s, r) => s + r.n, 0);
    const [all] = await this.db.query<{ n: number }>('compute stats', `SELECT count(*)::int AS n FROM memories m WHERE ${wAll}`, pa.values);
    let embedded = 0;
    if (model) {
      const pe = new Params();
      const we = where(f, pe);
      const [e] = await this.db.query<{ n: number }>('compute stats', `SELECT count(*)::int AS n FROM memories m WHERE ${we} AND m.embedding_model = ${pe.add(model)}`, pe.values);
      embedded = e?.n ?? 0;
    }
    const [cache] = await this.db.query<{ n: number }>('compute stats', 'SELECT count(*)::int AS n FROM embedding_cache');
    const [ver] = await this.db.query<{ value: string }>('compute stats', `SELECT value FROM meta WHERE key = 'schema_version'`);
    return {
      memories, namespaces: Object.fromEntries(byNs.map((r) => [r.ns, r.n])), embedded, cacheEntries: cache?.n ?? 0,
      bytes: await this.bytes(), schemaVersion: Number(ver?.value ?? 0), expired: (all?.n ?? 0) - memories,
    };
  }

  /**
   * Both legs of a recall. The keyword leg is BM25 (k1 = 1.2, b = 0.75), as the file computes it,
   * over the english stems of the query's terms, with document frequencies from `term_stats`
   * (ts_rank has no idf, so common words would rank as high as rare ones). The text only ever
   * reaches `to_tsvector` as a value: no syntax in it is interpreted.
   *
   * Candidates come from the rarest terms first (max-score pruning): the terms that select rows
   * are the rarest ones up to about {@link KEYWORD_POOL} matching memories, and every term scores.
   * When the last of the top `depth` scores is below what the unselected terms could add at most
   * (idf × (k1 + 1) each), a memory matching only those could still belong in the top, and the
   * leg runs again with every term selecting: the result is always the exact BM25 top `depth`.
   */
  async legs(lq: LegQuery): Promise<LegResults> {
    const out: LegResults = { keyword: [], context: [], vector: [], idfMass: 0, successors: new Map() };
    const terms = lq.text === null ? [] : queryTerms(lq.text);
    let weights: TermWeight[] = [];
    let avgdl = 1;
    if (terms.length) {
      await this.ensureTermStats();
      const r = await this.db.query<TermWeight & { avgdl: number }>('recall',
        `WITH qt AS (SELECT DISTINCT lexeme FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS lexeme),
           st AS (SELECT greatest(coalesce((SELECT value::float8 FROM meta WHERE key = 'term_stats_docs'), 1), 1) AS n,
                         greatest(coalesce((SELECT value::float8 FROM meta WHERE key = 'term_stats_avgdl'), 1), 1) AS avgdl)
         SELECT qt.lexeme, coalesce(ts.df, 0)::float8 AS df, ln(1 + (st.n - coalesce(ts.df, 0) + 0.5) / (coalesce(ts.df, 0) + 0.5)) AS idf, st.avgdl
         FROM qt CROSS JOIN st LEFT JOIN term_stats ts ON ts.term = qt.lexeme ORDER BY df, qt.lexeme`, [terms.join(' ')]);
      weights = r.map(({ lexeme, df, idf }) => ({ lexeme, df, idf }));
      avgdl = r[0]?.avgdl ?? 1;
      out.idfMass = weights.reduce((x, w) => x + w.idf, 0);
    }
    // Rarest first (the query already sorted them) until the pool is big enough.
    const select: string[] = [];
    let pool = 0;
    for (const w of weights) {
      if (select.length && pool >= Math.max(KEYWORD_POOL, 20 * lq.depth)) break;
      select.push(w.lexeme);
      pool += w.df;
    }
    const bound = weights.slice(select.length).reduce((x, w) => x + w.idf * 2.2, 0);
    const first = await this.runLegs(lq, weights, select, avgdl, true);
    out.vector = first.vector;
    out.keyword = first.keyword;
    for (const [k, v] of first.successors) out.successors!.set(k, v);
    const last = first.keyword[first.keyword.length - 1];
    if (bound > 0 && (first.keyword.length < lq.depth || -last!.bm25 < bound)) {
      const again = await this.runLegs(lq, weights, weights.map((w) => w.lexeme), avgdl, false);
      out.keyword = again.keyword;
      for (const [k, v] of again.successors) out.successors!.set(k, v);
    }
    return out;
  }

  /** One round trip: the keyword leg over memories matching `select` (scored with every weight), the vector leg, and the candidates' supersession. */
  private async runLegs(lq: LegQuery, weights: TermWeight[], select: string[], avgdl: number, withVector: boolean):
  Promise<{ keyword: { seq: number; bm25: number }[]; vector: { seq: number; score: number }[]; successors: Map<number, number> }> {
    const p = new Params();
    const ctes: string[] = [];
    const legs: string[] = [];
    if (weights.length) {
      const lex = p.add(weights.map((w) => w.lexeme));
      const idf = p.add(weights.map((w) => w.idf));
      ctes.push(`w AS (SELECT * FROM unnest(${lex}::text[], ${idf}::float8[]) AS w(lexeme, idf)),
        kw AS (SELECT m.seq, sum(w.idf * cardinality(u.positions) * 2.2 / (cardinality(u.positions) + 1.2 * (0.25 + 0.75 * length(m.tsv) / ${p.add(avgdl)}::float8))) AS s
               FROM memories m CROSS JOIN LATERAL unnest(m.tsv) u JOIN w ON w.lexeme = u.lexeme
               WHERE m.tsv @@ to_tsquery('simple', ${p.add(select.map(tsqueryLexeme).join(' | '))})
                 AND ${where(lq.filter, p)} GROUP BY m.seq ORDER BY s DESC, m.seq LIMIT ${p.add(lq.depth)})`);
      legs.push('kw');
    }
    if (withVector && lq.vector !== null && this.vectors && lq.model !== null) {
      const v = p.add(vectorText(lq.vector));
      // The HNSW index serves `ORDER BY embedding <=> v`; `exact` orders by an expression it cannot serve, so every row is scored.
      const order = lq.exact ? `(m.embedding <=> ${v}::vector) + 0` : `m.embedding <=> ${v}::vector`;
      ctes.push(`vec AS (SELECT m.seq, 1 - (m.embedding <=> ${v}::vector) AS s FROM memories m
        WHERE m.embedding IS NOT NULL AND m.embedding_model = ${p.add(lq.model)} AND ${where(lq.filter, p)} ORDER BY ${order} LIMIT ${p.add(lq.depth)})`);
      legs.push('vec');
    }
    const res = { keyword: [] as { seq: number; bm25: number }[], vector: [] as { seq: number; score: number }[], successors: new Map<number, number>() };
    if (!legs.length) return res;
    // Supersession of the candidates comes back in the same round trip (the lifecycle re-ranking needs it on every recall).
    const sql = `WITH ${ctes.join(', ')}
      ${legs.map((l) => `SELECT '${l}' AS leg, seq::float8 AS seq, s::float8 AS s FROM ${l}`).join(' UNION ALL ')}
      UNION ALL SELECT 's' AS leg, m.seq::float8 AS seq, n.seq::float8 AS s FROM memories m JOIN memories n ON n.id = m.superseded_by
        WHERE m.superseded_by IS NOT NULL AND m.seq IN (${legs.map((l) => `SELECT seq FROM ${l}`).join(' UNION ')})`;
    for (const r of await this.db.query<{ leg: string; seq: number; s: number }>('recall', sql, p.values)) {
      if (r.leg === 'kw') res.keyword.push({ seq: r.seq, bm25: -r.s });
      else if (r.leg === 'vec') res.vector.push({ seq: r.seq, score: r.s });
      else res.successors.set(r.seq, r.s);
    }
    // UNION ALL keeps no order, and HNSW's relaxed order may be slightly off.
    res.keyword.sort((a, b) => a.bm25 - b.bm25 || a.seq - b.seq);
    res.vector.sort((a, b) => b.score - a.score || a.seq - b.seq);
    return res;
  }

  async sessionTail(namespace: string, sessionId: string, n: number, model: string | null): Promise<{ content: string; vector: Float32Array | null; key: string | null }[]> {
    const vec = this.vectors && model !== null ? 'CASE WHEN embedding_model = $4 THEN embedding::text END' : 'NULL::text';
    const rows = await this.db.query<{ content: string; key: string | null; e: string | null }>('read the session',
      `SELECT content, key, ${vec} AS e FROM memories WHERE namespace = $1 AND session_id = $2 ORDER BY seq DESC LIMIT $3`,
      this.vectors && model !== null ? [namespace, sessionId, n, model] : [namespace, sessionId, n]);
    return rows.reverse().map((r) => ({ content: r.content, key: r.key, vector: r.e ? parseVector(r.e) : null }));
  }

  async rowsBySeqs(seqs: number[]): Promise<Map<number, MemoryRow>> {
    const out = new Map<number, MemoryRow>();
    if (!seqs.length) return out;
    for (const r of rows(await this.db.query('read recalled memories', `SELECT ${ROW_COLUMNS} FROM memories m WHERE m.seq = ANY($1::bigint[])`, [seqs]))) out.set(r.seq, r);
    return out;
  }

  async countToEmbed(model: string): Promise<number> {
    const [r] = await this.db.query<{ n: number }>('count memories', 'SELECT count(*)::int AS n FROM memories WHERE embedding_model IS DISTINCT FROM $1', [model]);
    return r?.n ?? 0;
  }

  async toEmbed(model: string, after: number, limit: number): Promise<{ seq: number; content: string; content_hash: string; context: string | null }[]> {
    return this.db.query('read memories to embed',
      'SELECT seq::float8 AS seq, content, content_hash, NULL::text AS context FROM memories WHERE seq > $1 AND embedding_model IS DISTINCT FROM $2 ORDER BY seq LIMIT $3', [after, model, limit]);
  }

  async *exportRows(f: RowFilter, withVectors: boolean): AsyncIterableIterator<ExportRow> {
    let after = 0;
    const vec = withVectors && this.vectors ? ', m.embedding::text AS vector' : '';
    for (;;) {
      const p = new Params();
      const w = where(f, p);
      const page = await this.db.query<Row>('export memories',
        `SELECT ${ROW_COLUMNS}${vec} FROM memories m WHERE ${w} AND m.seq > ${p.add(after)} ORDER BY m.seq LIMIT ${EXPORT_PAGE}`, p.values);
      for (const r of page) {
        const v = r.vector as string | null | undefined;
        yield { ...(r as unknown as MemoryRow), vector: v ? parseVector(v) : null, contextVector: null };
      }
      if (page.length < EXPORT_PAGE) return;
      after = page[page.length - 1]!.seq as number;
    }
  }

  // ---- lifecycle sources -------------------------------------------------------------

  async successors(seqs: number[]): Promise<Map<number, number>> {
    const r = await this.db.query<{ a: number; b: number }>('rank by lifecycle',
      `SELECT m.seq::float8 AS a, s.seq::float8 AS b FROM memories m JOIN memories s ON s.id = m.superseded_by
       WHERE m.seq = ANY($1::bigint[]) AND m.superseded_by IS NOT NULL`, [seqs]);
    return new Map(r.map((x) => [x.a, x.b]));
  }

  async rankMeta(seqs: number[], withChangedAt: boolean): Promise<RankMeta[]> {
    return this.db.query<RankMeta>('rank by lifecycle',
      `SELECT m.seq::float8 AS seq, ${iso('m.created_at')} AS created_at, m.category, m.pinned::int AS pinned, m.importance,
         (SELECT s.seq::float8 FROM memories s WHERE s.id = m.superseded_by) AS succ,
         ${withChangedAt ? `(SELECT ${iso('max(h.replaced_at)')} FROM memory_history h WHERE h.memory_id = m.id)` : 'NULL'} AS changed_at
       FROM memories m WHERE m.seq = ANY($1::bigint[])`, [seqs]);
  }

  async vectorsOf(seqs: number[], model: string): Promise<Map<number, Float32Array>> {
    const out = new Map<number, Float32Array>();
    if (!this.vectors) return out;
    for (const r of await this.db.query<{ seq: number; e: string }>('rank by lifecycle',
      'SELECT seq::float8 AS seq, embedding::text AS e FROM memories WHERE embedding_model = $1 AND embedding IS NOT NULL AND seq = ANY($2::bigint[])', [model, seqs])) {
      out.set(r.seq, parseVector(r.e));
    }
    return out;
  }

  async contentsOf(seqs: number[]): Promise<Map<number, string>> {
    const r = await this.db.query<{ seq: number; content: string }>('rank by lifecycle', 'SELECT seq::float8 AS seq, content FROM memories WHERE seq = ANY($1::bigint[])', [seqs]);
    return new Map(r.map((x) => [x.seq, x.content]));
  }

  async historyRow(id: string): Promise<HistoryRow | undefined> {
    return (await this.db.query<HistoryRow>('read the history', `SELECT id, content, category, metadata::text AS metadata, ${iso('created_at')} AS created_at FROM memories WHERE id = $1`, [id]))[0];
  }

  async predecessors(id: string): Promise<HistoryRow[]> {
    return this.db.query<HistoryRow>('read the history', `SELECT id, content, category, metadata::text AS metadata, ${iso('created_at')} AS created_at FROM memories WHERE superseded_by = $1 ORDER BY seq`, [id]);
  }

  async versions(id: string): Promise<{ content: string; category: string | null; metadata: string; replaced_at: string }[]> {
    return this.db.query('read the history', `SELECT content, category, metadata::text AS metadata, ${iso('replaced_at')} AS replaced_at FROM memory_history WHERE memory_id = $1 ORDER BY version`, [id]);
  }

  // ---- keyword statistics ---------------------------------------------------------------

  /** Rows written by this process since its last look at the term statistics. */
  private writesSinceStats = Infinity;
  /** Documents counted when the statistics were made, as last seen. */
  private statsDocs = 0;

  /**
   * Keep `term_stats` (document frequency per stem, from `ts_stat`) roughly current: made when
   * missing, remade when the memory count has moved by more than 10% (at least 50). Approximate
   * on purpose: an idf barely changes with a few more memories, and a per-row counter would make
   * every writer wait on the rows of common words.
   */
  private async ensureTermStats(): Promise<void> {
    if (this.writesSinceStats < Math.max(50, this.statsDocs * 0.1)) return;
    const [r] = await this.db.query<{ docs: number | null; n: number }>('read the term statistics',
      `SELECT (SELECT value::float8 FROM meta WHERE key = 'term_stats_docs') AS docs, (SELECT count(*)::float8 FROM memories) AS n`);
    const docs = r?.docs ?? null;
    const n = r?.n ?? 0;
    if (docs === null || Math.abs(n - docs) > Math.max(50, docs * 0.1)) {
      await this.db.tx('update the term statistics', async (q) => {
        // One server at a time; the others go on with the statistics they have.
        const [lock] = await q<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [`mnemolite-stats:${this.schema}`]);
        if (!lock?.ok) return;
        await q('DELETE FROM term_stats');
        await q(`INSERT INTO term_stats(term, df) SELECT word, ndoc FROM ts_stat('SELECT tsv FROM "${this.schema}".memories')`);
        // The planner's statistics too: after a bulk load (and on PGlite, which has no autovacuum)
        // it would not know that a rare stem matches few rows, and would scan them all.
        await q('ANALYZE memories');
        for (const [k, sql] of [['term_stats_docs', 'SELECT count(*)::text FROM memories'], ['term_stats_avgdl', 'SELECT coalesce(avg(length(tsv)), 1)::text FROM memories']] as const) {
          await q(`INSERT INTO meta(key, value) VALUES ($1, (${sql})) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [k]);
        }
      });
    }
    this.statsDocs = n;
    this.writesSinceStats = 0;
  }

  /** Count rows written, for {@link ensureTermStats}. */
  private wrote(n: number): void {
    this.writesSinceStats += n;
  }

  // ---- whole store ---------------------------------------------------------------------

  async backup(_dest: string): Promise<void> {
    throw new MnemoliteError('UNSUPPORTED',
      `backup copies a SQLite file; ${this.location} is PostgreSQL. Use pg_dump, or copy the memories into a file with: mnemolite migrate --from ${this.location} --to backup.db`);
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
