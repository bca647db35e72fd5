/**
 * Benchmark data on disk (bench/.cache, git-ignored): generated corpora with synthetic vectors,
 * exact ground truth, and vectors from the bundled model for the 10k check.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMemories, generateQueries, syntheticVectors } from './corpus.js';

export const DIMS = 512;
export const CACHE = join(dirname(fileURLToPath(import.meta.url)), '.cache');

/** A corpus ready to load: texts, unit vectors (flat), and questions with their vectors. */
export interface Corpus {
  size: number;
  kind: 'synthetic' | 'real';
  texts: string[];
  docs: Float32Array;
  queries: string[];
  /** Index of the memory each question was written about. */
  targets: number[];
  qvecs: Float32Array;
}

function writeF32(path: string, a: Float32Array): void {
  writeFileSync(path, Buffer.from(a.buffer, a.byteOffset, a.byteLength));
}

function readF32(path: string): Float32Array {
  const b = readFileSync(path);
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/** Questions per corpus (the same seed at every size, so sizes differ only in the corpus). */
export const QUERY_COUNT = 200;

/** Load (or generate and cache) the synthetic corpus of `size` memories. */
export function syntheticCorpus(size: number): Corpus {
  const dir = join(CACHE, `corpus-${size}`);
  if (!existsSync(join(dir, 'qvecs.f32'))) {
    mkdirSync(dir, { recursive: true });
    const mems = generateMemories(size);
    const qs = generateQueries(mems, QUERY_COUNT);
    const v = syntheticVectors(mems, qs, DIMS);
    writeFileSync(join(dir, 'texts.json'), JSON.stringify(mems.map((m) => m.text)));
    writeFileSync(join(dir, 'queries.json'), JSON.stringify(qs));
    writeF32(join(dir, 'docs.f32'), v.docs);
    writeF32(join(dir, 'qvecs.f32'), v.queries);
  }
  const qs = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { text: string; target: number }[];
  return {
    size,
    kind: 'synthetic',
    texts: JSON.parse(readFileSync(join(dir, 'texts.json'), 'utf8')) as string[],
    docs: readF32(join(dir, 'docs.f32')),
    queries: qs.map((q) => q.text),
    targets: qs.map((q) => q.target),
    qvecs: readF32(join(dir, 'qvecs.f32')),
  };
}

/** Only the questions of a cached corpus (for the query phase: the store holds the memories). */
export function questionsOf(size: number, kind: Corpus['kind']): Corpus {
  const dir = join(CACHE, `corpus-${size}`);
  const qs = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { text: string; target: number }[];
  const qvecs = kind === 'real' ? readF32(realPaths(size).qvecs) : readF32(join(dir, 'qvecs.f32'));
  return { size, kind, texts: [], docs: new Float32Array(0), queries: qs.map((q) => q.text), targets: qs.map((q) => q.target), qvecs };
}

/** Path of the cached model vectors for a corpus size (docs and queries). */
export function realPaths(size: number): { docs: string; qvecs: string } {
  const dir = join(CACHE, `real-${size}`);
  return { docs: join(dir, 'docs.f32'), qvecs: join(dir, 'qvecs.f32') };
}

/** The same texts with vectors from the bundled model (must have been embedded first, see embed-real.ts). */
export function realCorpus(size: number): Corpus | null {
  const p = realPaths(size);
  if (!existsSync(p.qvecs)) return null;
  const s = syntheticCorpus(size);
  return { ...s, kind: 'real', docs: readF32(p.docs), qvecs: readF32(p.qvecs) };
}

/** Save model vectors for a corpus size. */
export function saveReal(size: number, docs: Float32Array, qvecs: Float32Array): void {
  const p = realPaths(size);
  mkdirSync(dirname(p.docs), { recursive: true });
  writeF32(p.docs, docs);
  writeF32(p.qvecs, qvecs);
}

/**
 * Exact top-10 by dot product for each question, computed in plain JS (independent of the code
 * under test) and cached. Only the first `limit` questions.
 */
export function groundTruth(c: Corpus, limit: number): number[][] {
  const path = join(CACHE, `truth-${c.kind}-${c.size}-${limit}.json`);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as number[][];
  if (!c.docs.length) throw new Error(`no cached ground truth ${path}; run the ingest phase first`);
  const out: number[][] = [];
  const n = c.texts.length;
  for (let q = 0; q < limit; q++) {
    const qo = q * DIMS;
    const best: { i: number; s: number }[] = [];
    for (let i = 0; i < n; i++) {
      let s = 0;
      const o = i * DIMS;
      for (let j = 0; j < DIMS; j++) s += c.docs[o + j]! * c.qvecs[qo + j]!;
      if (best.length < 10 || s > best[best.length - 1]!.s) {
        best.push({ i, s });
        best.sort((a, b) => b.s - a.s);
        if (best.length > 10) best.pop();
      }
    }
    out.push(best.map((b) => b.i));
  }
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(path, JSON.stringify(out));
  return out;
}

/** Percentiles of a list of milliseconds. */
export function pct(ms: number[]): { p50: number; p95: number; p99: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Unit vector `i` of a flat array. */
export function row(a: Float32Array, i: number): Float32Array {
  return a.subarray(i * DIMS, (i + 1) * DIMS);
}
