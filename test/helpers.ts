import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { MnemoliteError, type Embedder } from '../src/index.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp directory, removed when the test file ends. */
export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mnemolite-test-'));
  dirs.push(d);
  return d;
}

/** A fresh database path in a temp directory. */
export function tempDb(name = 'memory.db'): string {
  return join(tempDir(), name);
}

/**
 * A small deterministic embedder for tests that need vectors but not meaning:
 * bag of hashed lower-cased words in 64 dims. A real implementation of the Embedder interface.
 */
export class HashEmbedder implements Embedder {
  readonly provider = 'test';
  readonly id: string;
  readonly dims: number;
  calls = 0;
  texts = 0;
  /** Every text embedded, in order. */
  readonly embedded: string[] = [];
  constructor(id = 'hash-64', dims = 64) {
    this.id = id;
    this.dims = dims;
  }
  async embed(texts: string[]): Promise<number[][]> {
    this.calls++;
    this.texts += texts.length;
    this.embedded.push(...texts);
    return texts.map((t) => {
      const v = new Array<number>(this.dims).fill(0);
      for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        let h = 2166136261;
        for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
        v[(h >>> 0) % this.dims]! += 1;
      }
      v[0]! += 0.01; // never the zero vector
      return v;
    });
  }
}

export const ROOT = resolve(import.meta.dirname, '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** Result of running the CLI. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `mnemolite ...args` as a real child process (the built CLI). */
export function cli(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, MNEMOLITE_DB: '', ...opts.env },
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Run the CLI asynchronously (for concurrent processes). */
export function cliAsync(args: string[], opts: { env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((res) => {
    const p = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, MNEMOLITE_DB: '', ...opts.env } });
    let stdout = '',
      stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    p.on('close', (code) => res({ code: code ?? -1, stdout, stderr }));
  });
}

/** Run a TypeScript snippet in a child process (tsx), returning its output; `nodeArgs` go to node first. */
export function runTs(file: string, args: string[] = [], nodeArgs: string[] = []): Promise<CliResult> {
  return new Promise((res) => {
    const p = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file, ...args], { cwd: ROOT });
    let stdout = '',
      stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    p.on('close', (code) => res({ code: code ?? -1, stdout, stderr }));
  });
}

export { spawnSync };

/** The error code a call fails with, or 'ok' (it must fail with a typed MnemoliteError, if at all). */
export async function errorCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof MnemoliteError, String(err));
    return err.code;
  }
}
