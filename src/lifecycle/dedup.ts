/**
 * Dedup on write: what "the same content" means, for every store. (The SQLite file's queries
 * are in src/store/dedup.ts, PostgreSQL's in src/pg/write.ts; the decision in src/lifecycle/add.ts.)
 *
 * - Exact: content is normalised (Unicode NFKC, case-folded, whitespace collapsed, trailing
 *   `.`/`!` dropped) and hashed into `memories.dedup_hash`; an unkeyed add whose normalised
 *   content already exists in the namespace (unexpired, not superseded) returns that memory.
 * - Near: with `nearDuplicates: 'report' | 'merge'`, the added vector is compared with the
 *   closest stored vectors of the namespace (and with earlier items of the same batch); those at
 *   or above the cosine threshold are reported, and with `'merge'` the closest one takes the new
 *   content (its old content stays readable in its history).
 */
import { hash as cryptoHash } from 'node:crypto';
import { trimEndChars } from '../text/trim.js';

/** The normalised form two contents are compared in. */
export function normaliseContent(text: string): string {
  // Whitespace is single spaces after the first replace, so the trailing run is spaces and marks.
  return trimEndChars(text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim(), ' .!。！');
}

/** sha256 (hex) of the normalised content: the `dedup_hash` column. */
export function dedupHash(text: string): string {
  return cryptoHash('sha256', normaliseContent(text));
}

/** Cosine of two unit vectors (their dot product; `a.length` components). */
export function dot(a: Float32Array, b: Float32Array): number {
  // Four running sums: one sum waits on the previous add each step, four keep the adder busy
  // (1.7x faster; current over stale compares up to ~2,500 pairs of a pool of 100 per recall).
  const n = a.length;
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + (s2 + s3);
}
