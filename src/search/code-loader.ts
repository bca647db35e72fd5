/**
 * The open's copy of the vector codes kept in the file (`vector_codes`, src/search/vector-codes.ts)
 * into the vector index, by ranges of slots. On a large file a worker thread with its own read-only
 * connection takes ranges too: at a million memories the copy is ~600 MB of rows and SQLite's
 * reading of them is most of the open, so two threads halve it.
 *
 * Both threads claim ranges from one shared counter, and run the same statement and the same
 * placement code (one definition, its source also the worker's). The worker first checks that its
 * snapshot of the file is the caller's (the change log's position); if not, or if it cannot start,
 * it takes no range and the caller copies them all. A range the worker fails is copied again here.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CHANGE_VERSION_SQL, CODE_CHUNK_SQL, type Store } from '../store/store.js';
import { parseSeqs } from './keyword-index.js';
import type { CodePlacement } from './vector-index.js';

/**
 * `rangeSlots`: slots per claimed range; `parallelFrom`: slots from which a worker thread helps
 * (below, starting it costs about what it saves); `awaitHelper` (tests): claim ranges only once the
 * worker is up or has stood down, so that a small file is shared too; `counts`: ranges copied by
 * each thread, and slots an open found no usable code for; `stallMs`: how long the caller waits for
 * a worker's range with no other progress before the open fails (a range takes milliseconds);
 * `hang` (tests): the worker claims a range and never finishes it. Internal and mutable.
 */
export const CODE_LOAD = {
  rangeSlots: 16_384,
  parallelFrom: 200_000,
  counts: { worker: 0, here: 0, missing: 0 },
  awaitHelper: false,
  stallMs: 60_000,
  hang: false,
};
/** Rows per statement inside a range. */
const CHUNK_ROWS = 1024;

/** Shared words: next range to claim, ranges finished, worker state. */
const NEXT = 0,
  FINISHED = 1,
  WORKER = 2;
/** Per range: claimed by the caller, by the worker, done, failed. */
const MAIN = 1,
  THREAD = 2,
  DONE = 3,
  FAILED = 4;

interface Chunk {
  n: number;
  last: number;
  seqs: string | null;
  q: Uint8Array | null;
  scale: Uint8Array | null;
  sign: Uint8Array | null;
  other: string | null;
}

/**
 * Copy one range's codes into their slots: slots `[from, to)` hold seqs `seqOf[from..to)` in
 * ascending order; `chunk(after, until)` reads rows. Marks `none` for rows saying "no vector".
 * Self-contained (no closure, no inner function): its source is also the worker's.
 */
function copyRange(
  u8: Uint8Array,
  p: { vecs: number; scales: number; codes: number; has: number; dp: number; cb: number },
  seqOf: Float64Array,
  from: number,
  to: number,
  none: Uint8Array,
  chunk: (after: number, until: number, limit: number) => Chunk,
  parse: (list: string) => Float64Array,
  limit: number,
): void {
  const until = seqOf[to - 1]!;
  let after = from > 0 ? seqOf[from - 1]! : -1;
  let s = from;
  let o = from;
  for (;;) {
    const c = chunk(after, until, limit);
    if (!c.n) break;
    if (c.seqs && c.q && c.scale && c.sign) {
      const seqs = parse(c.seqs);
      if (c.q.byteLength !== seqs.length * p.dp || c.scale.byteLength !== seqs.length * 4 || c.sign.byteLength !== seqs.length * p.cb)
        throw new Error('code chunk does not line up');
      let i = 0;
      while (i < seqs.length) {
        // The slot of seqs[i], walking both ascending lists; rows of no slot are skipped.
        while (s < to && seqOf[s]! < seqs[i]!) s++;
        if (s >= to || seqOf[s] !== seqs[i]) {
          i++;
          continue;
        }
        // A run of rows in consecutive slots is one copy.
        let j = i + 1;
        while (j < seqs.length && s + (j - i) < to && seqOf[s + (j - i)] === seqs[j]) j++;
        const n = j - i;
        u8.set(c.q.subarray(i * p.dp, j * p.dp), p.vecs + s * p.dp);
        u8.set(c.scale.subarray(i * 4, j * 4), p.scales + s * 4);
        u8.set(c.sign.subarray(i * p.cb, j * p.cb), p.codes + s * p.cb);
        u8.fill(1, p.has + s, p.has + s + n);
        s += n;
        i = j;
      }
    }
    if (c.other) {
      for (const seq of parse(c.other)) {
        while (o < to && seqOf[o]! < seq) o++;
        if (o < to && seqOf[o] === seq) none[o] = 1;
      }
    }
    after = c.last;
    if (c.n < limit) break;
  }
}

// Plain JavaScript (CommonJS, run with `eval`); better-sqlite3 comes by the path the caller resolved.
const SOURCE = `
const { workerData } = require('node:worker_threads');
const w = workerData;
const ctl = new Int32Array(w.ctl);
const state = new Uint8Array(w.state);
const seqOf = new Float64Array(w.seqOf);
const none = new Uint8Array(w.none);
const parse = ${parseSeqs.toString()};
const copyRange = ${copyRange.toString()};
let db;
try {
  const Database = require(w.sqlite);
  db = new Database(w.path, { readonly: true, fileMustExist: true });
  db.pragma('mmap_size = 4294967296');
  db.prepare('BEGIN').run();
  if (db.prepare(w.versionSql).get().v !== w.version) throw new Error('another snapshot');
} catch {
  Atomics.store(ctl, ${WORKER}, 2);
  Atomics.notify(ctl, ${WORKER});
  try { db && db.close(); } catch {}
  process.exit(0);
}
const st = db.prepare(w.sql).raw();
const chunk = (after, until, limit) => {
  const r = st.get({ centre: w.centre, q: w.p.dp, sign: w.p.cb, after, until, limit });
  return { n: r[0], last: r[1] ?? after, seqs: r[2], q: r[3], scale: r[4], sign: r[5], other: r[6] };
};
const u8 = new Uint8Array(w.memory.buffer);
Atomics.store(ctl, ${WORKER}, 1);
Atomics.notify(ctl, ${WORKER});
for (;;) {
  const r = Atomics.add(ctl, ${NEXT}, 1);
  if (r >= w.ranges) break;
  state[r] = ${THREAD};
  if (w.hang) Atomics.wait(ctl, 3, 0); // a word nothing writes: until terminated
  try {
    copyRange(u8, w.p, seqOf, r * w.rangeSlots, Math.min((r + 1) * w.rangeSlots, w.slots), none, chunk, parse, w.limit);
    state[r] = ${DONE};
  } catch {
    state[r] = ${FAILED};
    Atomics.add(ctl, ${FINISHED}, 1);
    Atomics.notify(ctl, ${FINISHED});
    break;
  }
  Atomics.add(ctl, ${FINISHED}, 1);
  Atomics.notify(ctl, ${FINISHED});
}
try { db.prepare('COMMIT').run(); db.close(); } catch {}
Atomics.store(ctl, ${WORKER}, 3);
`;

/**
 * Copy the stored codes of centre `centre` into the slots of `p` (whose seqs are `seqOf[0..slots)`,
 * ascending), inside the caller's read transaction of `store` at change-log position `version`;
 * mark in `none` the memories the file records as without a vector of the model. This starts the
 * worker (when one helps); the returned function copies the caller's share and waits for the rest,
 * so other work of the open (in the same transaction, not touching these slots) can go between.
 */
export function startCodeCopy(
  store: Store,
  p: CodePlacement,
  centre: number,
  seqOf: Float64Array,
  slots: number,
  none: Uint8Array,
  version: number,
  /** Whether a worker thread may help (`OpenOptions.searchThread`). */
  thread = true,
): () => void {
  if (slots === 0) return () => {};
  const RANGE_SLOTS = CODE_LOAD.rangeSlots;
  const ranges = Math.ceil(slots / RANGE_SLOTS);
  const chunk = (after: number, until: number, limit: number): Chunk => store.codeChunk(centre, p.dp, p.cb, after, limit, until);
  const helped = thread && slots >= CODE_LOAD.parallelFrom && store.path !== ':memory:' && store.path !== '';
  /** Copy range `r` on this thread. */
  const copy = (seqs: Float64Array, marks: Uint8Array) => (r: number) =>
    copyRange(new Uint8Array(p.memory.buffer), p, seqs, r * RANGE_SLOTS, Math.min((r + 1) * RANGE_SLOTS, slots), marks, chunk, parseSeqs, CHUNK_ROWS);
  if (!helped)
    return () => {
      const here = copy(seqOf, none);
      for (let r = 0; r < ranges; r++) here(r);
      CODE_LOAD.counts.here += ranges;
    };
  // The worker reads these through shared memory: the slots' seqs, the "no vector" marks, the claims.
  const shared = {
    ctl: new SharedArrayBuffer(16),
    state: new SharedArrayBuffer(ranges),
    seqOf: new SharedArrayBuffer(slots * 8),
    none: new SharedArrayBuffer(slots),
  };
  const ctl = new Int32Array(shared.ctl);
  const state = new Uint8Array(shared.state);
  const seqs = new Float64Array(shared.seqOf);
  seqs.set(seqOf.subarray(0, slots));
  const marks = new Uint8Array(shared.none);
  let worker: Worker | null = null;
  try {
    worker = new Worker(SOURCE, {
      eval: true,
      workerData: {
        ...shared,
        memory: p.memory,
        p: { vecs: p.vecs, scales: p.scales, codes: p.codes, has: p.has, dp: p.dp, cb: p.cb },
        path: store.path,
        sqlite: createRequire(import.meta.url).resolve('better-sqlite3'),
        sql: CODE_CHUNK_SQL,
        versionSql: CHANGE_VERSION_SQL,
        version,
        centre,
        ranges,
        rangeSlots: RANGE_SLOTS,
        slots,
        limit: CHUNK_ROWS,
        hang: CODE_LOAD.hang,
      },
    });
    worker.unref();
    worker.on('error', () => {});
  } catch {
    worker = null;
  }
  return () => finishCopy(worker, { ctl, state, marks, ranges, none, copy: copy(seqs, marks) });
}

interface Copy {
  ctl: Int32Array;
  state: Uint8Array;
  marks: Uint8Array;
  ranges: number;
  none: Uint8Array;
  /** Copy one range on this thread. */
  copy: (r: number) => void;
}

/** The caller's side of a copy with a worker: claim ranges until none is left, wait for the worker's. */
function finishCopy(worker: Worker | null, c: Copy): void {
  const { ctl, state, marks, ranges, none, copy } = c;
  if (worker && CODE_LOAD.awaitHelper) while (Atomics.load(ctl, WORKER) === 0) Atomics.wait(ctl, WORKER, 0, 50);
  let mine = 0;
  for (;;) {
    const r = Atomics.add(ctl, NEXT, 1);
    if (r >= ranges) break;
    state[r] = MAIN;
    copy(r);
    state[r] = DONE;
    mine++;
    Atomics.add(ctl, FINISHED, 1);
  }
  // The worker's ranges in flight: wait for them (a range takes milliseconds).
  let seen = Atomics.load(ctl, FINISHED);
  let since = Date.now();
  while (seen < ranges) {
    Atomics.wait(ctl, FINISHED, seen, 100);
    const now = Atomics.load(ctl, FINISHED);
    if (now !== seen) {
      seen = now;
      since = Date.now();
    } else if (Date.now() - since > CODE_LOAD.stallMs) {
      // Stopped here, the helper can write no more (it writes from JavaScript) and its read transaction ends.
      void worker?.terminate();
      throw new Error('loading the vector codes stalled: the helper thread stopped answering');
    }
  }
  void worker?.terminate();
  for (let r = 0; r < ranges; r++) {
    if (state[r] !== FAILED) continue;
    copy(r);
    mine++;
  }
  CODE_LOAD.counts.here += mine;
  CODE_LOAD.counts.worker += ranges - mine;
  for (let s = 0; s < marks.length; s++) if (marks[s]) none[s] = 1;
}
