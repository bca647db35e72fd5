/**
 * PostgreSQL as a {@link Backend}: many app servers share one store. Opening is in
 * src/pg/open.ts, writes in src/pg/write.ts, recall's legs in src/pg/search.ts, reads in
 * src/pg/reads.ts; this class holds the connection and the embedding cache and wires them up.
 */
import { CACHE_MAX_ROWS, scopedKey } from '../embed/cache.js';
import { MnemoliteError } from '../errors.js';
import type { HistoryRow, HistoryText } from '../lifecycle/history.js';
import type { RankMeta } from '../backend/types.js';
import type { EraseResult, PruneOptions, PruneResult } from '../types/lifecycle.js';
import type { MemoryRow, RowFilter } from '../types/rows.js';
import type { AddResult } from '../types/memory.js';
import type {
  Backend,
  DedupDefaults,
  EmbeddingIdentity,
  ExportRow,
  ImportItem,
  LegQuery,
  LegResults,
  StoreStats,
  UpdateChange,
  WriteItem,
} from '../backend/types.js';
import type { PgClient } from './client.js';
import * as reads from './reads.js';
import { vectorWidthSql } from './schema.js';
import { PgSearch } from './search.js';
import { parseVector } from './sql.js';
import type { PgStore } from './store.js';
import * as erasing from './erase.js';
import * as profiles from './profile.js';
import type { NamespacedProfileRow, ProfileRow } from '../types/profile.js';
import * as write from './write.js';

/** A PostgreSQL store. */
export class PostgresBackend implements Backend, PgStore {
  readonly kind = 'postgres' as const;
  readonly location: string;
  /** @internal */
  readonly db: PgClient;
  /** @internal */
  readonly schema: string;
  /** Width of the `embedding` column, 0 when there is none (no pgvector or keyword-only). */
  private dims = 0;
  private cacheWrites = 0;
  private readonly search: PgSearch;

  constructor(db: PgClient, location: string, schema: string) {
    this.db = db;
    this.location = location;
    this.schema = schema;
    this.search = new PgSearch(this);
  }

  /** @internal Read the vector column's width. */
  async init(): Promise<void> {
    const [col] = await this.db.query<{ dims: number }>(
      'read the layout',
      `SELECT atttypmod AS dims FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'embedding' AND NOT attisdropped`,
      [`"${this.schema}".memories`],
    );
    this.dims = col?.dims ?? 0;
  }

  /** @internal Whether the store has a vector column. */
  get vectors(): boolean {
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
      for (const [k, v] of [
        ['embedding_provider', e.provider],
        ['embedding_model', e.model],
        ['embedding_dims', String(e.dims)],
      ]) {
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

  async cachedVectors(model: string, hashes: readonly string[], namespace?: string): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (!hashes.length) return out;
    const want = [...new Set(hashes)];
    if (this.vectors) {
      const rows =
        namespace === undefined
          ? await this.db.query<{ h: string; e: string }>(
              'read the embedding cache',
              'SELECT DISTINCT ON (content_hash) content_hash AS h, embedding::text AS e FROM memories WHERE content_hash = ANY($1) AND embedding_model = $2 AND embedding IS NOT NULL',
              [want, model],
            )
          : await this.db.query<{ h: string; e: string }>(
              'read the embedding cache',
              'SELECT DISTINCT ON (content_hash) content_hash AS h, embedding::text AS e FROM memories WHERE content_hash = ANY($1) AND embedding_model = $2 AND embedding IS NOT NULL AND namespace = $3',
              [want, model, namespace],
            );
      for (const r of rows) out.set(r.h, parseVector(r.e));
    }
    if (out.size < want.length) {
      // Scoped lookups use the namespace's own cache keys (see scopedKey), mapped back to hashes.
      const keyOf = new Map(want.map((h) => [namespace === undefined ? h : scopedKey(namespace, h), h]));
      for (const r of await this.db.query<{ h: string; e: string }>(
        'read the embedding cache',
        'SELECT content_hash AS h, embedding::text AS e FROM embedding_cache WHERE model = $1 AND content_hash = ANY($2)',
        [model, [...keyOf.keys()]],
      )) {
        const h = keyOf.get(r.h)!;
        if (!out.has(h)) out.set(h, parseVector(r.e));
      }
    }
    return out;
  }

  async cacheVector(model: string, hash: string, vector: Float32Array, namespace?: string): Promise<void> {
    const key = namespace === undefined ? hash : scopedKey(namespace, hash);
    await this.db.query(
      'write the embedding cache',
      `INSERT INTO embedding_cache(model, content_hash, embedding, used_at, namespace) VALUES ($1, $2, $3::real[], now(), $4)
       ON CONFLICT (model, content_hash) DO UPDATE SET used_at = excluded.used_at`,
      [model, key, `{${Array.from(vector).join(',')}}`, namespace ?? null],
    );
    if (++this.cacheWrites % 500 === 0) {
      await this.db.query(
        'trim the embedding cache',
        'DELETE FROM embedding_cache WHERE (model, content_hash) IN (SELECT model, content_hash FROM embedding_cache ORDER BY used_at DESC OFFSET $1)',
        [CACHE_MAX_ROWS],
      );
    }
  }

  /** @internal Count rows written (for the keyword statistics). */
  wrote(n: number, namespaces?: Iterable<string>): void {
    this.search.wrote(n, namespaces);
  }

  // ---- writes (src/pg/write.ts) -------------------------------------------------

  addMany(items: WriteItem[], model: string | null, dedup: DedupDefaults): Promise<AddResult[]> {
    return write.addMany(this, items, model, dedup);
  }

  update(id: string, ns: string | undefined, c: UpdateChange, model: string | null): Promise<MemoryRow> {
    return write.update(this, id, ns, c, model);
  }

  forget(id: string, ns: string | undefined): Promise<boolean> {
    return erasing.forget(this, id, ns);
  }
  erase(namespace: string): Promise<EraseResult> {
    return erasing.erase(this, namespace);
  }

  async namespacesWithPrefix(prefix: string, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ namespace: string }>(
      'list namespaces',
      'SELECT DISTINCT namespace FROM memories WHERE starts_with(namespace, $1) ORDER BY namespace LIMIT $2',
      [prefix, limit],
    );
    return rows.map((r) => r.namespace);
  }

  profileGet(namespace: string): Promise<ProfileRow | undefined> {
    return profiles.profileGet(this, namespace);
  }

  profileSet(namespace: string, content: string, expected: number | undefined, nowIso: string): Promise<ProfileRow> {
    return profiles.profileSet(this, namespace, content, expected, nowIso);
  }

  profileHistory(namespace: string, offset: number, limit: number): Promise<{ rows: ProfileRow[]; total: number }> {
    return profiles.profileHistory(this, namespace, offset, limit);
  }

  profileExport(namespace: string | undefined): Promise<NamespacedProfileRow[]> {
    return profiles.profileExport(this, namespace);
  }

  profileImport(namespace: string, rows: ProfileRow[], onConflict: 'skip' | 'replace'): Promise<'imported' | 'replaced' | 'skipped'> {
    return profiles.profileImport(this, namespace, rows, onConflict);
  }

  importBatch(items: ImportItem[], model: string | null, onConflict: 'skip' | 'replace'): Promise<{ imported: number; replaced: number; skipped: number }> {
    return write.importBatch(this, items, model, onConflict);
  }

  setVectors(list: { seq: number; vector: Float32Array; contextVector: Float32Array | null }[], model: string): Promise<void> {
    return write.setVectors(this, list, model);
  }

  prune(o: PruneOptions, nowIso: string): Promise<PruneResult> {
    return write.prune(this, o, nowIso);
  }

  // ---- recall (src/pg/search.ts) ----------------------------------------------------

  legs(lq: LegQuery): Promise<LegResults> {
    return this.search.legs(lq);
  }

  bestCosines(vectors: readonly Float32Array[], model: string, namespace: string | undefined): Promise<number[]> {
    return this.search.bestScores(vectors, model, namespace);
  }

  scopeSize(namespace: string | undefined): Promise<number> {
    return this.search.scopeSize(namespace);
  }

  // ---- reads (src/pg/reads.ts) -------------------------------------------------------

  getById(id: string): Promise<MemoryRow | undefined> {
    return reads.getById(this, id);
  }
  list(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<MemoryRow[]> {
    return reads.list(this, f, limit, offset, order);
  }
  count(f: RowFilter): Promise<number> {
    return reads.count(this, f);
  }
  listPage(f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<{ rows: MemoryRow[]; total: number }> {
    return reads.listPage(this, f, limit, offset, order);
  }
  stats(f: RowFilter, model: string | null): Promise<StoreStats> {
    return reads.stats(this, f, model);
  }
  rowsBySeqs(seqs: number[]): Promise<Map<number, MemoryRow>> {
    return reads.rowsBySeqs(this, seqs);
  }
  countToEmbed(model: string): Promise<number> {
    return reads.countToEmbed(this, model);
  }
  toEmbed(model: string, after: number, limit: number): Promise<{ seq: number; content: string; content_hash: string; context: string | null }[]> {
    return reads.toEmbed(this, model, after, limit);
  }
  sessionAround(namespace: string, sessionId: string, seq: number, before: number, after: number, now: string): Promise<number[]> {
    return reads.sessionAround(this, namespace, sessionId, seq, before, after, now);
  }
  sessionTail(
    namespace: string,
    sessionId: string,
    n: number,
    model: string | null,
  ): Promise<{ content: string; vector: Float32Array | null; key: string | null }[]> {
    return reads.sessionTail(this, namespace, sessionId, n, model);
  }
  exportRows(f: RowFilter, withVectors: boolean): AsyncIterableIterator<ExportRow> {
    return reads.exportRows(this, f, withVectors);
  }
  successors(seqs: number[]): Promise<Map<number, number>> {
    return reads.successors(this, seqs);
  }
  rankMeta(seqs: number[], withChangedAt: boolean): Promise<RankMeta[]> {
    return reads.rankMeta(this, seqs, withChangedAt);
  }
  vectorsOf(seqs: number[], model: string): Promise<Map<number, Float32Array>> {
    return reads.vectorsOf(this, seqs, model);
  }
  contentsOf(seqs: number[]): Promise<Map<number, string>> {
    return reads.contentsOf(this, seqs);
  }
  historyRow(id: string): Promise<HistoryRow | undefined> {
    return reads.historyRow(this, id);
  }
  predecessors(id: string): Promise<HistoryRow[]> {
    return reads.predecessors(this, id);
  }
  versions(id: string): Promise<{ version: number; replaced_at: string }[]> {
    return reads.versions(this, id);
  }
  versionTexts(list: number[]): Promise<Map<number, HistoryText>> {
    return reads.versionTexts(this, list);
  }
  memoryTexts(ids: string[]): Promise<Map<string, HistoryText>> {
    return reads.memoryTexts(this, ids);
  }

  // ---- whole store ---------------------------------------------------------------------

  async backup(_dest: string): Promise<void> {
    throw new MnemoliteError(
      'UNSUPPORTED',
      `backup copies a SQLite file; ${this.location} is PostgreSQL. Use pg_dump, or copy the memories into a file with: mnemolite migrate --from ${this.location} --to backup.db`,
    );
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
