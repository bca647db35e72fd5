import { hash as cryptoHash } from 'node:crypto';
import { MnemoliteError } from '../errors.js';
import type { Embedder } from './provider.js';
import { lap, tick } from '../stage-timer.js';

/** Texts per call to the embedder. */
export const EMBED_BATCH = 32;
const QUERY_LRU = 512;
/** Query vectors a store's cache table keeps (the least recently used dropped beyond it), in both stores. */
export const CACHE_MAX_ROWS = 20_000;

/**
 * Where vectors are remembered between runs (the store: its memories and its embedding cache).
 * With `namespace`, only that namespace's memories count and cache entries are keyed by
 * {@link scopedKey}: a caller limited to one namespace must not learn, from how fast its call
 * returns, that another namespace holds a text.
 */
export interface VectorCache {
  /** Stored vectors of `model` for any of `hashes` (keyed by hash), within `namespace` when given. */
  cachedVectors(model: string, hashes: readonly string[], namespace?: string): Promise<Map<string, Float32Array>>;
  /** Keep a query vector (best effort; the store bounds its cache), under `namespace` when given. */
  cacheVector(model: string, hash: string, vector: Float32Array, namespace?: string): Promise<void>;
}

/** The embedding-cache key of a text's hash cached for one namespace. */
export function scopedKey(namespace: string, textHash: string): string {
  return cryptoHash('sha256', `${namespace}\u0000${textHash}`);
}

/**
 * The cache scope of texts that belong to no namespace (relevance's probe questions): a name no
 * namespace can take (namespaces hold no control characters), so no namespace's memories or cache
 * entries are read for them, and erasing a namespace leaves them.
 */
export const SHARED_SCOPE = '\u0001mnemolite';

/** sha256 hex of a text: the cache key (with the model id). */
export function contentHash(text: string): string {
  // One-shot hash (UTF-8, hex): the same digest as createHash().update().digest(), half the cost.
  return cryptoHash('sha256', text);
}

/** Check length and finiteness, then L2-normalise (so cosine is a dot product). */
export function normalise(v: ArrayLike<number>, dims: number, who: string): Float32Array {
  if (!v || v.length !== dims) {
    throw new MnemoliteError(
      'EMBEDDER_FAILED',
      `Embedder "${who}" returned a vector of length ${v?.length ?? 0}; it declared dims ${dims}. Fix the embedder or its dims.`,
    );
  }
  const out = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    const x = Number(v[i]);
    if (!Number.isFinite(x)) {
      throw new MnemoliteError(
        'EMBEDDER_FAILED',
        `Embedder "${who}" returned a non-finite value (${x}) at position ${i}. Fix the embedder; nothing was written.`,
      );
    }
    out[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dims; i++) out[i]! /= norm;
  return out;
}

/**
 * Embeds through a cache: a text already embedded by the same model (stored as a memory,
 * or in the `embedding_cache` table) is never sent to the model again.
 */
export class EmbeddingService {
  readonly embedder: Embedder;
  private readonly store: VectorCache;
  private readonly writable: boolean;
  private readonly queries = new Map<string, Float32Array>();
  /** Texts served from a cache (the in-process LRU, stored memories, the cache table) and texts sent to the model. */
  readonly counters = { hits: 0, misses: 0 };

  constructor(embedder: Embedder, store: VectorCache, writable: boolean) {
    this.embedder = embedder;
    this.store = store;
    this.writable = writable;
  }

  /**
   * Call the model for texts, batched, longest-similar texts together (less padding work). An
   * embedder with `embedBatches` gets all batches at once (it may run them on worker threads);
   * the batches are the same either way.
   */
  private async callModel(texts: string[]): Promise<Float32Array[]> {
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
    const out: Float32Array[] = new Array(texts.length);
    const batches: number[][] = [];
    for (let i = 0; i < order.length; i += EMBED_BATCH) batches.push(order.slice(i, i + EMBED_BATCH));
    const bulk = this.embedder.embedBatches ? this.callBulk(batches.map((idx) => idx.map((j) => texts[j]!))) : null;
    for (let b = 0; b < batches.length; b++) {
      const idx = batches[b]!;
      let vecs: ArrayLike<number>[];
      try {
        vecs = bulk ? (await bulk)[b]! : await this.embedder.embed(idx.map((j) => texts[j]!));
      } catch (err) {
        if (err instanceof MnemoliteError) throw err;
        throw new MnemoliteError(
          'EMBEDDER_FAILED',
          `Embedder "${this.embedder.id}" failed: ${(err as Error)?.message ?? String(err)}. Nothing was written.`,
          undefined,
          { cause: err },
        );
      }
      if (!Array.isArray(vecs) || vecs.length !== idx.length) {
        throw new MnemoliteError(
          'EMBEDDER_FAILED',
          `Embedder "${this.embedder.id}" returned ${Array.isArray(vecs) ? vecs.length : 'no'} vectors for ${idx.length} texts. It must return one vector per text.`,
        );
      }
      idx.forEach((j, k) => {
        out[j] = normalise(vecs[k]!, this.embedder.dims, this.embedder.id);
      });
    }
    return out;
  }

  private async callBulk(batches: string[][]): Promise<ArrayLike<number>[][]> {
    const res = await this.embedder.embedBatches!(batches);
    if (!Array.isArray(res) || res.length !== batches.length) {
      throw new MnemoliteError(
        'EMBEDDER_FAILED',
        `Embedder "${this.embedder.id}" returned ${Array.isArray(res) ? res.length : 'no'} batches for ${batches.length}. It must return one array of vectors per batch.`,
      );
    }
    return res;
  }

  /**
   * Vectors of fixed texts that belong to no namespace (relevance's probes), through the file's
   * cache under {@link SHARED_SCOPE}: embedded once per file, not once per process. Not counted in
   * {@link counters}, which are about what callers asked for.
   */
  async embedShared(texts: readonly string[]): Promise<Float32Array[]> {
    const model = this.embedder.id;
    const hashes = texts.map(contentHash);
    const cached = await this.store.cachedVectors(model, hashes, SHARED_SCOPE);
    const out: Float32Array[] = new Array(texts.length);
    const missing: number[] = [];
    hashes.forEach((h, i) => {
      const v = cached.get(h);
      if (v && v.length === this.embedder.dims) out[i] = v;
      else missing.push(i);
    });
    if (missing.length) {
      const vecs = await this.callModel(missing.map((i) => texts[i]!));
      for (const [k, i] of missing.entries()) {
        out[i] = vecs[k]!;
        if (!this.writable) continue;
        try {
          await this.store.cacheVector(model, hashes[i]!, vecs[k]!, SHARED_SCOPE);
        } catch {
          // Best effort, as for query vectors: the next process embeds them again.
        }
      }
    }
    return out;
  }

  /**
   * Vectors for texts with known hashes; only cache misses reach the model (each distinct text
   * once). An item's `scope` (a namespace) limits its cache lookup to that namespace.
   */
  async embedMany(items: { text: string; hash: string; scope?: string }[]): Promise<Float32Array[]> {
    const model = this.embedder.id;
    const out: (Float32Array | undefined)[] = new Array(items.length);
    const missing = new Map<string, number[]>();
    const scopes = new Map<string | undefined, number[]>();
    items.forEach((it, i) => {
      const s = scopes.get(it.scope);
      if (s) s.push(i);
      else scopes.set(it.scope, [i]);
    });
    let t = tick();
    for (const [scope, idx] of scopes) {
      const cached = await this.store.cachedVectors(
        model,
        idx.map((i) => items[i]!.hash),
        scope,
      );
      for (const i of idx) {
        const it = items[i]!;
        const hit = cached.get(it.hash);
        if (hit && hit.length === this.embedder.dims) {
          out[i] = hit;
          this.counters.hits++;
        } else missing.set(it.hash, [...(missing.get(it.hash) ?? []), i]);
      }
    }
    for (const g of missing.values()) this.counters.misses += g.length;
    t = lap('cache', t);
    if (missing.size) {
      const groups = [...missing.values()];
      const vecs = await this.callModel(groups.map((g) => items[g[0]!]!.text));
      lap('model', t);
      groups.forEach((g, k) =>
        g.forEach((i) => {
          out[i] = vecs[k]!;
        }),
      );
    }
    return out as Float32Array[];
  }

  /**
   * Vector for a recall query (in-process LRU, then the file's cache, then the model). `scope`:
   * the one namespace the query reads, so every cache it touches is that namespace's own;
   * undefined for a caller that reads every namespace.
   */
  async embedQuery(text: string, scope?: string): Promise<Float32Array> {
    const hash = contentHash(text);
    const lru = scope === undefined ? hash : `${scope}\u0000${hash}`;
    const hot = this.queries.get(lru);
    if (hot) {
      this.queries.delete(lru);
      this.queries.set(lru, hot);
      this.counters.hits++;
      return hot;
    }
    const [v] = await this.embedMany([{ text, hash, ...(scope !== undefined ? { scope } : {}) }]);
    this.queries.set(lru, v!);
    if (this.queries.size > QUERY_LRU) this.queries.delete(this.queries.keys().next().value!);
    if (this.writable) {
      const t = tick();
      try {
        await this.store.cacheVector(this.embedder.id, hash, v!, scope);
      } catch {
        // A cache write that loses a lock race is not worth failing a recall for.
      }
      lap('cache-write', t);
    }
    return v!;
  }
}
