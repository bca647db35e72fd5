import type { VectorRow } from '../store/rows.js';

/** In-memory filter the index can check per row without touching SQLite. */
export interface IndexFilter {
  namespace?: string;
  category?: string;
  sessionId?: string;
  /** Epoch ms, inclusive. */
  sinceMs?: number;
  /** Epoch ms, exclusive. */
  untilMs?: number;
  /** When set, only these seqs are eligible (from a metadata filter run in SQL). */
  allowed?: ReadonlySet<number>;
}

/** A scored vector hit. */
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

/** Encode a vector as a little-endian float32 BLOB (x86/ARM are little-endian; DataView would be slower). */
export function vectorToBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/**
 * Column-store of the vectors of one embedding model, derived from the memories table.
 * Rows live in fixed slots; deleted slots are tombstoned and reused.
 */
export class VectorIndex {
  readonly dims: number;
  private capacity = 0;
  private size = 0; // slots in use (including tombstones)
  private vectors = new Float32Array(0);
  private seqs = new Float64Array(0); // -1 = empty slot
  private created = new Float64Array(0);
  private ns = new Int32Array(0);
  private cat = new Int32Array(0);
  private sess = new Int32Array(0);
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private readonly dict = new Map<string, number>();

  constructor(dims: number) {
    this.dims = dims;
  }

  /** Live rows. */
  get count(): number {
    return this.slotOf.size;
  }

  private code(s: string | null): number {
    if (s === null) return -1;
    let c = this.dict.get(s);
    if (c === undefined) {
      c = this.dict.size;
      this.dict.set(s, c);
    }
    return c;
  }

  private grow(min: number): void {
    const cap = Math.max(min, Math.ceil(this.capacity * 1.5), 1024);
    const d = this.dims;
    const v = new Float32Array(cap * d); v.set(this.vectors); this.vectors = v;
    const s = new Float64Array(cap).fill(-1); s.set(this.seqs); this.seqs = s;
    const c = new Float64Array(cap); c.set(this.created); this.created = c;
    const n = new Int32Array(cap); n.set(this.ns); this.ns = n;
    const k = new Int32Array(cap); k.set(this.cat); this.cat = k;
    const ss = new Int32Array(cap); ss.set(this.sess); this.sess = ss;
    this.capacity = cap;
  }

  /** Insert or replace the row for `r.seq`. Vectors are stored L2-normalised already. */
  upsert(r: VectorRow): void {
    if (r.embedding.byteLength !== this.dims * 4) return; // another model's vector: never mixed
    let slot = this.slotOf.get(r.seq);
    if (slot === undefined) {
      slot = this.free.pop();
      if (slot === undefined) {
        if (this.size === this.capacity) this.grow(this.size + 1);
        slot = this.size++;
      }
      this.slotOf.set(r.seq, slot);
    }
    new Uint8Array(this.vectors.buffer, slot * this.dims * 4, this.dims * 4).set(r.embedding);
    this.seqs[slot] = r.seq;
    this.created[slot] = Date.parse(r.created_at);
    this.ns[slot] = this.code(r.namespace);
    this.cat[slot] = this.code(r.category);
    this.sess[slot] = this.code(r.session_id);
  }

  /** Drop the row for `seq`, if present. */
  remove(seq: number): void {
    const slot = this.slotOf.get(seq);
    if (slot === undefined) return;
    this.slotOf.delete(seq);
    this.seqs[slot] = -1;
    this.free.push(slot);
  }

  /** Exact cosine top-k (vectors and query are unit length, so cosine = dot product). */
  search(query: Float32Array, k: number, f: IndexFilter = {}): VectorHit[] {
    const d = this.dims;
    const want = (s: string | undefined): number | undefined => (s === undefined ? undefined : this.dict.get(s) ?? -2);
    const nsC = want(f.namespace), catC = want(f.category), sessC = want(f.sessionId);
    if (nsC === -2 || catC === -2 || sessC === -2) return [];
    const since = f.sinceMs ?? -Infinity, until = f.untilMs ?? Infinity;
    const allowed = f.allowed;
    const top = new TopK(k);
    const V = this.vectors;
    for (let slot = 0; slot < this.size; slot++) {
      const seq = this.seqs[slot]!;
      if (seq < 0) continue;
      if (nsC !== undefined && this.ns[slot] !== nsC) continue;
      if (catC !== undefined && this.cat[slot] !== catC) continue;
      if (sessC !== undefined && this.sess[slot] !== sessC) continue;
      const t = this.created[slot]!;
      if (t < since || t >= until) continue;
      if (allowed && !allowed.has(seq)) continue;
      let dot = 0;
      const o = slot * d;
      for (let j = 0; j < d; j++) dot += V[o + j]! * query[j]!;
      top.push(seq, dot);
    }
    return top.sorted();
  }
}

/** Bounded min-heap keeping the k best scores. */
export class TopK {
  private readonly k: number;
  private readonly seqs: number[] = [];
  private readonly scores: number[] = [];

  constructor(k: number) {
    this.k = k;
  }

  push(seq: number, score: number): void {
    const { seqs, scores, k } = this;
    if (k <= 0) return;
    if (scores.length < k) {
      seqs.push(seq); scores.push(score);
      let i = scores.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (scores[p]! <= scores[i]!) break;
        this.swap(i, p); i = p;
      }
      return;
    }
    if (score <= scores[0]!) return;
    seqs[0] = seq; scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < scores.length && scores[l]! < scores[m]!) m = l;
      if (r < scores.length && scores[r]! < scores[m]!) m = r;
      if (m === i) break;
      this.swap(i, m); i = m;
    }
  }

  private swap(a: number, b: number): void {
    const s = this.seqs[a]!; this.seqs[a] = this.seqs[b]!; this.seqs[b] = s;
    const c = this.scores[a]!; this.scores[a] = this.scores[b]!; this.scores[b] = c;
  }

  /** Best first; ties broken by lower seq (older memory) for stable output. */
  sorted(): VectorHit[] {
    return this.seqs.map((seq, i) => ({ seq, score: this.scores[i]! })).sort((a, b) => b.score - a.score || a.seq - b.seq);
  }
}
