/**
 * A small pool of worker threads, each running the bundled model on whole batches. The caller
 * queues batches; each idle worker takes the next one, so at most one batch per worker is in
 * flight and the main thread only passes messages (its event loop stays free).
 */
import { Worker } from 'node:worker_threads';
import { MnemoliteError } from '../errors.js';

/** A message from a worker: the vectors of one batch, flat (`texts × dims`), or why it failed. */
export type WorkerReply = { id: number; vectors: Float32Array; dims: number } | { id: number; error: string };

interface Job {
  id: number;
  texts: string[];
  resolve(v: Float32Array[]): void;
  reject(e: unknown): void;
}
interface Slot {
  worker: Worker;
  job: Job | null;
  batches: number;
  texts: number;
}

/** Batches and texts one worker embedded (for tests and benchmarks). */
export interface WorkerStats {
  batches: number;
  texts: number;
}

/** The worker script next to this file (`.ts` when running from source under tsx). */
function workerUrl(): URL {
  return new URL(`./embed-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
}

/**
 * From source (tests, benchmarks under tsx) a worker needs the TypeScript loader, and Node 20 does
 * not pass `--import` hooks on to workers: register tsx in the worker, then load the entry.
 */
function sourceWorker(url: URL): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, execArgv: [] });
}

/** Worker threads running {@link LocalEmbedder} on batches; stops itself after `idleMs` without work. */
export class EmbedPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private failed: unknown = null;
  private readonly done: WorkerStats[] = [];

  constructor(
    size: number,
    private readonly idleMs: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const url = workerUrl();
    const worker = url.pathname.endsWith('.ts') ? sourceWorker(url) : new Worker(url);
    // Idle workers must not keep a finished program alive; an active job holds its own promise.
    worker.unref();
    const slot: Slot = { worker, job: null, batches: 0, texts: 0 };
    worker.on('message', (m: WorkerReply) => this.reply(slot, m));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (code !== 0 && this.slots.includes(slot)) this.fail(new Error(`embedding worker exited with code ${code}`));
    });
    return slot;
  }

  /** Whether the workers are up (none failed, not stopped). */
  get alive(): boolean {
    return this.slots.length > 0 && this.failed === null;
  }

  /** Per-worker counts since the pool started. */
  stats(): WorkerStats[] {
    return [...this.done, ...this.slots.map((s) => ({ batches: s.batches, texts: s.texts }))];
  }

  /** Embed one batch on the next free worker. */
  run(texts: string[]): Promise<Float32Array[]> {
    if (this.failed !== null) return Promise.reject(this.failed);
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, texts, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || !this.queue.length) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, texts: job.texts });
    }
    if (!this.queue.length && this.slots.every((s) => !s.job) && !this.idleTimer && this.slots.length) {
      this.idleTimer = setTimeout(() => {
        void this.close();
      }, this.idleMs);
      this.idleTimer.unref();
    }
  }

  private reply(slot: Slot, m: WorkerReply): void {
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    slot.job = null;
    slot.worker.unref();
    if ('error' in m) {
      job.reject(new MnemoliteError('EMBEDDER_FAILED', m.error));
    } else {
      slot.batches++;
      slot.texts += job.texts.length;
      const out: Float32Array[] = [];
      for (let i = 0; i < job.texts.length; i++) out.push(m.vectors.subarray(i * m.dims, (i + 1) * m.dims));
      job.resolve(out);
    }
    this.pump();
  }

  /** A worker died: every queued and running job fails, and the pool stops (the caller may fall back). */
  private fail(err: unknown): void {
    if (this.failed !== null) return;
    this.failed = err;
    const jobs = [...this.queue.splice(0), ...this.slots.flatMap((s) => (s.job ? [s.job] : []))];
    for (const j of jobs) j.reject(err);
    void this.close();
  }

  /** Stop the workers; queued jobs fail with `CLOSED`. */
  async close(): Promise<void> {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    const slots = this.slots.splice(0);
    const closed = new MnemoliteError('CLOSED', 'The embedding workers were stopped.');
    for (const j of [...this.queue.splice(0), ...slots.flatMap((s) => (s.job ? [s.job] : []))]) j.reject(closed);
    for (const s of slots) this.done.push({ batches: s.batches, texts: s.texts });
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
