/**
 * Generic chat JSON Lines: one message per line, `{ conversation, role, content, timestamp?, name?, title?, id? }`.
 * Lines of one conversation need not be adjacent; each conversation keeps its lines in file order.
 * `timestamp` is ISO 8601 or seconds (milliseconds when ≥ 10^11) since 1970; `name`, when given, is the speaker.
 */
import { Obj, bad, parseJson } from './json-source.js';
import { cleanSpeaker, cleanText, type HistoryConversation, type ParsedHistory } from './history-types.js';

/** Parse chat JSON Lines text (or an array of already parsed lines). */
export function parseChatJsonl(input: string | unknown[], file: string): ParsedHistory {
  const lines: { value: unknown; line: number }[] = [];
  if (typeof input === 'string') {
    input.split('\n').forEach((text, i) => {
      if (text.trim()) lines.push({ value: parseJson(text, `${file}:${i + 1}`), line: i + 1 });
    });
  } else {
    input.forEach((value, i) => lines.push({ value, line: i + 1 }));
  }
  const byId = new Map<string, HistoryConversation>();
  let skipped = 0;
  let truncated = 0;
  for (const { value, line } of lines) {
    const where = `line ${line}`;
    const o = Obj.of(value, '$', `${file}:${line}`, 'an object { conversation, role, content, timestamp }');
    const conv = o.value.conversation;
    if (!((typeof conv === 'string' && conv.trim()) || (typeof conv === 'number' && Number.isFinite(conv))))
      throw bad(`${file}:${line}`, '$.conversation', 'must be a non-empty string or a number (the conversation id)');
    const id = String(conv);
    const role = o.str('role', true)!;
    if (!role.trim()) throw bad(`${file}:${line}`, '$.role', 'must not be empty');
    const content = o.str('content', true)!;
    const name = o.str('name');
    const at = o.date('timestamp');
    const title = o.str('title');
    let c = byId.get(id);
    if (!c) {
      c = { id, messages: [], where };
      byId.set(id, c);
    }
    if (title?.trim() && !c.title) c.title = title.trim();
    const cleaned = cleanText(content);
    if (!cleaned.text) {
      skipped++;
      continue;
    }
    if (cleaned.truncated) truncated++;
    const msgId = o.value.id;
    c.messages.push({
      id: typeof msgId === 'string' || typeof msgId === 'number' ? String(msgId) : String(line),
      speaker: cleanSpeaker(name?.trim() ? name : role) || 'unknown',
      content: cleaned.text,
      ...(at ? { at } : {}),
    });
  }
  for (const c of byId.values()) {
    const first = c.messages.find((m) => m.at)?.at;
    if (first) c.createdAt = first;
  }
  return { conversations: [...byId.values()], facts: [], skipped, truncated };
}
