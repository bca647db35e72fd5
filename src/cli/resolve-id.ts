/**
 * Memory ids on the command line: tables print the first 13 characters, so `get`, `update`,
 * `forget` and `history` accept any unique prefix of an id (at least 4 characters).
 */
import { MnemoliteError, type Memory } from '../index.js';

const MIN_PREFIX = 4;
const PAGE = 1000;
const SHOW = 5;

/**
 * The full id that `id` names: `id` itself when such a memory exists, else the one memory whose id
 * starts with it. Unknown or too-short prefixes resolve to `id` unchanged (the command then reports
 * "not found"); an ambiguous prefix is an error listing the candidates.
 */
export async function resolveId(m: Memory, id: string, namespace?: string): Promise<string> {
  const prefix = id.trim().toLowerCase();
  if (prefix.length < MIN_PREFIX || prefix.length >= 36) return id;
  const scope = namespace !== undefined ? { namespace } : {};
  if (await m.get(id, { ...scope, includeExpired: true })) return id;
  const matches: string[] = [];
  // Ids are UUID v7 (time-ordered hex), so a page scan with a string test is all it takes.
  for (let offset = 0; ; offset += PAGE) {
    const rows = await m.list({ namespace: namespace ?? '*', includeExpired: true, limit: PAGE, offset, order: 'asc' });
    for (const r of rows) if (r.id.startsWith(prefix)) matches.push(r.id);
    if (rows.length < PAGE) break;
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const list = matches.slice(0, SHOW).join(', ') + (matches.length > SHOW ? `, … (${matches.length} in all)` : '');
    throw new MnemoliteError('INVALID_INPUT', `The id prefix ${id} matches ${matches.length} memories: ${list}. Give more characters; nothing was changed.`);
  }
  return id;
}
