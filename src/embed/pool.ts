/**
 * A small pool of worker threads, each running the bundled model on whole batches, with the
 * calling thread embedding too. One shared queue of batches: each worker keeps {@link DEPTH}
 * batches in flight (so it never waits for the calling thread to pass it the next one), and the
 * calling thread takes the next queued batch itself, yielding to its event loop between batches.
 */
import { Worker } from 'node:worker_threads';

/** A message from a worker: the vectors of one batch, flat (`texts × dims`), or why it failed. */
export type WorkerReply = { id: number; vectors: Float32Array; dims: number } | { id: number; error: string };

/** Batches sent ahead to one worker: 2, so it starts the next batch while its reply waits for this thread. */
const DEPTH = 2;

/** Characters of one text counted towards a batch's cost (the bundled model reads at most 4,000). */
const TEXT_COST_CAP = 4000;

/** Embeds one batch on the calling thread. */
export type LocalBatch = (texts: string[]) => Promise<ArrayLike<number>[]>;

interface Job {
  id: number;
  texts: string[];
  resolve(v: ArrayLike<number>[]): void;
  reject(e: unknown): void;
}
interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
  batches: number;
  texts: number;
}

/** Batches and texts one thread embedded (for tests and benchmarks). */
export interface WorkerStats {
  /** `'worker'` for a worker thread, `'calling'` for the thread that called the embedder. */
  thread: 'worker' | 'calling';
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

/** A macrotask turn: worker replies and timers run before the calling thread takes another batch. */
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Worker threads plus (unless `helps` is false) the calling thread running {@link LocalEmbedder} on batches. A worker that
 * fails (exits, throws, or cannot embed) is dropped: its batches go back to the queue and the
 * remaining threads (at least the calling one) finish them; `onFailure` is told once per worker.
 */
export class EmbedPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private helping = false;
  private closed = false;
  private readonly done: WorkerStats[] = [];
  private readonly calling: WorkerStats = { thread: 'calling', batches: 0, texts: 0 };
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    size: number,
    private readonly local: LocalBatch,
    /** Whether the calling thread takes batches while workers run (it always does once none is left). */
    private readonly helps: boolean,
    private readonly onFailure: (err: Error) => void,
    private readonly idleMs: number | null = null,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const url = workerUrl();
    const worker = url.pathname.endsWith('.ts') ? sourceWorker(url) : new Worker(url);
    // Idle workers must not keep a finished program alive; a batch in flight holds its own promise.
    worker.unref();
    const slot: Slot = { worker, jobs: new Map(), batches: 0, texts: 0 };
    worker.on('message', (m: WorkerReply) => this.reply(slot, m));
    worker.on('error', (err) => this.drop(slot, err));
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) this.drop(slot, new Error(`the worker thread stopped unexpectedly, exit code ${code}`));
    });
    return slot;
  }

  /** Worker threads still running. */
  get size(): number {
    return this.slots.length;
  }

  /** Terminate the first worker as a crash would: its exit is handled like any failure (for tests). @internal */
  kill(): boolean {
    const s = this.slots[0];
    if (!s) return false;
    void s.worker.terminate();
    return true;
  }

  /** Per-thread counts since the pool started (workers first, then the calling thread when it helped). */
  stats(): WorkerStats[] {
    const live = this.slots.map((s): WorkerStats => ({ thread: 'worker', batches: s.batches, texts: s.texts }));
    return [...this.done, ...live, ...(this.calling.batches ? [{ ...this.calling }] : [])];
  }

  /** Embed batches on whichever thread is free next; results in the order of `batches`. */
  embed(batches: string[][]): Promise<ArrayLike<number>[][]> {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    const jobs: Job[] = [];
    const all = batches.map(
      (texts) =>
        new Promise<ArrayLike<number>[]>((resolve, reject) => {
          if (this.closed) reject(new Error('the embedding pool is closed'));
          else jobs.push({ id: 0, texts, resolve, reject });
        }),
    );
    // Longest batches first (the callers sort texts by length, so they come last): the call ends
    // on a short batch, and the other thread idles for less while it runs. The batches stay as they
    // are, so the vectors do not change; results keep the callers' order through `all`.
    const cost = (j: Job): number => j.texts.reduce((n, t) => n + Math.min(t.length, TEXT_COST_CAP), 0);
    jobs.sort((a, b) => cost(b) - cost(a));
    for (const j of jobs) this.queue.push({ ...j, id: this.nextId++ });
    this.pump();
    return Promise.all(all);
  }

  private pump(): void {
    for (const slot of this.slots) {
      while (slot.jobs.size < DEPTH && this.queue.length) {
        const job = this.queue.shift()!;
        slot.jobs.set(job.id, job);
        slot.worker.ref();
        slot.worker.postMessage({ id: job.id, texts: job.texts });
      }
    }
    const waiting = this.queue.length > 0 || (this.helps && this.slots.some((s) => s.jobs.size >= DEPTH));
    if (waiting && !this.helping && (this.helps || !this.slots.length)) void this.help();
    if (this.idleMs !== null && !this.idleTimer && !this.queue.length && !this.helping && this.slots.every((s) => !s.jobs.size)) {
      this.idleTimer = setTimeout(() => void this.stopWorkers(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** The calling thread's share: take queued batches one at a time, yielding between them. */
  private async help(): Promise<void> {
    this.helping = true;
    try {
      for (;;) {
        if (!this.helps && this.slots.length) break;
        // Stop as soon as there is nothing to take (then pump below may arm the idle timer at once).
        if (!this.queue.length && !this.slots.some((s) => s.jobs.size >= DEPTH)) break;
        // Let worker replies in first: they refill the workers before this thread blocks on a batch.
        await turn();
        const job = this.queue.shift() ?? this.steal();
        if (!job) break;
        try {
          const out = await this.local(job.texts);
          this.calling.batches++;
          this.calling.texts += job.texts.length;
          job.resolve(out);
        } catch (err) {
          job.reject(err);
        }
      }
    } finally {
      this.helping = false;
    }
    this.pump();
  }

  /**
   * Nothing queued, but a worker holds a batch it has not started (sent ahead, or it is still
   * loading its model): take that one back rather than wait. The worker is told to skip it; if it
   * had started anyway, its reply is ignored (the vectors would be the same).
   */
  private steal(): Job | undefined {
    for (const slot of this.slots) {
      if (slot.jobs.size < 2) continue;
      const id = Math.max(...slot.jobs.keys());
      const job = slot.jobs.get(id)!;
      slot.jobs.delete(id);
      slot.worker.postMessage({ cancel: id });
      return job;
    }
    return undefined;
  }

  private reply(slot: Slot, m: WorkerReply): void {
    const job = slot.jobs.get(m.id);
    if (!job) return;
    if ('error' in m) {
      // A worker that cannot embed (its model failed to load): the calling thread retries the batch.
      this.drop(slot, new Error(m.error));
      return;
    }
    slot.jobs.delete(m.id);
    if (!slot.jobs.size) slot.worker.unref();
    slot.batches++;
    slot.texts += job.texts.length;
    const out: Float32Array[] = [];
    for (let i = 0; i < job.texts.length; i++) out.push(m.vectors.subarray(i * m.dims, (i + 1) * m.dims));
    job.resolve(out);
    this.pump();
  }

  /** A worker failed: forget it, put its batches back at the front of the queue, and tell the owner. */
  private drop(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    this.done.push({ thread: 'worker', batches: slot.batches, texts: slot.texts });
    this.queue.unshift(...[...slot.jobs.values()].sort((a, b) => a.id - b.id));
    slot.jobs.clear();
    void slot.worker.terminate();
    if (!this.closed) this.onFailure(err);
    this.pump();
  }

  private async stopWorkers(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const s of slots) this.done.push({ thread: 'worker', batches: s.batches, texts: s.texts });
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Stop the workers; batches not yet embedded fail. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    const pending = [...this.queue.splice(0), ...this.slots.flatMap((s) => [...s.jobs.values()])];
    for (const j of pending) j.reject(new Error('the embedding pool was closed'));
    await this.stopWorkers();
  }
}
