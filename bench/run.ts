/**
 * `npm run bench`: mnemolite side by side with the straightforward recipe (FTS5 + sqlite-vec +
 * RRF), Orama and LanceDB, on generated memory-like corpora, and mnemolite on PostgreSQL over
 * loopback (`mnemolite-pg`: a throwaway real server started here; `mnemolite-pglite`: PGlite in a
 * child process behind pglite-socket); each (system, size) runs in its own process. Writes
 * bench/results.json, bench/results.md and bench/latency.svg.
 *
 * Knobs (environment):
 * - BENCH_SIZES: corpus sizes, default `1000,10000,50000,200000`;
 * - BENCH_SYSTEMS: default `mnemolite,recipe,orama,lancedb,mnemolite-pg,mnemolite-pglite`;
 * - BENCH_QUERIES: questions per cell, default 200 (100 at 200k, and for Orama and PGlite past 1k);
 * - BENCH_ORAMA_MAX: largest corpus given to Orama (default 10000: at 50k one Orama cell alone
 *   ran for more than 8 minutes here, over the whole budget);
 * - BENCH_PG_MAX: largest corpus given to the two PostgreSQL systems (default 10000: PGlite
 *   ingests ~90 memories/s here, building its HNSW index in single-threaded WebAssembly, so its
 *   10k cell alone takes about 3 minutes);
 * - BENCH_PG_URL: run `mnemolite-pg` against this server instead of starting a throwaway one with
 *   the machine's initdb/pg_ctl (each cell creates, then drops, a schema of its own there);
 * - BENCH_USER_SIZES: sizes of the headline, the user's path (bench/user-path.ts: an Embedder
 *   object, new questions, every default, one namespace and 100), default `10000,50000`
 *   (`200000,1000000` take long: add them explicitly);
 * - BENCH_REAL: `0` skips the 10k check with vectors from the bundled model (first run embeds
 *   10k texts, ~2 min, cached in bench/.cache).
 */
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderChart } from './chart.js';
import { realCorpus, syntheticCorpus } from './data.js';
import type { Result } from './systems.js';
import { startPgliteProcess, startPostgres, type PgServer } from '../test/pg-servers.js';

const here = dirname(fileURLToPath(import.meta.url));
const env = process.env;
const sizes = (env.BENCH_SIZES ?? '1000,10000,50000,200000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const systems = (env.BENCH_SYSTEMS ?? 'mnemolite,recipe,orama,lancedb,mnemolite-pg,mnemolite-pglite').split(',');
const baseQueries = Number(env.BENCH_QUERIES ?? 200);
const oramaMax = Number(env.BENCH_ORAMA_MAX ?? 10_000);
const pgMax = Number(env.BENCH_PG_MAX ?? 10_000);
const PG_SYSTEMS = ['mnemolite-pg', 'mnemolite-pglite'];
const real = env.BENCH_REAL !== '0';
const started = performance.now();

function log(s: string): void {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)}s] ${s}\n`);
}

/** Run a bench script in a child process (its own heap and RSS) and parse its RESULT line. */
function child<T>(script: string, args: string[], extraEnv: Record<string, string> = {}): T | null {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, script), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...env, RUST_LOG: 'error', ...extraEnv },
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.status !== 0 || !line) {
    log(`  ${script} ${args.join(' ')} failed (${r.status}): ${r.stderr.split('\n').filter(Boolean).slice(-3).join(' | ')}`);
    return null;
  }
  return JSON.parse(line.slice(7)) as T;
}

/** One (system, size) cell: ingest in one process, then open and query in a fresh one (Orama: one process, it persists nothing). */
function cell(system: string, size: number, kind: string, q: number, extraEnv: Record<string, string> = {}): Result | null {
  const dir = join(scratch, `${system}-${size}-${kind}`);
  if (system === 'orama') return child<Result>('worker.ts', [system, String(size), kind, String(q), dir, 'all']);
  if (!child<Result>('worker.ts', [system, String(size), kind, String(q), dir, 'ingest'], extraEnv)) return null;
  return child<Result>('worker.ts', [system, String(size), kind, String(q), dir, 'query'], extraEnv);
}

// ---- PostgreSQL cells ----------------------------------------------------------------------

/** The real server, started at the first `mnemolite-pg` cell and stopped at the end (null: not available). */
let pgServer: PgServer | null | undefined;
let pgServerWhyNot = '';
/** A PGlite server process, one per cell (so no cell sees another's memory or garbage). */
let pgliteServer: PgServer | null = null;

async function stopServers(): Promise<void> {
  await pgliteServer?.stop().catch(() => {});
  pgliteServer = null;
  await pgServer?.stop().catch(() => {});
  pgServer = null;
}
process.once('SIGINT', () => {
  void stopServers().finally(() => process.exit(130));
});
process.once('SIGTERM', () => {
  void stopServers().finally(() => process.exit(143));
});

/** The client-visible RSS of a process (Linux), or undefined. */
function rssOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } catch (err) {
    log(`  could not drop schema ${schema}: ${(err as Error).message}`);
  } finally {
    await c.end().catch(() => {});
  }
}

const PGLITE_NOTE =
  'PGlite is PostgreSQL compiled to single-threaded WebAssembly, and pglite-socket multiplexes every client connection onto its one ' +
  'backend session (so the pool is kept at 1 connection): not representative of a tuned PostgreSQL server';

/** One PostgreSQL cell: a fresh schema on the server (a fresh PGlite process for PGlite), ingest and query processes as for mnemolite. */
async function pgCell(system: string, size: number, kind: string, q: number): Promise<Result | null> {
  let server: PgServer;
  let poolSize = 10;
  if (system === 'mnemolite-pg') {
    if (pgServer === undefined) {
      try {
        pgServer = await startPostgres({ url: env.BENCH_PG_URL, urlSource: 'BENCH_PG_URL', settings: ['synchronous_commit=off'] });
        if (!pgServer) pgServerWhyNot = 'no BENCH_PG_URL and no initdb/pg_ctl on this machine';
      } catch (err) {
        pgServer = null;
        pgServerWhyNot = (err as Error).message.split('\n')[0]!;
      }
      if (pgServer)
        log(
          `  mnemolite-pg: ${pgServer.label}${pgServer.vectors ? '' : '; no pgvector on this server: keyword recall only, vector and hybrid are reported as —'}`,
        );
    }
    if (!pgServer) {
      log(`  mnemolite-pg skipped: ${pgServerWhyNot}`);
      return null;
    }
    server = pgServer;
  } else {
    try {
      pgliteServer = await startPgliteProcess();
    } catch (err) {
      log(`  mnemolite-pglite skipped: ${(err as Error).message}`);
      return null;
    }
    log(
      `  mnemolite-pglite: ${pgliteServer.label}, pid ${pgliteServer.pid}; single-threaded WebAssembly, one session for all clients (poolSize 1), not representative of a tuned server`,
    );
    server = pgliteServer;
    poolSize = 1;
  }
  const schema = `bench_${process.pid}_${system.replace(/-/g, '_')}_${size}_${kind}`;
  try {
    const r = cell(system, size, kind, q, {
      BENCH_PG_CELL_URL: server.url,
      BENCH_PG_CELL_SCHEMA: schema,
      BENCH_PG_CELL_POOL: String(poolSize),
      BENCH_PG_CELL_VECTORS: server.vectors ? '1' : '0',
    });
    if (r) {
      const host = new URL(server.url).hostname;
      r.server = `${server.label}${['127.0.0.1', 'localhost', '[::1]'].includes(host) ? ', client and server on this machine (loopback)' : ''}`;
      if (system === 'mnemolite-pglite') {
        r.note = PGLITE_NOTE;
        const sr = rssOf(server.pid);
        if (sr !== undefined) r.serverRssBytes = sr;
      }
    }
    return r;
  } finally {
    if (system === 'mnemolite-pglite') {
      await pgliteServer?.stop();
      pgliteServer = null;
    } else await dropSchema(server.url, schema);
  }
}

const results: Result[] = [];

// The headline: the recall a user makes (bench/user-path.ts), with the recipe alternated in the same process.
interface UserPath {
  size: number;
  layout: string;
  newQuestion: { p50: number; p95: number; p99: number };
  seenQuestion: { p50: number; p95: number; p99: number };
  recipe: { p50: number; p95: number; p99: number };
  speedup: number;
  openFirstMs: number;
  afterWriteMax: number;
  ingestPerSec: number;
  rssBytesPerMemory: number;
  fileBytesPerMemory: number;
  stages: Record<string, { p50: number; mean: number }>;
}
const userPath: UserPath[] = [];
for (const size of (env.BENCH_USER_SIZES ?? '10000,50000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)) {
  for (const layout of ['one', 'many']) {
    log(`  user path ${size} (${layout === 'one' ? 'one namespace' : '100 namespaces'})`);
    const r = child<UserPath>('user-path.ts', [String(size), layout, 'all', join(tmpdir(), `mnemolite-user-${process.pid}-${size}-${layout}`)]);
    if (r) userPath.push(r);
  }
}
const scratch = join(tmpdir(), `mnemolite-bench-${process.pid}`);
try {
  for (const size of sizes) {
    log(`corpus ${size}`);
    syntheticCorpus(size); // generate once, cached for the children
    for (const system of systems) {
      if (system === 'orama' && size > oramaMax) {
        log(`  orama skipped at ${size} (BENCH_ORAMA_MAX=${oramaMax})`);
        continue;
      }
      if (PG_SYSTEMS.includes(system) && size > pgMax) {
        log(`  ${system} skipped at ${size} (BENCH_PG_MAX=${pgMax})`);
        continue;
      }
      // Fewer questions where a baseline needs 100+ ms per query (Orama and PGlite past 1k, every system at 200k).
      const q = size >= 200_000 || ((system === 'orama' || system === 'mnemolite-pglite') && size > 1000) ? Math.min(baseQueries, 100) : baseQueries;
      log(`  ${system} ${size} (${q} questions)`);
      const r = PG_SYSTEMS.includes(system) ? await pgCell(system, size, 'synthetic', q) : cell(system, size, 'synthetic', q);
      if (r) results.push(r);
    }
  }
} finally {
  await stopServers();
}

// The quality check: the same 10k texts with vectors from the bundled model.
if (real) {
  if (!realCorpus(10_000)) {
    log('embedding 10k texts with the bundled model (cached afterwards)');
    child('embed-real.ts', ['10000']);
  }
  if (realCorpus(10_000)) {
    log('  mnemolite 10000 (model vectors)');
    const r = cell('mnemolite', 10_000, 'real', baseQueries);
    if (r) results.push(r);
    log('  end-to-end recall with the bundled model embedding each question');
    const e2e = child<{ p50: number; p95: number; p99: number; embedP50: number; queries: number }>('e2e.ts', [join(scratch, 'e2e')]);
    if (e2e) (results as unknown[]).push({ system: 'mnemolite e2e (local model)', size: 10_000, e2e });
  }
}

const out = {
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '?', node: process.version, platform: process.platform },
  seconds: (performance.now() - started) / 1000,
  userPath,
  results,
};
writeFileSync(join(here, 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
// Stores without a hybrid mode (PostgreSQL without pgvector) are drawn dashed, with their keyword p50.
writeFileSync(
  join(here, 'latency.svg'),
  renderChart(
    results.filter((r) => r.vectors === 'synthetic' && r.hybrid),
    results.filter((r) => r.vectors === 'synthetic' && !r.hybrid && r.keyword),
  ),
);
const md = userTable(userPath) + table(results);
writeFileSync(join(here, 'results.md'), md);
process.stdout.write(md);
rmSync(scratch, { recursive: true, force: true }); // the cells' stores and the e2e scratch
log(`done in ${out.seconds.toFixed(0)} s`);

function userTable(rs: UserPath[]): string {
  if (!rs.length) return '';
  const f = (x: number, d = 2): string => (Number.isFinite(x) ? x.toFixed(d) : '—');
  const l = (x: { p50: number; p95: number; p99: number }): string => `${f(x.p50)} / ${f(x.p95)} / ${f(x.p99)}`;
  const stages = ['cache', 'model', 'cache-write', 'keyword', 'vector', 'fusion', 'preferences', 'relevance', 'rows'];
  return [
    "The user's path: an Embedder object (precomputed vectors, model cost excluded), new questions, every default. ms.",
    '',
    '| size | namespaces | new question p50/p95/p99 | seen question p50/p95/p99 | recipe p50/p95/p99 | × recipe | open + first | max after a 1,000-memory write | ingest /s | RSS B/memory | file B/memory |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rs.map(
      (r) =>
        `| ${r.size} | ${r.layout === 'one' ? 1 : 100} | ${l(r.newQuestion)} | ${l(r.seenQuestion)} | ${l(r.recipe)} | ${f(r.speedup, 1)} | ${f(r.openFirstMs, 0)} | ${f(r.afterWriteMax, 1)} | ${f(r.ingestPerSec, 0)} | ${f(r.rssBytesPerMemory, 0)} | ${f(r.fileBytesPerMemory, 0)} |`,
    ),
    '',
    `Stage p50 / mean (ms): | size | namespaces | ${stages.join(' | ')} |`,
    `|---|---|${stages.map(() => '---').join('|')}|`,
    ...rs.map(
      (r) =>
        `| ${r.size} | ${r.layout === 'one' ? 1 : 100} | ${stages.map((s) => (r.stages[s] ? `${f(r.stages[s].p50, 3)} / ${f(r.stages[s].mean, 3)}` : '—')).join(' | ')} |`,
    ),
    '',
    '',
  ].join('\n');
}

function table(rs: Result[]): string {
  const f = (x: number | null | undefined, d = 2): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
  const lines: string[] = [];
  lines.push(
    `Machine: ${out.machine.cpus} cores (${out.machine.cpu}), Node ${out.machine.node}. Latencies in ms. Ratios: recipe p50 / system p50 (same run).`,
    '',
  );
  lines.push(
    '| system | size | keyword p50/p95/p99 | vector p50/p95/p99 | hybrid p50/p95/p99 | hybrid × vs recipe | recall@10 vs exact | hit@10 | ingest /s | open ms | file MB | RSS B/memory |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rs) {
    if (!r.keyword) continue; // the end-to-end entry has a line of its own
    const recipe = rs.find((x) => x.system.startsWith('recipe') && x.size === r.size && x.vectors === r.vectors);
    const ratio =
      recipe?.hybrid && r.hybrid
        ? f(recipe.hybrid.p50 / r.hybrid.p50, 1)
        : // No hybrid mode (PostgreSQL without pgvector): the keyword ratio instead, labelled.
          recipe && !r.hybrid
          ? `— (keyword ${f(recipe.keyword.p50 / r.keyword.p50, 1)})`
          : '—';
    const l = (x: { p50: number; p95: number; p99: number } | null): string => (x ? `${f(x.p50)} / ${f(x.p95)} / ${f(x.p99)}` : '—');
    lines.push(
      `| ${r.system}${r.vectors === 'real' ? ' (model vectors)' : ''} | ${r.size} | ${l(r.keyword)} | ${l(r.vector)} | ${l(r.hybrid)} | ${ratio} | ${f(r.recall10, 3)} | ${f(r.hit10, 3)} | ${f(r.ingestPerSec, 0)} | ${f(r.openMs, 0)} | ${f(r.fileBytes === null ? null : r.fileBytes / 1e6, 1)} | ${f(r.rssBytesPerMemory, 0)} |`,
    );
    if (r.legs) lines.push(`| mnemolite legs alone | ${r.size} | ${l(r.legs.keyword)} | ${l(r.legs.vector)} | | | | | | | | |`);
    if (r.exact) {
      lines.push(
        `| mnemolite exact:true | ${r.size} | | ${l(r.exact.vector)} | ${l(r.exact.hybrid)} | ${f(recipe?.hybrid ? recipe.hybrid.p50 / r.exact.hybrid.p50 : NaN, 1)} | ${f(r.exact.recall10, 3)} | | | | | |`,
      );
    }
  }
  // What the PostgreSQL columns are (one line per system, from its first row).
  const pgRows = rs.filter((r) => r.server);
  const notes = [...new Map(pgRows.map((r) => [r.system, r])).values()].map((r) => {
    const sizes = pgRows.filter((x) => x.system === r.system);
    const kw = sizes.map((x) => `${f(x.keywordHit10, 3)} at ${x.size}`).join(', ');
    const srv = sizes
      .filter((x) => x.serverRssBytes)
      .map((x) => `${f(x.serverRssBytes! / 1e6, 0)} MB at ${x.size}`)
      .join(', ');
    return (
      `- **${r.system}**: mnemolite's Memory API on ${r.server}; file MB = pg_total_relation_size of the store's tables (indexes, TOAST); ` +
      `RSS is the client process only. ${r.note ? `${r.note[0]!.toUpperCase()}${r.note.slice(1)}. ` : ''}` +
      `Keyword-mode hit@10: ${kw}.${srv ? ` Server process RSS after the queries: ${srv}.` : ''}`
    );
  });
  if (notes.length) lines.push('', 'PostgreSQL columns:', '', ...notes);
  const e2e = (rs as unknown as { system: string; e2e?: { p50: number; p95: number; p99: number; embedP50: number; queries: number } }[]).find((x) => x.e2e);
  if (e2e?.e2e) {
    lines.push(
      '',
      `End to end at 10k (bundled model embeds each new question, then hybrid recall): p50 ${f(e2e.e2e.p50)} / p95 ${f(e2e.e2e.p95)} / p99 ${f(e2e.e2e.p99)} ms over ${e2e.e2e.queries} questions; embedding alone p50 ${f(e2e.e2e.embedP50)} ms.`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
