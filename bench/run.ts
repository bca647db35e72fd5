/**
 * `npm run bench`: mnemolite side by side with the straightforward recipe (FTS5 + sqlite-vec +
 * RRF), Orama and LanceDB, on generated memory-like corpora; each (system, size) runs in its own
 * process. Writes bench/results.json, bench/results.md and bench/latency.svg.
 *
 * Knobs (environment):
 * - BENCH_SIZES: corpus sizes, default `1000,10000,50000,200000`;
 * - BENCH_SYSTEMS: default `mnemolite,recipe,orama,lancedb`;
 * - BENCH_QUERIES: questions per cell, default 200 (100 at 200k, and for Orama past 1k);
 * - BENCH_ORAMA_MAX: largest corpus given to Orama (default 10000: at 50k one Orama cell alone
 *   ran for more than 8 minutes here, over the whole budget);
 * - BENCH_REAL: `0` skips the 10k check with vectors from the bundled model (first run embeds
 *   10k texts, ~2 min, cached in bench/.cache).
 */
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderChart } from './chart.js';
import { realCorpus, syntheticCorpus } from './data.js';
import type { Result } from './systems.js';

const here = dirname(fileURLToPath(import.meta.url));
const env = process.env;
const sizes = (env.BENCH_SIZES ?? '1000,10000,50000,200000').split(',').map(Number).filter((n) => n > 0);
const systems = (env.BENCH_SYSTEMS ?? 'mnemolite,recipe,orama,lancedb').split(',');
const baseQueries = Number(env.BENCH_QUERIES ?? 200);
const oramaMax = Number(env.BENCH_ORAMA_MAX ?? 10_000);
const real = env.BENCH_REAL !== '0';
const started = performance.now();

function log(s: string): void {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)}s] ${s}\n`);
}

/** Run a bench script in a child process (its own heap and RSS) and parse its RESULT line. */
function child<T>(script: string, args: string[]): T | null {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, script), ...args], {
    encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...env, RUST_LOG: 'error' },
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (r.status !== 0 || !line) {
    log(`  ${script} ${args.join(' ')} failed (${r.status}): ${r.stderr.split('\n').filter(Boolean).slice(-3).join(' | ')}`);
    return null;
  }
  return JSON.parse(line.slice(7)) as T;
}

/** One (system, size) cell: ingest in one process, then open and query in a fresh one (Orama: one process, it persists nothing). */
function cell(system: string, size: number, kind: string, q: number): Result | null {
  const dir = join(scratch, `${system}-${size}-${kind}`);
  if (system === 'orama') return child<Result>('worker.ts', [system, String(size), kind, String(q), dir, 'all']);
  if (!child<Result>('worker.ts', [system, String(size), kind, String(q), dir, 'ingest'])) return null;
  return child<Result>('worker.ts', [system, String(size), kind, String(q), dir, 'query']);
}

const results: Result[] = [];
const scratch = join(tmpdir(), `mnemolite-bench-${process.pid}`);
for (const size of sizes) {
  log(`corpus ${size}`);
  syntheticCorpus(size); // generate once, cached for the children
  for (const system of systems) {
    if (system === 'orama' && size > oramaMax) { log(`  orama skipped at ${size} (BENCH_ORAMA_MAX=${oramaMax})`); continue; }
    // Fewer questions where a baseline needs 100+ ms per query (Orama past 1k, every system at 200k).
    const q = size >= 200_000 || (system === 'orama' && size > 1000) ? Math.min(baseQueries, 100) : baseQueries;
    log(`  ${system} ${size} (${q} questions)`);
    const r = cell(system, size, 'synthetic', q);
    if (r) results.push(r);
  }
}

// The quality check: the same 10k texts with vectors from the bundled model.
if (real) {
  if (!realCorpus(10_000)) { log('embedding 10k texts with the bundled model (cached afterwards)'); child('embed-real.ts', ['10000']); }
  if (realCorpus(10_000)) {
    log('  mnemolite 10000 (model vectors)');
    const r = cell('mnemolite', 10_000, 'real', baseQueries);
    if (r) results.push(r);
    log('  end-to-end recall with the bundled model embedding each question');
    const e2e = child<{ p50: number; p95: number; p99: number; embedP50: number; queries: number }>('e2e.ts', [join(scratch, 'e2e')]);
    if (e2e) (results as unknown[]).push({ system: 'mnemolite e2e (local model)', size: 10_000, e2e });
  }
}

const out = { machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '?', node: process.version, platform: process.platform }, seconds: (performance.now() - started) / 1000, results };
writeFileSync(join(here, 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
writeFileSync(join(here, 'latency.svg'), renderChart(results.filter((r) => r.vectors === 'synthetic' && r.hybrid)));
const md = table(results);
writeFileSync(join(here, 'results.md'), md);
process.stdout.write(md);
log(`done in ${out.seconds.toFixed(0)} s`);

function table(rs: Result[]): string {
  const f = (x: number | null | undefined, d = 2): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
  const lines: string[] = [];
  lines.push(`Machine: ${out.machine.cpus} cores (${out.machine.cpu}), Node ${out.machine.node}. Latencies in ms. Ratios: recipe p50 / system p50 (same run).`, '');
  lines.push('| system | size | keyword p50/p95/p99 | vector p50/p95/p99 | hybrid p50/p95/p99 | hybrid × vs recipe | recall@10 vs exact | hit@10 | ingest /s | open ms | file MB | RSS B/memory |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rs) {
    if (!r.hybrid) continue;
    const recipe = rs.find((x) => x.system.startsWith('recipe') && x.size === r.size && x.vectors === r.vectors);
    const ratio = recipe ? recipe.hybrid.p50 / r.hybrid.p50 : NaN;
    const l = (x: { p50: number; p95: number; p99: number }): string => `${f(x.p50)} / ${f(x.p95)} / ${f(x.p99)}`;
    lines.push(`| ${r.system}${r.vectors === 'real' ? ' (model vectors)' : ''} | ${r.size} | ${l(r.keyword)} | ${l(r.vector)} | ${l(r.hybrid)} | ${f(ratio, 1)} | ${f(r.recall10, 3)} | ${f(r.hit10, 3)} | ${f(r.ingestPerSec, 0)} | ${f(r.openMs, 0)} | ${f(r.fileBytes === null ? null : r.fileBytes / 1e6, 1)} | ${f(r.rssBytesPerMemory, 0)} |`);
    if (r.legs) lines.push(`| mnemolite legs alone | ${r.size} | ${l(r.legs.keyword)} | ${l(r.legs.vector)} | | | | | | | | |`);
    if (r.exact) {
      lines.push(`| mnemolite exact:true | ${r.size} | | ${l(r.exact.vector)} | ${l(r.exact.hybrid)} | ${f(recipe ? recipe.hybrid.p50 / r.exact.hybrid.p50 : NaN, 1)} | ${f(r.exact.recall10, 3)} | | | | | |`);
    }
  }
  const e2e = (rs as unknown as { system: string; e2e?: { p50: number; p95: number; p99: number; embedP50: number; queries: number } }[]).find((x) => x.e2e);
  if (e2e?.e2e) {
    lines.push('', `End to end at 10k (bundled model embeds each new question, then hybrid recall): p50 ${f(e2e.e2e.p50)} / p95 ${f(e2e.e2e.p95)} / p99 ${f(e2e.e2e.p99)} ms over ${e2e.e2e.queries} questions; embedding alone p50 ${f(e2e.e2e.embedP50)} ms.`);
  }
  lines.push('');
  return lines.join('\n');
}
