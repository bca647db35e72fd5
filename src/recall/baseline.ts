/**
 * Relevance's baseline: the best cosine a question about nothing the namespace holds gets there
 * (the median over the probe questions of src/recall/probes.ts). A match's cosine counts by how far
 * it beats that: in a chat where an assistant's long answers touch everything, an unrelated
 * question already finds a memory at cosine ~0.42; among one person's 30 short facts, at ~0.26. One
 * rule over the {@link Backend} interface, so both stores compute it the same way.
 *
 * Worked out on a namespace's first semantic recall (the store's best score for each probe: on the
 * file a pass over a small namespace's rows, else a vector search per probe) and again when
 * the namespace's size has moved by more than {@link BASELINE_REFRESH} since; kept per
 * namespace, for this Memory only. Only that namespace's own memories are searched, so neither the
 * value nor the time it takes says anything about another namespace.
 */
import type { Backend } from '../backend/types.js';
import type { EmbeddingService } from '../embed/cache.js';
import { PROBES } from './probes.js';
import { PROBE_VECTORS_DIMS, PROBE_VECTORS_INT16, PROBE_VECTORS_MODEL } from './probe-vectors.js';

/** Share of a namespace's size it may move by before its baseline is worked out again. */
export const BASELINE_REFRESH = 0.1;
/** Namespaces whose baseline one Memory keeps (the least recently used dropped beyond it). */
const KEPT = 4096;

/** What the baseline reads from a store. */
export type BaselineSource = Pick<Backend, 'bestCosines' | 'scopeSize'>;

/** The shipped vectors of the probes for the bundled model (unit length). */
function shippedVectors(): Float32Array[] {
  const bytes = Buffer.from(PROBE_VECTORS_INT16, 'base64');
  const q = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  const out: Float32Array[] = [];
  for (let i = 0; i < PROBES.length; i++) {
    const v = new Float32Array(PROBE_VECTORS_DIMS);
    let n = 0;
    for (let d = 0; d < PROBE_VECTORS_DIMS; d++) {
      v[d] = q[i * PROBE_VECTORS_DIMS + d]! / 32767;
      n += v[d]! * v[d]!;
    }
    n = Math.sqrt(n);
    for (let d = 0; d < PROBE_VECTORS_DIMS; d++) v[d]! /= n;
    out.push(v);
  }
  return out;
}

/** The baseline of each namespace one Memory recalls in. */
export class RelevanceBaseline {
  private probes: Promise<Float32Array[]> | null = null;
  private readonly known = new Map<string | undefined, { size: number; value: Promise<number> }>();

  constructor(
    private readonly src: BaselineSource,
    private readonly embeddings: EmbeddingService,
    private readonly model: string,
  ) {}

  /** The baseline of `namespace` (every namespace when undefined): 0 when it holds no memory. `size`: its {@link Backend.scopeSize}, when known. */
  async of(namespace: string | undefined, size?: number): Promise<number> {
    size ??= await this.src.scopeSize(namespace);
    const k = this.known.get(namespace);
    if (k && Math.abs(size - k.size) <= k.size * BASELINE_REFRESH) {
      this.known.delete(namespace);
      this.known.set(namespace, k);
      return k.value;
    }
    const value = size === 0 ? Promise.resolve(0) : this.compute(namespace);
    this.known.delete(namespace);
    this.known.set(namespace, { size, value });
    if (this.known.size > KEPT) this.known.delete(this.known.keys().next().value);
    // A failure is not kept: the next recall tries again.
    value.catch(() => {
      if (this.known.get(namespace)?.value === value) this.known.delete(namespace);
    });
    return value;
  }

  private async compute(namespace: string | undefined): Promise<number> {
    const best = await this.src.bestCosines(await this.vectors(), this.model, namespace);
    best.sort((a, b) => a - b);
    const mid = best.length >> 1;
    return best.length % 2 ? best[mid]! : (best[mid - 1]! + best[mid]!) / 2;
  }

  /** The probes' vectors: shipped for the bundled model, else embedded once per file (the cache's shared scope: no namespace's data is read). */
  private vectors(): Promise<Float32Array[]> {
    if (!this.probes) {
      const e = this.embeddings.embedder;
      this.probes = e.id === PROBE_VECTORS_MODEL && e.dims === PROBE_VECTORS_DIMS ? Promise.resolve(shippedVectors()) : this.embeddings.embedShared(PROBES);
      this.probes.catch(() => {
        this.probes = null;
      });
    }
    return this.probes;
  }
}
