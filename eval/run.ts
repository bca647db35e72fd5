/**
 * Quality benchmark: `npm run eval` (= `tsx eval/run.ts`).
 *
 * Loads each labelled data set into a fresh temporary mnemolite file (bundled local embedder,
 * vectors cached under bench/.cache/eval/), runs every query under every variant, and prints
 * recall@5, recall@10, MRR and NDCG@10 overall and per query kind.
 *
 * Two kinds of variant:
 *  - library variants call `memory.recall()` with some options: what users get. A future
 *    option (e.g. `{ fusion: 'convex', weights: { keyword: 0.7, vector: 0.3 } }`) is one line
 *    in LIBRARY_VARIANTS; a build that rejects the option reports the variant as unsupported.
 *  - offline fusions (marked "sim") re-fuse the two legs' ranked lists (fetched once per query
 *    through `recall({ mode: 'keyword' | 'vector' })`) inside this script, to explore fusion
 *    functions before they exist in the library. "sim rrf k=60 d=50" must equal the library's
 *    default hybrid; the runner checks that and says so.
 *
 * Options:
 *   --data facts,conversations   data sets (names under eval/data/ or paths to .json files)
 *   --json FILE                  also write every number (per variant, per kind, per query) as JSON
 *   --variants core|fusion|preferences|all   core: the three modes; fusion: modes and fusions; preferences: modes and
 *                                the current-over-stale / time preferences switched off; all (default): every variant
 *   --per-kind all               per-kind tables for every variant (default: the three modes)
 *   --keep                       keep the temporary database files
 *   --cache DIR                  vector cache folder (default bench/.cache/eval/ of this checkout)
 *   --rev TEXT                   label printed in the report (eval/run-at.sh passes the commit)
 *   --locomo DIR                 the LoCoMo dev half (default ../shared/locomo-dev beside the repository; skipped with a note
 *                                when absent; --no-locomo skips it)
 *   --store pglite|postgres://…  run on PostgreSQL instead of a file: `pglite` starts PGlite (with
 *                                pgvector) in a child process; a URL needs pgvector on the server
 *
 * To measure a committed library without the uncommitted work of a shared tree:
 *   bash eval/run-at.sh [REV] [options]
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openMemory, type Memory } from '../src/index.js';
import { freshSchema, startPgliteProcess } from '../test/pg-servers.js';
import { LocalEmbedder } from '../src/embed/local.js';
import type { RecallOptions } from '../src/types/memory.js';
import { CachingEmbedder } from './embed-cache.js';
import { defaultLocomoDir, locomoReport, runLocomo } from './locomo.js';
import { EXTRA_VARIANTS, LOCOMO_VARIANTS } from './locomo-variants.js';
import { ALT_LEGS, AltKeyword } from './keyword-alt.js';
import type { Dataset, EvalQuery } from './gen-util.js';
import { METRICS, METRIC_LABEL, firstRank, mean, score, selfCheck, type Scores } from './metrics.js';
import { queryHalf } from './split.js';

// ---- variants ------------------------------------------------------------------------------

/** Options passed to recall; loosely typed so options a newer library accepts can be listed here. */
type RecallVariantOptions = RecallOptions & Record<string, unknown>;

interface LibraryVariant {
  kind: 'library';
  name: string;
  group: string;
  options: RecallVariantOptions | ((ds: Dataset) => RecallVariantOptions);
}
interface SimVariant {
  kind: 'sim';
  name: string;
  group: string;
  fuse: (legs: Legs, q: EvalQuery) => string[];
}
type Variant = LibraryVariant | SimVariant;

const lib = (group: string, name: string, options: LibraryVariant['options']): LibraryVariant => ({ kind: 'library', group, name, options });
/** Latest creation time in a data set: the fixed "now" for recency, so numbers do not drift with the calendar. */
const asOf = (ds: Dataset): string =>
  ds.memories
    .map((x) => x.createdAt)
    .sort()
    .at(-1) ?? '';

/** What users get from `recall()`. Add a fusion option here as one more line. */
const LIBRARY_VARIANTS: LibraryVariant[] = [
  lib('mode', 'keyword', { mode: 'keyword' }),
  lib('mode', 'vector', { mode: 'vector' }),
  lib('mode', 'hybrid', { mode: 'hybrid' }),
  ...[10, 30, 100].map((k) => lib('rrf k', `hybrid rrf rrfK=${k}`, { mode: 'hybrid', fusion: 'rrf', rrfK: k })),
  ...[10, 20, 100, 200].map((c) => lib('depth', `hybrid candidates=${c}`, { mode: 'hybrid', candidates: c })),
  lib('depth', 'hybrid rrf rrfK=10 candidates=20', { mode: 'hybrid', fusion: 'rrf', rrfK: 10, candidates: 20 }),
  // Lifecycle re-ranking (issue 6), off by default in the library.
  lib('lifecycle', 'hybrid recency 180d', (ds) => ({ mode: 'hybrid', recency: { halfLife: '180d', asOf: asOf(ds) } })),
  lib('lifecycle', 'hybrid recency 30d w=0.5', (ds) => ({ mode: 'hybrid', recency: { halfLife: '30d', weight: 0.5, asOf: asOf(ds) } })),
  lib('lifecycle', 'hybrid recency 365d w=0.2', (ds) => ({ mode: 'hybrid', recency: { halfLife: '365d', weight: 0.2, asOf: asOf(ds) } })),
  lib('lifecycle', 'hybrid mmr', { mode: 'hybrid', mmr: true }),
  // More lifecycle points (recency half-lives / floors, MMR λ): see "Lifecycle features" in EVAL.md.
  // (recency weight defaults to 0.2; w=1 is the pure half-life decay)
  ...['30d', '90d', '365d'].map((h) => lib('lifecycle', `hybrid recency ${h}`, (ds) => ({ mode: 'hybrid', recency: { halfLife: h, asOf: asOf(ds) } }))),
  ...['90d', '365d'].map((h) => lib('lifecycle', `hybrid recency ${h} w=1`, (ds) => ({ mode: 'hybrid', recency: { halfLife: h, weight: 1, asOf: asOf(ds) } }))),
  ...[0.5, 0.9].map((l) => lib('lifecycle', `hybrid mmr λ=${l}`, { mode: 'hybrid', mmr: { lambda: l } })),
  // Fusion (issue 8): 'hybrid' above is the default (adaptive); these are the alternatives.
  lib('fusion', 'hybrid rrf', { mode: 'hybrid', fusion: 'rrf' }),
  lib('fusion', 'hybrid rrf vec×0.3', { mode: 'hybrid', fusion: 'rrf', weights: { keyword: 1, vector: 0.3 } }),
  ...[0.5, 0.7].map((a) => lib('fusion', `hybrid convex kw=${a}`, { mode: 'hybrid', fusion: 'convex', weights: { keyword: a, vector: 1 - a } })),
  lib('fusion', 'hybrid adaptive kw×0.5', { mode: 'hybrid', fusion: 'adaptive', weights: { keyword: 0.5, vector: 1 } }),
  lib('fusion', 'hybrid adaptive kw×2', { mode: 'hybrid', fusion: 'adaptive', weights: { keyword: 2, vector: 1 } }),
  // Preferences: current over stale (default on) and the time preference, each switched off; and the
  // queries run without their since/until filters, so only the time words of the query can help.
  lib('preferences', 'hybrid preferCurrent off', { mode: 'hybrid', preferCurrent: false }),
  lib('preferences', 'hybrid no since/until', (ds) => ({ mode: 'hybrid', now: asOf(ds), dropTimeFilters: true })),
  lib('preferences', 'hybrid no since/until, timePreference off', (ds) => ({ mode: 'hybrid', now: asOf(ds), timePreference: false, dropTimeFilters: true })),
  ...[0.7, 1.4].map((w) => lib('fusion', `hybrid adaptive kw×${w}`, { mode: 'hybrid', fusion: 'adaptive', weights: { keyword: w, vector: 1 } })),
  lib('fusion', 'hybrid convex kw=0.6', { mode: 'hybrid', fusion: 'convex', weights: { keyword: 0.6, vector: 0.4 } }),
];

/** Both legs' ranked lists for one query, deepest we look at. */
interface Legs {
  kw: { id: string; s: number }[];
  vec: { id: string; s: number }[] /** Alternative keyword legs (eval/keyword-alt.ts), by name. */;
  alt: Record<string, { id: string; s: number }[]> /** Insertion order of a memory (the library's last tie-break). */;
  pos: (id: string) => number /** Whether a memory is relevant to the query (oracle only). */;
  rel: (id: string, q: EvalQuery) => boolean;
}
// The library's default candidate depth: the keyword leg's order among equal BM25 scores depends on
// the LIMIT (SQLite's top-N sorter is not stable), so the legs are fetched at the depth the
// library's hybrid uses, or the offline RRF would not reproduce it.
const LEG_DEPTH = 50;

/** Weighted RRF over the legs cut at `depth`. Ties as in the library: better single-leg rank, then older memory. */
function rrfFuse(legs: Legs, k: number, wk: number, wv: number, depth: number): string[] {
  const acc = new Map<string, { s: number; best: number }>();
  const add = (list: { id: string }[], w: number): void =>
    list.slice(0, depth).forEach((h, i) => {
      const e = acc.get(h.id) ?? { s: 0, best: Infinity };
      e.s += w / (k + i + 1);
      e.best = Math.min(e.best, i + 1);
      acc.set(h.id, e);
    });
  add(legs.kw, wk);
  add(legs.vec, wv);
  return [...acc.entries()].sort((a, b) => b[1].s - a[1].s || a[1].best - b[1].best || legs.pos(a[0]) - legs.pos(b[0])).map(([id]) => id);
}

/** Convex combination of min-max normalised scores (Bruch et al. 2023, "TM2C2" with observed min/max). */
function convexFuse(legs: Legs, alpha: number, depth: number): string[] {
  const norm = (list: { id: string; s: number }[]): Map<string, number> => {
    const top = list.slice(0, depth);
    if (!top.length) return new Map();
    const max = Math.max(...top.map((h) => h.s)),
      min = Math.min(...top.map((h) => h.s));
    return new Map(top.map((h) => [h.id, max > min ? (h.s - min) / (max - min) : 1]));
  };
  const k = norm(legs.kw),
    v = norm(legs.vec);
  const ids = new Set([...k.keys(), ...v.keys()]);
  return [...ids]
    .map((id) => ({ id, s: alpha * (k.get(id) ?? 0) + (1 - alpha) * (v.get(id) ?? 0) }))
    .sort((a, b) => b.s - a.s || legs.pos(a.id) - legs.pos(b.id))
    .map((x) => x.id);
}

const sim = (group: string, name: string, fuse: SimVariant['fuse']): SimVariant => ({ kind: 'sim', group, name, fuse });
const SIM_VARIANTS: SimVariant[] = [
  sim('sim rrf', 'sim rrf k=60 d=50', (l) => rrfFuse(l, 60, 1, 1, 50)),
  ...[0.5, 0.3].map((w) => sim('sim weighted rrf', `sim rrf k=60 vec×${w}`, (l) => rrfFuse(l, 60, 1, w, 50))),
  ...[0.3, 0.4, 0.5, 0.6, 0.7, 0.8].map((a) => sim('sim convex', `sim convex kw=${a}`, (l) => convexFuse(l, a, 50))),
  // Upper bound for any per-query choice between the two legs (uses the labels: not a method).
  sim('sim oracle', 'sim oracle: better leg per query', (l, q) => {
    const rr = (list: { id: string }[]): number => {
      const i = list.slice(0, 10).findIndex((h) => l.rel(h.id, q));
      return i < 0 ? 0 : 1 / (i + 1);
    };
    return (rr(l.vec) > rr(l.kw) ? l.vec : l.kw).map((h) => h.id);
  }),
  // Tokenizer / stop-word alternatives for the keyword leg, alone and fused with the library's vector leg.
  ...ALT_LEGS.map((a) => sim('sim keyword leg', `sim kw ${a.name}`, (l) => l.alt[a.name]!.map((h) => h.id))),
  ...ALT_LEGS.map((a) => sim('sim keyword leg', `sim rrf(kw ${a.name}, vector)`, (l) => rrfFuse({ ...l, kw: l.alt[a.name]! }, 60, 1, 1, 50))),
];

// ---- data ------------------------------------------------------------------------------

interface Loaded {
  ds: Dataset;
  mem: Memory;
  toEval: Map<string, string[]>;
  toLib: Map<string, string>;
  groupOf: (id: string) => string;
  loadMs: number;
}

/**
 * Store a data set. With `hints`, a memory that replaces an earlier one is added with
 * `supersedes: <id of the earlier one>` (the library's supersession, issue 6), as an agent that
 * knows it is updating a fact would do; without, the library has to find the newest value alone.
 */
async function load(ds: Dataset, dir: string, embedder: CachingEmbedder, hints = false): Promise<Loaded> {
  const where = pgUrl ? { url: pgUrl, postgres: { schema: freshSchema(), poolSize: 1 } } : { path: join(dir, `${ds.name}${hints ? '-hints' : ''}.db`) };
  const mem = await openMemory({ ...where, embedder });
  const toEval = new Map<string, string[]>();
  const toLib = new Map<string, string>();
  const t0 = performance.now();
  const BATCH = 500;
  let i = 0;
  while (i < ds.memories.length) {
    // A batch ends before a memory whose predecessor is in the same batch (its library id is not known yet).
    const chunk: typeof ds.memories = [];
    const inChunk = new Set<string>();
    while (i < ds.memories.length && chunk.length < BATCH) {
      const m = ds.memories[i]!;
      if (hints && m.supersedes && inChunk.has(m.supersedes)) break;
      chunk.push(m);
      inChunk.add(m.id);
      i++;
    }
    const res = await mem.addMany(
      chunk.map((m) => {
        const item: Parameters<Memory['addMany']>[0][number] & { supersedes?: string } = { content: m.content, createdAt: m.createdAt };
        if (m.namespace) item.namespace = m.namespace;
        if (m.category) item.category = m.category;
        if (m.sessionId) item.sessionId = m.sessionId;
        if (hints && m.supersedes) item.supersedes = toLib.get(m.supersedes)!;
        return item;
      }),
    );
    // A library that de-duplicates on write may return one id for several inputs: keep them all.
    res.forEach((r, j) => {
      toEval.set(r.id, [...(toEval.get(r.id) ?? []), chunk[j]!.id]);
      toLib.set(chunk[j]!.id, r.id);
    });
    if (process.stderr.isTTY || i === ds.memories.length)
      process.stderr.write(`\r  ${ds.name}${hints ? ' (supersedes hints)' : ''}: stored ${i}/${ds.memories.length} (model calls so far: ${embedder.misses})`);
  }
  process.stderr.write('\n');
  const dupOf = new Map(ds.memories.filter((m) => m.duplicateOf).map((m) => [m.id, m.duplicateOf!]));
  const groupOf = (id: string): string => {
    let g = id;
    for (let n = 0; n < 5 && dupOf.has(g); n++) g = dupOf.get(g)!;
    return g;
  };
  return { ds, mem, toEval, toLib, groupOf, loadMs: performance.now() - t0 };
}

function filterOf(q: EvalQuery): RecallOptions {
  const f: RecallOptions = {};
  if (q.namespace) f.namespace = q.namespace;
  if (q.since) f.since = q.since;
  if (q.until) f.until = q.until;
  return f;
}

// ---- running -------------------------------------------------------------------------------

interface QueryResult {
  id: string;
  kind: string;
  scores: Scores;
  ranked: string[];
  staleAbove?: boolean;
}
interface VariantResult {
  name: string;
  group: string;
  kind: 'library' | 'sim';
  unsupported?: string;
  msPerQuery: number;
  overall: Scores;
  byKind: Record<string, Scores>;
  staleAbove?: number;
  perQuery: QueryResult[];
}

async function runDataset(L: Loaded, variants: Variant[]): Promise<VariantResult[]> {
  const { ds, mem, toEval, toLib, groupOf } = L;
  // Rankings are lists of library ids (one per stored memory). A memory the library merged on write
  // (exact duplicate) stands for several data-set ids: it is scored as the best of them, once.
  const toEvalIds = (q: EvalQuery, ids: string[]): string[] =>
    ids.map((id) => {
      const es = toEval.get(id) ?? [id];
      return es.reduce((b, e) => ((q.relevant[e] ?? 0) > (q.relevant[b] ?? 0) ? e : b), es[0]!);
    });
  const legs = new Map<string, Legs>();
  const firstEval = new Map([...toEval].map(([lib, es]) => [lib, es[0]!]));
  const order = new Map(ds.memories.map((m, i) => [m.id, i]));
  const pos = (libId: string): number => order.get(firstEval.get(libId) ?? '') ?? Infinity;
  /** An alternative keyword leg's data-set ids as library ids (merged duplicates collapse to one). */
  const asLib = (hs: { id: string; s: number }[]): { id: string; s: number }[] => {
    const seen = new Set<string>();
    return hs
      .map((h) => ({ id: toLib.get(h.id) ?? h.id, s: h.s }))
      .filter((h) => {
        if (seen.has(h.id)) return false;
        seen.add(h.id);
        return true;
      });
  };
  if (variants.some((v) => v.kind === 'sim')) {
    const alt = variants.some((v) => v.group === 'sim keyword leg') ? await AltKeyword.create(ds) : null;
    for (const q of ds.queries) {
      const f = filterOf(q);
      const kw = await mem.recall(q.query, { ...f, mode: 'keyword', limit: LEG_DEPTH, candidates: LEG_DEPTH });
      const vec = await mem.recall(q.query, { ...f, mode: 'vector', limit: LEG_DEPTH, candidates: LEG_DEPTH });
      const conv = (hs: typeof kw): { id: string; s: number }[] => hs.map((h) => ({ id: h.id, s: h.score }));
      legs.set(q.id, {
        kw: conv(kw),
        vec: conv(vec),
        pos,
        rel: (id, qq) => (toEval.get(id) ?? [id]).some((e) => (qq.relevant[e] ?? 0) > 0),
        alt: Object.fromEntries(ALT_LEGS.map((a) => [a.name, alt ? asLib(alt.search(q, a, LEG_DEPTH)) : []])),
      });
    }
    alt?.close();
  }
  const results: VariantResult[] = [];
  for (const v of variants) {
    const perQuery: QueryResult[] = [];
    let unsupported: string | undefined;
    const t0 = performance.now();
    for (const q of ds.queries) {
      let ranked: string[];
      if (v.kind === 'library') {
        try {
          const { dropTimeFilters, ...opts } = typeof v.options === 'function' ? v.options(ds) : v.options;
          const f = filterOf(q);
          if (dropTimeFilters) {
            delete f.since;
            delete f.until;
          }
          ranked = toEvalIds(
            q,
            (await mem.recall(q.query, { ...f, limit: 10, ...opts })).map((h) => h.id),
          );
        } catch (err) {
          if ((err as { code?: string }).code === 'INVALID_INPUT' && perQuery.length === 0) {
            unsupported = (err as Error).message;
            break;
          }
          throw err;
        }
      } else {
        ranked = toEvalIds(q, v.fuse(legs.get(q.id)!, q).slice(0, 10));
      }
      ranked = ranked.slice(0, 10);
      const r: QueryResult = { id: q.id, kind: q.kind, scores: score(ranked, q.relevant, groupOf), ranked };
      if (q.stale?.length) {
        const cur = firstRank(ranked, Object.keys(q.relevant), groupOf);
        const old = firstRank(ranked, q.stale, groupOf);
        r.staleAbove = old < cur;
      }
      perQuery.push(r);
    }
    const ms = (performance.now() - t0) / Math.max(1, perQuery.length);
    const kinds = Object.keys(ds.kinds);
    const byKind: Record<string, Scores> = {};
    for (const k of kinds) {
      const xs = perQuery.filter((r) => r.kind === k);
      if (xs.length) byKind[k] = mean(xs.map((r) => r.scores));
    }
    const withStale = perQuery.filter((r) => r.staleAbove !== undefined);
    const res: VariantResult = {
      name: v.name,
      group: v.group,
      kind: v.kind,
      msPerQuery: v.kind === 'library' ? ms : NaN,
      overall: mean(perQuery.map((r) => r.scores)),
      byKind,
      perQuery,
    };
    if (withStale.length) res.staleAbove = withStale.filter((r) => r.staleAbove).length / withStale.length;
    if (unsupported) res.unsupported = unsupported;
    results.push(res);
    process.stderr.write(`  ${ds.name}: ${v.name}${unsupported ? ' (unsupported by this build)' : ''}\n`);
  }
  return results;
}

// ---- reporting ------------------------------------------------------------------------------

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');
function table(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i ? c.padStart(w[i]!) : c.padEnd(w[i]!))).join(' | ')} |`;
  return [line(head), `|${w.map((n, i) => (i ? `${'-'.repeat(n + 1)}:` : `:${'-'.repeat(n + 1)}`)).join('|')}|`, ...rows.map(line)].join('\n');
}

function report(L: Loaded, rs: VariantResult[], perKindAll: boolean, label = L.ds.name): string {
  const { ds } = L;
  const out: string[] = [];
  const n = ds.queries.length;
  const ns = new Set(ds.memories.map((m) => m.namespace ?? 'default')).size;
  const stored = L.toEval.size < ds.memories.length ? ` (stored as ${L.toEval.size}: the library merged exact repeats)` : '';
  out.push(`### ${label}: ${ds.memories.length} memories${ns > 1 ? ` in ${ns} namespaces` : ''}${stored}, ${n} queries`, '');
  const ok = rs.filter((r) => !r.unsupported);
  out.push(
    table(
      ['variant', ...METRICS.map((m) => METRIC_LABEL[m]), 'ms/query'],
      ok.map((r) => [r.name, ...METRICS.map((m) => f3(r.overall[m])), Number.isFinite(r.msPerQuery) ? r.msPerQuery.toFixed(1) : 'sim']),
    ),
  );
  for (const r of rs.filter((x) => x.unsupported)) out.push(`\n(${r.name}: not supported by this build: ${r.unsupported})`);
  const get = (name: string): VariantResult | undefined => ok.find((r) => r.name === name);
  const [kw, vec, hy] = [get('keyword'), get('vector'), get('hybrid')];
  const kindRows = perKindAll ? ok : ok.filter((r) => r.group === 'mode' || r.group === 'preferences');
  out.push('', `Per kind, R@10 / MRR:`, '');
  const kinds = Object.keys(ds.kinds).filter((k) => ds.queries.some((q) => q.kind === k));
  out.push(
    table(
      ['kind (queries)', ...kindRows.map((r) => r.name)],
      kinds.map((k) => [
        `${k} (${ds.queries.filter((q) => q.kind === k).length})`,
        ...kindRows.map((r) => `${f3(r.byKind[k]!.r10)} / ${f3(r.byKind[k]!.mrr)}`),
      ]),
    ),
  );
  if (kw && vec && hy) {
    const idx = new Map(ds.queries.map((q, i) => [q.id, i]));
    let both = 0,
      kOnly = 0,
      vOnly = 0,
      neither = 0,
      lossMrr = 0,
      lossR10 = 0,
      lossR5 = 0,
      winMrr = 0;
    for (const q of ds.queries) {
      const i = idx.get(q.id)!;
      const a = kw.perQuery[i]!.scores,
        b = vec.perQuery[i]!.scores,
        h = hy.perQuery[i]!.scores;
      const ka = a.r10 > 0,
        vb = b.r10 > 0;
      if (ka && vb) both++;
      else if (ka) kOnly++;
      else if (vb) vOnly++;
      else neither++;
      if (h.mrr < Math.max(a.mrr, b.mrr) - 1e-9) lossMrr++;
      if (h.mrr > Math.max(a.mrr, b.mrr) + 1e-9) winMrr++;
      if (h.r10 < Math.max(a.r10, b.r10) - 1e-9) lossR10++;
      if (h.r5 < Math.max(a.r5, b.r5) - 1e-9) lossR5++;
    }
    out.push('', `Legs (a relevant memory in the top 10): both ${both}, keyword only ${kOnly}, vector only ${vOnly}, neither ${neither}.`);
    out.push(
      `Hybrid vs. the better leg of each query: lower MRR on ${lossMrr}, higher MRR on ${winMrr}, lower R@5 on ${lossR5}, lower R@10 on ${lossR10} of ${n} queries.`,
    );
    for (const m of METRICS) {
      const best = Math.max(kw.overall[m], vec.overall[m]);
      if (hy.overall[m] < best - 1e-9)
        out.push(
          `Overall ${METRIC_LABEL[m]}: hybrid ${f3(hy.overall[m])} is BELOW the better single leg (${kw.overall[m] >= vec.overall[m] ? 'keyword' : 'vector'} ${f3(best)}).`,
        );
    }
    const simRrf = get('sim rrf k=60 d=50');
    const libRrf = get('hybrid rrf');
    if (simRrf && libRrf) {
      // Compare answers, not ids: exact duplicates the library merged on write expand to several ids.
      const groups = (ids: string[]): string => [...new Set(ids.map(L.groupOf))].slice(0, 8).join();
      const same = libRrf.perQuery.filter((r, i) => groups(r.ranked) === groups(simRrf.perQuery[i]!.ranked)).length;
      out.push(`Check: offline RRF (k=60, depth 50) reproduces the library's \`fusion: 'rrf'\` ranking (top 8 answers) on ${same}/${n} queries.`);
    }
  }
  const stale = ok.filter((r) => r.staleAbove !== undefined && (r.group === 'mode' || r.group === 'preferences'));
  if (stale.length)
    out.push(
      '',
      `"latest" queries where a superseded version ranks above the current one: ${stale.map((r) => `${r.name} ${(100 * r.staleAbove!).toFixed(0)}%`).join(', ')}.`,
    );
  if (stale.length) {
    // The fixed split of fact groups (eval/split.ts): rules are tuned on one half, the other is held out.
    const half = queryHalf(ds);
    const halves = (['tune', 'held'] as const).map((h) => ({ h, ids: new Set(ds.queries.filter((q) => half(q) === h).map((q) => q.id)) }));
    out.push('', 'By half of the fact groups (eval/split.ts): stale above current (latest queries) · overall R@10 / MRR', '');
    out.push(
      table(
        [
          'variant',
          ...halves.map(({ h, ids }) => `${h} (${[...ids].filter((id) => ds.queries.find((q) => q.id === id)?.stale?.length).length} latest / ${ids.size})`),
        ],
        stale.map((r) => [
          r.name,
          ...halves.map(({ ids }) => {
            const xs = r.perQuery.filter((q) => ids.has(q.id));
            const st = xs.filter((q) => q.staleAbove !== undefined);
            const m = mean(xs.map((q) => q.scores));
            return `${((100 * st.filter((q) => q.staleAbove).length) / Math.max(1, st.length)).toFixed(0)}% · ${f3(m.r10)} / ${f3(m.mrr)}`;
          }),
        ]),
      ),
    );
  }
  return out.join('\n');
}

// ---- main ------------------------------------------------------------------------------------

/** Whether this build of the library accepts `supersedes` on add (probed on a throwaway file). */
async function supportsSupersedes(): Promise<boolean> {
  const m = await openMemory({ path: ':memory:', embedder: 'none' });
  try {
    const a = await m.add('probe one');
    await m.addMany([{ content: 'probe two', supersedes: a.id } as Parameters<Memory['addMany']>[0][number]]);
    return true;
  } catch {
    return false;
  } finally {
    await m.close();
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** PostgreSQL URL when `--store` asks for one (set in main). */
let pgUrl: string | undefined;

async function main(): Promise<void> {
  selfCheck();
  const store = arg('--store');
  const pglite = store === 'pglite' ? await startPgliteProcess() : null;
  pgUrl = pglite?.url ?? store;
  try {
    await evaluate(store);
  } finally {
    await pglite?.stop();
  }
}

async function evaluate(store: string | undefined): Promise<void> {
  const here = new URL('.', import.meta.url).pathname;
  const names = (arg('--data') ?? 'facts,conversations').split(',').filter(Boolean);
  const paths = names.map((n) => (n.endsWith('.json') ? resolve(n) : join(here, 'data', `${n}.json`)));
  const which = arg('--variants') ?? 'all';
  const variants: Variant[] =
    which === 'core'
      ? LIBRARY_VARIANTS.filter((v) => v.group === 'mode')
      : which === 'fusion'
        ? LIBRARY_VARIANTS.filter((v) => v.group === 'mode' || v.group === 'fusion')
        : which === 'preferences'
          ? LIBRARY_VARIANTS.filter((v) => v.group === 'mode' || v.group === 'preferences')
          : [...LIBRARY_VARIANTS, ...SIM_VARIANTS];
  const embedder = new CachingEmbedder(new LocalEmbedder(), arg('--cache') ?? join(here, '..', 'bench', '.cache', 'eval'));
  const dir = mkdtempSync(join(tmpdir(), 'mnemolite-eval-'));
  const t0 = performance.now();
  const sections: string[] = [];
  const json: Record<string, unknown> = {
    rev: null as string | null,
    embedder: embedder.id,
    dims: embedder.dims,
    date: new Date().toISOString(),
    node: process.version,
    datasets: {},
  };
  try {
    for (const p of paths) {
      const ds = JSON.parse(readFileSync(p, 'utf8')) as Dataset;
      process.stderr.write(`${ds.name}: ${ds.memories.length} memories, ${ds.queries.length} queries\n`);
      const runs: { label: string; hints: boolean; variants: Variant[] }[] = [{ label: ds.name, hints: false, variants }];
      if (ds.memories.some((m) => m.supersedes) && which !== 'core' && !process.argv.includes('--no-hints')) {
        if (await supportsSupersedes())
          runs.push({
            label: `${ds.name} + supersedes hints`,
            hints: true,
            variants: variants.filter((v) => v.kind === 'library' && (v.group === 'mode' || v.group === 'lifecycle')),
          });
        else process.stderr.write('  (this build has no `supersedes` option: skipping the run with supersession hints)\n');
      }
      for (const run of runs) {
        const L = await load(ds, dir, embedder, run.hints);
        const rs = await runDataset(L, run.variants);
        sections.push(report(L, rs, arg('--per-kind') === 'all', run.label));
        (json.datasets as Record<string, unknown>)[run.label] = {
          memories: ds.memories.length,
          stored: L.toEval.size,
          queries: ds.queries.length,
          loadMs: Math.round(L.loadMs),
          variants: rs.map((r) => ({
            ...r,
            perQuery: r.perQuery.map((q) => ({
              id: q.id,
              kind: q.kind,
              ...q.scores,
              ...(q.staleAbove !== undefined ? { staleAbove: q.staleAbove } : {}),
              ranked: q.ranked,
            })),
          })),
        };
        await L.mem.close();
      }
    }
  } finally {
    if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`kept ${dir}\n`);
  }
  // Real conversations (LoCoMo dev half) when they sit beside the repository; never copied into it.
  if (!process.argv.includes('--no-locomo') && !store) {
    const dir = arg('--locomo') ?? defaultLocomoDir();
    if (!existsSync(dir)) sections.push(`### LoCoMo dev half\n\nNot found at ${dir}: skipped (give --locomo DIR).`);
    else {
      const lv = which === 'core' ? LOCOMO_VARIANTS : [...LOCOMO_VARIANTS, ...EXTRA_VARIANTS];
      const rs = await runLocomo(dir, lv, ['conversation', 'turns'], embedder);
      sections.push(locomoReport(rs, dir));
      (json.datasets as Record<string, unknown>).locomo = rs.map(({ perQuestion: _p, ...r }) => r);
    }
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(0);
  let rev = arg('--rev');
  if (!rev) {
    try {
      rev = `${execSync('git describe --always --dirty', { cwd: here, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim()} (working tree)`;
    } catch {
      /* not a git checkout */
    }
  }
  const on = store ? `, on PostgreSQL (${store === 'pglite' ? 'PGlite' : store.replace(/:[^:@/]*@/, ':***@')})` : '';
  console.log(`## mnemolite quality benchmark (${rev ? `library at ${rev}, ` : ''}embedder ${embedder.id}${on}, Node ${process.version})\n`);
  console.log(sections.join('\n\n'));
  console.log(
    `\nEmbeddings: ${embedder.hits} from cache, ${embedder.misses} computed (${(embedder.modelMs / 1000).toFixed(0)} s in the model). Total ${secs} s.`,
  );
  const jsonPath = arg('--json');
  json.rev = rev ?? null;
  json.store = store ?? 'sqlite';
  if (jsonPath) {
    writeFileSync(jsonPath, JSON.stringify(json, null, 1));
    console.log(`JSON written to ${jsonPath}`);
  }
}

await main();
