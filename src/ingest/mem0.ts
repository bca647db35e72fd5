/**
 * mem0 memories export (JSON): the memories as `get_all` returns them, either a bare array or
 * `{ results: [...] }` / `{ memories: [...] }`, each `{ id, memory, user_id?, agent_id?, app_id?,
 * run_id?, metadata?, categories?, created_at?, updated_at? }`. They are facts, not conversations.
 */
import { Obj, bad, step } from './json-source.js';
import { cleanText, type HistoryFact, type ParsedHistory } from './history-types.js';

/** Parse a mem0 memories export (already JSON-parsed). */
export function parseMem0(json: unknown, file: string): ParsedHistory {
  let list: unknown[];
  let path = '$';
  if (Array.isArray(json)) list = json;
  else {
    const top = Obj.of(json, '$', file, 'an array of mem0 memories, or an object with a "results" or "memories" array');
    const key = Array.isArray(top.value.results) ? 'results' : Array.isArray(top.value.memories) ? 'memories' : undefined;
    if (!key) throw bad(file, '$', 'must be an array of mem0 memories, or an object with a "results" or "memories" array');
    list = top.value[key] as unknown[];
    path = top.at(key);
  }
  let skipped = 0;
  let truncated = 0;
  const facts: HistoryFact[] = [];
  const seen = new Set<string>();
  list.forEach((v, i) => {
    const where = step(path, i);
    const m = Obj.of(v, where, file, 'a memory object');
    const id = m.str('id', true)!;
    if (seen.has(id)) throw bad(file, m.at('id'), `repeats id ${JSON.stringify(id)}`);
    seen.add(id);
    const cleaned = cleanText(m.str('memory', true)!);
    if (!cleaned.text) {
      skipped++;
      return;
    }
    if (cleaned.truncated) truncated++;
    const metadata: Record<string, unknown> = { mem0Id: id };
    for (const [from, to] of [
      ['user_id', 'userId'],
      ['agent_id', 'agentId'],
      ['app_id', 'appId'],
      ['run_id', 'runId'],
    ] as const) {
      const s = m.str(from);
      if (s) metadata[to] = s;
    }
    const cats = m.arr('categories');
    cats.forEach((c, k) => {
      if (typeof c !== 'string') throw bad(file, step(m.at('categories'), k), 'must be a string');
    });
    if (cats.length) metadata.categories = cats;
    const extra = m.obj('metadata');
    if (extra && Object.keys(extra.value).length) metadata.attributes = extra.value;
    const updated = m.date('updated_at');
    if (updated) metadata.mem0UpdatedAt = updated;
    const createdAt = m.date('created_at');
    facts.push({ id, content: cleaned.text, ...(createdAt ? { createdAt } : {}), metadata, where });
  });
  return { conversations: [], facts, skipped, truncated };
}
