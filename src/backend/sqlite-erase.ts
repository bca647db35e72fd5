/**
 * The SQLite file's answers to the erase rules (src/lifecycle/erase.ts): delete memories with every copy
 * of their text the file holds. Run inside a write transaction; `secure_delete` (set at open) and
 * FTS5's own secure-delete (schema 5) overwrite what is deleted, and the caller checkpoints the
 * WAL afterwards (Store.checkpoint).
 */
import { contentHash } from '../embed/cache.js';
import { contextVectorOf, contextWithout, erasedCacheKeys, erasedTexts } from '../lifecycle/erase.js';
import { blobToVector, vectorToBlob } from '../search/vector-index.js';
import type { MemoryRow } from '../types/rows.js';
import type { Store } from '../store/store.js';
import { profileErase } from './profile.js';

/** What an erase removed. */
export interface Erased {
  memories: number;
  historyVersions: number;
  cachedVectors: number;
  /** Other memories whose conversational context held the erased text (rewritten without it). */
  contextsRewritten: number;
}

function versionsOf(store: Store, ids: readonly string[]): string[] {
  return store.stmt('SELECT content FROM memory_history WHERE memory_id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids)) as string[];
}

/** Drop cache entries under `keys` (a JSON array), counting those that were there. */
function dropCache(store: Store, keys: readonly string[]): number {
  return store.stmt('DELETE FROM embedding_cache WHERE content_hash IN (SELECT value FROM json_each(?))').run(JSON.stringify(keys)).changes;
}

/**
 * Rewrite the contexts of the session's other memories that hold any of `texts`: without them,
 * with the mean vector of what is left (looked up among the namespace's memories by hash).
 */
function purgeContexts(store: Store, row: MemoryRow, texts: ReadonlySet<string>): number {
  if (row.session_id === null) return 0;
  const holders = store
    .stmt(
      `SELECT seq, context, embedding_model FROM memories WHERE namespace = ? AND session_id = ? AND seq <> ? AND context IS NOT NULL
         AND EXISTS (SELECT 1 FROM json_each(context) c WHERE c.value IN (SELECT value FROM json_each(?)))`,
    )
    .all(row.namespace, row.session_id, row.seq, JSON.stringify([...texts])) as { seq: number; context: string; embedding_model: string | null }[];
  const set = store.stmt('UPDATE memories SET context = ?, context_embedding = ? WHERE seq = ?');
  for (const h of holders) {
    const left = contextWithout(JSON.parse(h.context) as string[], texts);
    let vector: Buffer | null = null;
    if (left && h.embedding_model !== null) {
      const vecs = new Map<string, Float32Array>();
      const byHash = new Map(left.map((t) => [contentHash(t), t]));
      for (const [hash, blob] of store
        .stmt('SELECT content_hash, embedding FROM memories WHERE namespace = ? AND embedding_model = ? AND content_hash IN (SELECT value FROM json_each(?))')
        .raw()
        .all(row.namespace, h.embedding_model, JSON.stringify([...byHash.keys()])) as [string, Buffer][])
        vecs.set(byHash.get(hash)!, blobToVector(blob));
      const mean = contextVectorOf(left, vecs);
      vector = mean ? vectorToBlob(mean) : null;
    }
    set.run(left ? JSON.stringify(left) : null, vector, h.seq);
    store.vectorsChanged(h.seq);
  }
  return holders.length;
}

/** Forget one memory and every copy of its text. */
export function eraseMemory(store: Store, row: MemoryRow): Erased {
  const versions = versionsOf(store, [row.id]);
  const texts = erasedTexts(row.content, versions);
  const contextsRewritten = purgeContexts(store, row, texts);
  const keys = erasedCacheKeys(texts, row.namespace);
  // Counted before the delete: its trigger caches the vector once more (dropped just after).
  const cachedVectors =
    (store.stmt('SELECT count(*) FROM embedding_cache WHERE content_hash IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify(keys)) as number) ??
    0;
  store.deleteBySeq(row.seq);
  dropCache(store, keys);
  return { memories: 1, historyVersions: versions.length, cachedVectors, contextsRewritten };
}

/** Erase a whole namespace: its memories, their history, the vectors cached for it or for its texts. */
export function eraseNamespace(store: Store, namespace: string): Erased {
  const keys = new Set<string>();
  // Hashes of every text the namespace holds (contents, earlier versions), read row by row.
  for (const h of store.stmt('SELECT DISTINCT content_hash FROM memories WHERE namespace = ?').pluck().iterate(namespace) as IterableIterator<string>)
    keys.add(h);
  let historyVersions = 0;
  for (const t of store
    .stmt('SELECT h.content FROM memory_history h JOIN memories m ON m.id = h.memory_id WHERE m.namespace = ?')
    .pluck()
    .iterate(namespace) as IterableIterator<string>) {
    historyVersions++;
    for (const k of erasedCacheKeys([t], namespace)) keys.add(k);
  }
  const list = JSON.stringify([...keys]);
  const cachedVectors =
    (store
      .stmt('SELECT count(*) FROM embedding_cache WHERE namespace = ? OR content_hash IN (SELECT value FROM json_each(?))')
      .pluck()
      .get(namespace, list) as number) ?? 0;
  const memories = store.stmt('DELETE FROM memories WHERE namespace = ?').run(namespace).changes;
  profileErase(store, namespace);
  store.stmt('DELETE FROM embedding_cache WHERE namespace = ? OR content_hash IN (SELECT value FROM json_each(?))').run(namespace, list);
  return { memories, historyVersions, cachedVectors, contextsRewritten: 0 };
}
