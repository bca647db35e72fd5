import { createHash } from 'node:crypto';
import type { Embedder } from '../src/embed/provider.js';
import { PROBES } from '../src/recall/probes.js';

/**
 * An {@link Embedder} that returns vectors computed beforehand (synthetic or cached model
 * output), so ingest and recall can be timed without the model's cost.
 */
export class PrecomputedEmbedder implements Embedder {
  readonly provider: string;
  readonly id: string;
  readonly dims: number;
  private readonly byText = new Map<string, Float32Array>();

  constructor(id: string, dims: number, provider = 'bench') {
    this.id = id;
    this.dims = dims;
    this.provider = provider;
    // Relevance's probe questions (src/recall/baseline.ts) ask about nothing the corpus holds: a
    // fixed pseudo-random direction each (the bundled model's own vectors ship with the library).
    for (const p of PROBES) this.byText.set(p, randomUnit(p, dims));
  }

  /** Register the vector `flat[i*dims ..]` for `texts[i]`. */
  add(texts: readonly string[], flat: Float32Array): void {
    texts.forEach((t, i) => this.byText.set(t, flat.subarray(i * this.dims, (i + 1) * this.dims)));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => {
      const v = this.byText.get(t);
      if (!v) throw new Error(`no precomputed vector for: ${t.slice(0, 60)}`);
      return v;
    });
  }
}

/** A unit vector from a text's hash (deterministic). */
function randomUnit(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  let seed = createHash('sha256').update(text).digest().readUInt32LE(0) || 1;
  for (let i = 0; i < dims; i++) {
    // xorshift32, then a centred uniform value
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    v[i] = ((seed >>> 0) / 2 ** 32) * 2 - 1;
  }
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  for (let i = 0; i < dims; i++) v[i]! /= n;
  return v;
}
