/**
 * Recall on PostgreSQL: the keyword leg (BM25 over a generated english `tsvector` with a GIN
 * index, idf from `term_stats`) and the vector leg (pgvector, HNSW cosine) in one round trip.
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

/** A query stem with its document frequency and BM25 idf. */
interface TermWeight { lexeme: string; df: number; idf: number }

/** Both legs of a recall, and the term statistics the keyword leg reads. */
export class PgSearch {
  /** Rows written by this process since its last look at the term statistics. */
  private writesSinceStats = Infinity;
  /** Documents counted when the statistics were made, as last seen. */
  private statsDocs = 0;

  constructor(private readonly pg: PgStore) {}

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
      const r = await this.pg.db.query<TermWeight & { avgdl: number }>('recall',
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
    if (withVector && lq.vector !== null && this.pg.vectors && lq.model !== null) {
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
    for (const r of await this.pg.db.query<{ leg: string; seq: number; s: number }>('recall', sql, p.values)) {
      if (r.leg === 'kw') res.keyword.push({ seq: r.seq, bm25: -r.s });
      else if (r.leg === 'vec') res.vector.push({ seq: r.seq, score: r.s });
      else res.successors.set(r.seq, r.s);
    }
    // UNION ALL keeps no order, and HNSW's relaxed order may be slightly off.
    res.keyword.sort((a, b) => a.bm25 - b.bm25 || a.seq - b.seq);
    res.vector.sort((a, b) => b.score - a.score || a.seq - b.seq);
    return res;
  }

  /**
   * Keep `term_stats` (document frequency per stem, from `ts_stat`) roughly current: made when
   * missing, remade when the memory count has moved by more than 10% (at least 50). Approximate
   * on purpose: an idf barely changes with a few more memories, and a per-row counter would make
   * every writer wait on the rows of common words.
   */
  private async ensureTermStats(): Promise<void> {
    if (this.writesSinceStats < Math.max(50, this.statsDocs * 0.1)) return;
    const [r] = await this.pg.db.query<{ docs: number | null; n: number }>('read the term statistics',
      `SELECT (SELECT value::float8 FROM meta WHERE key = 'term_stats_docs') AS docs, (SELECT count(*)::float8 FROM memories) AS n`);
    const docs = r?.docs ?? null;
    const n = r?.n ?? 0;
    if (docs === null || Math.abs(n - docs) > Math.max(50, docs * 0.1)) {
      await this.pg.db.tx('update the term statistics', async (q) => {
        // One server at a time; the others go on with the statistics they have.
        const [lock] = await q<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [`mnemolite-stats:${this.pg.schema}`]);
        if (!lock?.ok) return;
        await q('DELETE FROM term_stats');
        await q(`INSERT INTO term_stats(term, df) SELECT word, ndoc FROM ts_stat('SELECT tsv FROM "${this.pg.schema}".memories')`);
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
  wrote(n: number): void {
    this.writesSinceStats += n;
  }
}
