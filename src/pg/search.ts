/**
 * Recall on PostgreSQL: the keyword leg (BM25 over a generated english `tsvector` with a GIN
 * index, idf from `term_stats`; the conversational context field likewise over `ctx_tsv`) and the
 * vector leg (pgvector, HNSW cosine over `search_embedding`) in one round trip.
 * Fusion and re-ranking are the shared code above the store.
 */
import type { LegQuery, LegResults } from '../backend/types.js';
import { queryTerms } from '../search/keyword.js';
import { Params, vectorText, where } from './sql.js';
import type { PgStore } from './store.js';

/** Memories the rarest query terms should match before the commoner ones stop selecting candidates (see legs). */
const KEYWORD_POOL = 1000;

/**
 * A stem as a quoted tsquery operand: inside single quotes, quotes and backslashes are doubled,
 * so no character of it can act as an operator. The query is a value of `to_tsquery`, not SQL.
 */
function tsqueryLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A query stem with its document frequency and BM25 idf in one keyword field. */
interface TermWeight {
  lexeme: string;
  df: number;
  idf: number;
}

/**
 * One keyword field of a recall: the memory's own words (`tsv`, leg `kw`) or its conversational
 * context's (`ctx_tsv`, leg `ctx`, src/lifecycle/context.ts), each with its own statistics.
 */
interface FieldLeg {
  leg: 'kw' | 'ctx';
  column: 'tsv' | 'ctx_tsv';
  /** Every query stem, rarest first. */
  weights: TermWeight[];
  /** The stems that select candidates. */
  select: string[];
  avgdl: number;
  /** What the unselected stems could add to a score at most. */
  bound: number;
}

type Hit = { seq: number; bm25: number; matched?: number };

/** One round trip's answers. */
interface LegRun {
  keyword: Map<FieldLeg['leg'], Hit[]>;
  vector: { seq: number; score: number }[];
  successors: Map<number, number>;
  sessions: Map<number, string>;
}

/** Both legs of a recall, and the term statistics the keyword leg reads. */
export class PgSearch {
  /** Rows written by this process since its last look at the term statistics. */
  private writesSinceStats = Infinity;
  /** Documents counted when the statistics were made, as last seen. */
  private statsDocs = 0;
  /** Per namespace: memories in its statistics when this process last read them (null: not yet), and rows this process wrote there since. */
  private readonly nsStats = new Map<string, { docs: number | null; writes: number }>();

  constructor(private readonly pg: PgStore) {}

  /**
   * Both legs of a recall. The keyword leg is BM25 (k1 = 1.2, b = 0.75), as the file computes it,
   * over the english stems of the query's terms, with document frequencies from `term_stats`
   * (ts_rank has no idf, so common words would rank as high as rare ones). The text only ever
   * reaches `to_tsvector` as a value: no syntax in it is interpreted. The context field is scored
   * the same way with its own statistics (`ctx_term_stats`); recall adds the two
   * (src/recall/context-evidence.ts), with the sessions of the candidates for session evidence.
   *
   * Candidates come from the rarest terms first (max-score pruning): the terms that select rows
   * are the rarest ones up to about {@link KEYWORD_POOL} matching memories, and every term scores.
   * When the last of the top `depth` scores is below what the unselected terms could add at most
   * (idf × (k1 + 1) each), a memory matching only those could still belong in the top, and the
   * field runs again with every term selecting: the result is always the exact BM25 top `depth`.
   */
  async legs(lq: LegQuery): Promise<LegResults> {
    const out: LegResults = { keyword: [], context: [], vector: [], idfMass: 0, successors: new Map() };
    const terms = lq.text === null ? [] : queryTerms(lq.text);
    const fields: FieldLeg[] = [];
    if (terms.length) {
      const ns = lq.filter.namespace;
      await this.ensureTermStats(ns);
      out.scopeSize = this.statsSize(ns);
      const p = new Params();
      const text = p.add(terms.join(' '));
      // Within one namespace the statistics are that namespace's alone (as the file's): its scores,
      // and the relevance made from them, never move with what other namespaces hold. Across all
      // namespaces they are the sums. A stale count never falls below a df (idf stays positive).
      const scoped = ns !== undefined;
      const n = scoped ? p.add(ns) : '';
      const st = scoped
        ? `SELECT coalesce(s.docs, 1) AS n, coalesce(s.avgdl, 1) AS avgdl, coalesce(s.cdocs, 1) AS cn, coalesce(s.cavgdl, 1) AS cavgdl
             FROM (SELECT 1) AS one LEFT JOIN namespace_stats s ON s.namespace = ${n}`
        : `SELECT coalesce(sum(docs), 1) AS n, coalesce(sum(docs * avgdl) / nullif(sum(docs), 0), 1) AS avgdl,
                  coalesce(sum(cdocs), 1) AS cn, coalesce(sum(cdocs * cavgdl) / nullif(sum(cdocs), 0), 1) AS cavgdl FROM namespace_stats`;
      const df = (table: string): string =>
        scoped
          ? `SELECT term, df FROM ${table} WHERE namespace = ${n} AND term IN (SELECT lexeme FROM qt)`
          : `SELECT term, sum(df) AS df FROM ${table} WHERE term IN (SELECT lexeme FROM qt) GROUP BY term`;
      const idf = (d: string, docs: string): string => `ln(1 + (greatest(${docs}, ${d}) - ${d} + 0.5) / (${d} + 0.5))`;
      const r = await this.pg.db.query<{ lexeme: string; df: number; idf: number; avgdl: number; cdf: number; cidf: number; cavgdl: number }>(
        'recall',
        `WITH qt AS (SELECT DISTINCT lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ${text}))) AS lexeme),
           st AS (SELECT greatest(n, 1)::float8 AS n, greatest(avgdl, 1)::float8 AS avgdl, greatest(cn, 1)::float8 AS cn, greatest(cavgdl, 1)::float8 AS cavgdl FROM (${st}) AS x),
           ts AS (${df('term_stats')}), cs AS (${df('ctx_term_stats')})
         SELECT qt.lexeme, coalesce(ts.df, 0)::float8 AS df, ${idf('coalesce(ts.df, 0)', 'st.n')} AS idf, st.avgdl,
                coalesce(cs.df, 0)::float8 AS cdf, ${idf('coalesce(cs.df, 0)', 'st.cn')} AS cidf, st.cavgdl
         FROM qt CROSS JOIN st LEFT JOIN ts ON ts.term = qt.lexeme LEFT JOIN cs ON cs.term = qt.lexeme
         ORDER BY df, qt.lexeme`,
        p.values,
      );
      const own = r.map(({ lexeme, df, idf }) => ({ lexeme, df, idf }));
      out.idfMass = own.reduce((x, w) => x + w.idf, 0);
      fields.push(plan('kw', 'tsv', own, r[0]?.avgdl ?? 1, lq.depth));
      fields.push(
        plan(
          'ctx',
          'ctx_tsv',
          r.map(({ lexeme, cdf, cidf }) => ({ lexeme, df: cdf, idf: cidf })),
          r[0]?.cavgdl ?? 1,
          lq.depth,
        ),
      );
    }
    const first = await this.runLegs(lq, fields, true);
    out.vector = first.vector;
    const sessions = first.sessions;
    for (const [k, v] of first.successors) out.successors!.set(k, v);
    const got = new Map(fields.map((f) => [f.leg, first.keyword.get(f.leg) ?? []]));
    // A field whose top could miss a memory matching only unselected terms runs again, exactly.
    const again = fields
      .filter((f) => {
        const hits = got.get(f.leg)!;
        const last = hits[hits.length - 1];
        return f.bound > 0 && (hits.length < lq.depth || -last!.bm25 < f.bound);
      })
      .map((f) => ({ ...f, select: f.weights.map((w) => w.lexeme), bound: 0 }));
    if (again.length) {
      const second = await this.runLegs(lq, again, false);
      for (const f of again) got.set(f.leg, second.keyword.get(f.leg) ?? []);
      for (const [k, v] of second.successors) out.successors!.set(k, v);
      for (const [k, v] of second.sessions) sessions.set(k, v);
    }
    out.keyword = got.get('kw') ?? [];
    out.context = got.get('ctx') ?? [];
    // As the file: session evidence goes with conversational context (no context candidates, no sessions).
    if (out.context.length) out.sessions = sessions;
    return out;
  }

  /**
   * One round trip: the keyword fields over memories matching their `select` (scored with every
   * weight), the vector leg, the candidates' supersession, and the sessions of the keyword candidates.
   */
  private async runLegs(lq: LegQuery, fields: FieldLeg[], withVector: boolean): Promise<LegRun> {
    const p = new Params();
    const ctes: string[] = [];
    const legs: string[] = [];
    for (const f of fields) {
      if (!f.weights.length) continue;
      const lex = p.add(f.weights.map((w) => w.lexeme));
      const idf = p.add(f.weights.map((w) => w.idf));
      ctes.push(`w_${f.leg} AS (SELECT * FROM unnest(${lex}::text[], ${idf}::float8[]) AS w(lexeme, idf)),
        ${f.leg} AS (SELECT m.seq, sum(w.idf * cardinality(u.positions) * 2.2 / (cardinality(u.positions) + 1.2 * (0.25 + 0.75 * length(m.${f.column}) / ${p.add(f.avgdl)}::float8))) AS s,
               sum(w.idf) AS mi
               FROM memories m CROSS JOIN LATERAL unnest(m.${f.column}) u JOIN w_${f.leg} w ON w.lexeme = u.lexeme
               WHERE m.${f.column} @@ to_tsquery('simple', ${p.add(f.select.map(tsqueryLexeme).join(' | '))})
                 AND ${where(lq.filter, p)} GROUP BY m.seq ORDER BY s DESC, m.seq LIMIT ${p.add(lq.depth)})`);
      legs.push(f.leg);
    }
    const kwLegs = [...legs];
    if (withVector && lq.vector !== null && this.pg.vectors && lq.model !== null) {
      const v = p.add(vectorText(lq.vector));
      // The HNSW index serves `ORDER BY search_embedding <=> v`; `exact` orders by an expression it cannot serve, so every row is scored.
      // `search_embedding` is the own vector blended with the context's (src/lifecycle/context.ts), as the file's index holds it.
      const order = lq.exact ? `(m.search_embedding <=> ${v}::vector) + 0` : `m.search_embedding <=> ${v}::vector`;
      ctes.push(`vec AS (SELECT m.seq, 1 - (m.search_embedding <=> ${v}::vector) AS s, NULL::float8 AS mi FROM memories m
        WHERE m.search_embedding IS NOT NULL AND m.embedding_model = ${p.add(lq.model)} AND ${where(lq.filter, p)} ORDER BY ${order} LIMIT ${p.add(lq.depth)})`);
      legs.push('vec');
    }
    const res: LegRun = { keyword: new Map(), vector: [], successors: new Map(), sessions: new Map() };
    if (!legs.length) return res;
    // Supersession of the candidates, and the sessions of the keyword candidates (session evidence),
    // come back in the same round trip: recall needs them every time.
    const sql = `WITH ${ctes.join(', ')}
      ${legs.map((l) => `SELECT '${l}' AS leg, seq::float8 AS seq, s::float8 AS s, NULL::text AS ns, NULL::text AS sid, mi::float8 AS mi FROM ${l}`).join(' UNION ALL ')}
      UNION ALL SELECT 's' AS leg, m.seq::float8 AS seq, n.seq::float8 AS s, NULL, NULL, NULL FROM memories m JOIN memories n ON n.id = m.superseded_by
        WHERE m.superseded_by IS NOT NULL AND m.seq IN (${legs.map((l) => `SELECT seq FROM ${l}`).join(' UNION ')})
      ${
        kwLegs.length
          ? `UNION ALL SELECT 'ss' AS leg, m.seq::float8 AS seq, NULL, m.namespace, m.session_id, NULL FROM memories m
        WHERE m.session_id IS NOT NULL AND m.seq IN (${kwLegs.map((l) => `SELECT seq FROM ${l}`).join(' UNION ')})`
          : ''
      }`;
    for (const r of await this.pg.db.query<{ leg: string; seq: number; s: number; ns: string | null; sid: string | null; mi: number | null }>(
      'recall',
      sql,
      p.values,
    )) {
      if (r.leg === 'kw' || r.leg === 'ctx') {
        let hits = res.keyword.get(r.leg);
        if (!hits) {
          hits = [];
          res.keyword.set(r.leg, hits);
        }
        hits.push(r.leg === 'kw' && r.mi !== null ? { seq: r.seq, bm25: -r.s, matched: r.mi } : { seq: r.seq, bm25: -r.s });
      } else if (r.leg === 'vec') res.vector.push({ seq: r.seq, score: r.s });
      // The session key the file uses (SQLite's json_array(namespace, session_id)): ["ns","sid"].
      else if (r.leg === 'ss') res.sessions.set(r.seq, JSON.stringify([r.ns, r.sid]));
      else res.successors.set(r.seq, r.s);
    }
    // UNION ALL keeps no order, and HNSW's relaxed order may be slightly off.
    for (const hits of res.keyword.values()) hits.sort((a, b) => a.bm25 - b.bm25 || a.seq - b.seq);
    res.vector.sort((a, b) => b.score - a.score || a.seq - b.seq);
    return res;
  }

  /**
   * For each of `vectors`, the vector leg's best score among the memories of `ns` (all when
   * undefined) with vectors of `model`, in one round trip (the HNSW index serves each probe); 0 for none.
   */
  async bestScores(vectors: readonly Float32Array[], model: string, ns: string | undefined): Promise<number[]> {
    const out = vectors.map(() => 0);
    if (!this.pg.vectors || !vectors.length) return out;
    const p = new Params();
    const vs = p.add(vectors.map((v) => vectorText(v)));
    const m = p.add(model);
    const rows = await this.pg.db.query<{ i: number; s: number | null }>(
      'work out the relevance baseline',
      `SELECT p.i::int AS i, (SELECT 1 - (m.search_embedding <=> p.v::vector) FROM memories m
         WHERE m.search_embedding IS NOT NULL AND m.embedding_model = ${m} AND ${where(ns === undefined ? {} : { namespace: ns }, p)}
         ORDER BY m.search_embedding <=> p.v::vector LIMIT 1)::float8 AS s
       FROM unnest(${vs}::text[]) WITH ORDINALITY AS p(v, i)`,
      p.values,
    );
    for (const r of rows) out[r.i - 1] = r.s ?? 0;
    return out;
  }

  /** Memories in a namespace (all when undefined) as the keyword statistics count them (within 10% of the truth, see {@link ensureTermStats}). */
  async scopeSize(ns: string | undefined): Promise<number> {
    await this.ensureTermStats(ns);
    return this.statsSize(ns);
  }

  private statsSize(ns: string | undefined): number {
    return ns === undefined ? this.statsDocs : (this.nsStats.get(ns)?.docs ?? 0);
  }

  /**
   * Keep the keyword statistics roughly current: per namespace, the memories and their average
   * length in each keyword field (`namespace_stats`) and the document frequency of each stem
   * (`term_stats`, `ctx_term_stats`). All of them are remade when missing or when the memory count,
   * or the count of memories with context, has moved by more than 10% (at least 50); one namespace's
   * are remade when a recall in it finds none, or after this process wrote max(10, 10%) memories
   * to it. Approximate on purpose: an idf barely changes with a few more memories, and a per-row
   * counter would make every writer wait on the rows of common words.
   */
  private async ensureTermStats(ns: string | undefined): Promise<void> {
    if (this.writesSinceStats >= Math.max(50, this.statsDocs * 0.1)) {
      const [r] = await this.pg.db.query<{ docs: number | null; cdocs: number | null; n: number; cn: number }>(
        'read the term statistics',
        `SELECT (SELECT value::float8 FROM meta WHERE key = 'term_stats_docs') AS docs, (SELECT value::float8 FROM meta WHERE key = 'ctx_stats_docs') AS cdocs,
                count(*)::float8 AS n, count(context)::float8 AS cn FROM memories`,
      );
      const docs = r?.docs ?? null;
      const cdocs = r?.cdocs ?? null;
      const n = r?.n ?? 0;
      const cn = r?.cn ?? 0;
      const moved = (now: number, then: number | null): boolean => then === null || Math.abs(now - then) > Math.max(50, then * 0.1);
      // The context field counts too: a store of facts that starts keeping conversations changes its statistics, not its size.
      if (moved(n, docs) || moved(cn, cdocs)) {
        await this.remakeStats(null);
        this.nsStats.clear();
      }
      this.statsDocs = n;
      this.writesSinceStats = 0;
    }
    if (ns === undefined) return;
    let e = this.nsStats.get(ns);
    if (!e) {
      e = { docs: null, writes: 0 };
      this.nsStats.set(ns, e);
    }
    const docsOf = async (): Promise<number | null> =>
      (await this.pg.db.query<{ docs: number }>('read the term statistics', 'SELECT docs FROM namespace_stats WHERE namespace = $1', [ns]))[0]?.docs ?? null;
    // First recall here: the statistics as stored (made by any server), against what this process wrote there since it started.
    if (e.docs === null) e.docs = await docsOf();
    if (e.docs !== null && e.writes < Math.max(10, e.docs * 0.1)) return;
    await this.remakeStats(ns);
    this.nsStats.set(ns, { docs: (await docsOf()) ?? 0, writes: 0 });
  }

  /** Remake the statistics of one namespace, or of all (`null`). One server at a time; the others go on with the statistics they have. */
  private async remakeStats(ns: string | null): Promise<void> {
    await this.pg.db.tx('update the term statistics', async (q) => {
      const [lock] = await q<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [
        `mnemolite-stats:${this.pg.schema}:${ns ?? '*'}`,
      ]);
      if (!lock?.ok) return;
      const args = ns === null ? [] : [ns];
      const only = ns === null ? '' : 'WHERE namespace = $1';
      const and = ns === null ? '' : 'AND m.namespace = $1';
      for (const [table, column] of [
        ['term_stats', 'tsv'],
        ['ctx_term_stats', 'ctx_tsv'],
      ] as const) {
        await q(`DELETE FROM ${table} ${only}`, args);
        await q(
          `INSERT INTO ${table}(namespace, term, df) SELECT m.namespace, u.lexeme, count(*) FROM memories m CROSS JOIN LATERAL unnest(m.${column}) AS u
           WHERE m.${column} IS NOT NULL ${and} GROUP BY 1, 2`,
          args,
        );
      }
      await q(`DELETE FROM namespace_stats ${only}`, args);
      await q(
        `INSERT INTO namespace_stats(namespace, docs, avgdl, cdocs, cavgdl)
         SELECT namespace, count(*), coalesce(avg(length(tsv)), 1), count(context), coalesce(avg(length(ctx_tsv)), 1) FROM memories ${only} GROUP BY namespace`,
        args,
      );
      if (ns !== null) return;
      // The planner's statistics too: after a bulk load (and on PGlite, which has no autovacuum)
      // it would not know that a rare stem matches few rows, and would scan them all.
      await q('ANALYZE memories');
      for (const [k, sql] of [
        ['term_stats_docs', 'SELECT count(*)::text FROM memories'],
        ['ctx_stats_docs', 'SELECT count(context)::text FROM memories'],
      ] as const) {
        await q(`INSERT INTO meta(key, value) VALUES ($1, (${sql})) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [k]);
      }
    });
  }

  /** Count rows written, for {@link ensureTermStats}; `namespaces`: where, when the writer knows. */
  wrote(n: number, namespaces: Iterable<string> = []): void {
    this.writesSinceStats += n;
    for (const ns of namespaces) {
      const k = this.nsStats.get(ns);
      if (k) k.writes++;
      else this.nsStats.set(ns, { docs: null, writes: 1 });
    }
  }
}

/** Rarest stems first select candidates until the pool is big enough; the rest only score. */
function plan(leg: FieldLeg['leg'], column: FieldLeg['column'], weights: TermWeight[], avgdl: number, depth: number): FieldLeg {
  // Stable: stems of equal frequency keep the query's order (by stem).
  const sorted = [...weights].sort((a, b) => a.df - b.df);
  const select: string[] = [];
  let pool = 0;
  for (const w of sorted) {
    if (select.length && pool >= Math.max(KEYWORD_POOL, 20 * depth)) break;
    select.push(w.lexeme);
    pool += w.df;
  }
  const bound = sorted.slice(select.length).reduce((x, w) => x + w.idf * 2.2, 0);
  return { leg, column, weights: sorted, select, avgdl, bound };
}
