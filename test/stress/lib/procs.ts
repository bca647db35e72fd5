/**
 * Real child processes speaking JSON lines: test/workers/*.ts, bundled once per test process
 * with esbuild (tsx's own compiler) so a child starts in a fraction of `node --import tsx`'s
 * time; falls back to `node --import tsx` when esbuild is not importable.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after } from 'node:test';
import { ROOT } from '../../helpers.js';

const OUT = join(ROOT, 'node_modules', '.cache', 'mnemolite-reliability', String(process.pid));
const bundles = new Map<string, Promise<string[]>>();
after(() => rmSync(OUT, { recursive: true, force: true }));

/** `node` arguments that run a worker script. */
export function workerArgv(script: string): Promise<string[]> {
  let b = bundles.get(script);
  if (!b) {
    b = (async () => {
      const src = join(ROOT, 'test', 'workers', script);
      try {
        const esbuild = await import('esbuild');
        mkdirSync(OUT, { recursive: true });
        const outfile = join(OUT, script.replace(/\.ts$/, '.mjs'));
        await esbuild.build({
          entryPoints: [src],
          outfile,
          bundle: true,
          platform: 'node',
          format: 'esm',
          packages: 'external',
          logLevel: 'error',
          sourcemap: 'inline',
        });
        return ['--enable-source-maps', outfile];
      } catch {
        return ['--import', 'tsx', src];
      }
    })();
    bundles.set(script, b);
  }
  return b;
}

/** Bundle the given workers now (so later spawns do not wait). */
export async function prepareWorkers(...scripts: string[]): Promise<void> {
  await Promise.all(scripts.map(workerArgv));
}

export type Line = Record<string, unknown> & { op?: string };

export interface Worker {
  proc: ChildProcessWithoutNullStreams;
  lines: Line[];
  stderr(): string;
  /** Resolves with the first line (already received or future) matching `pred`; rejects if the process exits first. */
  waitFor(pred: (l: Line) => boolean): Promise<Line>;
  /** Resolves when the process has exited and its output is drained. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  send(line: string): void;
}

/** Spawn test/workers/<script> with `--k v ...`. */
export async function startWorker(script: string, args: Record<string, string | number>): Promise<Worker> {
  const argv = Object.entries(args).flatMap(([k, v]) => [`--${k}`, String(v)]);
  const proc = spawn(process.execPath, [...(await workerArgv(script)), ...argv], { cwd: ROOT, stdio: 'pipe' });
  const lines: Line[] = [];
  let err = '';
  const waiters: { pred: (l: Line) => boolean; res: (l: Line) => void; rej: (e: Error) => void }[] = [];
  proc.stderr.on('data', (d) => {
    err += d;
  });
  const rl = createInterface({ input: proc.stdout });
  rl.on('line', (text) => {
    let l: Line;
    try {
      l = JSON.parse(text) as Line;
    } catch {
      l = { op: 'garbage', text };
    }
    lines.push(l);
    for (let i = waiters.length - 1; i >= 0; i--)
      if (waiters[i]!.pred(l)) {
        waiters[i]!.res(l);
        waiters.splice(i, 1);
      }
  });
  const closed = new Promise<void>((r) => rl.once('close', r));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => {
    proc.once('exit', (code, signal) => {
      void closed.then(() => {
        for (const w of waiters.splice(0)) w.rej(new Error(`${script} exited (${code ?? signal}) before the awaited line; stderr:\n${err}`));
        res({ code, signal });
      });
    });
  });
  return {
    proc,
    lines,
    stderr: () => err,
    exited,
    waitFor(pred) {
      const have = lines.find(pred);
      if (have) return Promise.resolve(have);
      if (proc.exitCode !== null || proc.signalCode !== null) return Promise.reject(new Error(`${script} already exited; stderr:\n${err}`));
      return new Promise((res, rej) => waiters.push({ pred, res, rej }));
    },
    send(line) {
      proc.stdin.write(`${line}\n`);
    },
  };
}

/** Lines of one kind. */
export const linesOf = (w: Worker, op: string): Line[] => w.lines.filter((l) => l.op === op);
