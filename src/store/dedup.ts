/**
 * Dedup queries of the SQLite file: the exact duplicate by `dedup_hash`, and near-duplicate
 * candidates from the in-memory vector index checked against the file (src/lifecycle/add.ts decides).
 */
import { dedupHash, dot } from '../lifecycle/dedup.js';
import type { NearMatch } from '../lifecycle/add.js';
import type { Store } from './store.js';

/**
 * Fill `dedup_hash` where it is missing in a namespace (rows written before schema 2, by other
 * tools, or whose content changed). Call inside a write transaction.
 */
export function backfillDedupHashes(store: Store, namespace: string): number {
  const rows = store.stmt('SELECT seq, content FROM memories WHERE namespace = ? AND dedup_hash IS NULL').all(namespace) as { seq: number; content: string }[];
  if (!rows.length) return 0;
  const upd = store.stmt('UPDATE memories SET dedup_hash = ? WHERE seq = ?');
  for (const r of rows) upd.run(dedupHash(r.content), r.seq);
  return rows.length;
}

/** The memory with the same normalised content in the namespace, if any (unexpired and not superseded). */
export function findExactDuplicate(store: Store, namespace: string, hash: string, nowIso: string): { seq: number; id: string } | undefined {
  backfillDedupHashes(store, namespace);
  return store
    .stmt(
      `SELECT seq, id FROM memories WHERE namespace = ? AND dedup_hash = ? AND superseded_by IS NULL
       AND (expires_at IS NULL OR expires_at > ? OR pinned = 1) ORDER BY seq LIMIT 1`,
    )
    .get(namespace, hash, nowIso) as { seq: number; id: string } | undefined;
}

/** A candidate near-duplicate before it is checked against the file. */
export interface NearCandidate {
  seq: number;
  similarity: number;
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
      const rows = this.store
        .stmt(
          `SELECT seq, id, content FROM memories WHERE seq IN (SELECT value FROM json_each(?)) AND namespace = ? AND superseded_by IS NULL
           AND (expires_at IS NULL OR expires_at > ? OR pinned = 1)`,
        )
        .all(JSON.stringify(above.map((c) => c.seq)), namespace, nowIso) as { seq: number; id: string; content: string }[];
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
