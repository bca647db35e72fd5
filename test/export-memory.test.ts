// Export keeps memory flat (issue 16): 50,000 memories with 384-dim vectors (~380 MB of JSON
// Lines) through GET /api/export?vectors=true and `mnemolite export --vectors`, with the
// process's peak RSS growth bounded far below the export's size. Vectors are synthetic
// (deterministic data from a seeded generator, imported as they are); real server and CLI processes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { openMemory, type Embedder } from '../src/index.js';
import { CLI, tempDir } from './helpers.js';
import { gauss, mulberry32 } from './rng.js';

const N = Number(process.env.EXPORT_TEST_N ?? 50_000);
const DIMS = 384;
/** Peak RSS growth allowed (MB) for an export of ~380 MB. */
const BOUND_MB = 150;

/** Holds the model's identity; export and import never call it. */
class SyntheticEmbedder implements Embedder {
  readonly provider = 'test';
  readonly id = 'synthetic-384';
  readonly dims = DIMS;
  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => {
      const r = mulberry32(t.length);
      return unit(Array.from({ length: DIMS }, () => gauss(r)));
    });
  }
}

function unit(v: number[]): number[] {
  const k = 1 / Math.hypot(...v);
  return v.map((x) => x * k);
}

async function bigFile(dir: string): Promise<string> {
  const path = join(dir, 'big.db');
  const mem = await openMemory({ path, embedder: new SyntheticEmbedder() });
  const r = mulberry32(16);
  for (let i = 0; i < N; i += 5000) {
    await mem.import(
      Array.from({ length: 5000 }, (_, j) => ({
        content: `memory ${i + j} about topic ${Math.floor(r() * 500)}`,
        namespace: `ns-${(i + j) % 7}`,
        embedding: unit(Array.from({ length: DIMS }, () => gauss(r))),
        embeddingModel: 'synthetic-384',
      })),
    );
  }
  assert.equal(await mem.count({ namespace: '*' }), N);
  await mem.close();
  return path;
}

const kb = (pid: number, field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

test('GET /api/export?vectors=true and mnemolite export --vectors at 50,000 memories: peak RSS grows by less than 150 MB', { timeout: 900_000 }, async (t) => {
  const dir = tempDir();
  const path = await bigFile(dir);

  // HTTP: a real `mnemolite serve`, the body consumed as a stream and counted line by line.
  const proc = spawn(process.execPath, [CLI, '--db', path, '--embedder', 'none', 'serve', '--port', '0'], {
    env: { ...process.env, MNEMOLITE_DB: '', MNEMOLITE_TOKEN: '', MNEMOLITE_TOKENS: '', MNEMOLITE_HOST: '', MNEMOLITE_PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<URL>((res, rej) => {
      let out = '';
      proc.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) res(new URL(m[1]!));
      });
      proc.on('exit', (c) => rej(new Error(`serve exited ${c}`)));
    });
    const get = (p: string): Promise<{ lines: number; bytes: number; first: string }> =>
      new Promise((res, rej) => {
        httpRequest({ host: url.hostname, port: url.port, path: p, agent: false }, (resp) => {
          if (resp.statusCode !== 200) rej(new Error(`${p}: status ${resp.statusCode}`));
          let lines = 0,
            bytes = 0,
            first = '';
          resp.on('data', (c: Buffer) => {
            bytes += c.length;
            if (!first.includes('\n')) first += c.toString('utf8');
            for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) lines++;
          });
          resp.on('end', () => res({ lines, bytes, first }));
          resp.on('error', rej);
        })
          .on('error', rej)
          .end();
      });
    await get('/api/export?namespace=ns-1'); // warm: routes, first page read
    const before = kb(proc.pid!, 'VmRSS');
    const r = await get('/api/export?vectors=true');
    const peak = kb(proc.pid!, 'VmHWM');
    const growth = (peak - before) / 1024;
    t.diagnostic(
      `HTTP export: ${r.lines} lines, ${(r.bytes / 1048576).toFixed(0)} MB; server RSS ${(before / 1024).toFixed(0)} MB before, peak ${(peak / 1024).toFixed(0)} MB`,
    );
    assert.equal(r.lines, N);
    assert.equal((JSON.parse(r.first.split('\n')[0]!) as { embedding: number[] }).embedding.length, DIMS);
    if (N === 50_000) assert.ok(r.bytes > 2 * BOUND_MB * 1048576, 'the export is much larger than the bound');
    assert.ok(growth < BOUND_MB, `server peak RSS grew by ${growth.toFixed(0)} MB`);
  } finally {
    proc.kill('SIGKILL');
  }

  // CLI: peak RSS of the export process against the same process doing `stats` on the file.
  const preload = join(dir, 'maxrss.mjs');
  writeFileSync(preload, "process.on('exit', () => process.stderr.write('maxrss ' + process.resourceUsage().maxRSS + '\\n'));\n");
  const peakOf = (args: string[]): Promise<number> =>
    new Promise((res) => {
      const p = spawn(process.execPath, ['--import', preload, CLI, '--db', path, '--embedder', 'none', ...args], {
        env: { ...process.env, MNEMOLITE_DB: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      p.stderr.on('data', (d) => {
        err += d;
      });
      p.on('close', (code) => {
        assert.equal(code, 0, err);
        res(Number(/maxrss (\d+)/.exec(err)![1]));
      });
    });
  const base = await peakOf(['stats']);
  const out = join(dir, 'out.jsonl');
  const exp = await peakOf(['export', '--vectors', out]);
  const growth = (exp - base) / 1024;
  t.diagnostic(
    `CLI export: ${(statSync(out).size / 1048576).toFixed(0)} MB; peak RSS ${(base / 1024).toFixed(0)} MB for stats, ${(exp / 1024).toFixed(0)} MB for export`,
  );
  let lines = 0;
  for await (const _ of createInterface({ input: createReadStream(out) })) lines++;
  assert.equal(lines, N);
  assert.ok(growth < BOUND_MB, `CLI export peak RSS exceeds stats by ${growth.toFixed(0)} MB`);
});
