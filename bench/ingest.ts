/**
 * End-to-end ingest and recall with the bundled model, one thread vs worker threads:
 * `tsx bench/ingest.ts [locomo-dir] [turns] [rounds]`. Reads real chat turns from the LoCoMo dev
 * half (never copied into the repository). Each setup runs in a fresh child process (so one run's
 * threads and memory do not weigh on the next), and the setups alternate round by round (A/B/A/B,
 * order reversed every other round) so a change in machine load hits them alike. A run opens a
 * fresh file, loads the model on the calling thread with one recall (as a live agent would have),
 * adds the turns with one addMany (worker start-up and their model loads included), then times 50
 * LoCoMo questions through recall (query embedding included). Prints one RESULT line per run and
 * a summary; `BENCH_SETUPS=none,one,w1c` picks setups; `BENCH_WARM=1` times a second bulk call (the
 * pool already started and its model loaded by a first one of 256 other turns).
 */
import { spawnSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalEmbedder, openMemory, type LocalEmbedderOptions } from '../src/index.js';
import { pct } from './data.js';
import { locomoCorpus } from './locomo-corpus.js';
import { scratch } from './systems.js';
import { threadCpu } from './thread-cpu.js';

/** The setups: `null` is keyword only (no model). */
const SETUPS: Record<string, LocalEmbedderOptions | null> = {
  none: null,
  one: { workers: 0 },
  w1c: { workers: 1 },
  w2: { workers: 2, callingThreadEmbeds: false },
  w2c: { workers: 2 },
};

interface Result {
  name: string;
  turns: number;
  ingestMs: number;
  cpuMs: number;
  /** Of cpuMs: the calling thread's and the other threads' (workers, GC and compiler helpers), Linux only. */
  mainCpuMs: number | null;
  otherCpuMs: number | null;
  turnsPerS: number;
  recall: { p50: number; p95: number; p99: number };
  rssBeforeMB: number;
  rssAfterMB: number;
  threads: unknown;
  load: number;
}

/** One setup in this process. */
async function one(name: string, dir: string, n: number): Promise<Result> {
  const { turns, questions } = locomoCorpus(dir);
  const sample = turns.slice(0, n);
  const work = scratch(join(tmpdir(), `mnemolite-bench-ingest-${process.pid}`));
  const opts = SETUPS[name];
  if (opts === undefined) throw new Error(`unknown setup ${name}`);
  const embedder = opts ? new LocalEmbedder(opts) : 'none';
  const mem = await openMemory({ path: join(work, `${name}.db`), embedder });
  await mem.recall('warm up the model', { limit: 10 }).catch(() => undefined);
  // BENCH_WARM=1: a first bulk call (other turns) starts the pool and loads the model in the workers,
  // so the timed call measures the steady rate of a long-lived process (the pool stays until close).
  if (process.env.BENCH_WARM === '1') await mem.addMany(turns.slice(-256).map((content) => ({ content, force: true, namespace: 'warm-up' })));
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const th0 = threadCpu();
  const t0 = performance.now();
  await mem.addMany(sample.map((content) => ({ content, force: true })));
  const ingestMs = performance.now() - t0;
  // CPU of every thread of the process: the work the setup cost, whatever the machine's load.
  const cpu = process.cpuUsage(cpu0);
  const th1 = threadCpu();
  // The workers are still up (they stay until close): this is the memory they hold.
  const rssAfter = process.memoryUsage().rss;
  const ms: number[] = [];
  for (const q of questions.slice(0, 50)) {
    const t = performance.now();
    await mem.recall(q, { limit: 10 });
    ms.push(performance.now() - t);
  }
  const threads = embedder instanceof LocalEmbedder ? embedder.workerStats() : [];
  await mem.close();
  scratch(work);
  return {
    name,
    turns: sample.length,
    ingestMs: Math.round(ingestMs),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    mainCpuMs: th0 && th1 ? Math.round((th1.main - th0.main) * 1000) : null,
    otherCpuMs: th0 && th1 ? Math.round((th1.other - th0.other) * 1000) : null,
    turnsPerS: +((sample.length / ingestMs) * 1000).toFixed(1),
    recall: pct(ms),
    rssBeforeMB: Math.round(rssBefore / 1e6),
    rssAfterMB: Math.round(rssAfter / 1e6),
    threads,
    load: +loadavg()[0]!.toFixed(2),
  };
}

if (process.argv[2] === '--one') {
  const r = await one(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
  process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
} else {
  const dir = process.argv[2] ?? '/work/shared/locomo-dev';
  const n = Number(process.argv[3] ?? 400);
  const rounds = Number(process.argv[4] ?? 2);
  const names = (process.env.BENCH_SETUPS ?? 'none,one,w1c,w2,w2c').split(',');
  const results: Result[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      const p = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--one', name, dir, String(n)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const line = p.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) throw new Error(`setup ${name} failed (exit ${p.status})`);
      process.stdout.write(`${line}\n`);
      results.push(JSON.parse(line.slice(7)) as Result);
    }
  }
  // Speed-up of each setup over the one-thread run of the same round.
  const base = results.filter((x) => x.name === 'one');
  for (const name of names) {
    const mine = results.filter((x) => x.name === name);
    const ratios = mine.map((x, i) => (base[i] ? +(x.turnsPerS / base[i]!.turnsPerS).toFixed(2) : null));
    const rate = mine.map((x) => x.turnsPerS);
    const recall = mine.map((x) => +x.recall.p50.toFixed(1));
    process.stdout.write(
      `SUMMARY ${name} turns=${n} turns/s=${rate.join(',')} vs-one=${ratios.join(',')} cpu-s=${mine.map((x) => (x.cpuMs / 1000).toFixed(1)).join(',')} calling/other-threads-cpu-s=${mine.map((x) => (x.mainCpuMs === null ? '?' : `${(x.mainCpuMs / 1000).toFixed(1)}/${((x.otherCpuMs ?? 0) / 1000).toFixed(1)}`)).join(',')} recall-p50-ms=${recall.join(',')} load=${mine.map((x) => x.load).join(',')}\n`,
    );
  }
}
