import { CONTROL_BYTES, StageWorker, runStageHere, stageWorkerFree, type StageJob } from './scan-worker.js';
import { FIXED_CHUNKS, instantiateKernels, kernelModule, newMemory, type Kernels, type WasmMemory } from './simd.js';

/**
 * `minSlots`: slots from which the approximate search's Hamming scan runs on a worker thread while
 * the caller does other work (the keyword leg) between {@link VectorIndex.start} and its finisher.
 * Below it the scan (~2 ns a slot) is shorter than waking a thread is worth. `chunkSlots`: slots
 * per chunk both threads claim (16,384: ~40 µs of scan, so a late worker holds a recall up that
 * long at most); `callerChunks` (tests): chunks the caller scans before telling the worker;
 * `failWorker` (tests): the worker fails the jobs it takes (each is run again on the caller);
 * `counts`: jobs the worker started, jobs run here, and jobs both threads scanned. Internal and
 * mutable for tests and benchmarks (not exported from the package).
 */
export const SCAN_THREAD = { minSlots: 20_000, chunkSlots: 16_384, callerChunks: 0, failWorker: false, counts: { worker: 0, here: 0, helped: 0 } };

/** Byte offsets of a {@link VectorIndex}'s slot regions in its memory (see {@link VectorIndex.placement}). */
export interface CodePlacement {
  memory: WasmMemory;
  vecs: number;
  scales: number;
  codes: number;
  has: number;
  dp: number;
  cb: number;
  nslots: number;
}

/** A scored hit from one leg, by slot or seq depending on the layer. */
export interface VectorHit {
  seq: number;
  score: number;
}

/** Decode a little-endian float32 BLOB. */
export function blobToVector(b: Buffer): Float32Array {
  // Copy: the Buffer may not be 4-byte aligned.
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/**
 * {@link blobToVector} without the copy when `b` is the whole of an aligned ArrayBuffer of its own
 * (better-sqlite3 gives each BLOB such a Buffer): the vector is then a view of it, sharing no bytes
 * with anything else. Any other Buffer is copied.
 */
export function blobView(b: Buffer): Float32Array {
  if (b.byteOffset === 0 && b.buffer.byteLength === b.byteLength && b.byteLength % 4 === 0) return new Float32Array(b.buffer);
  return blobToVector(b);
}

/** Encode a vector as a little-endian float32 BLOB (x86/ARM are little-endian; DataView would be slower). */
export function vectorToBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** How the approximate search picks candidates. */
export interface ApproxOptions {
  /** Re-score at least this many candidates exactly (default 256). */
  minCandidates?: number;
  /** ... and at least `k * oversample` (default 8). */
  oversample?: number;
}

const PAGE = 65536;
const MAX_CANDIDATES = 1 << 16;

/** Float rows quantised per kernel call when storing vectors (staging area in WebAssembly memory). */
const STAGE = 64;
/** A batch of at least this many rows stored into an empty index sets the quantisation centre. */
const CENTRE_ROWS = 32;
/** A model's stored centre is the mean of its first this many vectors (src/search/vector-codes.ts). */
export const CENTRE_SAMPLE = STAGE;

/**
 * The mean of `n` float32 rows of `dims` (little-endian bytes, back to back), summed in float64 in
 * row order: the quantisation centre {@link VectorIndex} chooses for the same rows.
 */
export function meanCentre(bytes: Uint8Array, n: number, dims: number): Float32Array {
  const rows = new Float32Array(n * dims);
  new Uint8Array(rows.buffer).set(bytes.subarray(0, n * dims * 4));
  const c = new Float64Array(dims);
  for (let i = 0; i < n; i++) for (let j = 0; j < dims; j++) c[j]! += rows[i * dims + j]!;
  const out = new Float32Array(dims);
  for (let j = 0; j < dims; j++) out[j] = c[j]! / n;
  return out;
}

/**
 * Vectors of one embedding model in WebAssembly memory, by slot, as int8 with 1-bit (sign) codes.
 *
 * Each unit vector is held as int8: scalar quantisation of its difference r from a centre (the
 * mean of the first bulk-loaded rows or a stored one, else zero) with its own scale, max|r| / 127,
 * one float per vector: 516 bytes at 512 d instead of 2,048. The float32 rows stay in the file as
 * the source of truth; this quantised form is cached there too ({@link placement},
 * src/search/vector-codes.ts). Search is two-stage: a SIMD Hamming scan of the sign codes of every eligible
 * slot (3.2 MB at 50,000 x 512 d) picks the closest candidates via a distance histogram, then
 * int8 x int16 SIMD dot products re-rank them. `exact` scores every quantised vector instead (the
 * caller re-scores the best of those from the file's floats: {@link SearchIndex.search}).
 * Slots are owned by the caller ({@link SearchIndex}); this class only stores and scores.
 */
export class VectorIndex {
  readonly dims: number;
  /** Elements per stored vector: dims rounded up to a multiple of 16 (zero padded). */
  private readonly dp: number;
  /** Code bytes per slot: multiple of 16 (one SIMD register). */
  private readonly cb: number;
  /** Query scale bound: keeps each i32 lane of the int8 x int16 dot product below 2^31. */
  private readonly qmaxScale: number;
  private readonly memory: WasmMemory;
  private readonly k: Kernels;
  private readonly hammingFixed: Kernels['hamming'] | null;
  private capacity = 0;
  private nslots = 0;
  // Fixed regions (byte offsets).
  private readonly hist: number;
  /** The calling thread's histogram while it scans chunks of a job the worker runs. */
  private readonly hist2: number;
  private readonly q: number;
  private readonly q16: number;
  private readonly qcode: number;
  private readonly centre: number;
  /** Centre the int8 rows are relative to: zero, or the mean of the first bulk-loaded rows. */
  private readonly qcentre: number;
  private readonly stage: number;
  private readonly cand: number;
  private readonly scores: number;
  private readonly ctl: number;
  private readonly fixedEnd: number;
  /** Slots from which the scan goes to {@link scan}; unset: {@link SCAN_THREAD}'s. */
  private readonly parallelFrom: number | undefined;
  /** The worker thread scanning codes, started when the index first searches that many slots. */
  private scan: StageWorker | null = null;
  private scanFailed = false;
  // Regions that scale with capacity.
  private vecs = 0; // int8 rows
  private scales = 0; // float per row
  private codes = 0;
  private has = 0; // 1 where the slot holds a vector
  private fmask = 0; // scratch eligibility mask
  private dist = 0;
  private all = 0; // exact-scan scores
  private centreSet = false;
  /** The centre was given ({@link useCentre}): no batch chooses one. */
  private centreFixed = false;
  /** Slots holding a vector. */
  count = 0;

  /** `parallelFrom`: see {@link SCAN_THREAD} (Infinity: never a worker thread). */
  constructor(dims: number, opts: { parallelFrom?: number } = {}) {
    this.parallelFrom = opts.parallelFrom;
    if (!Number.isInteger(dims) || dims < 1 || dims > 65_000) throw new RangeError(`unsupported vector length ${dims}`);
    this.dims = dims;
    this.dp = Math.ceil(dims / 16) * 16;
    this.cb = Math.ceil(this.dp / 8 / 16) * 16;
    this.qmaxScale = Math.min(32767, Math.floor((2 ** 31 - 1) / (127 * (this.dp / 4))));
    let o = 0;
    const take = (bytes: number): number => {
      const at = o;
      o += Math.ceil(bytes / 16) * 16;
      return at;
    };
    this.hist = take((this.dp + 2) * 4);
    this.hist2 = take((this.dp + 2) * 4);
    this.q = take(this.dp * 4);
    this.q16 = take(this.dp * 2);
    this.qcode = take(this.cb);
    this.centre = take(this.dp * 4);
    this.qcentre = take(this.dp * 4);
    this.stage = take(STAGE * this.dp * 4);
    this.cand = take(MAX_CANDIDATES * 4);
    this.scores = take(MAX_CANDIDATES * 4);
    this.ctl = take(CONTROL_BYTES);
    this.fixedEnd = o;
    this.memory = newMemory(Math.ceil(o / PAGE) + 1);
    this.k = instantiateKernels(this.memory);
    const chunks = this.cb / 16;
    this.hammingFixed = (FIXED_CHUNKS as readonly number[]).includes(chunks) ? this.k[`hamming${chunks}`]! : null;
    this.layout(1024);
  }

  /** A byte view of the memory, made again only after it grew (a new view per call cost ~0.3 µs: 0.3 s over 1M slots at open). */
  private view = new Uint8Array(0);
  private get u8(): Uint8Array {
    const buf = this.memory.buffer;
    if (this.view.buffer !== buf) this.view = new Uint8Array(buf);
    return this.view;
  }

  /** Bumped by every change and every search: a search's finisher from before it is stale. */
  private gen = 0;

  /** Wait for a scan in flight: every change to the memory's slots comes after it. */
  private settle(): void {
    this.scan?.join();
    this.gen++;
  }

  /** Stop the scan thread, if one was started; the index stays usable (serially). */
  dispose(): void {
    this.scan?.dispose();
    this.scan = null;
    this.scanFailed = true;
  }

  /** Place the capacity-sized regions for `cap` slots, moving existing data up. */
  private layout(cap: number): void {
    this.settle();
    const r = (x: number): number => Math.ceil(x / 16) * 16;
    const vecs = this.fixedEnd;
    const scales = vecs + r(cap * this.dp);
    const codes = scales + r(cap * 4);
    const has = codes + r(cap * this.cb);
    const fmask = has + r(cap);
    const dist = fmask + r(cap);
    const all = dist + r(cap * 2);
    const end = all + r(cap * 4);
    const need = Math.ceil(end / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (need > 0) this.memory.grow(need);
    const u8 = this.u8;
    if (this.capacity > 0) {
      // Regions only move up, so move the later ones first.
      u8.copyWithin(has, this.has, this.has + this.capacity);
      u8.fill(0, has + this.capacity, has + cap);
      u8.copyWithin(codes, this.codes, this.codes + this.capacity * this.cb);
      u8.copyWithin(scales, this.scales, this.scales + this.capacity * 4);
    } else {
      u8.fill(0, has, has + cap);
    }
    Object.assign(this, { vecs, scales, codes, has, fmask, dist, all, capacity: cap });
  }

  /** Make room for slots `[0, n)`. */
  reserve(n: number): void {
    if (n > this.capacity) this.layout(Math.max(n, Math.ceil(this.capacity * 1.5)));
    if (n > this.nslots) this.nslots = n;
  }

  /** Bytes of WebAssembly memory in use. */
  get bytes(): number {
    return this.memory.buffer.byteLength;
  }

  /**
   * Store float32 vectors (little-endian bytes, `dims * 4` each, back to back) in consecutive
   * slots starting at `slot`. Vectors must already be unit length.
   */
  setRange(slot: number, bytes: Uint8Array, n: number): void {
    this.settle();
    this.reserve(slot + n);
    const rowBytes = this.dims * 4;
    for (let i0 = 0; i0 < n; i0 += STAGE) {
      const b = Math.min(STAGE, n - i0);
      const u8 = this.u8;
      const src = bytes.subarray(i0 * rowBytes, (i0 + b) * rowBytes);
      // Staging rows are dp floats; the padding past dims stays zero.
      if (this.dp === this.dims) u8.set(src, this.stage);
      else for (let i = 0; i < b; i++) u8.set(src.subarray(i * rowBytes, (i + 1) * rowBytes), this.stage + i * this.dp * 4);
      const s = slot + i0;
      if (!this.centreFixed && this.count === 0 && b >= CENTRE_ROWS) this.setCentre(b);
      this.k.encode(this.stage, this.dp, this.codes + s * this.cb, this.cb, this.centre, 0, b);
      this.k.quantise(this.stage, this.dp, this.vecs + s * this.dp, this.scales + s * 4, b, this.qcentre);
      for (let i = 0; i < b; i++) {
        if (!u8[this.has + s + i]) this.count++;
        u8[this.has + s + i] = 1;
      }
    }
  }

  /**
   * Quantise relative to the mean of the `b` staged rows: embeddings share a large common
   * direction, and the int8 steps are finer on what is left (recall@10 0.993 instead of 0.984 on
   * the bench's vectors). Only while no vector is held, so every row uses one centre.
   */
  private setCentre(b: number): void {
    const dp = this.dp;
    const rows = new Float32Array(this.memory.buffer, this.stage, b * dp);
    const c = new Float64Array(dp);
    for (let i = 0; i < b; i++) for (let j = 0; j < dp; j++) c[j]! += rows[i * dp + j]!;
    const out = new Float32Array(this.memory.buffer, this.qcentre, dp);
    for (let j = 0; j < dp; j++) out[j] = c[j]! / b;
    this.centreSet = true;
  }

  /** The centre the int8 rows are relative to, or null while it is zero (not chosen yet). */
  centreVector(): Float32Array | null {
    return this.centreSet ? new Float32Array(this.memory.buffer, this.qcentre, this.dims).slice() : null;
  }

  /**
   * Quantise relative to `centre` (a stored one; null: zero) instead of letting the first batch
   * choose it; only while no vector is held.
   */
  useCentre(centre: Float32Array | null): void {
    if (centre && centre.length !== this.dims) throw new RangeError(`centre has ${centre.length} dims, index has ${this.dims}`);
    if (this.count !== 0) throw new Error('the centre can only be set on an empty index');
    this.settle();
    const out = new Float32Array(this.memory.buffer, this.qcentre, this.dp);
    out.fill(0);
    if (centre) out.set(centre);
    this.centreSet = !!centre;
    this.centreFixed = true;
  }

  /**
   * Where slot data lives in {@link memory}, for a thread that stores codes directly (the open's
   * code loader, src/search/code-loader.ts): valid until the index grows. Call {@link recount} after.
   */
  placement(): CodePlacement {
    this.settle();
    return { memory: this.memory, vecs: this.vecs, scales: this.scales, codes: this.codes, has: this.has, dp: this.dp, cb: this.cb, nslots: this.nslots };
  }

  /** Count the slots holding a vector again (after codes were stored through {@link placement}). */
  recount(): void {
    const u8 = this.u8;
    let n = 0;
    for (let s = this.has, end = this.has + this.nslots; s < end; s++) n += u8[s]!;
    this.count = n;
  }

  /** Bytes of one slot's stored form: int8 row (`q`, padded), float32 scale, sign code (`sign`, padded). */
  get codeBytes(): { q: number; scale: number; sign: number } {
    return { q: this.dp, scale: 4, sign: this.cb };
  }

  /** The quantised form of `slot` (copies), as the file keeps it; null when the slot holds no vector. */
  codesOf(slot: number): { q: Buffer; scale: Buffer; sign: Buffer } | null {
    if (!this.hasVector(slot)) return null;
    const u8 = this.u8;
    return {
      q: Buffer.from(u8.subarray(this.vecs + slot * this.dp, this.vecs + (slot + 1) * this.dp)),
      scale: Buffer.from(u8.subarray(this.scales + slot * 4, this.scales + (slot + 1) * 4)),
      sign: Buffer.from(u8.subarray(this.codes + slot * this.cb, this.codes + (slot + 1) * this.cb)),
    };
  }

  /** The quantised form of some slots holding a vector, packed back to back in their order (as the file's code rows hold them). */
  packedCodes(slots: readonly number[]): { q: Buffer; scale: Buffer; sign: Buffer } {
    const { dp, cb } = this;
    const q = Buffer.allocUnsafe(slots.length * dp),
      scale = Buffer.allocUnsafe(slots.length * 4),
      sign = Buffer.allocUnsafe(slots.length * cb);
    const u8 = this.u8;
    slots.forEach((s, i) => {
      q.set(u8.subarray(this.vecs + s * dp, this.vecs + (s + 1) * dp), i * dp);
      scale.set(u8.subarray(this.scales + s * 4, this.scales + (s + 1) * 4), i * 4);
      sign.set(u8.subarray(this.codes + s * cb, this.codes + (s + 1) * cb), i * cb);
    });
    return { q, scale, sign };
  }

  /** Store one vector in `slot`. */
  set(slot: number, v: Float32Array | Uint8Array): void {
    const bytes = v instanceof Float32Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : v;
    if (bytes.byteLength !== this.dims * 4) throw new RangeError(`vector has ${bytes.byteLength / 4} dims, index has ${this.dims}`);
    this.setRange(slot, bytes, 1);
  }

  /** Forget the vector in `slot`. */
  clear(slot: number): void {
    if (slot >= this.nslots) return;
    this.settle();
    const u8 = this.u8;
    if (u8[this.has + slot]) this.count--;
    u8[this.has + slot] = 0;
  }

  /** Whether `slot` holds a vector. */
  hasVector(slot: number): boolean {
    return slot < this.nslots && this.u8[this.has + slot] === 1;
  }

  /** Slots below `n` that hold no vector and are not marked in `skip` (one pass: the open's check of a million slots). */
  slotsWithout(n: number, skip: Uint8Array): number[] {
    const u8 = this.u8,
      has = this.has,
      out: number[] = [];
    for (let s = 0; s < n; s++) if (!skip[s] && (s >= this.nslots || u8[has + s] !== 1)) out.push(s);
    return out;
  }

  /**
   * A mask to fill for a filtered search: one byte per slot, pre-filled with "holds a vector".
   * Zero the slots that fail the filter, then pass `true` as `filtered` to {@link search}.
   */
  filterMask(): Uint8Array {
    this.settle();
    const u8 = this.u8;
    u8.copyWithin(this.fmask, this.has, this.has + this.nslots);
    return u8.subarray(this.fmask, this.fmask + this.nslots);
  }

  /** Float query (for its sign code) and int16 query (for the dot products); returns the int16 scale's inverse. */
  private loadQuery(query: Float32Array): number {
    if (query.length !== this.dims) throw new RangeError(`query has ${query.length} dims, index has ${this.dims}`);
    const f = new Float32Array(this.memory.buffer, this.q, this.dp);
    f.set(query);
    f.fill(0, this.dims);
    let mx = 0;
    for (let i = 0; i < this.dims; i++) mx = Math.max(mx, Math.abs(query[i]!));
    if (!(mx > 0) || !Number.isFinite(mx)) {
      new Int16Array(this.memory.buffer, this.q16, this.dp).fill(0);
      return 0;
    }
    const s = this.qmaxScale / mx;
    const q16 = new Int16Array(this.memory.buffer, this.q16, this.dp);
    for (let i = 0; i < this.dp; i++) q16[i] = Math.round(f[i]! * s);
    return 1 / s;
  }

  /** Scores are centre · q + residual · q: the first term, the same for every row (0 without a centre). */
  private centreDot(query: Float32Array): number {
    if (!this.centreSet) return 0;
    const c = new Float32Array(this.memory.buffer, this.qcentre, this.dims);
    let off = 0;
    for (let i = 0; i < this.dims; i++) off += c[i]! * query[i]!;
    return off;
  }

  /**
   * Top-k slots by dot product with `query` (cosine, for unit vectors), best first, scored on
   * the int8 vectors. `filtered` uses the mask from {@link filterMask}; otherwise every slot with a
   * vector is eligible. `exact` scores every eligible vector (no sign-code pre-selection).
   */
  search(query: Float32Array, k: number, opts: { filtered?: boolean; exact?: boolean } & ApproxOptions = {}): { slot: number; score: number }[] {
    return this.start(query, k, opts)();
  }

  /**
   * {@link search} in two halves: this starts it (at {@link SCAN_THREAD}'s slots or more the
   * sign-code scan runs on a worker thread from here on) and the returned function finishes it.
   * Work done between the two overlaps the scan; any change to the index (or another search)
   * waits for the scan first and makes the finisher throw.
   */
  start(query: Float32Array, k: number, opts: { filtered?: boolean; exact?: boolean } & ApproxOptions = {}): () => { slot: number; score: number }[] {
    this.settle();
    if (k <= 0 || this.count === 0) return () => [];
    const qs = this.loadQuery(query);
    const off = this.centreDot(query);
    const mask = opts.filtered ? this.fmask : this.has;
    const n = this.nslots;
    if (opts.exact) {
      this.k.scanI8(this.vecs, this.dp, n, this.q16, mask, this.all, this.scales, qs);
      const m = this.u8;
      const s = new Float32Array(this.memory.buffer, this.all, n);
      const top = new TopK(k);
      for (let slot = 0; slot < n; slot++) if (m[mask + slot]) top.push(slot, s[slot]! + off);
      const hits = top.sorted().map((h) => ({ slot: h.seq, score: h.score }));
      return () => hits;
    }
    const want = Math.min(MAX_CANDIDATES, Math.max(opts.minCandidates ?? 256, k * (opts.oversample ?? 8)));
    this.k.encode(this.q, this.dp, this.qcode, this.cb, this.centre, 0, 1);
    const job: StageJob = {
      kernel: this.hammingFixed ? this.cb / 16 : 0,
      codes: this.codes,
      nslots: n,
      cb: this.cb,
      qcode: this.qcode,
      mask,
      dist: this.dist,
      hist: this.hist,
      want,
      bins: this.dp + 1,
      vecs: this.vecs,
      dp: this.dp,
      q16: this.q16,
      cand: this.cand,
      scores: this.scores,
      scales: this.scales,
      chunk: Math.max(1, SCAN_THREAD.chunkSlots),
      hist2: this.hist2,
      qs,
    };
    const worker = n >= (this.parallelFrom ?? SCAN_THREAD.minSlots) ? this.scanWorker() : null;
    let m = -1;
    if (worker) worker.post(job, SCAN_THREAD.callerChunks, SCAN_THREAD.failWorker);
    else m = runStageHere(this.k, this.memory, this.ctl, job);
    const gen = this.gen;
    return () => {
      if (gen !== this.gen) throw new Error('a vector search was finished after the index changed or searched again');
      if (worker) m = worker.join();
      const slots = new Int32Array(this.memory.buffer, this.cand, m);
      const scores = new Float32Array(this.memory.buffer, this.scores, m);
      const top = new TopK(k);
      for (let i = 0; i < m; i++) top.push(slots[i]!, scores[i]! + off);
      return top.sorted().map((h) => ({ slot: h.seq, score: h.score }));
    };
  }

  /**
   * For each of `queries`, the best score (as {@link search} scores: int8 rows) among `slots` (which
   * hold vectors); 0 when there are none. Scores the slots one by one: for a few slots among many,
   * cheaper than a search each.
   */
  bestOf(queries: readonly Float32Array[], slots: readonly number[]): number[] {
    this.settle();
    if (!slots.length) return queries.map(() => 0);
    return queries.map((query) => {
      const qs = this.loadQuery(query);
      const off = this.centreDot(query);
      let best = -Infinity;
      for (let from = 0; from < slots.length; from += MAX_CANDIDATES) {
        const m = Math.min(MAX_CANDIDATES, slots.length - from);
        new Int32Array(this.memory.buffer, this.cand, m).set(slots.slice(from, from + m));
        const m8 = m & ~7;
        this.k.dotsI8x8(this.vecs, this.dp, this.q16, this.cand, m8, this.scores, this.scales, qs);
        this.k.dotsI8x1(this.vecs, this.dp, this.q16, this.cand + 4 * m8, m - m8, this.scores + 4 * m8, this.scales, qs);
        const s = new Float32Array(this.memory.buffer, this.scores, m);
        for (let i = 0; i < m; i++) if (s[i]! > best) best = s[i]!;
      }
      return best + off;
    });
  }

  /** Scans run on the worker thread and on this one since it started (null: none started). */
  get scanCounts(): { worker: number; here: number; helped: number } | null {
    return this.scan ? { ...this.scan.counts } : null;
  }

  /** The scan thread, started on first use; null where threads are unavailable. */
  private scanWorker(): StageWorker | null {
    if (this.scan || this.scanFailed || !stageWorkerFree()) return this.scan;
    try {
      this.scan = new StageWorker(this.memory, kernelModule(), this.k, this.ctl, SCAN_THREAD.counts, this);
    } catch {
      this.scanFailed = true;
    }
    return this.scan;
  }
}

/** Bounded min-heap keeping the k best scores (ids are seqs or slots). */
export class TopK {
  private readonly k: number;
  private readonly seqs: number[] = [];
  private readonly scores: number[] = [];

  constructor(k: number) {
    this.k = k;
  }

  /** Current number of entries. */
  get size(): number {
    return this.seqs.length;
  }

  /** Lowest score kept, or -Infinity while fewer than k are held. */
  get floor(): number {
    return this.scores.length < this.k ? -Infinity : this.scores[0]!;
  }

  push(seq: number, score: number): void {
    const { seqs, scores, k } = this;
    if (k <= 0) return;
    if (scores.length < k) {
      seqs.push(seq);
      scores.push(score);
      let i = scores.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (scores[p]! <= scores[i]!) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (score <= scores[0]!) return;
    seqs[0] = seq;
    scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < scores.length && scores[l]! < scores[m]!) m = l;
      if (r < scores.length && scores[r]! < scores[m]!) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const s = this.seqs[a]!;
    this.seqs[a] = this.seqs[b]!;
    this.seqs[b] = s;
    const c = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = c;
  }

  /** Best first; ties broken by lower id for stable output. */
  sorted(): VectorHit[] {
    return this.seqs.map((seq, i) => ({ seq, score: this.scores[i]! })).sort((a, b) => b.score - a.score || a.seq - b.seq);
  }
}
