/**
 * The approximate vector search's heavy part (the Hamming scan of every eligible slot's sign code,
 * the cut-off from its histogram, the selection of candidates and their int8 re-scoring) run on a
 * worker thread while the calling thread walks the keyword leg. At a million memories that part
 * reads 64 MB of codes (~2.5 ms on this project's 2-core machine) and the keyword leg takes about
 * as long, so doing both at once takes one of them off the recall.
 *
 * The worker instantiates the same kernels over the same shared WebAssembly memory and waits on a
 * control block in it (`Atomics.wait`: no message passing, no event loop on either side). A job the
 * worker has not started when the caller needs its result is taken back and run by the caller, so
 * a worker that is still starting, or a busy machine, costs nothing beyond the serial search. The
 * scan goes by chunks of slots that both threads claim from one counter: a caller done with its own
 * work scans the chunks the worker has not reached, so a worker slowed by the machine (a collector's
 * threads after a bulk write, another process) holds the recall up by one chunk at most.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Kernels, WasmMemory } from './simd.js';

/** Bytes of the control block: 32 words (state, the job's fields, see {@link StageJob}, then the chunk counters). */
export const CONTROL_BYTES = 128;

const IDLE = 0,
  POSTED = 1,
  RUNNING = 2,
  DONE = 3,
  TAKEN = 4,
  STOP = 5,
  FAILED = 6;

/** One search's fields, all byte offsets into the memory but the counts and `qs`. */
export interface StageJob {
  /** The fixed-length `hamming` kernel's chunk count, or 0 for the generic one. */
  kernel: number;
  codes: number;
  nslots: number;
  cb: number;
  qcode: number;
  mask: number;
  dist: number;
  hist: number;
  /** Candidates to re-score, and the histogram's bins. */
  want: number;
  bins: number;
  vecs: number;
  dp: number;
  q16: number;
  cand: number;
  scores: number;
  scales: number;
  /** Slots per claimed chunk of the scan. */
  chunk: number;
  /** The caller's own histogram (`bins` words) for the chunks it scans while the worker runs the job. */
  hist2: number;
  /** The int16 query's scale inverse (a float). */
  qs: number;
}

const FIELDS = [
  'kernel',
  'codes',
  'nslots',
  'cb',
  'qcode',
  'mask',
  'dist',
  'hist',
  'want',
  'bins',
  'vecs',
  'dp',
  'q16',
  'cand',
  'scores',
  'scales',
  'chunk',
  'hist2',
] as const;
/**
 * Words after the fields: `qs` (float32), the result (candidates scored), the next chunk to claim,
 * chunks finished, and the tail's state (0 running, 1 done, 2 the worker failed). The worker's
 * source declares the same names (see SOURCE), so the functions shared with it use them too.
 */
const QS = 1 + FIELDS.length,
  COUNT = QS + 1,
  NEXT = COUNT + 1,
  FINISHED = NEXT + 1,
  TAIL = FINISHED + 1,
  /** Tests: 1 makes the worker fail its next job after claiming a chunk (the path a crashed worker takes). */
  FAIL = TAIL + 1;

/**
 * Claim chunks of the job in `c` and scan them (Hamming distances, counted into the histogram at
 * `hist`), at most `limit`. Returns twice the chunks scanned, plus 1 when this call finished the
 * job's last chunk (its caller then runs {@link finishStage}). No closure and no inner function,
 * only the word names of {@link QS} (the worker declares them too): its source is also the worker's.
 */
function scanChunks(k: Kernels, c: Int32Array, hist: number, limit: number): number {
  const codes = c[2]!,
    n = c[3]!,
    cb = c[4]!,
    chunk = c[17]!;
  const chunks = Math.max(1, Math.ceil(n / chunk));
  const ham = c[1] ? (k as unknown as Record<string, Kernels['hamming']>)[`hamming${c[1]}`]! : k.hamming;
  let scanned = 0;
  while (scanned < limit) {
    const i = Atomics.add(c, NEXT, 1);
    if (i >= chunks) break;
    const from = i * chunk;
    ham(codes + from * cb, Math.max(0, Math.min(chunk, n - from)), cb, c[5]!, c[6]! + from, c[7]! + 2 * from, hist);
    scanned++;
    if (Atomics.add(c, FINISHED, 1) === chunks - 1) return 2 * scanned + 1;
  }
  return 2 * scanned;
}

/**
 * The job's tail once every chunk is scanned: both histograms summed, the cut-off, the selection
 * of candidates and their int8 re-score; leaves their slots at `cand`, their scores at `scores`,
 * their number in word COUNT, and marks the tail done (word TAIL). Self-contained, as above.
 */
function finishStage(k: Kernels, memory: WasmMemory, c: Int32Array, f: Float32Array): void {
  const dist = c[7]!,
    hist = c[8]!,
    want = c[9]!,
    bins = c[10]!,
    vecs = c[11]!,
    dp = c[12]!,
    q16 = c[13]!,
    cand = c[14]!,
    scores = c[15]!,
    scales = c[16]!,
    qs = f[QS]!;
  const h = new Uint32Array(memory.buffer, hist, bins);
  const h2 = new Uint32Array(memory.buffer, c[18]!, bins);
  for (let t = 0; t < bins; t++) h[t]! += h2[t]!;
  // Smallest distance t whose cumulative count reaches `want`.
  let below = 0,
    t = 0;
  for (; t < bins; t++) {
    const x = h[t]!;
    if (below + x >= want) break;
    below += x;
  }
  const m = k.select(dist, c[3]!, t, Math.max(0, want - below), cand);
  const m8 = m & ~7;
  k.dotsI8x8(vecs, dp, q16, cand, m8, scores, scales, qs);
  k.dotsI8x1(vecs, dp, q16, cand + 4 * m8, m - m8, scores + 4 * m8, scales, qs);
  c[COUNT] = m;
  Atomics.store(c, TAIL, 1);
  Atomics.notify(c, TAIL);
}

/** Zero the job's histograms and chunk counters (before anyone scans). */
function resetJob(memory: WasmMemory, c: Int32Array): void {
  new Uint32Array(memory.buffer, c[8]!, c[10]!).fill(0);
  new Uint32Array(memory.buffer, c[18]!, c[10]!).fill(0);
  c[NEXT] = 0;
  c[FINISHED] = 0;
  Atomics.store(c, TAIL, 0);
}

/** The whole job on the calling thread. */
function runStage(k: Kernels, memory: WasmMemory, c: Int32Array, f: Float32Array): void {
  resetJob(memory, c);
  scanChunks(k, c, c[8]!, Number.POSITIVE_INFINITY);
  finishStage(k, memory, c, f);
}

// Plain JavaScript (CommonJS, run with `eval`): nothing to resolve, so it works from the ESM and
// CommonJS builds and under a TypeScript loader alike.
const SOURCE = `
const { workerData } = require('node:worker_threads');
const { memory, module, ctl } = workerData;
const k = new WebAssembly.Instance(module, { env: { memory } }).exports;
const c = new Int32Array(memory.buffer, ctl, 32);
const f = new Float32Array(memory.buffer, ctl, 32);
const QS = ${QS}, COUNT = ${COUNT}, NEXT = ${NEXT}, FINISHED = ${FINISHED}, TAIL = ${TAIL};
const scanChunks = ${scanChunks.toString()};
const finishStage = ${finishStage.toString()};
for (;;) {
  const s = Atomics.load(c, 0);
  if (s === ${STOP}) break;
  if (s === ${POSTED} && Atomics.compareExchange(c, 0, ${POSTED}, ${RUNNING}) === ${POSTED}) {
    let ok = true;
    try {
      if (c[${FAIL}] === 1) {
        Atomics.add(c, ${NEXT}, 1);
        throw new Error('failed as the test asked');
      }
      if (scanChunks(k, c, c[8], Infinity) & 1) finishStage(k, memory, c, f);
    } catch {
      ok = false;
    }
    if (!ok) {
      Atomics.store(c, ${TAIL}, 2);
      Atomics.notify(c, ${TAIL});
    }
    Atomics.store(c, 0, ok ? ${DONE} : ${FAILED});
    Atomics.notify(c, 0);
    if (!ok) break;
    continue;
  }
  Atomics.wait(c, 0, s);
}
`;

/**
 * Scan threads alive in this process at most: one core is the caller's, and each thread holds
 * ~10 MB (its own isolate), so a process with many large files open does not fill up with them.
 */
export const MAX_STAGE_WORKERS = Math.max(1, availableParallelism() - 1);
let live = 0;

/** Whether another {@link StageWorker} may start now (see {@link MAX_STAGE_WORKERS}). */
export function stageWorkerFree(): boolean {
  return live < MAX_STAGE_WORKERS;
}

/** Scan threads alive in this process. */
export function stageWorkersAlive(): number {
  return live;
}

interface Thread {
  ctl: Int32Array;
  worker: Worker | null;
}

function stop(t: Thread): void {
  if (!t.worker) return;
  Atomics.store(t.ctl, 0, STOP);
  Atomics.notify(t.ctl, 0);
  void t.worker.terminate();
  t.worker = null;
  live--;
}

// An index dropped without close(): its thread stops when the index is collected.
const orphans = new FinalizationRegistry<Thread>(stop);

/** Runs {@link StageJob}s on a worker thread over one {@link VectorIndex}'s memory. */
export class StageWorker {
  private readonly memory: WasmMemory;
  private readonly k: Kernels;
  private readonly ctl: Int32Array;
  private readonly ctlF: Float32Array;
  private readonly thread: Thread;
  /** A job was posted and its result not yet joined. */
  private pending = false;
  /** This thread scanned chunks of the posted job before telling the worker (`post`'s `callerChunks`). */
  private helped = false;
  /**
   * Jobs the worker started, jobs taken back and run on the calling thread, and of the first those
   * the caller scanned chunks of too.
   */
  readonly counts = { worker: 0, here: 0, helped: 0 };
  /** The same, summed over every worker of the process (for benchmarks). */
  private readonly total: { worker: number; here: number; helped: number };

  /**
   * `ctl`: the byte offset of {@link CONTROL_BYTES} reserved, 16-byte aligned bytes in `memory`;
   * `owner`: the object whose collection stops the thread if {@link dispose} was never called.
   */
  constructor(memory: WasmMemory, module: object, k: Kernels, ctl: number, total: { worker: number; here: number; helped: number }, owner: object) {
    this.total = total;
    this.memory = memory;
    this.k = k;
    this.ctl = new Int32Array(memory.buffer, ctl, CONTROL_BYTES / 4);
    this.ctlF = new Float32Array(memory.buffer, ctl, CONTROL_BYTES / 4);
    Atomics.store(this.ctl, 0, IDLE);
    const worker = new Worker(SOURCE, { eval: true, workerData: { memory, module, ctl } });
    live++;
    const thread: Thread = { ctl: this.ctl, worker };
    this.thread = thread;
    // A search helper must never keep the process alive, and a failed one only loses the overlap.
    worker.unref();
    worker.on('error', () => stop(thread));
    orphans.register(owner, this.thread, this);
  }

  /**
   * Start `job` on the worker (after joining the one before). Tests: `callerChunks`, chunks this
   * thread scans before the worker is told, so that both threads share the job; `fail`, the worker
   * claims a chunk of it and fails (the job is then run again here and the thread stops).
   */
  post(job: StageJob, callerChunks = 0, fail = false): void {
    this.join();
    this.release();
    const c = this.ctl;
    FIELDS.forEach((name, i) => {
      c[1 + i] = job[name];
    });
    this.ctlF[QS] = job.qs;
    resetJob(this.memory, c);
    c[FAIL] = fail ? 1 : 0;
    this.pending = true;
    const r = callerChunks > 0 ? scanChunks(this.k, c, job.hist2, callerChunks) : 0;
    this.helped = r > 1;
    if (r & 1) finishStage(this.k, this.memory, c, this.ctlF);
    if (!this.thread.worker) return; // taken back at join
    Atomics.store(c, 0, POSTED);
    Atomics.notify(c, 0, 1);
  }

  /** The posted job's result: run here if the worker has not started it, else shared with it; its candidate count. */
  join(): number {
    const c = this.ctl;
    if (!this.pending) return c[COUNT]!;
    this.pending = false;
    if (Atomics.compareExchange(c, 0, POSTED, TAKEN) === POSTED || Atomics.load(c, 0) === IDLE) {
      runStage(this.k, this.memory, c, this.ctlF);
      this.count('here');
      Atomics.store(c, 0, IDLE);
      return c[COUNT]!;
    }
    this.count('worker');
    // The worker has the job: scan what it has not reached, then the tail falls to whoever ends the last chunk.
    const r = Atomics.load(c, TAIL) ? 0 : scanChunks(this.k, c, c[18]!, Number.POSITIVE_INFINITY);
    if (r & 1) finishStage(this.k, this.memory, c, this.ctlF);
    if (this.helped || r > 1) this.count('helped');
    while (Atomics.load(c, TAIL) === 0) Atomics.wait(c, TAIL, 0);
    if (Atomics.load(c, TAIL) === 2) {
      // The worker failed and stopped; the job runs here again from the start (it rewrites all it wrote).
      this.release();
      runStage(this.k, this.memory, c, this.ctlF);
      this.counts.worker--;
      this.total.worker--;
      this.count('here');
    }
    return c[COUNT]!;
  }

  private count(kind: 'worker' | 'here' | 'helped'): void {
    this.counts[kind]++;
    this.total[kind]++;
  }

  /**
   * Wait until the worker has left the job it started (after the job's tail it only gives up its
   * claim and its state), so that the control block can hold the next one.
   */
  private release(): void {
    const c = this.ctl;
    while (Atomics.load(c, 0) === RUNNING) Atomics.wait(c, 0, RUNNING);
    if (Atomics.load(c, 0) === FAILED) stop(this.thread);
    Atomics.store(c, 0, IDLE);
  }

  /** Stop the thread (after the job in flight, if any). */
  dispose(): void {
    this.join();
    this.release();
    orphans.unregister(this);
    stop(this.thread);
  }
}

/** {@link StageWorker}'s job run on the calling thread: the serial search, the same code. */
export function runStageHere(k: Kernels, memory: WasmMemory, ctl: number, job: StageJob): number {
  const c = new Int32Array(memory.buffer, ctl, CONTROL_BYTES / 4);
  FIELDS.forEach((name, i) => {
    c[1 + i] = job[name];
  });
  const f = new Float32Array(memory.buffer, ctl, CONTROL_BYTES / 4);
  f[QS] = job.qs;
  runStage(k, memory, c, f);
  return c[COUNT]!;
}
