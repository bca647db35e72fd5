/**
 * The vector leg's first stage, the Hamming scan of every eligible slot's sign code, run on a
 * worker thread while the calling thread walks the keyword leg. At a million memories the scan
 * reads 64 MB of codes (~2.2 ms on this project's 2-core machine) and the keyword leg takes about
 * as long, so doing both at once takes one of them off the recall.
 *
 * The worker instantiates the same kernels over the same shared WebAssembly memory and waits on a
 * control word in it (`Atomics.wait`: no message passing, no event loop on either side). A job the
 * worker has not started when the caller needs its result is taken back and run by the caller, so
 * a worker that is still starting, or a busy machine, costs nothing beyond the serial scan.
 */
import { Worker } from 'node:worker_threads';
import type { WasmMemory } from './simd.js';

/** Bytes of the control block (16 i32: state, kernel, seven arguments). */
export const CONTROL_BYTES = 64;

const IDLE = 0,
  POSTED = 1,
  RUNNING = 2,
  DONE = 3,
  TAKEN = 4,
  STOP = 5;

// Plain JavaScript (CommonJS, run with `eval`): nothing to resolve, so it works from the ESM and
// CommonJS builds and under a TypeScript loader alike.
const SOURCE = `
const { workerData } = require('node:worker_threads');
const { memory, module, ctl } = workerData;
const k = new WebAssembly.Instance(module, { env: { memory } }).exports;
const c = new Int32Array(memory.buffer, ctl, 16);
for (;;) {
  const s = Atomics.load(c, 0);
  if (s === ${STOP}) break;
  if (s === ${POSTED} && Atomics.compareExchange(c, 0, ${POSTED}, ${RUNNING}) === ${POSTED}) {
    (c[1] ? k['hamming' + c[1]] : k.hamming)(c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    Atomics.store(c, 0, ${DONE});
    Atomics.notify(c, 0);
    continue;
  }
  Atomics.wait(c, 0, s);
}
`;

/** The seven arguments of the `hamming` kernels: codes, nslots, cb, q, mask, dist, hist. */
export type HammingArgs = [number, number, number, number, number, number, number];

/** One worker thread scanning sign codes in `memory` for one {@link VectorIndex}. */
export class ScanWorker {
  private readonly ctl: Int32Array;
  private worker: Worker | null;
  /** A job was posted and its result not yet joined. */
  private pending = false;
  private args: HammingArgs | null = null;
  private run: ((...a: HammingArgs) => void) | null = null;

  /** `ctl` is the byte offset of {@link CONTROL_BYTES} reserved, 4-byte aligned bytes in `memory`. */
  constructor(memory: WasmMemory, module: object, ctl: number) {
    this.ctl = new Int32Array(memory.buffer, ctl, CONTROL_BYTES / 4);
    Atomics.store(this.ctl, 0, IDLE);
    this.worker = new Worker(SOURCE, { eval: true, workerData: { memory, module, ctl } });
    // A scan helper must never keep the process alive, and a failed one only loses the overlap.
    this.worker.unref();
    this.worker.on('error', () => {
      this.worker = null;
    });
  }

  /**
   * Start `kernel` (0 for the generic `hamming`, else its fixed chunk count) on `args`; `run` is
   * the same kernel on this thread, for when the worker has not taken the job by {@link join}.
   */
  post(kernel: number, args: HammingArgs, run: (...a: HammingArgs) => void): void {
    this.join();
    this.args = args;
    this.run = run;
    this.pending = true;
    const c = this.ctl;
    c[1] = kernel;
    for (let i = 0; i < 7; i++) c[2 + i] = args[i]!;
    if (!this.worker) return; // taken back at join
    Atomics.store(c, 0, POSTED);
    Atomics.notify(c, 0, 1);
  }

  /** Wait for the posted job (or run it here if the worker has not started it). */
  join(): void {
    if (!this.pending) return;
    this.pending = false;
    const c = this.ctl;
    const args = this.args!;
    this.args = null;
    if (Atomics.compareExchange(c, 0, POSTED, TAKEN) === POSTED || Atomics.load(c, 0) === IDLE) {
      this.run!(...args);
    } else {
      // RUNNING: the worker is inside one kernel call and stores DONE right after it.
      while (Atomics.load(c, 0) === RUNNING) Atomics.wait(c, 0, RUNNING);
    }
    this.run = null;
    Atomics.store(c, 0, IDLE);
  }

  /** Stop the thread (after the job in flight, if any). */
  dispose(): void {
    this.join();
    if (!this.worker) return;
    Atomics.store(this.ctl, 0, STOP);
    Atomics.notify(this.ctl, 0);
    void this.worker.terminate();
    this.worker = null;
  }
}
