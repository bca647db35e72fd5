import type { KeptList } from './kept-postings.js';
import { TopK } from './vector-index.js';

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;

/** One term's postings: slots in ascending order, with their term frequencies. */
interface List {
  slots: Int32Array;
  tfs: Uint16Array;
  n: number;
  /** Live documents among the postings, as of epoch `dfAt` (of the file, or of the group; see `KeywordIndex.epoch`). */
  df: number;
  dfAt: number;
  /** The largest term frequency and the shortest document among the postings: a bound on what the term adds to one memory. */
  maxTf: number;
  minLen: number;
  /** `KeywordIndex.shortened` when the bounds were set: a document made shorter since may break them. */
  boundAt: number;
}

interface Postings extends List {
  /** The same postings split per group (namespace), made when a search in that group first needs them. */
  groups?: Map<number, List>;
  /** What the cache charges for this term (see {@link KeywordIndex}). */
  bytes: number;
}

/**
 * Work counters, read by tests (never by a clock): postings visited by scoring and document-frequency
 * counts, postings parsed from FTS5, postings read from the file's kept rows (src/search/kept-postings.ts),
 * and searches walked document at a time (see {@link DAAT_MIN_POSTINGS}).
 * A search in one namespace must visit only that namespace's postings.
 */
export const KEYWORD_WORK = { visited: 0, parsed: 0, kept: 0, byDocument: 0 };

/** Bounds of the postings cache: terms kept, and bytes of their postings. */
export const POSTINGS_CACHE_TERMS = 4096;
export const POSTINGS_CACHE_BYTES = 64 * 1024 * 1024;

const NO_SLOTS = new Int32Array(0);
const NO_TFS = new Uint16Array(0);

/**
 * A list of `n` postings, bounds not set yet; every list is made here (one object shape).
 * V8 compiles the search loops trusting that a field never reassigned since its object was made
 * stays constant, and `append` (the write path) reassigns a list's arrays and length: the first
 * write of a process then discarded every compiled keyword search, and the next recalls ran
 * unoptimised until recompiled (BENCHMARKS.md "Recall after a bulk write"). Assigned twice here,
 * those fields are mutable from the first list on.
 */
function newList(slots: Int32Array, tfs: Uint16Array, n: number, boundAt: number): Postings {
  const l: Postings = { slots: NO_SLOTS, tfs: NO_TFS, n: -1, df: 0, dfAt: -1, bytes: 0, maxTf: 0, minLen: Infinity, boundAt };
  l.slots = slots;
  l.tfs = tfs;
  l.n = n;
  return l;
}

function listBytes(l: List): number {
  return l.slots.length * 4 + l.tfs.length * 2 + 48;
}

/**
 * Reads one term's postings: from FTS5, the rowids of its instances, comma-separated, in rowid
 * order; or a kept row (seqs ascending, with their term frequencies).
 */
export type TermLoader = (term: string) => string | KeptList | null;

/**
 * In-memory BM25 over the same terms as the FTS5 table (`porter unicode61`), by slot.
 *
 * FTS5's own `ORDER BY rank` computes bm25() for every row matching any query term, which costs
 * milliseconds for an OR of common words at 50,000 memories. Here a term's postings are typed
 * arrays and scores accumulate in a dense array: a query costs microseconds per thousand postings.
 * Scores follow FTS5's bm25() formula (k1 = 1.2, b = 0.75, same idf and length normalisation, a
 * term counted once per query word), so the ranking matches `ORDER BY rank` over the same words.
 *
 * Only document lengths are loaded up front; a term's postings are read from the FTS5 index the
 * first time a query uses it, then kept (least recently used terms evicted past `maxTerms` terms or
 * `maxBytes`: a stream of never-seen words cannot grow the heap) and extended as memories are added.
 * Removed slots are skipped; document frequencies count live slots at query time, so removal needs
 * no bookkeeping. A search in one group visits only that group's share of each term's postings.
 *
 * Each document belongs to a group (its namespace). A search within one group takes its
 * statistics (documents, average length, document frequencies) from that group alone, as if the
 * group were its own table: one namespace's scores, and the `relevance` made from them, must not
 * move with what other namespaces hold (that would tell a caller whether another tenant's
 * memories contain a word), and a conversation's own word frequencies rank its turns better.
 */
export class KeywordIndex {
  /** Postings of recently used query terms, least recently used first (a Map keeps insertion order). */
  private readonly loaded = new Map<string, Postings>();
  private loadedBytes = 0;
  private readonly maxTerms: number;
  private readonly maxBytes: number;
  /** Token counts: integers (content is at most 100 kB), exact in float32, half the cache footprint of float64. */
  private docLen = new Float32Array(0);
  private alive = new Uint8Array(0);
  /**
   * Score accumulator: 0 for live slots between searches, -Infinity for the rest (removed or
   * never set), so the hot loop needs no liveness check: a dead slot's sum stays -Infinity.
   */
  private acc = new Float64Array(0);
  /** Scratch: slots with a score during one search. */
  private touched = new Int32Array(0);
  /** Scratch: 1 + the index of a top hit at its slot, 0 elsewhere (see matchedIdf). */
  private mark = new Int32Array(0);
  private live = 0;
  private totalLen = 0;
  /** Group of each slot, and per group its live documents and summed length. */
  private groupOf = new Int32Array(0);
  private groupLive: number[] = [];
  private groupLen: number[] = [];
  /**
   * Bumped when a document leaves the live set or changes in place, and by a length set without
   * postings: cached document frequencies older than this are recounted (a pass over the list).
   * A new document `add`s to the counts of the cached lists it is appended to instead, so a bulk
   * write costs the next recalls no recount of a common word's hundreds of thousands of postings.
   */
  private epoch = 0;
  /** The same per group: a write in one namespace leaves another's counts valid. */
  private groupEpoch: number[] = [];

  /** Bumped when a live document is made shorter: the lists' bounds set before are recomputed. */
  private shortened = 0;
  /** Whether a search may stop scoring a term's whole postings once it cannot change the top k (see `run`). */
  private readonly prune: boolean;

  /**
   * @param maxTerms, maxBytes bounds of the postings cache (evicting the least recently used term).
   * @param prune skip the work that cannot change the top k (the default; `false`: score every posting, for tests).
   */
  constructor(maxTerms = POSTINGS_CACHE_TERMS, maxBytes = POSTINGS_CACHE_BYTES, prune = true) {
    this.maxTerms = maxTerms;
    this.maxBytes = maxBytes;
    this.prune = prune;
  }

  /** Bytes the postings cache holds (its bound is `maxBytes`, plus the one term being searched). */
  get cachedBytes(): number {
    return this.loadedBytes;
  }

  /** Live documents. */
  get count(): number {
    return this.live;
  }

  /** Terms whose postings are in memory (at most `maxTerms`). */
  get vocabulary(): number {
    return this.loaded.size;
  }

  private reserve(n: number): void {
    if (n <= this.alive.length) return;
    const cap = Math.max(n, Math.ceil(this.alive.length * 1.5), 1024);
    const d = new Float32Array(cap);
    d.set(this.docLen);
    this.docLen = d;
    const a = new Uint8Array(cap);
    a.set(this.alive);
    this.alive = a;
    const c = new Float64Array(cap).fill(-Infinity);
    c.set(this.acc);
    this.acc = c;
    const g = new Int32Array(cap);
    g.set(this.groupOf);
    this.groupOf = g;
  }

  /**
   * Set a live document's length (tokens) and group without its postings (bulk load from FTS5's
   * docsize). A slot keeps its group for life (slots are not reused for another namespace).
   */
  setLength(slot: number, tokens: number, group = 0): void {
    this.place(slot, tokens, group, true);
  }

  /** {@link setLength}; `recount`: whether cached document frequencies must be recounted (see `epoch`). */
  private place(slot: number, tokens: number, group: number, recount: boolean): void {
    this.reserve(slot + 1);
    const was = this.alive[slot] === 1;
    if (was || recount) this.epoch++;
    if (was) {
      if (tokens < this.docLen[slot]!) this.shortened++;
      this.groupEpoch[this.groupOf[slot]!]!++;
      this.totalLen -= this.docLen[slot]!;
      this.groupLen[this.groupOf[slot]!]! -= this.docLen[slot]!;
      this.groupLive[this.groupOf[slot]!]!--;
    } else {
      this.alive[slot] = 1;
      this.live++;
      this.acc[slot] = 0;
    }
    while (this.groupLive.length <= group) {
      this.groupLive.push(0);
      this.groupLen.push(0);
      this.groupEpoch.push(0);
    }
    if (was || recount) this.groupEpoch[group]!++;
    this.groupOf[slot] = group;
    this.groupLive[group]!++;
    this.groupLen[group]! += tokens;
    this.docLen[slot] = tokens;
    this.totalLen += tokens;
  }

  /** Add a document: its tokens (stemmed, with repeats) and group. Postings already in memory are extended. */
  add(slot: number, tokens: readonly string[], group = 0): void {
    // A new document changes the counts of exactly the lists it is appended to (below).
    this.place(slot, tokens.length, group, this.alive[slot] === 1);
    if (!this.loaded.size) return;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      const p = this.loaded.get(t);
      if (!p) continue; // read from FTS5 (which has this document) when first needed
      const before = p.bytes;
      append(p, slot, n, this.docLen[slot]!);
      if (p.dfAt === this.epoch) p.df++;
      // A group not split off yet is split from the full postings (which now hold this one) when needed.
      const g = p.groups?.get(group);
      if (g) {
        append(g, slot, n, this.docLen[slot]!);
        if (g.dfAt === this.groupEpoch[group]) g.df++;
      }
      p.bytes = termBytes(t, p);
      this.loadedBytes += p.bytes - before;
    }
    this.evict();
  }

  /** Drop least recently used terms until the cache is within its bounds. */
  private evict(keep?: string): void {
    for (const [t, p] of this.loaded) {
      if (this.loaded.size <= this.maxTerms && this.loadedBytes <= this.maxBytes) break;
      if (t === keep) continue;
      this.loaded.delete(t);
      this.loadedBytes -= p.bytes;
    }
  }

  /** A term's postings: from the cache (now most recently used), else parsed from FTS5 and cached. */
  private postings(t: string, load: TermLoader, slotOf: (seq: number) => number): Postings {
    let p = this.loaded.get(t);
    if (p) {
      this.loaded.delete(t);
      this.loaded.set(t, p);
      return p;
    }
    const docs = load(t);
    if (docs !== null && typeof docs === 'object') {
      p = this.fromKept(docs, slotOf);
      KEYWORD_WORK.kept += p.n;
    } else {
      p = this.parse(docs, slotOf);
      KEYWORD_WORK.parsed += p.n;
    }
    p.bytes = termBytes(t, p);
    this.loaded.set(t, p);
    this.loadedBytes += p.bytes;
    this.evict(t);
    return p;
  }

  /** One group's share of a term's postings, split off the first time a search in the group needs it. */
  private groupList(t: string, p: Postings, g: number): List {
    p.groups ??= new Map();
    let l = p.groups.get(g);
    if (l) return l;
    let n = 0;
    const groupOf = this.groupOf;
    for (let i = 0; i < p.n; i++) if (groupOf[p.slots[i]!] === g) n++;
    l = newList(new Int32Array(n), new Uint16Array(n), n, this.shortened);
    for (let i = 0, j = 0; i < p.n; i++)
      if (groupOf[p.slots[i]!] === g) {
        l.slots[j] = p.slots[i]!;
        l.tfs[j++] = p.tfs[i]!;
      }
    bounds(l, this.docLen);
    p.groups.set(g, l);
    const before = p.bytes;
    p.bytes = termBytes(t, p);
    this.loadedBytes += p.bytes - before;
    return l;
  }

  /** Whether `slot` is a live document. */
  has(slot: number): boolean {
    return slot < this.alive.length && this.alive[slot] === 1;
  }

  /** Remove a document; its postings are skipped from now on. */
  remove(slot: number): void {
    if (slot >= this.alive.length || !this.alive[slot]) return;
    this.epoch++;
    this.groupEpoch[this.groupOf[slot]!]!++;
    this.alive[slot] = 0;
    this.acc[slot] = -Infinity;
    this.live--;
    this.totalLen -= this.docLen[slot]!;
    this.groupLive[this.groupOf[slot]!]!--;
    this.groupLen[this.groupOf[slot]!]! -= this.docLen[slot]!;
    this.docLen[slot] = 0;
  }

  /**
   * Postings from a kept row; seqs without a slot are skipped. One pass also takes the bounds and
   * the live count (a first recall reads thousands of postings per new word: each pass over them
   * was a cache miss a posting), unless slots come out of order (then sorted, and counted after).
   */
  private fromKept(row: KeptList, slotOf: (seq: number) => number): Postings {
    const ps = new Int32Array(row.n),
      pt = new Uint16Array(row.n);
    const len = this.docLen,
      alive = this.alive;
    let n = 0,
      prev = -1,
      sorted = true,
      maxTf = 0,
      minLen = Infinity,
      live = 0;
    for (let i = 0; i < row.n; i++) {
      const slot = slotOf(row.seqs[i]!);
      if (slot < 0) continue;
      const tf = row.tfs[i]!;
      ps[n] = slot;
      pt[n++] = tf;
      if (slot < prev) sorted = false;
      prev = slot;
      if (tf > maxTf) maxTf = tf;
      const d = len[slot]!;
      if (d < minLen) minLen = d;
      live += alive[slot]!;
    }
    const l = newList(ps, pt, n, this.shortened);
    if (!sorted) {
      sortBySlot(ps, pt, n);
      bounds(l, len);
      return l;
    }
    l.maxTf = maxTf;
    l.minLen = minLen;
    l.df = live;
    l.dfAt = this.epoch;
    return l;
  }

  /** Parse FTS5 instance rowids ("3,3,8,...") into postings; rowids without a slot are skipped. */
  private parse(docs: string | null, slotOf: (seq: number) => number): Postings {
    let cap = 1;
    if (docs) for (let i = docs.indexOf(','); i >= 0; i = docs.indexOf(',', i + 1)) cap++;
    const ps = new Int32Array(cap),
      pt = new Uint16Array(cap);
    let n = 0;
    if (docs) {
      let prev = -1,
        tf = 0,
        num = 0;
      for (let i = 0; i <= docs.length; i++) {
        const c = i < docs.length ? docs.charCodeAt(i) : 44;
        if (c !== 44) {
          num = num * 10 + (c - 48);
          continue;
        }
        if (num === prev) tf++;
        else {
          const slot = prev >= 0 ? slotOf(prev) : -1;
          if (slot >= 0) {
            ps[n] = slot;
            pt[n] = Math.min(tf, 0xffff);
            n++;
          }
          prev = num;
          tf = 1;
        }
        num = 0;
      }
      const slot = prev >= 0 ? slotOf(prev) : -1;
      if (slot >= 0) {
        ps[n] = slot;
        pt[n] = Math.min(tf, 0xffff);
        n++;
      }
    }
    sortBySlot(ps, pt, n);
    const l = newList(ps, pt, n, this.shortened);
    bounds(l, this.docLen);
    return l;
  }

  /**
   * Top-k slots by BM25 for the OR of `terms` (stemmed, one per query word), best first.
   * `eligible` filters slots (e.g. by namespace); `load` reads postings not yet in memory.
   * Terms so common that FTS5 clamps their idf (df >= N/2) are skipped when rarer terms are
   * present: they would add ~1e-6 to any score. When the rarer terms leave fewer than k
   * eligible hits, the search runs again over every term, as FTS5 would match them.
   * `stats.idfMass`, when given, receives the summed idf of the query's terms (the most a
   * memory matching each term once, at average length, can score): fusion reads coverage from it.
   * `group`, when given, is the one group the search is confined to: statistics are that group's
   * (`eligible` must then pass only slots of that group).
   */
  search(
    terms: readonly string[],
    k: number,
    load: TermLoader,
    slotOf: (seq: number) => number,
    eligible?: (slot: number) => boolean,
    stats?: { idfMass: number; matched?: boolean },
    group?: number,
  ): { slot: number; score: number; matched?: number }[] {
    const inGroup = group !== undefined && group < this.groupLive.length;
    const N = group === undefined ? this.live : inGroup ? this.groupLive[group]! : 0;
    if (!N || k <= 0) return [];
    const avg = (inGroup ? this.groupLen[group!]! : this.totalLen) / N;
    const alive = this.alive;
    // A term repeated (two query words with one stem, e.g. "deploy deploying") counts once per
    // word, as in FTS5, where each word is its own phrase of the OR.
    const times = new Map<string, number>();
    for (const t of terms) times.set(t, (times.get(t) ?? 0) + 1);
    const lists: { p: List; idf: number }[] = [];
    let mass = 0;
    for (const [t, n] of times) {
      const all = this.postings(t, load, slotOf);
      // Within a group, only the group's postings are visited: the work, like the statistics, is
      // the namespace's own, whatever other namespaces hold (a timing would tell it otherwise).
      const p = inGroup ? this.groupList(t, all, group!) : all;
      const at = inGroup ? this.groupEpoch[group!]! : this.epoch;
      if (p.dfAt !== at) {
        let c = 0;
        for (let i = 0; i < p.n; i++) c += alive[p.slots[i]!]!;
        KEYWORD_WORK.visited += p.n;
        p.df = c;
        p.dfAt = at;
      }
      const df = p.df;
      let idf = Math.log((N - df + 0.5) / (df + 0.5));
      if (idf <= 0) idf = 1e-6;
      // A word no memory contains still counts in the mass: it is part of the query the keyword leg cannot match.
      mass += idf * n;
      if (!df) continue;
      lists.push({ p, idf: idf * n });
    }
    if (stats) stats.idfMass = mass;
    if (!lists.length) return [];
    const useful = lists.filter((l) => l.idf > 1e-6 * 64);
    const pass = (ls: readonly { p: List; idf: number }[]): TopK => {
      let total = 0;
      for (const l of ls) total += l.p.n;
      if (ls.length < 2 || ls.length > DAAT_MAX_TERMS || total < DAAT_MIN_POSTINGS) return this.run(ls, k, avg, eligible);
      KEYWORD_WORK.byDocument++;
      return this.runByDocument(ls, k, avg, eligible);
    };
    let top = pass(useful.length ? useful : lists);
    // Skipping the clamped terms is only safe while the rarer terms fill the top k among the
    // eligible slots. Under a narrow filter (one namespace) the only eligible matches may share
    // nothing but common words with the query; FTS5 still returns them, so must we (a forgotten
    // memory's partner was missing from keyword recall here, which read as a stale index).
    if (useful.length && useful.length < lists.length && top.size < k) top = pass(lists);
    const hits = top.sorted().map((h) => ({ slot: h.seq, score: h.score }));
    if (!stats?.matched) return hits;
    const matched = this.matchedIdf(
      lists,
      hits.map((h) => h.slot),
    );
    return hits.map((h, i) => ({ ...h, matched: matched[i]! }));
  }

  /**
   * For each of `slots` (the top hits), the summed idf of the query terms it contains: how much of
   * the query's vocabulary, weighted by rarity, the memory holds (BM25 instead counts a common word
   * repeated in a long memory up to 2.2 times its idf). One pass over the query terms' postings.
   */
  private matchedIdf(lists: readonly { p: List; idf: number }[], slots: readonly number[]): number[] {
    if (this.mark.length < this.alive.length) this.mark = new Int32Array(this.alive.length);
    const mark = this.mark;
    slots.forEach((s, i) => {
      mark[s] = i + 1;
    });
    const out = new Array<number>(slots.length).fill(0);
    for (const { p, idf } of lists) {
      const ps = p.slots;
      // A long list is searched for each hit (slots ascending), a short one walked once.
      if (this.prune && p.n > slots.length * 16) {
        KEYWORD_WORK.visited += slots.length * Math.ceil(Math.log2(p.n + 1));
        slots.forEach((s, i) => {
          if (find(ps, p.n, s) >= 0) out[i]! += idf;
        });
        continue;
      }
      KEYWORD_WORK.visited += p.n;
      for (let i = 0; i < p.n; i++) {
        const m = mark[ps[i]!]!;
        if (m) out[m - 1]! += idf;
      }
    }
    for (const s of slots) mark[s] = 0;
    return out;
  }

  /**
   * Accumulate BM25 over `lists` and keep the top k eligible slots. Terms are scored rarest first
   * (a term adds at most `idf·(k1 + 1)·tf / (tf + k1·(1 − b + b·len / avg))` to one memory, with its
   * postings' largest tf and shortest document). Between terms, the best k memories scored so far
   * are completed (the remaining terms looked up by binary search in their postings, slots
   * ascending): the least of those k full scores is a floor under the final k-th score. Once the
   * remaining terms together could not lift a memory none of the scored terms holds above that
   * floor, such a memory cannot enter the top k: the remaining terms then only add to the memories
   * already scored, by binary search instead of walking every posting of a common word, and a
   * memory whose score plus what the remaining terms could still add falls below the floor is
   * dropped. The top k and its scores are the same as scoring every posting.
   */
  private run(lists: readonly { p: List; idf: number }[], k: number, avg: number, eligible?: (slot: number) => boolean): TopK {
    const len = this.docLen,
      acc = this.acc;
    if (this.touched.length < this.alive.length) this.touched = new Int32Array(this.alive.length);
    const touched = this.touched;
    let nt = 0;
    const kb = K1 * (1 - B),
      kl = (K1 * B) / (avg || 1);
    const order = lists.slice().sort((a, b) => b.idf - a.idf || a.p.n - b.p.n);
    // rest[i]: the most the terms from i on can add to one memory; left[i]: their postings.
    const rest = new Float64Array(order.length + 1),
      left = new Float64Array(order.length + 1);
    for (let i = order.length - 1; i >= 0; i--) {
      const { p, idf } = order[i]!;
      if (p.boundAt !== this.shortened) {
        bounds(p, len);
        p.boundAt = this.shortened;
      }
      rest[i] = rest[i + 1]! + (idf * (K1 + 1) * p.maxTf) / (p.maxTf + kb + kl * p.minLen);
      left[i] = left[i + 1]! + order[i]!.p.n;
    }
    /** What term j adds to slot s (0 when s is not among its postings), found by binary search. */
    const add = (j: number, s: number): number => {
      const { p, idf } = order[j]!;
      const at = find(p.slots, p.n, s);
      if (at < 0) return 0;
      const tf = p.tfs[at]!;
      return (idf * (K1 + 1) * tf) / (tf + kb + kl * len[s]!);
    };
    let i = 0,
      floor = -Infinity;
    for (; i < order.length; i++) {
      // Worth a look only when the rest holds many more postings than the memories scored so far.
      if (this.prune && i > 0 && nt >= k && left[i]! > PRUNE_RATIO * nt) {
        floor = this.completedFloor(nt, k, i, order.length, add, eligible);
        if (below(rest[i]!, floor)) break;
      }
      const { p, idf } = order[i]!;
      KEYWORD_WORK.visited += p.n;
      nt = accumulate(p.slots, p.tfs, p.n, idf * (K1 + 1), kb, kl, len, acc, touched, nt);
    }
    for (; i < order.length; i++) {
      // Memories that cannot reach the floor any more are dropped (their sums reset for the next search).
      let m = 0;
      for (let j = 0; j < nt; j++) {
        const s = touched[j]!;
        if (below(acc[s]! + rest[i]!, floor)) acc[s] = 0;
        else touched[m++] = s;
      }
      nt = m;
      KEYWORD_WORK.visited += nt * Math.ceil(Math.log2(order[i]!.p.n + 1));
      for (let j = 0; j < nt; j++) {
        const s = touched[j]!;
        acc[s] = acc[s]! + add(i, s);
      }
    }
    const top = new TopK(k);
    let kth = -Infinity;
    for (let i = 0; i < nt; i++) {
      const s = touched[i]!;
      const sc = acc[s]!;
      acc[s] = 0;
      if (sc > kth && (!eligible || eligible(s))) {
        top.push(s, sc);
        kth = top.floor;
      }
    }
    return top;
  }

  /**
   * The same top k as {@link run}, document at a time (MaxScore): every list is walked in slot
   * order at once and each memory scored in full before the next, so the k-th best score so far is
   * known exactly and rises as the walk goes. The lists whose bounds together cannot lift a memory
   * above it are no longer walked: a memory must hold one of the others to enter, and the walked
   * ones only look up (by galloping forward) the memories those bring. With the 50th-best score of a
   * million memories behind it, a query's common words are looked up for the few thousand memories
   * that hold its rarest word instead of walked over their hundreds of thousands of postings.
   * Scores are summed in {@link run}'s order (rarest term first), so they are the same to the bit,
   * and memories are met in slot order: of two tied at the k-th score, the lower slot is kept.
   */
  private runByDocument(lists: readonly { p: List; idf: number }[], k: number, avg: number, eligible?: (slot: number) => boolean): TopK {
    const len = this.docLen,
      alive = this.alive,
      prune = this.prune;
    const kb = K1 * (1 - B),
      kl = (K1 * B) / (avg || 1);
    // Summation order (run's): rarest first.
    const order = lists.slice().sort((a, b) => b.idf - a.idf || a.p.n - b.p.n);
    const m = order.length;
    const bound = (j: number): number => {
      const { p, idf } = order[j]!;
      if (p.boundAt !== this.shortened) {
        bounds(p, len);
        p.boundAt = this.shortened;
      }
      return (idf * (K1 + 1) * p.maxTf) / (p.maxTf + kb + kl * p.minLen);
    };
    // Lists by bound, smallest first (index i below); rank[i]: the list's place in the summation
    // order; cum[i]: the bounds of lists 0..i summed. Lists below `ess` are looked up only; `ess`
    // moves up as the k-th score rises.
    const ubs = order.map((_, j) => bound(j));
    const byUb = Array.from({ length: m }, (_, j) => j).sort((a, b) => ubs[a]! - ubs[b]! || a - b);
    const slots: Int32Array[] = [],
      tfs: Uint16Array[] = [],
      size = new Int32Array(m),
      w = new Float64Array(m),
      rank = new Int32Array(m),
      cum = new Float64Array(m),
      pos = new Int32Array(m),
      // The slot each list is at (END once walked to its end).
      cur = new Int32Array(m);
    const END = 2 ** 31 - 1;
    for (let i = 0, c = 0; i < m; i++) {
      const j = byUb[i]!;
      const { p, idf } = order[j]!;
      slots.push(p.slots);
      tfs.push(p.tfs);
      size[i] = p.n;
      w[i] = idf * (K1 + 1);
      rank[i] = j;
      cum[i] = c += ubs[j]!;
      cur[i] = p.n ? p.slots[0]! : END;
    }
    // A memory's contributions by summation order (0 where it lacks the term: adding 0 is exact).
    const got = new Float64Array(m);
    const top = new TopK(k);
    // cut: the k-th score so far, less rounding (see `below`): a memory must beat it to enter.
    let cut = -Infinity,
      ess = 0,
      visited = 0;
    for (;;) {
      // The next memory: the lowest slot any walked list is at.
      let d = END;
      for (let i = ess; i < m; i++) if (cur[i]! < d) d = cur[i]!;
      if (d === END) break;
      const ld = kb + kl * len[d]!;
      let part = 0;
      for (let i = ess; i < m; i++) {
        if (cur[i] !== d) continue;
        const at = pos[i]!;
        const tf = tfs[i]![at]!;
        const c = (w[i]! * tf) / (tf + ld);
        got[rank[i]!] = c;
        part += c;
        pos[i] = at + 1;
        cur[i] = at + 1 < size[i]! ? slots[i]![at + 1]! : END;
        visited++;
      }
      let enter = alive[d] === 1 && (eligible === undefined || eligible(d));
      // The looked-up lists, largest bound first, while the memory can still reach the k-th score.
      for (let i = ess - 1; enter && i >= 0; i--) {
        if (part + cum[i]! < cut) {
          enter = false;
          break;
        }
        if (cur[i]! >= d) {
          if (cur[i] !== d) continue;
        } else {
          const from = pos[i]!;
          const at = seek(slots[i]!, from, size[i]!, d);
          visited += Math.ceil(Math.log2(at - from + 2));
          pos[i] = at;
          cur[i] = at < size[i]! ? slots[i]![at]! : END;
          if (cur[i] !== d) continue;
        }
        const tf = tfs[i]![pos[i]!]!;
        const c = (w[i]! * tf) / (tf + ld);
        got[rank[i]!] = c;
        part += c;
      }
      if (enter) {
        let sc = 0;
        for (let j = 0; j < m; j++) {
          sc += got[j]!;
          got[j] = 0;
        }
        top.push(d, sc);
        if (prune && top.size === k) {
          const f = top.floor;
          cut = f - 1e-9 * Math.abs(f);
          while (ess < m && cum[ess]! < cut) ess++;
        }
      } else for (let j = 0; j < m; j++) got[j] = 0;
    }
    KEYWORD_WORK.visited += visited;
    return top;
  }

  /**
   * A floor under the final k-th best eligible score: the best k of the `nt` slots scored so far
   * (terms before `from`) completed with the terms from `from` on; -Infinity with fewer than k.
   */
  private completedFloor(
    nt: number,
    k: number,
    from: number,
    terms: number,
    add: (j: number, s: number) => number,
    eligible?: (slot: number) => boolean,
  ): number {
    const best = new TopK(k),
      acc = this.acc,
      touched = this.touched;
    for (let i = 0; i < nt; i++) {
      const s = touched[i]!;
      if (acc[s]! > best.floor && (!eligible || eligible(s))) best.push(s, acc[s]!);
    }
    if (best.size < k) return -Infinity;
    let floor = Infinity;
    for (const h of best.sorted()) {
      let full = h.score;
      for (let j = from; j < terms; j++) full += add(j, h.seq);
      floor = Math.min(floor, full);
    }
    KEYWORD_WORK.visited += k * (terms - from);
    return floor;
  }
}

/**
 * Whether a bound lies below the floor by more than rounding: sums of the same terms taken in
 * another order differ in the last bits, and a memory that ties the k-th score must not be dropped.
 */
function below(bound: number, floor: number): boolean {
  return bound < floor - 1e-9 * Math.abs(floor);
}

/** Postings to walk per memory already scored before pruning is worth checking (each check costs a pass over them). */
const PRUNE_RATIO = 8;

/**
 * When a search walks its lists document at a time ({@link KeywordIndex.runByDocument}): with 2 to
 * 16 lists holding at least 32,768 postings together. Fewer postings are scored faster term at a
 * time (a 50,000-memory file's score array stays in the CPU caches: 0.27 ms against 0.39 ms a
 * keyword recall on the bench corpus); more terms make the walk look at too many lists per memory.
 * At a million memories it halves the keyword leg (5.7 ms to 3.1 ms; BENCHMARKS.md).
 */
const DAAT_MAX_TERMS = 16;
const DAAT_MIN_POSTINGS = 32_768;

/** The first index from `from` (below `n`) whose slot is at least `slot`, or `n`: galloping, then binary search. */
function seek(slots: Int32Array, from: number, n: number, slot: number): number {
  if (from >= n || slots[from]! >= slot) return from;
  let step = 1,
    lo = from,
    hi = from + 1;
  while (hi < n && slots[hi]! < slot) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > n) hi = n;
  // slots[lo] < slot; the answer is in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (slots[mid]! < slot) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Index of `slot` in the first `n` of `slots` (ascending), or -1. */
function find(slots: Int32Array, n: number, slot: number): number {
  let lo = 0,
    hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = slots[mid]!;
    if (v < slot) lo = mid + 1;
    else if (v > slot) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Sort the first `n` postings by slot (FTS5 lists them by rowid; a memory re-added after an edit has a newer slot). */
function sortBySlot(slots: Int32Array, tfs: Uint16Array, n: number): void {
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (slots[i - 1]! > slots[i]!) sorted = false;
  if (sorted) return;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => slots[a]! - slots[b]!);
  const s = slots.slice(0, n),
    t = tfs.slice(0, n);
  idx.forEach((from, to) => {
    slots[to] = s[from]!;
    tfs[to] = t[from]!;
  });
}

/** Set a list's bounds (largest term frequency, shortest document) from its postings. */
function bounds(l: List, len: Float32Array): void {
  let tf = 0,
    min = Infinity;
  for (let i = 0; i < l.n; i++) {
    if (l.tfs[i]! > tf) tf = l.tfs[i]!;
    const d = len[l.slots[i]!]!;
    if (d < min) min = d;
  }
  l.maxTf = tf;
  l.minLen = min;
}

/** Append one posting (of a document `docLen` tokens long), growing the arrays geometrically. */
function append(l: List, slot: number, tf: number, docLen: number): void {
  if (l.n === l.slots.length) {
    const s = new Int32Array(l.n * 2 + 4);
    s.set(l.slots);
    l.slots = s;
    const f = new Uint16Array(l.n * 2 + 4);
    f.set(l.tfs);
    l.tfs = f;
  }
  l.slots[l.n] = slot;
  l.tfs[l.n] = Math.min(tf, 0xffff);
  l.n++;
  l.maxTf = Math.max(l.maxTf, l.tfs[l.n - 1]!);
  l.minLen = Math.min(l.minLen, docLen);
  // Slots are handed out in increasing order, so this is the end; kept sorted whatever the caller does.
  if (l.n > 1 && l.slots[l.n - 2]! > slot) sortBySlot(l.slots, l.tfs, l.n);
}

/** What one cached term costs: its postings, its groups' shares and its key. */
function termBytes(term: string, p: Postings): number {
  let b = listBytes(p) + term.length * 2 + 64;
  if (p.groups) for (const g of p.groups.values()) b += listBytes(g) + 32;
  return b;
}

/**
 * Add one term's BM25 contribution to each posting's slot; returns the new count of `touched`
 * slots. Dead slots hold -Infinity in `acc`: never touched, and they stay -Infinity.
 */
function accumulate(
  slots: Int32Array,
  tfs: Uint16Array,
  n: number,
  w: number,
  kb: number,
  kl: number,
  len: Float32Array,
  acc: Float64Array,
  touched: Int32Array,
  nt: number,
): number {
  for (let i = 0; i < n; i++) {
    const s = slots[i]!;
    const tf = tfs[i]!;
    const a = acc[s]!;
    if (a === 0) touched[nt++] = s;
    acc[s] = a + (w * tf) / (tf + kb + kl * len[s]!);
  }
  return nt;
}

/** Parse a `group_concat` of non-negative integers ("3,17,18") without splitting into strings. */
export function parseSeqs(list: string): Float64Array {
  let n = 1;
  for (let i = list.indexOf(','); i >= 0; i = list.indexOf(',', i + 1)) n++;
  const out = new Float64Array(n);
  let k = 0,
    v = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list.charCodeAt(i);
    if (ch === 44) {
      out[k++] = v;
      v = 0;
    } else v = v * 10 + (ch - 48);
  }
  out[k] = v;
  return out;
}

/**
 * Decode FTS5 docsize records for a one-column table: `ids` comma-separated rowids, `sz` their
 * varints back to back (SQLite varint: 7 bits per byte, high bit = more). Returns null when the
 * data does not line up (then the caller counts tokens itself).
 */
export function decodeDocLengths(ids: string, sz: Uint8Array): { seqs: Float64Array; lengths: number[] } | null {
  const seqs = parseSeqs(ids);
  const lengths: number[] = [];
  let i = 0;
  while (i < sz.length) {
    let v = 0,
      b: number;
    let guard = 0;
    do {
      b = sz[i++]!;
      v = v * 128 + (b & 0x7f);
      if (++guard > 5) return null;
    } while (b & 0x80 && i < sz.length);
    lengths.push(v);
  }
  return lengths.length === seqs.length ? { seqs, lengths } : null;
}
