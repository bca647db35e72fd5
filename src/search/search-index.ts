import type { RowFilter } from '../types/rows.js';
import type { FtsField, Store } from '../store/store.js';
import { blendedBytes } from '../lifecycle/context.js';
import { KEPT_CHANGES_MAX, KEPT_MIN_DF, KEPT_MIN_MEMORIES, KEPT_MIN_WRITES, KeptChanges, type KeptList, decodeKept, encodeKept } from './kept-postings.js';
import { KeywordIndex, decodeDocLengths, parseSeqs } from './keyword-index.js';
import { queryTerms } from './keyword.js';
import { isAscii, tokenizeAscii } from './tokenize.js';
import { type CodeRow, WRITE_BACK_CHUNK, chooseCentre, usableCentre } from './vector-codes.js';
import { CODE_LOAD, startCodeCopy } from './code-loader.js';
import { TopK, VectorIndex, blobToVector, vectorToBlob, type ApproxOptions, type VectorHit } from './vector-index.js';

/** Change-log entries kept in the file; a reader further behind than this rebuilds. */
export const CHANGES_KEPT = 50_000;

/** Memories per chunk when bulk-loading vectors: small enough to stay in CPU caches (measured fastest). */
const LOAD_CHUNK = 256;
/** Memories looked up per query when only some lack a code. */
const LOOKUP_CHUNK = 512;

/** What a rebuild quantised itself: slots to store codes for, seqs to record as without a vector. */
interface CodesToWrite {
  slots: number[];
  markers: number[];
}

/** Options of a vector search. */
export interface VectorSearchOptions extends ApproxOptions {
  /**
   * Score every (quantised) vector instead of sign-code candidates, then re-score the best
   * `max(2k, k + 32)` from the file's float32 rows: the float top k, barring an int8 error larger
   * than the gap to the 2k-th candidate.
   */
  exact?: boolean;
}

/** Which slots a filter lets through: `test` is null when every live memory passes. */
interface Eligibility {
  test: ((slot: number) => boolean) | null;
  /** Seqs allowed by the part of the filter that ran in SQL. */
  allowed?: Set<number> | null;
  /** Set when expiry (at this time, epoch ms) is the only filter: only expiring slots need a look. */
  expiryOnly?: number | null;
  /** Set when one namespace (this code) is the only filter: a plain pass over the codes, no call per slot. */
  namespaceOnly?: number | null;
}

/** seq -> slot: a dense array while seqs are compact, else a Map. */
class SeqMap {
  private dense: Int32Array | null = new Int32Array(0);
  private map: Map<number, number> | null = null;

  get(seq: number): number {
    if (this.dense) return seq < this.dense.length ? this.dense[seq]! : -1;
    return this.map!.get(seq) ?? -1;
  }

  set(seq: number, slot: number): void {
    if (this.dense) {
      if (seq < this.dense.length) {
        this.dense[seq] = slot;
        return;
      }
      if (seq < 8 * 1024 * 1024) {
        const d = new Int32Array(Math.max(seq + 1, Math.ceil(this.dense.length * 1.5), 1024)).fill(-1);
        d.set(this.dense);
        this.dense = d;
        this.dense[seq] = slot;
        return;
      }
      // Very sparse seqs (many deletions over a long life): switch to a Map.
      this.map = new Map();
      this.dense.forEach((s, q) => {
        if (s >= 0) this.map!.set(q, s);
      });
      this.dense = null;
    }
    this.map!.set(seq, slot);
  }

  delete(seq: number): void {
    if (this.dense) {
      if (seq < this.dense.length) this.dense[seq] = -1;
    } else this.map!.delete(seq);
  }
}

/**
 * The search index of one open file: both recall legs, derived from the file and kept in step
 * with this process's writes and with other processes' writes (via `PRAGMA data_version` and the
 * `changes` log), so recall never returns deleted memories or misses new ones.
 *
 * - Keyword leg: {@link KeywordIndex}, BM25 over FTS5's own terms: document lengths loaded on
 *   rebuild, a term's postings read from the FTS5 index the first time a query uses it.
 * - Vector leg: {@link VectorIndex}, int8 vectors with sign codes (copied from the file's
 *   `vector_codes` on rebuild; the memories without one quantised and written back), candidates re-scored
 *   by int8 SIMD dot products; `exact` scores every int8 vector and re-scores the best from the
 *   file's float32 rows.
 *
 * Every memory has one slot; slots are append-only (a changed memory gets a new slot, the old
 * one is tombstoned) and the whole index is rebuilt from the file when tombstones pile up, when
 * the change log was pruned past this reader, or when a burst of changes is cheaper to reload.
 */
export class SearchIndex {
  private readonly store: Store;
  private readonly model: string | null;
  private readonly dims: number;
  private built = false;
  private seenVersion = 0;
  private seenDataVersion = -1;
  private dirty = true;
  // Slot tables.
  private seqOf = new Float64Array(0); // -1 = tombstone
  private nsOf = new Int32Array(0);
  private expires = new Float64Array(0); // epoch ms; Infinity = never (or pinned)
  private readonly expiring = new Set<number>(); // live slots with a finite expiry
  private slots = 0;
  private dead = 0;
  private slotOf = new SeqMap();
  private readonly nsCode = new Map<string, number>();
  private nsLive: number[] = [];
  private vec: VectorIndex | null = null;
  private kw = new KeywordIndex();
  /** Inside {@link synced}: the index is up to date already. */
  private holding = false;
  /** The context field (src/lifecycle/context.ts): the words of the memories before each one in its session. */
  private ctx = new KeywordIndex();
  /**
   * What changed since the file's kept postings were written (src/search/kept-postings.ts): made at
   * the first kept row read, then fed by every sync; `false` once they cannot be used until the next rebuild.
   */
  private keptChanges: Record<FtsField, KeptChanges | null | false> = { content: null, context: null };

  /** Whether the vector index may use worker threads (src/search/scan-worker.ts, code-loader.ts). */
  private readonly searchThread: boolean;

  /** @param model embedder id whose vectors are indexed, or `null` for keyword only. */
  constructor(store: Store, model: string | null, dims: number, opts: { searchThread?: boolean } = {}) {
    this.searchThread = opts.searchThread !== false;
    this.store = store;
    this.model = model;
    this.dims = dims;
  }

  /** Note a write made through this connection (data_version does not change for those). */
  markDirty(): void {
    this.dirty = true;
  }

  /** Live vectors in the index (after syncing). */
  size(): number {
    this.sync();
    return this.vec?.count ?? 0;
  }

  /** Live memories in the index (after syncing). */
  memories(): number {
    this.sync();
    return this.slots - this.dead;
  }

  private code(ns: string): number {
    let c = this.nsCode.get(ns);
    if (c === undefined) {
      c = this.nsCode.size;
      this.nsCode.set(ns, c);
      this.nsLive.push(0);
    }
    return c;
  }

  private reserve(n: number): void {
    if (n <= this.seqOf.length) return;
    const cap = Math.max(n, Math.ceil(this.seqOf.length * 1.5), 1024);
    const s = new Float64Array(cap).fill(-1);
    s.set(this.seqOf);
    this.seqOf = s;
    const c = new Int32Array(cap);
    c.set(this.nsOf);
    this.nsOf = c;
    const e = new Float64Array(cap).fill(Infinity);
    e.set(this.expires);
    this.expires = e;
  }

  private rebuild(): void {
    this.seqOf = new Float64Array(0);
    this.nsOf = new Int32Array(0);
    this.expires = new Float64Array(0);
    this.expiring.clear();
    this.slots = 0;
    this.dead = 0;
    this.slotOf = new SeqMap();
    this.nsCode.clear();
    this.nsLive = [];
    this.vec?.dispose();
    this.vec = this.model ? new VectorIndex(this.dims, this.searchThread ? {} : { parallelFrom: Infinity }) : null;
    this.kw = new KeywordIndex();
    this.ctx = new KeywordIndex();
    this.keptChanges = { content: null, context: null };
    const { store } = this;
    let todo: CodesToWrite | null = null;
    const mmap = store.db.pragma('mmap_size', { simple: true }) as number;
    // Memory-mapped reads make the one big scan ~2x faster; restored afterwards.
    if (!mmap) store.db.pragma('mmap_size = 4294967296');
    try {
      store.read('load the search index', () => {
        // One read transaction: the change-log position matches the rows read.
        store.db.transaction(() => {
          this.seenVersion = store.changeVersion();
          // Slots in seq order (index-only scan of namespace + seq).
          // (seq, namespace code) packed in one float64 so a plain typed-array sort orders them by seq.
          const groups = store.seqsByNamespace().map(([ns, list]) => ({ c: this.code(ns), seqs: parseSeqs(list) }));
          let n = 0;
          for (const g of groups) n += g.seqs.length;
          const W = 2 ** 20; // namespace codes below ~1M; seqs below 2^33 keep the product exact
          const keys = new Float64Array(n);
          let k = 0,
            sorted = true,
            prev = -Infinity;
          const pairs: [number, number][] = [];
          for (const { c, seqs } of groups) {
            for (let i = 0; i < seqs.length; i++) {
              const seq = seqs[i]!;
              keys[k++] = seq * W + c;
              if (seq < prev) sorted = false;
              prev = seq;
              if (seq >= 2 ** 33 || c >= W) pairs.push([seq, c]); // too big to pack: sort pairs instead
            }
          }
          if (pairs.length) {
            pairs.length = 0;
            for (const { c, seqs } of groups) for (const seq of seqs) pairs.push([seq, c]);
            pairs.sort((a, b) => a[0] - b[0]);
          } else if (!sorted) keys.sort(); // one namespace (the usual case): already in seq order
          this.reserve(n);
          for (let slot = 0; slot < n; slot++) {
            const key = keys[slot]!;
            const seq = pairs.length ? pairs[slot]![0] : Math.floor(key / W);
            const c = pairs.length ? pairs[slot]![1] : key - seq * W;
            this.seqOf[slot] = seq;
            this.nsOf[slot] = c;
            this.nsLive[c]!++;
            this.slotOf.set(seq, slot);
          }
          this.slots = n;
          for (const [seq, at] of store.expiringSeqs()) {
            const s = this.slotOf.get(seq);
            if (s >= 0) {
              this.expires[s] = Date.parse(at);
              this.expiring.add(s);
            }
          }
          // The codes' copy (a worker thread's share of it, on a large file) runs beside the lengths'.
          const vectors = this.vec ? this.startVectors(this.vec) : null;
          this.loadLengths();
          if (vectors) todo = vectors();
        })();
      });
    } finally {
      if (!mmap) store.db.pragma('mmap_size = 0');
    }
    this.built = true;
    if (this.vec && todo) this.writeBack(this.vec, todo);
  }

  /** Document lengths for BM25 from FTS5's docsize table (postings are read per term, on first use). */
  private loadLengths(): void {
    for (const [field, index] of [
      ['content', this.kw],
      ['context', this.ctx],
    ] as const) {
      const { ids, sz } = this.store.ftsDocLengths(field);
      const d = ids && sz ? decodeDocLengths(ids, sz) : { seqs: [], lengths: [] };
      if (d) {
        d.seqs.forEach((seq, i) => {
          const s = this.slotOf.get(seq);
          if (s >= 0) index.setLength(s, d.lengths[i]!, this.nsOf[s]!);
        });
      } else {
        // Unreadable docsize records: count tokens ourselves (slower, same numbers).
        for (const [seq, content] of this.store.allContent(field)) {
          const s = this.slotOf.get(seq);
          if (s >= 0) index.setLength(s, (isAscii(content) ? tokenizeAscii(content) : this.store.ftsTokens([content])[0]!).length, this.nsOf[s]!);
        }
      }
    }
    for (let s = 0; s < this.slots; s++) if (this.seqOf[s]! >= 0 && !this.kw.has(s)) this.kw.setLength(s, 0, this.nsOf[s]!);
  }

  /**
   * Start filling the vector index: the codes stored in the file (src/search/vector-codes.ts)
   * where there are some (a worker thread copying part of them on a large file). The returned
   * function finishes the copy, quantises the floats of the memories without a code and returns
   * what to write back.
   */
  private startVectors(vec: VectorIndex): () => CodesToWrite {
    vec.reserve(this.slots);
    const stored = this.store.vectorCentre(this.model!);
    /** 1: the file says this memory has no vector of the model (nothing to look up). */
    const none = new Uint8Array(this.slots);
    if (usableCentre(stored, this.dims)) {
      vec.useCentre(blobToVector(stored.centre));
      const copy = startCodeCopy(this.store, vec.placement(), stored.id, this.seqOf, this.slots, none, this.seenVersion, this.searchThread);
      return () => {
        copy();
        vec.recount();
        return this.quantiseMissing(vec, none);
      };
    }
    vec.useCentre(chooseCentre(this.store, this.model!, this.dims));
    return () => this.quantiseMissing(vec, none);
  }

  /** The memories the copied codes left without one: their floats quantised here (what to write back). */
  private quantiseMissing(vec: VectorIndex, none: Uint8Array): CodesToWrite {
    const bytes = this.dims * 4;
    const out: CodesToWrite = { slots: [], markers: [] };
    const missing = vec.slotsWithout(this.slots, none);
    CODE_LOAD.counts.missing += missing.length;
    if (!missing.length) return out;
    /** Slots quantised from their floats here. */
    const fresh = new Uint8Array(this.slots);
    if (missing.length > Math.max(4096, this.slots / 16)) {
      // Many without a code (an older file, a model without a centre yet): one scan of the floats.
      this.scanFloats(vec, fresh);
    }
    // The rest one by one: memories without a vector (recorded as such) or whose code was dropped.
    const rest = missing.filter((s) => !fresh[s]);
    for (let i = 0; i < rest.length; i += LOOKUP_CHUNK) {
      const part = rest.slice(i, i + LOOKUP_CHUNK);
      for (const [seq, has, own, ctx] of this.store.vectorsToCode(
        this.model!,
        bytes,
        part.map((s) => this.seqOf[s]!),
      )) {
        const slot = this.slotOf.get(seq);
        if (slot < 0) continue;
        if (!has) out.markers.push(seq);
        else if (own) {
          const u8 = new Uint8Array(own.buffer, own.byteOffset, own.byteLength);
          vec.set(slot, ctx && ctx.byteLength === bytes ? blendedBytes(u8, ctx) : u8);
          fresh[slot] = 1;
        }
      }
    }
    for (let s = 0; s < this.slots; s++) if (fresh[s]) out.slots.push(s);
    return out;
  }

  /** Quantise the float vectors of every memory whose slot has none yet (one scan of the file); marks them in `fresh`. */
  private scanFloats(vec: VectorIndex, fresh: Uint8Array): void {
    const bytes = this.dims * 4;
    let after = 0;
    for (;;) {
      const c = this.store.vectorChunk(this.model!, bytes, after, LOAD_CHUNK);
      if (!c.n || !c.seqs || !c.blob) break;
      const seqs = parseSeqs(c.seqs);
      if (seqs.length !== c.n || c.blob.byteLength !== c.n * bytes) throw new Error('vector chunk does not line up');
      const u8 = new Uint8Array(c.blob.buffer, c.blob.byteOffset, c.blob.byteLength);
      // Copy runs of consecutive slots without a vector at once.
      let i = 0;
      while (i < seqs.length) {
        const first = this.slotOf.get(seqs[i]!);
        const skip = first < 0 || vec.hasVector(first);
        let j = i + 1;
        while (j < seqs.length && this.slotOf.get(seqs[j]!) === first + (j - i) && (skip ? vec.hasVector(first + (j - i)) : !vec.hasVector(first + (j - i))))
          j++;
        if (!skip) {
          vec.setRange(first, u8.subarray(i * bytes, j * bytes), j - i);
          fresh.fill(1, first, first + (j - i));
        }
        i = j;
      }
      // Memories with conversational context are searched by their own vector plus the context's.
      if (c.withContext) {
        const ctxSeqs = Array.from(parseSeqs(c.withContext)).filter((q) => fresh[this.slotOf.get(q)] === 1);
        const cv = ctxSeqs.length ? this.store.contextVectors(ctxSeqs) : new Map<number, Buffer>();
        const at = new Map(Array.from(seqs, (q, k) => [q, k]));
        for (const [seq, blob] of cv) {
          const k = at.get(seq),
            slot = this.slotOf.get(seq);
          if (k === undefined || slot < 0 || blob.byteLength !== bytes) continue;
          vec.set(slot, blendedBytes(u8.subarray(k * bytes, (k + 1) * bytes), blob));
        }
      }
      after = seqs[seqs.length - 1]!;
      if (c.n < LOAD_CHUNK) break;
    }
  }

  /**
   * Keep the codes computed at this rebuild in the file, with the centre they were made with
   * (stored now if the model had none), so the next open copies them. Best effort: a read-only or
   * busy file is left as it is (the next open tries again). A memory changed since the rebuild
   * read it (in the change log after {@link seenVersion}) is skipped: its code would be stale.
   */
  private writeBack(vec: VectorIndex, todo: CodesToWrite): void {
    const { store } = this;
    if (store.db.readonly || (!todo.slots.length && !todo.markers.length)) return;
    const centre = vec.centreVector();
    const blob = centre ? vectorToBlob(centre) : null;
    const seen = this.seenVersion;
    const before = store.db.pragma('busy_timeout', { simple: true }) as number;
    try {
      // Another process holding the write lock: skip rather than stall this recall.
      store.db.pragma('busy_timeout = 0');
      const slots = blob ? todo.slots : [];
      for (let i = 0; i < Math.max(slots.length, todo.markers.length); i += WRITE_BACK_CHUNK) {
        const ok = store.write('store vector codes', () => {
          const ch = store.changesSince(seen);
          if (ch.oldest !== 0 && ch.oldest > seen + 1) return false; // log pruned past us: cannot tell what changed
          const changed = new Set(ch.seqs);
          let id: number | null = null;
          const part = slots.slice(i, i + WRITE_BACK_CHUNK);
          if (part.length) {
            store.putVectorCentre(this.model!, this.dims, blob!);
            const c = store.vectorCentre(this.model!);
            // Another process chose a different centre first: these codes are not relative to it.
            if (usableCentre(c, this.dims) && c.centre.equals(blob!)) id = c.id;
          }
          if (id !== null) {
            const keep = part.filter((s) => this.seqOf[s]! >= 0 && !changed.has(this.seqOf[s]!) && vec.hasVector(s));
            const p = vec.packedCodes(keep);
            const size = vec.codeBytes;
            store.putPackedCodes(
              id,
              keep.map((s) => this.seqOf[s]!),
              p.q,
              p.scale,
              p.sign,
              size.q,
              size.sign,
            );
          }
          const rows: CodeRow[] = [];
          for (const seq of todo.markers.slice(i, i + WRITE_BACK_CHUNK)) if (!changed.has(seq)) rows.push([seq, null, null, null, null]);
          store.putCodes(rows);
          return id !== null || !part.length;
        });
        if (!ok) break;
      }
    } catch {
      // Busy, read-only after all, replaced: the codes are a cache; the next open writes them.
    } finally {
      store.db.pragma(`busy_timeout = ${before}`);
    }
  }

  /** Bring the index up to date with the file now (each search does it anyway). */
  refresh(): void {
    this.sync();
  }

  /**
   * Run `fn` (searches) after one catch-up with the file: the searches inside skip their own. The
   * calls are synchronous, so no write can come between them.
   */
  synced<T>(fn: () => T): T {
    this.sync();
    this.holding = true;
    try {
      return fn();
    } finally {
      this.holding = false;
    }
  }

  /**
   * After this connection's own write: replay it into the index now, so the write pays for it and
   * not the next recall. Before the first search there is nothing to catch up (the first search
   * loads everything); a failure leaves the index stale for that search to retry.
   */
  catchUp(): void {
    if (!this.built) return;
    try {
      this.sync();
    } catch {
      this.dirty = true;
    }
  }

  /** Bring the index up to date with the file; cheap (one pragma) when nothing changed. */
  private sync(): void {
    if (this.holding) return;
    const dv = this.store.read('check for changes', () => this.store.dataVersion());
    if (this.built && !this.dirty && dv === this.seenDataVersion) return;
    this.seenDataVersion = dv;
    this.dirty = false;
    if (!this.built) {
      this.rebuild();
      return;
    }
    const live = this.slots - this.dead;
    const behind = this.store.read('read the change log', () =>
      this.store.db.transaction(() => {
        const ch = this.store.changesSince(this.seenVersion);
        if (ch.oldest !== 0 && ch.oldest > this.seenVersion + 1) return null; // log pruned past us
        if (ch.seqs.length > Math.max(2000, live / 5)) return null; // a reload is cheaper
        return { ch, rows: ch.seqs.length ? this.store.indexRowsBySeqs(ch.seqs) : [] };
      })(),
    );
    if (!behind) {
      this.rebuild();
      return;
    }
    for (const seq of behind.ch.seqs) this.drop(seq);
    const contentTokens = this.tokens(behind.rows.map((r) => r.content));
    const withContext = behind.rows.filter((r) => r.context !== null);
    const contextTokens = this.tokens(withContext.map((r) => r.context!));
    this.noteKept('content', behind.ch, behind.rows, contentTokens);
    this.noteKept('context', behind.ch, withContext, contextTokens);
    const added = behind.rows.map((r) => {
      const slot = this.slots++;
      this.reserve(this.slots);
      const c = this.code(r.namespace);
      this.seqOf[slot] = r.seq;
      this.nsOf[slot] = c;
      this.nsLive[c]!++;
      this.slotOf.set(r.seq, slot);
      if (r.expires_at !== null) {
        this.expires[slot] = Date.parse(r.expires_at);
        this.expiring.add(slot);
      }
      if (this.vec && r.embedding_model === this.model && r.embedding && r.embedding.byteLength === this.dims * 4) {
        const own = new Uint8Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength);
        this.vec.set(slot, r.context_embedding && r.context_embedding.byteLength === own.byteLength ? blendedBytes(own, r.context_embedding) : own);
      }
      return { slot, content: r.content, context: r.context };
    });
    added.forEach((a, i) => this.kw.add(a.slot, contentTokens[i]!, this.nsOf[a.slot]!));
    let c = 0;
    for (const a of added) if (a.context !== null) this.ctx.add(a.slot, contextTokens[c++]!, this.nsOf[a.slot]!);
    this.seenVersion = behind.ch.latest;
    if (this.dead > Math.max(1000, this.slots / 4)) this.rebuild();
  }

  /** Tokenize texts as FTS5 does (in JS for ASCII, else by FTS5 itself). */
  private tokens(texts: readonly string[]): string[][] {
    const out: string[][] = new Array(texts.length);
    const other: number[] = [];
    texts.forEach((t, i) => {
      if (isAscii(t)) out[i] = tokenizeAscii(t);
      else other.push(i);
    });
    if (other.length) {
      const toks = this.store.read('tokenize new memories', () => this.store.ftsTokens(other.map((i) => texts[i]!)));
      other.forEach((i, k) => {
        out[i] = toks[k]!;
      });
    }
    return out;
  }

  /** Feed a sync's changes to a field's overlay of kept rows (`rows[i]`'s terms in that field: `tokens[i]`). */
  private noteKept(field: FtsField, ch: { seqs: number[]; latest: number }, rows: readonly { seq: number }[], tokens: readonly string[][]): void {
    const changes = this.keptChanges[field];
    if (!changes) return; // no kept rows read (or usable): nothing to overlay, nothing built
    const now = new Map(rows.map((r, i) => [r.seq, tokens[i]!]));
    for (const seq of ch.seqs) changes.note(seq, ch.latest, now.get(seq) ?? null);
    if (changes.size > KEPT_CHANGES_MAX) this.keptChanges[field] = false;
  }

  /**
   * A term's postings in `field`: its kept row with what changed since applied, when the file has
   * one this index can use, else FTS5's own (the same postings either way).
   */
  private fieldPostings(field: FtsField, term: string): string | KeptList | null {
    const store = this.store;
    const fts = (): string | null => store.read('read keyword postings', () => store.ftsTermDocs(term, field));
    if (this.keptChanges[field] === false) return fts();
    const row = store.read('read kept keyword postings', () => store.keptPostings(field, term));
    // A row newer than this index's view of the file: the next sync catches up, FTS5 serves meanwhile.
    if (!row || row[0] > this.seenVersion) return fts();
    const changes = this.keptChanges[field] || this.keptOverlay(field, row[0]);
    if (!changes || row[0] < changes.base) return fts();
    const list = decodeKept(row[2], row[1]);
    return list ? changes.apply(term, list, row[0]) : fts();
  }

  /** The overlay for kept rows of `field` of version `base` and later: what the log says changed since, with current terms. */
  private keptOverlay(field: FtsField, base: number): KeptChanges | null {
    const store = this.store;
    const got = store.read('read the change log', () =>
      store.db.transaction(() => {
        const ch = store.changesSince(base);
        if (ch.oldest !== 0 && ch.oldest > base + 1) return null; // pruned past the rows: cannot tell what changed
        if (ch.seqs.length > KEPT_CHANGES_MAX) return null;
        return { ch, rows: ch.seqs.length ? store.fieldTextsBySeqs(field, ch.seqs) : [] };
      })(),
    );
    if (!got) {
      this.keptChanges[field] = false;
      return null;
    }
    const changes = new KeptChanges(base);
    const texts = got.rows.filter((r): r is [number, string] => r[1] !== null);
    const toks = this.tokens(texts.map((r) => r[1]));
    const now = new Map(texts.map((r, i) => [r[0], toks[i]!]));
    for (const seq of got.ch.seqs) changes.note(seq, got.ch.latest, now.get(seq) ?? null);
    this.keptChanges[field] = changes;
    return changes;
  }

  /**
   * Keep the postings of the file's common terms in it (src/search/kept-postings.ts), for the next
   * process to read instead of FTS5's occurrences, for each keyword field (content; the context of
   * memories in sessions) that at least {@link KEPT_MIN_MEMORIES} memories have: when a field's rows are missing, unusable, or more than a twentieth
   * of the memories (at most half of what a reader overlays) changed since. Only a connection that
   * searched (it paid the open already) or wrote `KEPT_MIN_WRITES` memories does it: a one-off
   * command that forgets one memory of a big file does not pay for the rows. Read in one read
   * transaction, written only if nothing changed meanwhile. Best effort, like the vector codes: a
   * read-only or busy file is left as it is.
   * @param written memories this connection wrote
   */
  keepPostings(written: number): void {
    const { store } = this;
    if (store.db.readonly || store.db.memory || (!this.built && written < KEPT_MIN_WRITES)) return;
    const before = store.db.pragma('busy_timeout', { simple: true }) as number;
    try {
      const plan = store.read('read the keyword postings to keep', () =>
        store.db.transaction(() => {
          const live = this.built ? this.slots - this.dead : store.ftsRowCount();
          if (live < KEPT_MIN_MEMORIES) return null;
          const version = store.changeVersion();
          const fields: { field: FtsField; rows: [string, number, Buffer][] }[] = [];
          for (const field of ['content', 'context'] as const) {
            // The context field: memories in sessions (src/lifecycle/context.ts), counted apart.
            if (field === 'context' && store.ftsRowCount('context') < KEPT_MIN_MEMORIES) continue;
            const kept = store.keptState(field);
            if (kept.rows && kept.version !== null) {
              const c = store.changeCountSince(kept.version);
              const usable = !(c.oldest !== 0 && c.oldest > kept.version + 1);
              if (usable && c.count <= Math.min(KEPT_CHANGES_MAX / 2, Math.max(500, live / 20))) continue;
            }
            const rows: [string, number, Buffer][] = [];
            for (const term of store.ftsCommonTerms(KEPT_MIN_DF, field)) {
              const docs = store.ftsTermDocs(term, field);
              if (!docs) continue;
              const { blob, n } = encodeKept(docs);
              rows.push([term, n, blob]);
            }
            fields.push({ field, rows });
          }
          return fields.length ? { version, fields } : null;
        })(),
      );
      if (!plan) return;
      // Another process holding the write lock: skip rather than stall close().
      store.db.pragma('busy_timeout = 0');
      store.write('keep keyword postings', () => {
        // A write since the read (a forget among them) would make the rows stale or keep its words.
        if (store.changeVersion() !== plan.version) return;
        for (const { field, rows } of plan.fields) store.replaceKept(field, plan.version, rows);
      });
    } catch {
      // Busy, read-only after all: the rows are a cache; a later close writes them.
    } finally {
      store.db.pragma(`busy_timeout = ${before}`);
    }
  }

  /** Stop the vector index's scan thread (at close). */
  dispose(): void {
    this.vec?.dispose();
  }

  /** Tombstone the slot of `seq`, if any. */
  private drop(seq: number): void {
    const slot = this.slotOf.get(seq);
    if (slot < 0) return;
    this.slotOf.delete(seq);
    this.seqOf[slot] = -1;
    this.nsLive[this.nsOf[slot]!]!--;
    if (this.expires[slot] !== Infinity) {
      this.expires[slot] = Infinity;
      this.expiring.delete(slot);
    }
    this.dead++;
    this.kw.remove(slot);
    this.ctx.remove(slot);
    this.vec?.clear(slot);
  }

  /**
   * Eligibility from the filter: namespace and expiry (`activeAt`) are checked in memory; any
   * other filter runs in SQL and becomes an allowed set. Returns null when nothing can match.
   */
  private eligibility(f: RowFilter): Eligibility | null {
    let ns = -1;
    const { namespace, activeAt, ...rest } = f as RowFilter & { activeAt?: string };
    if (namespace !== undefined) {
      const c = this.nsCode.get(namespace);
      if (c === undefined || this.nsLive[c] === 0) return null;
      // One namespace holding every live memory filters nothing.
      if (this.nsLive[c] !== this.slots - this.dead) ns = c;
    }
    // Expiry only filters when some live memory can expire.
    const at = activeAt !== undefined && this.expiring.size > 0 ? Date.parse(activeAt) : null;
    const sql = Object.values(rest).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
    const allowed = sql ? new Set(this.store.read('filter memories', () => this.store.seqsMatching(f))) : null;
    if (ns < 0 && at === null && !allowed) return { test: null };
    const nsOf = this.nsOf,
      exp = this.expires,
      seqOf = this.seqOf;
    return {
      allowed,
      expiryOnly: ns < 0 && !allowed ? at : null,
      namespaceOnly: ns >= 0 && at === null && !allowed ? ns : null,
      test: (s: number): boolean => (ns < 0 || nsOf[s] === ns) && (at === null || exp[s]! > at) && (!allowed || allowed.has(seqOf[s]!)),
    };
  }

  /** Live memories of a namespace (of every namespace when undefined), after a catch-up with the file. */
  liveCount(namespace: string | undefined): number {
    this.sync();
    if (namespace === undefined) return this.slots - this.dead;
    const c = this.nsCode.get(namespace);
    return c === undefined ? 0 : this.nsLive[c]!;
  }

  /**
   * For each of `queries`, the best vector-leg score among the live memories of `namespace` (every
   * namespace when undefined); 0 when none has a vector. A namespace of at most one eighth of the
   * index is scored row by row (its rows found by one pass over the slots), a larger one by a search
   * per query: the same int8 scores either way, the search's sign-code pre-selection aside.
   */
  bestScores(queries: readonly Float32Array[], namespace: string | undefined): number[] {
    this.sync();
    const vec = this.vec;
    if (!vec || vec.count === 0) return queries.map(() => 0);
    const code = namespace === undefined ? undefined : this.nsCode.get(namespace);
    if (namespace !== undefined && code === undefined) return queries.map(() => 0);
    if (code !== undefined && this.nsLive[code]! * 8 <= vec.count) {
      const slots: number[] = [];
      const nsOf = this.nsOf;
      for (let s = 0; s < this.slots; s++) if (nsOf[s] === code && vec.hasVector(s)) slots.push(s);
      return vec.bestOf(queries, slots);
    }
    const f: RowFilter = namespace === undefined ? {} : { namespace };
    return queries.map((q) => this.search(q, 1, f)[0]?.score ?? 0);
  }

  /** Top-k memories by cosine among those passing the filter. */
  search(query: Float32Array, k: number, f: RowFilter, opts: VectorSearchOptions = {}): VectorHit[] {
    return this.startSearch(query, k, f, opts)();
  }

  /**
   * {@link search} in two halves (see {@link VectorIndex.start}): call the returned function for
   * the hits, after other searches of this index if wanted and before any change to it.
   */
  startSearch(query: Float32Array, k: number, f: RowFilter, opts: VectorSearchOptions = {}): () => VectorHit[] {
    this.sync();
    const vec = this.vec;
    if (!vec || vec.count === 0) return () => [];
    const el = this.eligibility(f);
    if (!el) return () => [];
    const test = el.test;
    if (test) {
      const m = vec.filterMask();
      if (el.allowed) {
        // Few allowed memories: start from nothing and switch those on.
        const keep = new Uint8Array(m.length);
        for (const seq of el.allowed) {
          const s = this.slotOf.get(seq);
          if (s >= 0 && m[s] && test(s)) keep[s] = 1;
        }
        m.set(keep);
      } else if (el.namespaceOnly != null) {
        const ns = el.namespaceOnly,
          nsOf = this.nsOf;
        for (let s = 0; s < m.length; s++) if (nsOf[s] !== ns) m[s] = 0;
      } else if (el.expiryOnly != null) {
        const at = el.expiryOnly;
        for (const s of this.expiring) if (this.expires[s]! <= at) m[s] = 0;
      } else {
        for (let s = 0; s < m.length; s++) if (m[s] && !test(s)) m[s] = 0;
      }
    }
    const finish = vec.start(query, opts.exact ? Math.max(2 * k, k + 32) : k, { ...opts, filtered: test !== null });
    return () => {
      const hits = finish().map((h) => ({ seq: this.seqOf[h.slot]!, score: h.score }));
      return opts.exact ? this.floatTopK(query, k, hits) : hits;
    };
  }

  /** The top k of `hits` by float dot product with `query`, from the file's rows (own vector, blended with the context's). */
  private floatTopK(query: Float32Array, k: number, hits: VectorHit[]): VectorHit[] {
    const bytes = this.dims * 4;
    const rows = this.store.read('re-score vectors', () =>
      this.store.modelVectorsBySeqs(
        this.model!,
        hits.map((h) => h.seq),
      ),
    );
    const score = new Map<number, number>();
    for (const [seq, own, ctx] of rows) {
      if (own.byteLength !== bytes) continue;
      const u8 = new Uint8Array(own.buffer, own.byteOffset, own.byteLength);
      const v = ctx && ctx.byteLength === bytes ? blendedBytes(u8, ctx) : blobToVector(own);
      let s = 0;
      for (let i = 0; i < v.length; i++) s += v[i]! * query[i]!;
      score.set(seq, s);
    }
    const top = new TopK(k);
    // A row changed since the index read it is scored as indexed (the next sync replaces it).
    for (const h of hits) top.push(h.seq, score.get(h.seq) ?? h.score);
    return top.sorted();
  }

  /**
   * Keyword leg: top-k memories by BM25 (FTS5's formula and terms) for the OR of the query's
   * words minus stop words. `bm25` is FTS5's `rank` convention: lower is better. `stats`
   * receives the query's idf mass (see {@link KeywordIndex.search}).
   */
  keyword(
    text: string,
    k: number,
    f: RowFilter,
    stats?: { idfMass: number; matched?: boolean },
    field: FtsField = 'content',
  ): { seq: number; bm25: number; matched?: number }[] {
    this.sync();
    const index = field === 'content' ? this.kw : this.ctx;
    if (field === 'context' && index.count === 0) return [];
    const words = queryTerms(text);
    if (!words.length) return [];
    const el = this.eligibility(f);
    if (!el) return [];
    const joined = words.join(' ');
    const terms = isAscii(joined) ? tokenizeAscii(joined) : this.store.read('tokenize the query', () => this.store.ftsTokens([joined])[0]!);
    const seqOf = this.seqOf;
    const load = (term: string): string | KeptList | null => this.fieldPostings(field, term);
    // Within one namespace, BM25's statistics are that namespace's own (see KeywordIndex); a
    // namespace holding every live memory (a one-namespace file) has the global ones already.
    const code = f.namespace === undefined ? undefined : this.nsCode.get(f.namespace);
    const group = code !== undefined && this.nsLive[code] !== this.slots - this.dead ? code : undefined;
    return index
      .search(terms, k, load, (seq) => this.slotOf.get(seq), el.test ?? undefined, stats, group)
      .map((h) => (h.matched === undefined ? { seq: seqOf[h.slot]!, bm25: -h.score } : { seq: seqOf[h.slot]!, bm25: -h.score, matched: h.matched }));
  }
}
