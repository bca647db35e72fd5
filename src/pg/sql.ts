/** SQL fragments for PostgreSQL: row columns, filters, vectors as pgvector text. All values are bound. */
import { blendedVector } from '../lifecycle/context.js';
import type { MemoryRow, RowFilter } from '../types/rows.js';

/** ISO 8601 UTC with milliseconds, the form the SQLite file stores and the API returns. */
export const iso = (col: string): string => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Columns of a {@link MemoryRow}, over alias `m`. */
export const ROW_COLUMNS = `m.seq::float8 AS seq, m.id, m.namespace, m.key, m.content, m.category, m.session_id, m.metadata::text AS metadata,
  ${iso('m.created_at')} AS created_at, ${iso('m.updated_at')} AS updated_at, m.content_hash, m.embedding_model,
  ${iso('m.expires_at')} AS expires_at, m.pinned::int AS pinned, m.importance, m.superseded_by, m.context::text AS context,
  ${iso('m.event_at')} AS event_at`;

/** Collects bound parameters and hands out `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  /** Placeholder for a value. */
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** The filter as a WHERE fragment over alias `m`. */
export function where(f: RowFilter, p: Params): string {
  const parts: string[] = [];
  if (f.namespace !== undefined) parts.push(`m.namespace = ${p.add(f.namespace)}`);
  if (f.namespaces !== undefined) parts.push(`m.namespace = ANY(${p.add(f.namespaces)}::text[])`);
  if (f.category !== undefined) parts.push(`m.category = ${p.add(f.category)}`);
  if (f.sessionId !== undefined) parts.push(`m.session_id = ${p.add(f.sessionId)}`);
  // "When it happened": the event time, else the stored time; the expression is the one indexed (memories_namespace_time).
  const time = f.timeField === 'created' ? 'm.created_at' : 'coalesce(m.event_at, m.created_at)';
  if (f.since !== undefined) parts.push(`${time} >= ${p.add(f.since)}::timestamptz`);
  if (f.until !== undefined) parts.push(`${time} < ${p.add(f.until)}::timestamptz`);
  if (f.activeAt !== undefined) parts.push(`(m.expires_at IS NULL OR m.expires_at > ${p.add(f.activeAt)}::timestamptz OR m.pinned)`);
  for (const [path, value] of f.metadata ?? []) {
    // Paths come from validation as `$."key"` (letters, digits, _ and -); the key is bound anyway.
    // Only the one field is read (json, not a jsonb cast of the whole document), type first, as SQLite's json_type does.
    const key = p.add(path.replace(/^\$\."/, '').replace(/"$/, ''));
    const type = `json_typeof(m.metadata -> ${key})`;
    if (value === null) parts.push(`${type} = 'null'`);
    // CASE, not AND: the cast must only run on a field of the right type.
    else if (typeof value === 'boolean')
      parts.push(`CASE WHEN ${type} = 'boolean' THEN (m.metadata ->> ${key})::boolean = ${p.add(value)}::boolean ELSE false END`);
    else if (typeof value === 'number')
      parts.push(`CASE WHEN ${type} = 'number' THEN (m.metadata ->> ${key})::numeric = ${p.add(value)}::numeric ELSE false END`);
    else parts.push(`CASE WHEN ${type} = 'string' THEN (m.metadata ->> ${key}) = ${p.add(value)}::text ELSE false END`);
  }
  return parts.length ? parts.join(' AND ') : 'true';
}

/** A vector as pgvector's text form; JS prints each float32 exactly, so nothing is lost. */
export function vectorText(v: Float32Array): string {
  return `[${Array.from(v).join(',')}]`;
}

/**
 * What the vector leg searches for a memory (`search_embedding`): its own vector blended with its
 * context's (src/lifecycle/context.ts), or its own when it has no context vector.
 */
export function searchVectorText(own: Float32Array, context: Float32Array | null): string {
  return vectorText(context && context.length === own.length ? blendedVector(own, context) : own);
}

/** pgvector's `[..]` or an array's `{..}` text back to a vector. */
export function parseVector(text: string): Float32Array {
  const body = text.slice(1, -1);
  if (!body) return new Float32Array(0);
  return Float32Array.from(body.split(',').map(Number));
}
