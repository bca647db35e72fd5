/**
 * PostgreSQL's answers to the erase rules (src/lifecycle/erase.ts): forget a memory with every
 * copy of its text the schema holds, or a whole namespace. The rows are deleted in one
 * transaction; the server keeps their old versions as dead tuples until VACUUM (docs/postgres.md).
 */
import { contentHash } from '../embed/cache.js';
import { contextVectorOf, contextWithout, erasedCacheKeys, erasedTexts } from '../lifecycle/erase.js';
import { inScope } from '../backend/scope.js';
import type { EraseResult } from '../types/lifecycle.js';
import type { Query } from './client.js';
import { parseVector, searchVectorText, vectorText } from './sql.js';
import type { PgStore } from './store.js';

/** Rewrite the contexts of the session's other memories that hold any of `texts`; returns how many. */
async function purgeContexts(
  pg: PgStore,
  q: Query,
  row: { seq: number; namespace: string; session_id: string | null },
  texts: ReadonlySet<string>,
): Promise<number> {
  if (row.session_id === null) return 0;
  const holders = await q<{ seq: number; context: string; embedding_model: string | null; e: string | null }>(
    `SELECT seq::float8 AS seq, context::text AS context, embedding_model, ${pg.vectors ? 'embedding::text' : 'NULL'} AS e FROM memories
     WHERE namespace = $1 AND session_id = $2 AND seq <> $3 AND context IS NOT NULL
       AND EXISTS (SELECT 1 FROM json_array_elements_text(context) c WHERE c = ANY($4::text[])) FOR UPDATE`,
    [row.namespace, row.session_id, row.seq, [...texts]],
  );
  for (const h of holders) {
    const left = contextWithout(JSON.parse(h.context) as string[], texts);
    if (!pg.vectors) {
      await q('UPDATE memories SET context = $1::json WHERE seq = $2', [left ? JSON.stringify(left) : null, h.seq]);
      continue;
    }
    let ctx: Float32Array | null = null;
    if (left && h.embedding_model !== null) {
      const byHash = new Map(left.map((t) => [contentHash(t), t]));
      const found = await q<{ h: string; e: string }>(
        'SELECT content_hash AS h, embedding::text AS e FROM memories WHERE namespace = $1 AND embedding_model = $2 AND content_hash = ANY($3) AND embedding IS NOT NULL',
        [row.namespace, h.embedding_model, [...byHash.keys()]],
      );
      ctx = contextVectorOf(left, new Map(found.map((f) => [byHash.get(f.h)!, parseVector(f.e)])));
    }
    const own = h.e ? parseVector(h.e) : null;
    await q('UPDATE memories SET context = $1::json, context_embedding = $2::vector, search_embedding = $3::vector WHERE seq = $4', [
      left ? JSON.stringify(left) : null,
      ctx ? vectorText(ctx) : null,
      own ? searchVectorText(own, ctx) : null,
      h.seq,
    ]);
  }
  return holders.length;
}

/** Forget memory `id` (visible in `ns`, or any when undefined) with every copy of its text; false when there is none. */
export async function forget(pg: PgStore, id: string, ns: string | undefined): Promise<boolean> {
  return pg.db.tx('forget a memory', async (q) => {
    const [r] = await q<{ seq: number; namespace: string; session_id: string | null; content: string }>(
      'SELECT seq::float8 AS seq, namespace, session_id, content FROM memories WHERE id = $1 FOR UPDATE',
      [id],
    );
    if (!r || !inScope(r, ns)) return false;
    const versions = (await q<{ content: string }>('SELECT content FROM memory_history WHERE memory_id = $1', [id])).map((v) => v.content);
    const texts = erasedTexts(r.content, versions);
    const rewritten = await purgeContexts(pg, q, r, texts);
    await q('DELETE FROM memories WHERE id = $1', [id]);
    // After the delete: its trigger caches the vector once more.
    await q('DELETE FROM embedding_cache WHERE content_hash = ANY($1)', [erasedCacheKeys(texts, r.namespace)]);
    pg.wrote(1 + rewritten, [r.namespace]);
    return true;
  });
}

/** Erase a namespace: memories, history, vectors cached for it or for its texts, keyword statistics. */
export async function erase(pg: PgStore, namespace: string): Promise<EraseResult> {
  return pg.db.tx('erase a namespace', async (q) => {
    const hashes = (await q<{ h: string }>('SELECT DISTINCT content_hash AS h FROM memories WHERE namespace = $1', [namespace])).map((r) => r.h);
    const versions = (
      await q<{ content: string }>('SELECT h.content FROM memory_history h JOIN memories m ON m.id = h.memory_id WHERE m.namespace = $1', [namespace])
    ).map((r) => r.content);
    const keys = [...new Set([...hashes, ...erasedCacheKeys(versions, namespace)])];
    const [cached] = await q<{ n: number }>('SELECT count(*)::int AS n FROM embedding_cache WHERE namespace = $1 OR content_hash = ANY($2)', [namespace, keys]);
    const deleted = await q<{ seq: number }>('DELETE FROM memories WHERE namespace = $1 RETURNING seq::float8 AS seq', [namespace]);
    await q('DELETE FROM embedding_cache WHERE namespace = $1 OR content_hash = ANY($2)', [namespace, keys]);
    for (const table of ['namespace_stats', 'term_stats', 'ctx_term_stats', 'profiles']) await q(`DELETE FROM ${table} WHERE namespace = $1`, [namespace]);
    pg.wrote(deleted.length, [namespace]);
    return { namespace, memories: deleted.length, historyVersions: versions.length, cachedVectors: cached?.n ?? 0 };
  });
}
