import type { Embedder } from '../src/embed/provider.js';

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
