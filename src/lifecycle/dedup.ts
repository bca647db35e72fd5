/**
 * Dedup on write.
 *
 * - Exact: content is normalised (Unicode NFKC, case-folded, whitespace collapsed, trailing
 *   `.`/`!` dropped) and hashed into `memories.dedup_hash`; an unkeyed add whose normalised
 *   content already exists in the namespace (unexpired, not superseded) returns that memory.
 * - Near: with `nearDuplicates: 'report' | 'merge'`, the added vector is compared with the
 *   closest stored vectors of the namespace (and with earlier items of the same batch); those at
 *   or above the cosine threshold are reported, and with `'merge'` the closest one takes the new
 *   content (its old content stays readable in its history).
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/store.js';
import { stmt } from './sql.js';

/** The normalised form two contents are compared in. */
export function normaliseContent(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim().replace(/[\s.!。！]+$/u, '');
}

/** sha256 (hex) of the normalised content: the `dedup_hash` column. */
export function dedupHash(text: string): string {
  return createHash('sha256').update(normaliseContent(text), 'utf8').digest('hex');
}

/**
 * Fill `dedup_hash` where it is missing in a namespace (rows written before schema 2, by other
 * tools, or whose content changed). Call inside a write transaction.
 */
export function backfillDedupHashes(store: Store, namespace: string): number {
  const rows = stmt(store, 'SELECT seq, content FROM memories WHERE namespace = ? AND dedup_hash IS NULL').all(namespace) as { seq: number; content: string }[];
  if (!rows.length) return 0;
  const upd = stmt(store, 'UPDATE memories SET dedup_hash = ? WHERE seq = ?');
  for (const r of rows) upd.run(dedupHash(r.content), r.seq);
  return rows.length;
}

/** The memory with the same normalised content in the namespace, if any (unexpired and not superseded). */
export function findExactDuplicate(store: Store, namespace: string, hash: string, nowIso: string): { seq: number; id: string } | undefined {
  backfillDedupHashes(store, namespace);
  return stmt(store,
    `SELECT seq, id FROM memories WHERE namespace = ? AND dedup_hash = ? AND superseded_by IS NULL
       AND (expires_at IS NULL OR expires_at > ? OR pinned = 1) ORDER BY seq LIMIT 1`,
  ).get(namespace, hash, nowIso) as { seq: number; id: string } | undefined;
}

/** Cosine of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** A candidate near-duplicate before it is checked against the file. */
export interface NearCandidate {
  seq: number;
  similarity: number;
}

/** A checked near-duplicate (exists, same namespace, unexpired, not superseded). */
export interface NearMatch {
  seq: number;
  id: string;
  similarity: number;
  content: string;
}

/**
 * Near-duplicate finder for one batch: index candidates are found before the write transaction
 * (the vector search is read-only), checked and completed with earlier batch items inside it.
 */
export class NearDuplicates {
  private readonly written: { namespace: string; vec: Float32Array; seq: number; id: string; content: string }[] = [];

  constructor(private readonly store: Store) {}

  /** Check index candidates and add earlier items of this batch; most similar first. */
  resolve(candidates: NearCandidate[], namespace: string, vec: Float32Array, threshold: number, nowIso: string): NearMatch[] {
    const out = new Map<number, NearMatch>();
    const above = candidates.filter((c) => c.similarity >= threshold);
    if (above.length) {
      const rows = stmt(this.store,
        `SELECT seq, id, content FROM memories WHERE seq IN (SELECT value FROM json_each(?)) AND namespace = ? AND superseded_by IS NULL
           AND (expires_at IS NULL OR expires_at > ? OR pinned = 1)`,
      ).all(JSON.stringify(above.map((c) => c.seq)), namespace, nowIso) as { seq: number; id: string; content: string }[];
      const sim = new Map(above.map((c) => [c.seq, c.similarity]));
      for (const r of rows) out.set(r.seq, { ...r, similarity: sim.get(r.seq)! });
    }
    for (const w of this.written) {
      if (w.namespace !== namespace || out.has(w.seq)) continue;
      const s = dot(vec, w.vec);
      if (s >= threshold) out.set(w.seq, { seq: w.seq, id: w.id, content: w.content, similarity: s });
    }
    return [...out.values()].sort((a, b) => b.similarity - a.similarity || a.seq - b.seq);
  }

  /** Remember a memory written by this batch, so later items can match it. */
  record(namespace: string, vec: Float32Array, seq: number, id: string, content: string): void {
    this.written.push({ namespace, vec, seq, id, content });
  }
}
