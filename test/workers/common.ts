/**
 * Shared by the child-process workers and the tests that drive them: a deterministic embedder,
 * a seeded PRNG, argument parsing and line-oriented output. No imports from node:test here, so a
 * worker's stdout carries only its own JSON lines.
 */
import type { Embedder } from '../../src/index.js';
import { MnemoliteError } from '../../src/index.js';
import { mulberry32 } from '../rng.js';

/** Bag of hashed words in `dims` dimensions; same algorithm as HashEmbedder in test/helpers.ts. */
export class WorkerEmbedder implements Embedder {
  readonly provider = 'test';
  readonly id: string;
  readonly dims: number;
  constructor(id = 'hash-64', dims = 64) {
    this.id = id;
    this.dims = dims;
  }
  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((t) => hashVector(t, this.dims));
  }
}

/** The raw (unnormalised) vector WorkerEmbedder returns for `t`. */
export function hashVector(t: string, dims = 64): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % dims]! += 1;
  }
  v[0]! += 0.01; // never the zero vector
  return v;
}

/** The stored form of `hashVector(t)`: L2-normalised little-endian float32, as mnemolite writes it. */
export function expectedBlob(t: string, dims = 64): Buffer {
  const v = hashVector(t, dims);
  const out = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    out[i] = v[i]!;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dims; i++) out[i]! /= norm;
  return Buffer.from(out.buffer);
}

/** mulberry32: small, fast, seeded. */
export function prng(seed: number): { next(): number; int(n: number): number; pick<T>(a: readonly T[]): T; word(): string } {
  const next = mulberry32(seed);
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(arr: readonly T[]): T => arr[int(arr.length)]!,
    word: (): string => Array.from({ length: 6 + int(5) }, () => 'abcdefghijklmnopqrstuvwxyz'[int(26)]).join(''),
  };
}

/** `--name value` pairs from argv. */
export function args(): Record<string, string> {
  const out: Record<string, string> = {};
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i += 2) out[a[i]!.replace(/^--/, '')] = a[i + 1]!;
  return out;
}

/** One JSON line on stdout (pipes are synchronous on Linux, so a line written is a line sent). */
export function emit(o: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(o)}\n`);
}

/** Describe an error for the parent: typed (with code) or raw. */
export function describe(e: unknown): Record<string, unknown> {
  if (e instanceof MnemoliteError) return { typed: true, code: e.code, message: e.message };
  const err = e as { code?: unknown; name?: unknown; message?: unknown; stack?: unknown };
  return { typed: false, code: err?.code ?? null, name: err?.name ?? null, message: String(err?.message ?? e), stack: String(err?.stack ?? '') };
}

/** Resolve on the next macrotask, so stdin and signals get a chance to run. */
export const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Concurrency scenario: keys upserted by every writer in namespace "shared". */
export const SHARED_KEYS = 4;
/** Content of the memory of a pair that is later forgotten. */
export const dContent = (pair: string): string => `dpair ${pair} alpha ${pair.replace(/-/g, 'x')}d`;
/** Content of the memory of a pair that stays. */
export const eContent = (pair: string): string => `epair ${pair} omega`;
