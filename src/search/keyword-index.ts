import { TopK } from './vector-index.js';

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;

interface Postings {
  slots: Int32Array;
  tfs: Uint16Array;
  n: number;
  /** Live documents containing the term. */
  df: number;
}

/**
 * In-memory BM25 over the same terms as the FTS5 table (`porter unicode61`), by slot.
 *
 * FTS5's own `ORDER BY rank` computes bm25() for every row matching any query term, which costs
 * milliseconds for an OR of common words at 50,000 memories. Here postings are typed arrays and
 * scores accumulate in a dense array, so a whole query costs a few microseconds per thousand
 * postings. Scores follow FTS5's bm25() formula (k1 = 1.2, b = 0.75, same idf and length
 * normalisation), so the ranking matches `ORDER BY rank` over the same terms.
 *
 * Removed slots are skipped while scoring and their terms' document frequencies are decremented;
 * the owner rebuilds the whole index when too many dead slots pile up.
 */
export class KeywordIndex {
  private readonly terms = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private docLen = new Float64Array(0);
  private alive = new Uint8Array(0);
  private acc = new Float64Array(0);
  /** Term ids of each slot added one by one (for removal); bulk-loaded slots are found via `forward`. */
  private readonly added = new Map<number, Int32Array>();
  private forward: { offsets: Int32Array; ids: Int32Array } | null = null;
  private bulkSlots = 0;
  private live = 0;
  private totalLen = 0;

  /** Live documents. */
  get count(): number {
    return this.live;
  }

  /** Distinct terms. */
  get vocabulary(): number {
    return this.terms.size;
  }

  private reserve(n: number): void {
    if (n <= this.alive.length) return;
    const cap = Math.max(n, Math.ceil(this.alive.length * 1.5), 1024);
    const d = new Float64Array(cap); d.set(this.docLen); this.docLen = d;
    const a = new Uint8Array(cap); a.set(this.alive); this.alive = a;
    this.acc = new Float64Array(cap);
  }

  private termId(t: string): number {
    let id = this.terms.get(t);
    if (id === undefined) {
      id = this.postings.length;
      this.terms.set(t, id);
      this.postings.push({ slots: new Int32Array(4), tfs: new Uint16Array(4), n: 0, df: 0 });
    }
    return id;
  }

  private append(p: Postings, slot: number, tf: number): void {
    if (p.n === p.slots.length) {
      const s = new Int32Array(p.n * 2); s.set(p.slots); p.slots = s;
      const f = new Uint16Array(p.n * 2); f.set(p.tfs); p.tfs = f;
    }
    p.slots[p.n] = slot;
    p.tfs[p.n] = Math.min(tf, 0xffff);
    p.n++;
  }

  /**
   * Bulk load from FTS5's instance list: for each term, the comma-separated rowids of its
   * instances in rowid order (a rowid repeats once per occurrence). `slotOf` maps a rowid
   * (memory seq) to its slot, or -1 to skip it. Call once, on an empty index.
   */
  load(rows: Iterable<[term: string, docs: string]>, slotOf: (seq: number) => number, slots: number): void {
    this.reserve(slots);
    const alive = this.alive, docLen = this.docLen;
    for (const [term, docs] of rows) {
      // Instances <= commas + 1: size the lists once instead of growing them.
      let cap = 1;
      for (let i = docs.indexOf(','); i >= 0; i = docs.indexOf(',', i + 1)) cap++;
      const ps = new Int32Array(cap), pt = new Uint16Array(cap);
      let n = 0, prev = -1, tf = 0, num = 0, total = 0;
      for (let i = 0; i <= docs.length; i++) {
        const c = i < docs.length ? docs.charCodeAt(i) : 44;
        if (c !== 44) { num = num * 10 + (c - 48); continue; }
        if (num === prev) tf++;
        else {
          if (prev >= 0) {
            const slot = slotOf(prev);
            if (slot >= 0) { ps[n] = slot; pt[n] = tf > 0xffff ? 0xffff : tf; n++; docLen[slot]! += tf; total += tf; }
          }
          prev = num; tf = 1;
        }
        num = 0;
      }
      if (prev >= 0) {
        const slot = slotOf(prev);
        if (slot >= 0) { ps[n] = slot; pt[n] = tf > 0xffff ? 0xffff : tf; n++; docLen[slot]! += tf; total += tf; }
      }
      const id = this.termId(term);
      const p = this.postings[id]!;
      p.slots = ps; p.tfs = pt; p.n = n; p.df = n;
      this.totalLen += total;
      for (let i = 0; i < n; i++) alive[ps[i]!] = 1;
    }
    let live = 0;
    for (let s = 0; s < slots; s++) live += alive[s]!;
    this.live = live;
    this.bulkSlots = slots;
  }

  /** Count `slot` as a live document even if it has no token (FTS5 counts such rows too). */
  ensure(slot: number): void {
    this.reserve(slot + 1);
    if (this.alive[slot]) return;
    this.alive[slot] = 1;
    this.live++;
  }

  /** Add a document: its tokens (stemmed, with repeats). An empty list still counts as a live, empty document. */
  add(slot: number, tokens: readonly string[]): void {
    this.reserve(slot + 1);
    if (this.alive[slot]) this.remove(slot);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    const ids = new Int32Array(tf.size);
    let i = 0;
    for (const [t, n] of tf) {
      const id = this.termId(t);
      const p = this.postings[id]!;
      this.append(p, slot, n);
      p.df++;
      ids[i++] = id;
    }
    this.added.set(slot, ids);
    this.alive[slot] = 1;
    this.live++;
    this.docLen[slot] = tokens.length;
    this.totalLen += tokens.length;
  }

  /** Build the slot -> term ids lists of bulk-loaded slots (only needed once something is removed). */
  private buildForward(): { offsets: Int32Array; ids: Int32Array } {
    const n = this.bulkSlots;
    const offsets = new Int32Array(n + 1);
    for (const p of this.postings) for (let i = 0; i < p.n; i++) { const s = p.slots[i]!; if (s < n) offsets[s + 1]!++; }
    for (let s = 0; s < n; s++) offsets[s + 1]! += offsets[s]!;
    const ids = new Int32Array(offsets[n]!);
    const fill = offsets.slice(0, n);
    this.postings.forEach((p, id) => { for (let i = 0; i < p.n; i++) { const s = p.slots[i]!; if (s < n) ids[fill[s]!++] = id; } });
    this.forward = { offsets, ids };
    return this.forward;
  }

  /** Remove a document; its postings are skipped from now on. */
  remove(slot: number): void {
    if (slot >= this.alive.length || !this.alive[slot]) return;
    let ids = this.added.get(slot);
    if (ids) this.added.delete(slot);
    else if (slot < this.bulkSlots) {
      const f = this.forward ?? this.buildForward();
      ids = f.ids.subarray(f.offsets[slot]!, f.offsets[slot + 1]!);
    }
    for (const id of ids ?? []) this.postings[id]!.df--;
    this.alive[slot] = 0;
    this.live--;
    this.totalLen -= this.docLen[slot]!;
    this.docLen[slot] = 0;
  }

  /**
   * Top-k slots by BM25 for the OR of `terms` (stemmed, one per query word), best first; `eligible`
   * filters slots (e.g. by namespace). Terms so common that FTS5 would clamp their idf
   * (df >= N/2) are skipped when rarer terms are present: they add ~nothing to any score.
   */
  search(terms: readonly string[], k: number, eligible?: (slot: number) => boolean): { slot: number; score: number }[] {
    const N = this.live;
    if (!N || k <= 0) return [];
    const avg = this.totalLen / N;
    // A term repeated (two query words with one stem, e.g. "deploy deploying") counts once per
    // word, as in FTS5, where each is its own phrase in the OR.
    const times = new Map<string, number>();
    for (const t of terms) times.set(t, (times.get(t) ?? 0) + 1);
    const lists: { p: Postings; idf: number }[] = [];
    for (const [t, n] of times) {
      const id = this.terms.get(t);
      if (id === undefined) continue;
      const p = this.postings[id]!;
      if (p.df <= 0) continue;
      let idf = Math.log((N - p.df + 0.5) / (p.df + 0.5));
      if (idf <= 0) idf = 1e-6;
      lists.push({ p, idf: idf * n });
    }
    if (!lists.length) return [];
    const useful = lists.filter((l) => l.idf > 1e-6);
    const run = useful.length ? useful : lists;
    const acc = this.acc, alive = this.alive, len = this.docLen;
    const touched: number[] = [];
    const kb = K1 * (1 - B), kl = (K1 * B) / (avg || 1);
    for (const { p, idf } of run) {
      const { slots, tfs, n } = p;
      const w = idf * (K1 + 1);
      for (let i = 0; i < n; i++) {
        const s = slots[i]!;
        if (!alive[s]) continue;
        const tf = tfs[i]!;
        const add = (w * tf) / (tf + kb + kl * len[s]!);
        if (acc[s] === 0) touched.push(s);
        acc[s]! += add;
      }
    }
    const top = new TopK(k);
    for (const s of touched) {
      const sc = acc[s]!;
      acc[s] = 0;
      if (sc > top.floor && (!eligible || eligible(s))) top.push(s, sc);
    }
    return top.sorted().map((h) => ({ slot: h.seq, score: h.score }));
  }
}
