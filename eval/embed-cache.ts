/**
 * An Embedder that remembers every vector on disk, so the benchmark pays the slow local model
 * once per distinct text. It reports the inner model's identity, so files it writes are
 * indistinguishable from files written by the inner embedder.
 *
 * Cache file: one record per text = sha256(text) (32 bytes) + dims float32 (little-endian),
 * appended as new texts are embedded. A truncated tail (interrupted write) is ignored.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../src/embed/provider.js';

export class CachingEmbedder implements Embedder {
  readonly provider: string;
  readonly id: string;
  readonly dims: number;
  readonly file: string;
  private readonly inner: Embedder;
  private readonly cache = new Map<string, Float32Array>();
  /** Texts served from the cache / sent to the model, and time spent in the model. */
  hits = 0;
  misses = 0;
  modelMs = 0;

  constructor(inner: Embedder, dir: string) {
    this.inner = inner;
    this.provider = inner.provider;
    this.id = inner.id;
    this.dims = inner.dims;
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${inner.id.replace(/[^A-Za-z0-9._-]+/g, '_')}-${inner.dims}.bin`);
    this.load();
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    const buf = readFileSync(this.file);
    const rec = 32 + this.dims * 4;
    for (let off = 0; off + rec <= buf.length; off += rec) {
      const key = buf.subarray(off, off + 32).toString('hex');
      const v = new Float32Array(this.dims);
      for (let i = 0; i < this.dims; i++) v[i] = buf.readFloatLE(off + 32 + i * 4);
      this.cache.set(key, v);
    }
  }

  get size(): number {
    return this.cache.size;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map((t) => createHash('sha256').update(t, 'utf8').digest('hex'));
    const missing = [...new Set(keys.filter((k) => !this.cache.has(k)))];
    this.hits += texts.length - keys.filter((k) => missing.includes(k)).length;
    if (missing.length) {
      const byKey = new Map(keys.map((k, i) => [k, texts[i]!]));
      const todo = missing.map((k) => byKey.get(k)!);
      const t0 = performance.now();
      const vecs = await this.inner.embed(todo);
      this.modelMs += performance.now() - t0;
      if (vecs.length !== todo.length) throw new Error(`inner embedder returned ${vecs.length} vectors for ${todo.length} texts`);
      this.append(missing, vecs);
    }
    return keys.map((k) => this.cache.get(k)!);
  }

  /** Remember vectors (by text hash) and append them to the cache file. */
  private append(keys: readonly string[], vecs: readonly ArrayLike<number>[]): void {
    const out = Buffer.alloc(keys.length * (32 + this.dims * 4));
    keys.forEach((k, j) => {
      const v = Float32Array.from(vecs[j]!);
      if (v.length !== this.dims) throw new Error(`inner embedder returned ${v.length} dims, expected ${this.dims}`);
      this.cache.set(k, v);
      const off = j * (32 + this.dims * 4);
      Buffer.from(k, 'hex').copy(out, off);
      for (let i = 0; i < this.dims; i++) out.writeFloatLE(v[i]!, off + 32 + i * 4);
    });
    appendFileSync(this.file, out);
    this.misses += keys.length;
  }

  /**
   * Embed every text not cached yet in batches of 32 of similar length (as the library batches),
   * `chunk` texts per round, through the inner embedder's `embedBatches` when it has one (worker
   * threads), appending each round to the cache file so an interrupted run resumes where it stopped.
   */
  async prefill(texts: readonly string[], chunk = 2048, log?: (done: number, total: number) => void): Promise<void> {
    const byKey = new Map<string, string>();
    for (const t of texts) {
      const k = createHash('sha256').update(t, 'utf8').digest('hex');
      if (!this.cache.has(k)) byKey.set(k, t);
    }
    const todo = [...byKey.values()].sort((a, b) => a.length - b.length);
    for (let i = 0; i < todo.length; i += chunk) {
      const part = todo.slice(i, i + chunk);
      const batches: string[][] = [];
      for (let j = 0; j < part.length; j += 32) batches.push(part.slice(j, j + 32));
      const t0 = performance.now();
      let vecs: (Float32Array | number[])[][];
      if (this.inner.embedBatches) vecs = await this.inner.embedBatches(batches);
      else {
        vecs = [];
        for (const b of batches) vecs.push(await this.inner.embed(b));
      }
      this.modelMs += performance.now() - t0;
      this.append(
        part.map((t) => createHash('sha256').update(t, 'utf8').digest('hex')),
        vecs.flat(),
      );
      log?.(Math.min(i + chunk, todo.length), todo.length);
    }
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}
