/**
 * Writes to a PostgreSQL store. Multi-writer rules: every write is one transaction; key upserts are
 * `INSERT .. ON CONFLICT` on the unique (namespace, key) index; exact dedup takes a transaction
 * advisory lock on (namespace, normalised content), so two servers adding the same text at once
 * store it once; updates lock their row (`SELECT .. FOR UPDATE`), so no update is lost.
 */
import { uuidv7 } from '../ids.js';
import { dedupHash } from '../lifecycle/dedup.js';
import { addDecision, nearPolicy, runAsync, type AddTarget, type MergeFields } from '../lifecycle/add.js';
import { expiryOnAdd, expiryOnUpdate } from '../options/lifecycle.js';
import type { PruneOptions, PruneResult } from '../types/lifecycle.js';
import type { MemoryRow } from '../types/rows.js';
import type { AddResult } from '../types/memory.js';
import { namespaceFor } from '../namespaces.js';
import { inScope, keyTaken, notFound } from '../backend/scope.js';
import type { DedupDefaults, ImportItem, UpdateChange, WriteItem } from '../backend/types.js';
import type { Query } from './client.js';
import { bytes } from './reads.js';
import { Params, ROW_COLUMNS, iso, parseVector, searchVectorText, vectorText } from './sql.js';
import { rows, type PgStore } from './store.js';

/** Near-duplicate candidates read per add (as in the SQLite file). */
const NEAR_K = 5;

export async function addMany(pg: PgStore, items: WriteItem[], model: string | null, dedup: DedupDefaults): Promise<AddResult[]> {
  return pg.db.tx('add memories', async (q) => {
    const out: AddResult[] = [];
    for (const it of items) out.push(await addOne(pg, q, it, model, dedup));
    pg.wrote(
      items.length,
      items.map((it) => namespaceFor('add', it.opts.namespace)),
    );
    return out;
  });
}

async function addOne(pg: PgStore, q: Query, it: WriteItem, model: string | null, dedup: DedupDefaults): Promise<AddResult> {
  const o = it.opts;
  const ns = namespaceFor('add', o.namespace);
  const now = new Date().toISOString();
  const dh = dedupHash(it.content);
  const vec = it.vector && pg.vectors ? vectorText(it.vector) : null;
  // The context vector only goes with the own vector (same model), as in the file.
  const ctxVec = vec && it.contextVector ? vectorText(it.contextVector) : null;
  const searchVec = vec ? searchVectorText(it.vector!, it.contextVector) : null;
  const context = it.context ? JSON.stringify(it.context) : null;
  const p = new Params();
  const cols: [string, string][] = [
    ['namespace', p.add(ns)],
    ['content', p.add(it.content)],
    ['category', p.add(o.category ?? null)],
    ['session_id', p.add(o.sessionId ?? null)],
    ['metadata', `${p.add(o.metadata ?? '{}')}::json`],
    ['updated_at', `${p.add(now)}::timestamptz`],
    ['content_hash', p.add(it.hash)],
    ['embedding_model', p.add(vec ? model : null)],
    ['expires_at', `${p.add(expiryOnAdd(o, now))}::timestamptz`],
    ['pinned', p.add(o.pinned === true)],
    ['importance', p.add(o.importance ?? null)],
    ['dedup_hash', p.add(dh)],
    ['context', `${p.add(context)}::json`],
    // A key upsert restates the memory: without an eventAt it has none (a merge keeps the old one, below).
    ['event_at', `${p.add(o.eventAt ?? null)}::timestamptz`],
  ];
  if (pg.vectors)
    cols.push(['embedding', `${p.add(vec)}::vector`], ['context_embedding', `${p.add(ctxVec)}::vector`], ['search_embedding', `${p.add(searchVec)}::vector`]);
  const insert = (id: string, key: string | null): string => {
    const all: [string, string][] = [...cols, ['id', p.add(id)], ['key', p.add(key)], ['created_at', `${p.add(o.createdAt ?? now)}::timestamptz`]];
    return `INSERT INTO memories(${all.map(([c]) => c).join(', ')}) VALUES (${all.map(([, v]) => v).join(', ')})`;
  };

  const target: AddTarget = {
    upsertByKey: async () => {
      // Upsert on the unique (namespace, key) index: a concurrent writer of the same key cannot make a second row.
      const set = cols
        .filter(([c]) => c !== 'namespace')
        .map(([c]) => `${c} = excluded.${c}`)
        .join(', ');
      const sql = `${insert(uuidv7(), o.key!)} ON CONFLICT (namespace, key) WHERE key IS NOT NULL DO UPDATE SET ${set}, superseded_by = NULL
         RETURNING id, (xmax <> 0) AS replaced`;
      const [r] = await q<{ id: string; replaced: boolean }>(sql, p.values);
      return r!;
    },
    exactDuplicate: async () => {
      // Two servers adding the same text at once: the second waits here and then finds the first's row.
      await q('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${pg.schema}\u001f${ns}\u001f${dh}`]);
      const [dup] = await q<{ id: string }>(
        `SELECT id FROM memories WHERE namespace = $1 AND dedup_hash = $2 AND superseded_by IS NULL
           AND (expires_at IS NULL OR expires_at > $3::timestamptz OR pinned) ORDER BY seq LIMIT 1`,
        [ns, dh, now],
      );
      return dup;
    },
    nearCandidates: async () => {
      // Over the searched vectors, as the file's index does (a memory with context is found by its blend).
      const found = await q<{ seq: number; id: string; content: string; sim: number }>(
        `SELECT seq::float8 AS seq, id, content, 1 - (search_embedding <=> $1::vector) AS sim FROM memories
         WHERE namespace = $2 AND embedding_model = $3 AND superseded_by IS NULL AND (expires_at IS NULL OR expires_at > $4::timestamptz OR pinned)
         ORDER BY search_embedding <=> $1::vector LIMIT ${NEAR_K}`,
        [vec, ns, model, now],
      );
      return found.map((m) => ({ seq: m.seq, id: m.id, content: m.content, similarity: m.sim }));
    },
    mergeFields: async (id) => {
      const [old] = await q<MergeFields>(
        `SELECT metadata::text AS metadata, category, session_id, ${iso('expires_at')} AS expires_at, pinned, importance FROM memories WHERE id = $1 FOR UPDATE`,
        [id],
      );
      return old!;
    },
    mergeInto: async (id, m) => {
      await q(
        `UPDATE memories SET content = $2, category = $3, session_id = $4, metadata = $5::json, updated_at = $6::timestamptz, content_hash = $7,
                 embedding = $8::vector, embedding_model = $9, expires_at = $10::timestamptz, pinned = $11, importance = $12, dedup_hash = $13,
                 context = $14::json, context_embedding = $15::vector, search_embedding = $16::vector,
                 event_at = coalesce($17::timestamptz, event_at) WHERE id = $1`,
        [
          id,
          it.content,
          m.category,
          m.session_id,
          m.metadata,
          now,
          it.hash,
          vec,
          model,
          m.expires_at,
          m.pinned,
          m.importance,
          dh,
          context,
          ctxVec,
          searchVec,
          o.eventAt ?? null,
        ],
      );
    },
    insert: async () => {
      const id = uuidv7();
      await q(insert(id, null), p.values);
      return id;
    },
    namespaceOf: async (id) => (await q<{ namespace: string }>('SELECT namespace FROM memories WHERE id = $1 FOR UPDATE', [id]))[0]?.namespace,
    supersededChainReaches: async (from, to) => {
      const [cycle] = await q<{ found: boolean }>(
        `WITH RECURSIVE chain(id, depth) AS (
           SELECT superseded_by, 1 FROM memories WHERE id = $1
           UNION ALL SELECT m.superseded_by, c.depth + 1 FROM chain c JOIN memories m ON m.id = c.id WHERE c.depth < 10000)
         SELECT EXISTS (SELECT 1 FROM chain WHERE id = $2) AS found`,
        [from, to],
      );
      return cycle?.found === true;
    },
    setSupersededBy: async (targetId, successorId) => {
      await q('UPDATE memories SET superseded_by = $2 WHERE id = $1', [targetId, successorId]);
    },
  };
  return runAsync(
    addDecision(target, {
      opts: o,
      namespace: ns,
      nowIso: now,
      near: nearPolicy(o, dedup, vec !== null && model !== null),
      fields: { metadata: o.metadata ?? '{}', category: o.category ?? null, session_id: o.sessionId ?? null },
    }),
  );
}

export async function update(pg: PgStore, id: string, ns: string | undefined, c: UpdateChange, model: string | null): Promise<MemoryRow> {
  const u = c.u;
  return pg.db.tx('update a memory', async (q) => {
    const [cur] = rows(await q(`SELECT ${ROW_COLUMNS} FROM memories m WHERE m.id = $1 FOR UPDATE`, [id]));
    if (!cur || !inScope(cur, ns)) throw notFound(id);
    const key = u.key === undefined ? cur.key : u.key;
    if (key !== null && key !== cur.key) {
      const [other] = await q<{ id: string }>('SELECT id FROM memories WHERE namespace = $1 AND key = $2', [cur.namespace, key]);
      if (other && other.id !== cur.id) throw keyTaken(key, other.id, cur.namespace);
    }
    const now = new Date().toISOString();
    const hash = c.hash ?? cur.content_hash;
    const changed = c.content !== undefined && hash !== cur.content_hash;
    const p = new Params();
    const sets = [
      `key = ${p.add(key)}`,
      `content = ${p.add(c.content ?? cur.content)}`,
      `category = ${p.add(u.category === undefined ? cur.category : u.category)}`,
      `session_id = ${p.add(u.sessionId === undefined ? cur.session_id : u.sessionId)}`,
      `metadata = ${p.add(u.metadata ?? cur.metadata)}::json`,
      `updated_at = ${p.add(now)}::timestamptz`,
      `content_hash = ${p.add(hash)}`,
    ];
    if (u.eventAt !== undefined) sets.push(`event_at = ${p.add(u.eventAt)}::timestamptz`); // null clears it
    if (c.content !== undefined) sets.push(`dedup_hash = ${p.add(dedupHash(c.content))}`);
    if (c.vector !== undefined && pg.vectors) {
      // The context stays (it was fixed when the memory was written); the searched vector blends it with the new own vector.
      const [ctx] = await q<{ e: string | null }>('SELECT context_embedding::text AS e FROM memories WHERE id = $1', [id]);
      sets.push(
        `embedding = ${p.add(vectorText(c.vector))}::vector`,
        `embedding_model = ${p.add(model)}`,
        `search_embedding = ${p.add(searchVectorText(c.vector, ctx?.e ? parseVector(ctx.e) : null))}::vector`,
      );
    } else if (changed) sets.push(...(pg.vectors ? ['embedding = NULL', 'search_embedding = NULL'] : []), 'embedding_model = NULL');
    const exp = expiryOnUpdate(u, now);
    if (exp !== undefined) sets.push(`expires_at = ${p.add(exp)}::timestamptz`);
    if (u.pinned !== undefined) sets.push(`pinned = ${p.add(u.pinned)}`);
    if (u.importance !== undefined) sets.push(`importance = ${p.add(u.importance)}`);
    await q(`UPDATE memories SET ${sets.join(', ')} WHERE id = ${p.add(id)}`, p.values);
    if (c.content !== undefined) pg.wrote(1, [cur.namespace]);
    return rows(await q(`SELECT ${ROW_COLUMNS} FROM memories m WHERE m.id = $1`, [id]))[0]!;
  });
}

export async function importBatch(
  pg: PgStore,
  items: ImportItem[],
  model: string | null,
  onConflict: 'skip' | 'replace',
): Promise<{ imported: number; replaced: number; skipped: number }> {
  return pg.db.tx('import memories', async (q) => {
    const res = { imported: 0, replaced: 0, skipped: 0 };
    for (const r of items) {
      const [byId] = await q<{ seq: number }>('SELECT seq::float8 AS seq FROM memories WHERE id = $1 FOR UPDATE', [r.id]);
      const [byKey] =
        r.key !== null
          ? await q<{ seq: number }>('SELECT seq::float8 AS seq FROM memories WHERE namespace = $1 AND key = $2 FOR UPDATE', [r.namespace, r.key])
          : [];
      const existing = byId ?? byKey;
      if (existing && onConflict === 'skip') {
        res.skipped++;
        continue;
      }
      if (byId && byKey && byId.seq !== byKey.seq) await q('DELETE FROM memories WHERE seq = $1', [byKey.seq]);
      const vec = r.vector && pg.vectors ? vectorText(r.vector) : null;
      const ctxVec = vec && r.contextVector ? vectorText(r.contextVector) : null;
      const searchVec = vec ? searchVectorText(r.vector!, r.contextVector) : null;
      const p = new Params();
      const values: [string, string][] = [
        ['namespace', p.add(r.namespace)],
        ['key', p.add(r.key)],
        ['content', p.add(r.content)],
        ['category', p.add(r.category)],
        ['session_id', p.add(r.sessionId)],
        ['metadata', `${p.add(r.metadata)}::json`],
        ['updated_at', `${p.add(r.updatedAt)}::timestamptz`],
        ['content_hash', p.add(r.hash)],
        ['embedding_model', p.add(vec ? model : null)],
        ['expires_at', `${p.add(r.expiresAt)}::timestamptz`],
        ['pinned', p.add(r.pinned)],
        ['importance', p.add(r.importance)],
        ['superseded_by', p.add(r.supersededBy)],
        ['dedup_hash', p.add(dedupHash(r.content))],
        ['context', `${p.add(r.context ? JSON.stringify(r.context) : null)}::json`],
        ['event_at', `${p.add(r.eventAt)}::timestamptz`],
      ];
      if (pg.vectors)
        values.push(
          ['embedding', `${p.add(vec)}::vector`],
          ['context_embedding', `${p.add(ctxVec)}::vector`],
          ['search_embedding', `${p.add(searchVec)}::vector`],
        );
      if (existing) {
        await q(`UPDATE memories SET ${values.map(([c, v]) => `${c} = ${v}`).join(', ')} WHERE seq = ${p.add(existing.seq)}`, p.values);
        res.replaced++;
      } else {
        values.push(['id', p.add(r.id)], ['created_at', `${p.add(r.createdAt)}::timestamptz`]);
        await q(`INSERT INTO memories(${values.map(([c]) => c).join(', ')}) VALUES (${values.map(([, v]) => v).join(', ')})`, p.values);
        res.imported++;
      }
    }
    pg.wrote(
      items.length,
      items.map((r) => r.namespace),
    );
    return res;
  });
}

export async function setVectors(pg: PgStore, list: { seq: number; vector: Float32Array; contextVector: Float32Array | null }[], model: string): Promise<void> {
  if (!pg.vectors) return;
  await pg.db.tx('store new vectors', async (q) => {
    for (const r of list) {
      await q(
        'UPDATE memories SET embedding = $1::vector, embedding_model = $2, context_embedding = $3::vector, search_embedding = $4::vector WHERE seq = $5',
        [vectorText(r.vector), model, r.contextVector ? vectorText(r.contextVector) : null, searchVectorText(r.vector, r.contextVector), r.seq],
      );
    }
  });
}

export async function prune(pg: PgStore, o: PruneOptions, nowIso: string): Promise<PruneResult> {
  const p = new Params();
  const cond = `expires_at IS NOT NULL AND expires_at <= ${p.add(nowIso)}::timestamptz${o.namespace !== undefined ? ` AND namespace = ${p.add(o.namespace)}` : ''}`;
  const bytesBefore = await bytes(pg);
  return pg.db.tx('delete expired memories', async (q) => {
    const expired = await q<{ seq: number; id: string }>(`SELECT seq::float8 AS seq, id FROM memories WHERE ${cond} AND NOT pinned ORDER BY seq`, p.values);
    const [pinned] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE ${cond} AND pinned`, p.values);
    const ids = expired.map((r) => r.id);
    const [hist] = await q<{ n: number }>('SELECT count(*)::int AS n FROM memory_history WHERE memory_id = ANY($1)', [ids]);
    const res: PruneResult = {
      deleted: expired.length,
      ids: ids.slice(0, 1000),
      historyDeleted: hist?.n ?? 0,
      pinnedKept: pinned?.n ?? 0,
      dryRun: !!o.dryRun,
      autoVacuum: 'none',
      vacuum: 'none',
      freePagesBefore: 0,
      freePagesAfter: 0,
      bytesBefore,
      bytesAfter: bytesBefore,
      note: 'PostgreSQL reclaims the space of deleted rows itself (autovacuum); VACUUM FULL shrinks the tables.',
    };
    if (o.dryRun || !expired.length) return res;
    const seqs = expired.map((r) => r.seq);
    const hashes = await q<{ m: string; h: string }>(
      'SELECT DISTINCT embedding_model AS m, content_hash AS h FROM memories WHERE seq = ANY($1::bigint[]) AND embedding_model IS NOT NULL',
      [seqs],
    );
    await q('DELETE FROM memories WHERE seq = ANY($1::bigint[])', [seqs]);
    pg.wrote(seqs.length);
    // Pruning is about space: drop the vectors the delete trigger cached, unless the content lives on.
    for (const { m, h } of hashes) {
      await q('DELETE FROM embedding_cache WHERE model = $1 AND content_hash = $2 AND NOT EXISTS (SELECT 1 FROM memories WHERE content_hash = $2)', [m, h]);
    }
    return res;
  });
}
