/**
 * Claude data export (`conversations.json`): an array of conversations
 * `{ uuid, name, created_at, chat_messages: [{ uuid, sender, text, content?, created_at, attachments?, files?, parent_message_uuid? }] }`.
 * When messages carry `parent_message_uuid` (edits and retries make branches), the branch ending
 * at the last message is kept. Tool-use and tool-result blocks are left out.
 */
import { Obj, bad, step } from './json-source.js';
import { cleanSpeaker, cleanText, type HistoryConversation, type HistoryMessage, type ParsedHistory } from './history-types.js';

/** A message's text: `text`, or else its `content` blocks of type `text`. */
function messageText(m: Obj): string {
  const text = m.str('text');
  if (text?.trim()) return text;
  return m
    .arr('content')
    .map((b, i) => {
      const block = Obj.of(b, step(m.at('content'), i), m.file);
      return block.str('type') === 'text' ? (block.str('text') ?? '') : '';
    })
    .filter((s) => s.trim())
    .join('\n');
}

function fileNames(m: Obj): string[] {
  const names: string[] = [];
  for (const key of ['attachments', 'files']) {
    m.arr(key).forEach((a, i) => {
      const n = Obj.of(a, step(m.at(key), i), m.file).str('file_name');
      if (n?.trim()) names.push(n.trim());
    });
  }
  return [...new Set(names)];
}

/** The messages of the current branch, in order (all of them when the export has no parent links). */
function currentBranch(msgs: Obj[]): Obj[] {
  if (!msgs.length || !msgs.every((m) => m.str('parent_message_uuid') !== undefined)) return msgs;
  const byId = new Map(msgs.map((m) => [m.str('uuid'), m]));
  const out: Obj[] = [];
  const seen = new Set<Obj>();
  let cur: Obj | undefined = msgs[msgs.length - 1];
  while (cur && !seen.has(cur)) {
    seen.add(cur);
    out.push(cur);
    cur = byId.get(cur.str('parent_message_uuid'));
  }
  return out.reverse();
}

function conversation(value: unknown, where: string, file: string, counts: { skipped: number; truncated: number }): HistoryConversation {
  const c = Obj.of(value, where, file, 'a conversation object');
  const id = c.str('uuid', true)!;
  const created = c.date('created_at');
  const all = c.arr('chat_messages', true).map((m, i) => Obj.of(m, step(c.at('chat_messages'), i), file, 'a message object'));
  const branch = currentBranch(all);
  counts.skipped += all.length - branch.length;
  const messages: HistoryMessage[] = [];
  branch.forEach((m, i) => {
    const sender = m.str('sender', true)!;
    const files = fileNames(m).map((n) => `[file: ${n}]`);
    const { text, truncated } = cleanText([messageText(m), ...files].filter((s) => s.trim()).join('\n'));
    if (!text) {
      counts.skipped++;
      return;
    }
    if (truncated) counts.truncated++;
    const at = m.date('created_at') ?? created;
    messages.push({ id: m.str('uuid') ?? String(i), speaker: cleanSpeaker(sender) || 'unknown', content: text, ...(at ? { at } : {}) });
  });
  const title = c.str('name');
  return { id, ...(title?.trim() ? { title: title.trim() } : {}), ...(created ? { createdAt: created } : {}), messages, where };
}

/** Parse a Claude `conversations.json` (already JSON-parsed) into conversations. */
export function parseClaude(json: unknown, file: string): ParsedHistory {
  if (!Array.isArray(json)) throw bad(file, '$', 'must be an array of conversations (the conversations.json of a Claude data export)');
  const counts = { skipped: 0, truncated: 0 };
  const conversations = json.map((c, i) => conversation(c, step('$', i), file, counts));
  return { conversations, facts: [], ...counts };
}
