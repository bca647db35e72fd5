import { tokenizeAscii } from '../../src/search/tokenize.js';
import { queryTerms } from '../../src/search/keyword.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
export const tok = (s: string) => tokenizeAscii(s.replace(/[^\x00-\x7f]/g, ' '));
export const qtok = (s: string) => [...new Set(tok(queryTerms(s).join(' ')))];
export class BM25 {
  N: number;
  avg: number;
  len: number[];
  tf: Map<string, number>[];
  df = new Map<string, number>();
  constructor(docs: string[][]) {
    this.N = docs.length;
    this.len = docs.map((d) => d.length);
    this.avg = this.len.reduce((a, b) => a + b, 0) / Math.max(1, this.N);
    this.tf = docs.map((d) => {
      const m = new Map<string, number>();
      for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
      return m;
    });
    for (const m of this.tf) for (const t of m.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }
  idf(t: string) {
    const n = this.df.get(t) ?? 0;
    const v = Math.log((this.N - n + 0.5) / (n + 0.5));
    return v > 0 ? v : 1e-6;
  }
  scores(q: string[], w: Map<string, number> | null = null): Float64Array {
    const s = new Float64Array(this.N);
    for (const t of q) {
      if (!this.df.has(t)) continue;
      const idf = this.idf(t) * (w?.get(t) ?? 1);
      for (let i = 0; i < this.N; i++) {
        const f = this.tf[i]!.get(t);
        if (!f) continue;
        s[i] += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * this.len[i]!) / this.avg));
      }
    }
    return s;
  }
}
export function cacheVecs(): Map<string, Float32Array> {
  const dims = 512;
  const buf = readFileSync(`${new URL('../../bench/.cache/eval/', import.meta.url).pathname}energetic-ai_use-lite_0.2.0-512.bin`);
  const rec = 32 + dims * 4;
  const m = new Map<string, Float32Array>();
  for (let off = 0; off + rec <= buf.length; off += rec) {
    const v = new Float32Array(dims);
    for (let i = 0; i < dims; i++) v[i] = buf.readFloatLE(off + 32 + i * 4);
    m.set(buf.subarray(off, off + 32).toString('hex'), v);
  }
  return m;
}
export const h = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
export function dot(a: Float32Array, b: Float32Array) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
export function norm(v: Float32Array) {
  let s = 0;
  for (const x of v) s += x * x;
  s = Math.sqrt(s) || 1;
  return v.map((x) => x / s);
}
export function topk(s: ArrayLike<number>, k: number, present?: (i: number) => boolean): number[] {
  const idx: number[] = [];
  for (let i = 0; i < s.length; i++) if (present ? present(i) : s[i]! > 0) idx.push(i);
  idx.sort((a, b) => s[b]! - s[a]! || a - b);
  return idx.slice(0, k);
}
export function metrics(ranked: number[], ev: Set<number>) {
  const r = (k: number) => ranked.slice(0, k).filter((i) => ev.has(i)).length / ev.size;
  const f = ranked.findIndex((i) => ev.has(i));
  return { r5: r(5), r10: r(10), mrr: f >= 0 ? 1 / (f + 1) : 0 };
}
