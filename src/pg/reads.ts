/** Reads from a PostgreSQL store: rows, counts, stats, export pages, and the lifecycle sources. */
import type { HistoryRow, HistoryText } from '../lifecycle/history.js';
import type { RankMeta } from '../backend/types.js';
import type { MemoryRow, RowFilter } from '../types/rows.js';
import type { ExportRow, StoreStats } from '../backend/types.js';
import { Params, ROW_COLUMNS, iso, parseVector, where } from './sql.js';
import { rows, type PgStore } from './store.js';

const EXPORT_PAGE = 1000;

type Row = Record<string, unknown>;

export async function getById(pg: PgStore, id: string): Promise<MemoryRow | undefined> {
  return rows(await pg.db.query('read a memory', `SELECT ${ROW_COLUMNS} FROM memories m WHERE m.id = $1`, [id]))[0];
}

export async function list(pg: PgStore, f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<MemoryRow[]> {
  const p = new Params();
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const w = where(f, p);
  return rows(
    await pg.db.query(
      'list memories',
      `SELECT ${ROW_COLUMNS} FROM memories m WHERE ${w} ORDER BY m.created_at ${dir}, m.seq ${dir} LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`,
      p.values,
    ),
  );
}

/** A page and the count of every match in one statement: one snapshot, so they agree. */
export async function listPage(pg: PgStore, f: RowFilter, limit: number, offset: number, order: 'asc' | 'desc'): Promise<{ rows: MemoryRow[]; total: number }> {
  const p = new Params();
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const got = await pg.db.query<Record<string, unknown> & { total: number }>(
    'list memories',
    `SELECT t.total, page.* FROM (SELECT count(*)::int AS total FROM memories m WHERE ${where(f, p)}) t
     LEFT JOIN LATERAL (SELECT ${ROW_COLUMNS} FROM memories m WHERE ${where(f, p)}
       ORDER BY m.created_at ${dir}, m.seq ${dir} LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}) page ON true`,
    p.values,
  );
  const total = got[0]?.total ?? 0;
  return { rows: rows(got.filter((r) => r.id !== null).map(({ total: _t, ...r }) => r)), total };
}

export async function count(pg: PgStore, f: RowFilter): Promise<number> {
  const p = new Params();
  const [r] = await pg.db.query<{ n: number }>('count memories', `SELECT count(*)::int AS n FROM memories m WHERE ${where(f, p)}`, p.values);
  return r?.n ?? 0;
}

export async function bytes(pg: PgStore): Promise<number> {
  const [r] = await pg.db.query<{ n: number }>(
    'measure the tables',
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [pg.schema],
  );
  return r?.n ?? 0;
}

export async function stats(pg: PgStore, f: RowFilter, model: string | null): Promise<StoreStats> {
  const p = new Params();
  const w = where(f, p);
  const pa = new Params();
  const wAll = where({ ...f, activeAt: undefined }, pa);
  const byNs = await pg.db.query<{ ns: string; n: number }>(
    'compute stats',
    `SELECT m.namespace AS ns, count(*)::int AS n FROM memories m WHERE ${w} GROUP BY m.namespace ORDER BY m.namespace`,
    p.values,
  );
  const memories = byNs.reduce((s, r) => s + r.n, 0);
  const [all] = await pg.db.query<{ n: number }>('compute stats', `SELECT count(*)::int AS n FROM memories m WHERE ${wAll}`, pa.values);
  let embedded = 0;
  if (model) {
    const pe = new Params();
    const we = where(f, pe);
    const [e] = await pg.db.query<{ n: number }>(
      'compute stats',
      `SELECT count(*)::int AS n FROM memories m WHERE ${we} AND m.embedding_model = ${pe.add(model)}`,
      pe.values,
    );
    embedded = e?.n ?? 0;
  }
  const [cache] = await pg.db.query<{ n: number }>('compute stats', 'SELECT count(*)::int AS n FROM embedding_cache');
  const [ver] = await pg.db.query<{ value: string }>('compute stats', `SELECT value FROM meta WHERE key = 'schema_version'`);
  return {
    memories,
    namespaces: Object.fromEntries(byNs.map((r) => [r.ns, r.n])),
    embedded,
    cacheEntries: cache?.n ?? 0,
    bytes: await bytes(pg),
    schemaVersion: Number(ver?.value ?? 0),
    expired: (all?.n ?? 0) - memories,
  };
}

export async function rowsBySeqs(pg: PgStore, seqs: number[]): Promise<Map<number, MemoryRow>> {
  const out = new Map<number, MemoryRow>();
  if (!seqs.length) return out;
  for (const r of rows(await pg.db.query('read recalled memories', `SELECT ${ROW_COLUMNS} FROM memories m WHERE m.seq = ANY($1::bigint[])`, [seqs])))
    out.set(r.seq, r);
  return out;
}

export async function countToEmbed(pg: PgStore, model: string): Promise<number> {
  const [r] = await pg.db.query<{ n: number }>('count memories', 'SELECT count(*)::int AS n FROM memories WHERE embedding_model IS DISTINCT FROM $1', [model]);
  return r?.n ?? 0;
}

/** The last `n` memories of a session (newest last), with their vectors of `model`: the context of the next one. */
export async function sessionTail(
  pg: PgStore,
  namespace: string,
  sessionId: string,
  n: number,
  model: string | null,
): Promise<{ content: string; vector: Float32Array | null; key: string | null }[]> {
  const withVec = pg.vectors && model !== null;
  const rows = await pg.db.query<{ content: string; key: string | null; e: string | null }>(
    'read the session',
    `SELECT content, key, ${withVec ? 'CASE WHEN embedding_model = $4 THEN embedding::text END' : 'NULL::text'} AS e FROM memories
     WHERE namespace = $1 AND session_id = $2 ORDER BY seq DESC LIMIT $3`,
    withVec ? [namespace, sessionId, n, model] : [namespace, sessionId, n],
  );
  return rows.reverse().map((r) => ({ content: r.content, key: r.key, vector: r.e ? parseVector(r.e) : null }));
}

/** See `Backend.sessionAround`. */
export async function sessionAround(
  pg: PgStore,
  namespace: string,
  sessionId: string,
  seq: number,
  before: number,
  after: number,
  now: string,
): Promise<number[]> {
  const live = '(expires_at IS NULL OR expires_at > $4::timestamptz OR pinned)';
  const rows = await pg.db.query<{ seq: string | number }>(
    'read the session',
    `(SELECT seq FROM memories WHERE namespace = $1 AND session_id = $2 AND seq < $3 AND ${live} ORDER BY seq DESC LIMIT $5)
     UNION ALL
     (SELECT seq FROM memories WHERE namespace = $1 AND session_id = $2 AND seq > $3 AND ${live} ORDER BY seq LIMIT $6)`,
    [namespace, sessionId, seq, now, before, after],
  );
  return rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
}

export async function toEmbed(
  pg: PgStore,
  model: string,
  after: number,
  limit: number,
): Promise<{ seq: number; content: string; content_hash: string; context: string | null }[]> {
  return pg.db.query(
    'read memories to embed',
    'SELECT seq::float8 AS seq, content, content_hash, context::text AS context FROM memories WHERE seq > $1 AND embedding_model IS DISTINCT FROM $2 ORDER BY seq LIMIT $3',
    [after, model, limit],
  );
}

export async function* exportRows(pg: PgStore, f: RowFilter, withVectors: boolean): AsyncIterableIterator<ExportRow> {
  let after = 0;
  const vec = withVectors && pg.vectors ? ', m.embedding::text AS vector, m.context_embedding::text AS context_vector' : '';
  for (;;) {
    const p = new Params();
    const w = where(f, p);
    const page = await pg.db.query<Row>(
      'export memories',
      `SELECT ${ROW_COLUMNS}${vec} FROM memories m WHERE ${w} AND m.seq > ${p.add(after)} ORDER BY m.seq LIMIT ${EXPORT_PAGE}`,
      p.values,
    );
    for (const r of page) {
      const { vector: v, context_vector: cv, ...row } = r as { vector?: string | null; context_vector?: string | null };
      yield { ...(row as unknown as MemoryRow), vector: v ? parseVector(v) : null, contextVector: v && cv ? parseVector(cv) : null };
    }
    if (page.length < EXPORT_PAGE) return;
    after = page[page.length - 1]!.seq as number;
  }
}

export async function successors(pg: PgStore, seqs: number[]): Promise<Map<number, number>> {
  const r = await pg.db.query<{ a: number; b: number }>(
    'rank by lifecycle',
    `SELECT m.seq::float8 AS a, s.seq::float8 AS b FROM memories m JOIN memories s ON s.id = m.superseded_by
     WHERE m.seq = ANY($1::bigint[]) AND m.superseded_by IS NOT NULL`,
    [seqs],
  );
  return new Map(r.map((x) => [x.a, x.b]));
}

export async function rankMeta(pg: PgStore, seqs: number[], withChangedAt: boolean): Promise<RankMeta[]> {
  return pg.db.query<RankMeta>(
    'rank by lifecycle',
    `SELECT m.seq::float8 AS seq, ${iso('m.created_at')} AS created_at, m.category, m.pinned::int AS pinned, m.importance,
       (SELECT s.seq::float8 FROM memories s WHERE s.id = m.superseded_by) AS succ,
       ${withChangedAt ? `(SELECT ${iso('max(h.replaced_at)')} FROM memory_history h WHERE h.memory_id = m.id)` : 'NULL'} AS changed_at
     FROM memories m WHERE m.seq = ANY($1::bigint[])`,
    [seqs],
  );
}

export async function vectorsOf(pg: PgStore, seqs: number[], model: string): Promise<Map<number, Float32Array>> {
  const out = new Map<number, Float32Array>();
  if (!pg.vectors) return out;
  for (const r of await pg.db.query<{ seq: number; e: string }>(
    'rank by lifecycle',
    'SELECT seq::float8 AS seq, embedding::text AS e FROM memories WHERE embedding_model = $1 AND embedding IS NOT NULL AND seq = ANY($2::bigint[])',
    [model, seqs],
  )) {
    out.set(r.seq, parseVector(r.e));
  }
  return out;
}

export async function contentsOf(pg: PgStore, seqs: number[]): Promise<Map<number, string>> {
  const r = await pg.db.query<{ seq: number; content: string }>(
    'rank by lifecycle',
    'SELECT seq::float8 AS seq, content FROM memories WHERE seq = ANY($1::bigint[])',
    [seqs],
  );
  return new Map(r.map((x) => [x.seq, x.content]));
}

export async function historyRow(pg: PgStore, id: string): Promise<HistoryRow | undefined> {
  return (await pg.db.query<HistoryRow>('read the history', `SELECT id, namespace, ${iso('created_at')} AS created_at FROM memories WHERE id = $1`, [id]))[0];
}

export async function predecessors(pg: PgStore, id: string): Promise<HistoryRow[]> {
  return pg.db.query<HistoryRow>(
    'read the history',
    `SELECT id, namespace, ${iso('created_at')} AS created_at FROM memories WHERE superseded_by = $1 ORDER BY seq`,
    [id],
  );
}

export async function versions(pg: PgStore, id: string): Promise<{ version: number; replaced_at: string }[]> {
  return pg.db.query(
    'read the history',
    `SELECT version::float8 AS version, ${iso('replaced_at')} AS replaced_at FROM memory_history WHERE memory_id = $1 ORDER BY version`,
    [id],
  );
}

export async function versionTexts(pg: PgStore, list: number[]): Promise<Map<number, HistoryText>> {
  const r = await pg.db.query<HistoryText & { version: number }>(
    'read the history',
    'SELECT version::float8 AS version, content, category, metadata::text AS metadata FROM memory_history WHERE version = ANY($1::bigint[])',
    [list],
  );
  return new Map(r.map(({ version, ...t }) => [version, t]));
}

export async function memoryTexts(pg: PgStore, ids: string[]): Promise<Map<string, HistoryText>> {
  const r = await pg.db.query<HistoryText & { id: string }>(
    'read the history',
    'SELECT id, content, category, metadata::text AS metadata FROM memories WHERE id = ANY($1::text[])',
    [ids],
  );
  return new Map(r.map(({ id, ...t }) => [id, t]));
}
