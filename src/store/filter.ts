import type { RowFilter } from '../types/rows.js';

/** Turn a filter into a parameterised WHERE fragment over alias `m`. Values are always bound, never spliced. */
export function whereClause(f: RowFilter): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.namespace !== undefined) {
    parts.push('m.namespace = ?');
    params.push(f.namespace);
  }
  if (f.namespaces !== undefined) {
    parts.push('m.namespace IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(f.namespaces));
  }
  if (f.category !== undefined) {
    parts.push('m.category = ?');
    params.push(f.category);
  }
  if (f.sessionId !== undefined) {
    parts.push('m.session_id = ?');
    params.push(f.sessionId);
  }
  // "When it happened": the event time, else the stored time; the expression is the one indexed (memories_namespace_time).
  const time = f.timeField === 'created' ? 'm.created_at' : 'coalesce(m.event_at, m.created_at)';
  if (f.since !== undefined) {
    parts.push(`${time} >= ?`);
    params.push(f.since);
  }
  if (f.until !== undefined) {
    parts.push(`${time} < ?`);
    params.push(f.until);
  }
  if (f.activeAt !== undefined) {
    parts.push('(m.expires_at IS NULL OR m.expires_at > ? OR m.pinned = 1)');
    params.push(f.activeAt);
  }
  for (const [path, value] of f.metadata ?? []) {
    if (value === null) {
      parts.push("json_type(m.metadata, ?) = 'null'");
      params.push(path);
    } else if (typeof value === 'boolean') {
      // JSON booleans come back from json_extract as 1/0; check the type too.
      parts.push(`json_type(m.metadata, ?) = '${value ? 'true' : 'false'}'`);
      params.push(path);
    } else {
      parts.push('json_extract(m.metadata, ?) = ?');
      params.push(path, value);
    }
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}
