/**
 * Alternative keyword legs, for choosing the library's tokenizer and stop-word defaults: the
 * same data set indexed into side FTS5 tables with other tokenizers (in a throwaway in-memory
 * SQLite database), queried with BM25 under the same filters as the library.
 *
 * Each leg returns the data set's ids with a score (higher is better), best first.
 */
import Database from 'better-sqlite3';
import type { Dataset, EvalQuery } from './gen-util.js';

/** Stop words: the library's list when it exports one, so the "stop words" legs match it. */
async function loadStopWords(): Promise<ReadonlySet<string>> {
  try {
    const m = (await import('../src/text/stopwords.js')) as { STOP_WORDS?: ReadonlySet<string> };
    if (m.STOP_WORDS) return m.STOP_WORDS;
  } catch {
    /* fall through */
  }
  return new Set();
}

export interface AltLegSpec {
  /** Leg name used in variant names. */
  name: string;
  /** FTS5 tokenize= argument. */
  tokenize: string;
  /** Drop stop words from the query (unless nothing else is left). */
  stopWords: boolean;
  /** Minimum token length kept in the query (trigram needs 3). */
  minLen?: number;
}

export const ALT_LEGS: AltLegSpec[] = [
  { name: 'porter', tokenize: 'porter unicode61 remove_diacritics 2', stopWords: true },
  { name: 'porter, keep stop words', tokenize: 'porter unicode61 remove_diacritics 2', stopWords: false },
  { name: 'unicode61 (no stemming)', tokenize: 'unicode61 remove_diacritics 2', stopWords: true },
  { name: 'trigram', tokenize: 'trigram remove_diacritics 1', stopWords: true, minLen: 3 },
];

const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;

export class AltKeyword {
  private readonly db: Database.Database;
  private readonly stop: ReadonlySet<string>;

  private constructor(ds: Dataset, stop: ReadonlySet<string>) {
    this.stop = stop;
    this.db = new Database(':memory:');
    const specs = [...new Set(ALT_LEGS.map((s) => s.tokenize))];
    const ins: Database.Statement[] = [];
    specs.forEach((tok, i) => {
      this.db.exec(`CREATE VIRTUAL TABLE t${i} USING fts5(content, ns UNINDEXED, at UNINDEXED, tokenize = '${tok}')`);
      ins.push(this.db.prepare(`INSERT INTO t${i}(rowid, content, ns, at) VALUES (?, ?, ?, ?)`));
    });
    this.tables = new Map(specs.map((tok, i) => [tok, `t${i}`]));
    this.ids = ds.memories.map((m) => m.id);
    this.db.transaction(() => {
      ds.memories.forEach((m, row) => {
        for (const st of ins) st.run(row + 1, m.content, m.namespace ?? 'default', Date.parse(m.createdAt));
      });
    })();
  }

  private readonly tables: Map<string, string>;
  private readonly ids: string[];

  static async create(ds: Dataset): Promise<AltKeyword> {
    return new AltKeyword(ds, await loadStopWords());
  }

  /** Ranked ids (best first, at most `depth`) for one query under one leg spec. */
  search(q: EvalQuery, spec: AltLegSpec, depth: number): { id: string; s: number }[] {
    const all = [...new Set(q.query.toLowerCase().match(TOKEN) ?? [])].filter((t) => t.length >= (spec.minLen ?? 1));
    const kept = spec.stopWords ? all.filter((t) => !this.stop.has(t)) : all;
    const terms = (kept.length ? kept : all).slice(0, 32);
    if (!terms.length) return [];
    const match = terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
    const table = this.tables.get(spec.tokenize)!;
    const where: string[] = [`${table} MATCH ?`];
    const params: (string | number)[] = [match];
    if (q.namespace) {
      where.push('ns = ?');
      params.push(q.namespace);
    }
    if (q.since) {
      where.push('at >= ?');
      params.push(Date.parse(q.since));
    }
    if (q.until) {
      where.push('at < ?');
      params.push(Date.parse(q.until));
    }
    const rows = this.db
      .prepare(`SELECT rowid AS r, bm25(${table}) AS b FROM ${table} WHERE ${where.join(' AND ')} ORDER BY b, rowid LIMIT ?`)
      .all(...params, depth) as { r: number; b: number }[];
    return rows.map((x) => ({ id: this.ids[x.r - 1]!, s: -x.b }));
  }

  close(): void {
    this.db.close();
  }
}
