/**
 * Dump both legs' ranked lists (with scores) and per-term document frequencies for every query
 * of a data set, for offline fusion experiments: `tsx eval/dump-legs.ts facts OUT.json`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { queryTerms } from '../src/search/keyword.js';
import { CachingEmbedder } from './embed-cache.js';
import type { Dataset } from './gen-util.js';

const [name = 'facts', out = `/tmp/legs-${name}.json`] = process.argv.slice(2);
const here = new URL('.', import.meta.url).pathname;
const ds = JSON.parse(readFileSync(join(here, 'data', `${name}.json`), 'utf8')) as Dataset;
const dir = mkdtempSync(join(tmpdir(), 'legs-'));
const path = join(dir, 'm.db');
const mem = await openMemory({ path, embedder: new CachingEmbedder(new LocalEmbedder(), join(here, '..', 'bench', '.cache', 'eval')) });
const res = await mem.addMany(ds.memories.map((m) => ({ content: m.content, createdAt: m.createdAt, force: true }) as never));
const libToEval = new Map(res.map((r, i) => [r.id, ds.memories[i]!.id]));
const db = new Database(path, { readonly: true });
db.exec('CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, memories_fts, row)');
const dfStmt = db.prepare('SELECT doc FROM temp.v WHERE term = ?').pluck();
const N = ds.memories.length;
const queries = [];
for (const q of ds.queries) {
  const f = { ...(q.since ? { since: q.since } : {}), ...(q.until ? { until: q.until } : {}) };
  const kw = await mem.recall(q.query, { ...f, mode: 'keyword', limit: 50, candidates: 50 });
  const vec = await mem.recall(q.query, { ...f, mode: 'vector', limit: 50, candidates: 50 });
  const terms = queryTerms(q.query).map((t) => {
    // df of the stemmed term: run it through FTS5's tokenizer by matching.
    const n = db.prepare('SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?').pluck().get(`"${t}"`) as number;
    return { t, df: n };
  });
  queries.push({
    id: q.id,
    kind: q.kind,
    query: q.query,
    relevant: q.relevant,
    terms,
    kw: kw.map((h) => ({ id: libToEval.get(h.id)!, s: h.score, content: h.content })),
    vec: vec.map((h) => ({ id: libToEval.get(h.id)!, s: h.score })),
  });
}
void dfStmt;
writeFileSync(out, JSON.stringify({ name, N, dup: Object.fromEntries(ds.memories.filter((m) => m.duplicateOf).map((m) => [m.id, m.duplicateOf])), queries }));
await mem.close();
db.close();
rmSync(dir, { recursive: true, force: true });
console.log(`wrote ${out}: ${queries.length} queries`);
