/**
 * The keyword index's postings of common terms, kept in the file (`keyword_postings`, schema 9).
 *
 * A new process reads a term's postings on first use. From FTS5 that is one row of its `instance`
 * vocabulary per occurrence (~0.2 µs a posting with the parse, BENCHMARKS.md "The keyword leg's
 * first reads"): the slowest recalls of a fresh process are those reads of common words. A kept
 * row holds the same postings as one BLOB of varints, read and decoded in a few nanoseconds a
 * posting, for both keyword fields (a memory's content, and the context of a memory in a session).
 * Rows are written at `close()` by a writer (see {@link KEPT_MIN_MEMORIES}), each exact
 * as of the change-log version it names; a reader overlays what the log says changed since
 * ({@link KeptChanges}), so recall returns the same hits and scores as with FTS5's own postings.
 */

/** Files with fewer memories keep no postings: reading a term from FTS5 costs microseconds there. */
export const KEPT_MIN_MEMORIES = 2000;
/** A connection that did not search writes the rows at close only after writing this many memories (see SearchIndex.keepPostings). */
export const KEPT_MIN_WRITES = 1000;
/** Terms held by fewer memories are read from FTS5 (a statement costs about what such a short row saves). */
export const KEPT_MIN_DF = 64;
/** Memories changed since the rows' version that a reader overlays; beyond it the rows are not used (FTS5 is). */
export const KEPT_CHANGES_MAX = 10_000;

/** A term's postings by seq, ascending: the rowids and their term frequencies. */
export interface KeptList {
  seqs: Float64Array;
  tfs: Uint16Array;
  n: number;
}

/**
 * Encode FTS5 instance rowids ("3,3,8,..." in rowid order, a rowid repeated once per occurrence)
 * as varint pairs: the seq's distance from the previous one, then its term frequency.
 */
export function encodeKept(docs: string): { blob: Buffer; n: number } {
  let bytes = new Uint8Array(Math.max(16, docs.length));
  let pos = 0,
    n = 0,
    prev = 0,
    last = -1,
    tf = 0,
    num = 0;
  const put = (v: number): void => {
    if (pos + 10 > bytes.length) {
      const b = new Uint8Array(bytes.length * 2);
      b.set(bytes);
      bytes = b;
    }
    while (v >= 128) {
      bytes[pos++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    bytes[pos++] = v;
  };
  const flush = (): void => {
    if (last < 0) return;
    put(last - prev);
    put(Math.min(tf, 0xffff));
    prev = last;
    n++;
  };
  for (let i = 0; i <= docs.length; i++) {
    const c = i < docs.length ? docs.charCodeAt(i) : 44;
    if (c !== 44) {
      num = num * 10 + (c - 48);
      continue;
    }
    if (num === last) tf++;
    else {
      flush();
      last = num;
      tf = 1;
    }
    num = 0;
  }
  if (docs.length) flush();
  return { blob: Buffer.from(bytes.buffer, 0, pos), n };
}

/** Decode a kept row of `n` postings; null when the bytes do not hold exactly that (then FTS5 is read instead). */
export function decodeKept(blob: Uint8Array, n: number): KeptList | null {
  if (!Number.isInteger(n) || n < 0 || n > blob.length) return null;
  const seqs = new Float64Array(n),
    tfs = new Uint16Array(n);
  let pos = 0,
    seq = 0;
  const end = blob.length;
  for (let k = 0; k < n; k++) {
    let v = 0,
      mul = 1,
      b = 128;
    while (b & 128) {
      if (pos >= end || mul > 2 ** 49) return null;
      b = blob[pos++]!;
      v += (b & 127) * mul;
      mul *= 128;
    }
    let tf = 0;
    mul = 1;
    b = 128;
    while (b & 128) {
      if (pos >= end || mul > 2 ** 14) return null;
      b = blob[pos++]!;
      tf += (b & 127) * mul;
      mul *= 128;
    }
    if ((k > 0 && v === 0) || tf === 0 || tf > 0xffff) return null;
    seq += v;
    seqs[k] = seq;
    tfs[k] = tf;
  }
  return pos === end ? { seqs, tfs, n } : null;
}

/**
 * What changed since the kept rows were written: per memory changed after `base` (a change-log
 * version), the latest version it changed at (as far as this reader knows: an over-estimate is
 * safe) and its terms now (none once deleted). A kept row of version v is exact for every memory
 * not changed after v; for the others the row's posting is dropped and their current terms used.
 */
export class KeptChanges {
  /** Change-log version the overlay starts after: rows older than this cannot be used. */
  readonly base: number;
  private readonly at = new Map<number, number>();
  private readonly terms = new Map<number, Map<string, number>>();
  private readonly byTerm = new Map<string, Set<number>>();

  constructor(base: number) {
    this.base = base;
  }

  /** Memories in the overlay. */
  get size(): number {
    return this.at.size;
  }

  /** Record that `seq` changed at `version`; `tokens` are its terms now (with repeats), null when it was deleted. */
  note(seq: number, version: number, tokens: readonly string[] | null): void {
    this.at.set(seq, Math.max(version, this.at.get(seq) ?? 0));
    const old = this.terms.get(seq);
    if (old) for (const t of old.keys()) this.byTerm.get(t)?.delete(seq);
    if (!tokens) {
      this.terms.delete(seq);
      return;
    }
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    this.terms.set(seq, tf);
    for (const t of tf.keys()) {
      const s = this.byTerm.get(t);
      if (s) s.add(seq);
      else this.byTerm.set(t, new Set([seq]));
    }
  }

  /**
   * `row` (exact at `version`, which must be at least `base`) with the overlay applied: postings of
   * memories changed after `version` replaced by their current ones for `term`. Seqs ascending.
   */
  apply(term: string, row: KeptList, version: number): KeptList {
    const at = this.at;
    const extra: [number, number][] = [];
    for (const seq of this.byTerm.get(term) ?? []) if (at.get(seq)! > version) extra.push([seq, this.terms.get(seq)!.get(term)!]);
    let drop = 0;
    if (at.size) for (let i = 0; i < row.n; i++) if ((at.get(row.seqs[i]!) ?? 0) > version) drop++;
    if (!drop && !extra.length) return row;
    extra.sort((a, b) => a[0] - b[0]);
    const n = row.n - drop + extra.length;
    const seqs = new Float64Array(n),
      tfs = new Uint16Array(n);
    let i = 0,
      j = 0,
      k = 0;
    while (i < row.n || j < extra.length) {
      if (i < row.n && (at.get(row.seqs[i]!) ?? 0) > version) {
        i++;
        continue;
      }
      if (j >= extra.length || (i < row.n && row.seqs[i]! < extra[j]![0])) {
        seqs[k] = row.seqs[i]!;
        tfs[k++] = row.tfs[i++]!;
      } else {
        seqs[k] = extra[j]![0];
        tfs[k++] = Math.min(extra[j++]![1], 0xffff);
      }
    }
    return { seqs, tfs, n: k };
  }
}
