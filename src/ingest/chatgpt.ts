/**
 * ChatGPT data export (`conversations.json`): an array of conversations, each a tree of message
 * nodes in `mapping` (`{ id, message, parent, children }`). Editing a message or regenerating an
 * answer adds a branch; the one the user last saw ends at `current_node`, so that branch is
 * walked from `current_node` up to the root. System, tool and hidden messages, and assistant
 * messages addressed to a tool (`recipient` other than `all`), are left out.
 */
import { Obj, bad, step } from './json-source.js';
import { cleanSpeaker, cleanText, type HistoryConversation, type HistoryMessage, type ParsedHistory } from './history-types.js';

const KEPT_ROLES = new Set(['user', 'assistant']);
const TEXT_TYPES = new Set(['text', 'multimodal_text']);

/** The text of a message's `content`: its string parts, images and files as `[image]`/`[file: name]`. */
function contentText(c: Obj): string | undefined {
  const type = c.str('content_type');
  if (type !== undefined && !TEXT_TYPES.has(type)) return undefined; // code, tool output, browsing, thoughts, custom instructions
  const parts = c.arr('parts');
  const out: string[] = [];
  parts.forEach((p, i) => {
    if (typeof p === 'string') out.push(p);
    else if (p !== null && typeof p === 'object' && !Array.isArray(p)) {
      const po = Obj.of(p, step(c.at('parts'), i), c.file);
      const pt = po.str('content_type') ?? '';
      if (pt === 'image_asset_pointer') out.push('[image]');
      else if (pt === 'text') out.push(po.str('text') ?? '');
    } else if (p !== null) {
      throw bad(c.file, step(c.at('parts'), i), 'must be a string or an object');
    }
  });
  if (c.str('text') !== undefined && !parts.length) out.push(c.str('text')!);
  return out.join('\n');
}

/** Names of files attached to a message (`metadata.attachments[].name`). */
function attachments(meta: Obj | undefined): string[] {
  if (!meta) return [];
  return meta.arr('attachments').map((a, i) => Obj.of(a, step(meta.at('attachments'), i), meta.file).str('name') ?? 'file');
}

function conversation(value: unknown, where: string, file: string, counts: { skipped: number; truncated: number }): HistoryConversation {
  const c = Obj.of(value, where, file, 'a conversation object');
  const id = c.str('conversation_id') ?? c.str('id');
  if (!id) throw bad(file, where, 'has neither conversation_id nor id');
  const mapping = c.obj('mapping', true)!;
  const created = c.date('create_time');
  const ids = Object.keys(mapping.value);
  // The current branch: from current_node up. Without one, the last node that has no children.
  let cur = c.str('current_node') ?? [...ids].reverse().find((k) => Obj.of(mapping.value[k], mapping.at(k), file).arr('children').length === 0);
  if (cur !== undefined && !(cur in mapping.value)) throw bad(file, c.at('current_node'), `names node ${JSON.stringify(cur)}, which is not in mapping`);
  const branch: Obj[] = [];
  const seen = new Set<string>();
  while (cur !== undefined) {
    if (seen.has(cur)) throw bad(file, step(mapping.path, cur), 'is its own ancestor (the parent links form a cycle)');
    seen.add(cur);
    const node = Obj.of(mapping.value[cur], step(mapping.path, cur), file, 'a message node');
    branch.push(node);
    const parent = node.str('parent');
    if (parent !== undefined && !(parent in mapping.value)) throw bad(file, node.at('parent'), `names node ${JSON.stringify(parent)}, which is not in mapping`);
    cur = parent;
  }
  const messages: HistoryMessage[] = [];
  for (const node of branch.reverse()) {
    const m = node.obj('message');
    if (!m) continue; // the root node has no message
    const author = m.obj('author', true)!;
    const role = author.str('role', true)!;
    const meta = m.obj('metadata');
    const recipient = m.str('recipient');
    const content = m.obj('content', true)!;
    const text = contentText(content);
    const hidden = meta?.value.is_visually_hidden_from_conversation === true;
    if (!KEPT_ROLES.has(role) || hidden || (recipient !== undefined && recipient !== 'all') || text === undefined) {
      counts.skipped++;
      continue;
    }
    const files = attachments(meta).map((n) => `[file: ${n}]`);
    const { text: clean, truncated } = cleanText([text, ...files].filter((s) => s.trim()).join('\n'));
    if (!clean) {
      counts.skipped++;
      continue;
    }
    if (truncated) counts.truncated++;
    const name = author.str('name');
    const at = m.date('create_time') ?? created;
    messages.push({
      id: m.str('id') ?? node.str('id') ?? String(messages.length),
      speaker: cleanSpeaker(name?.trim() ? name : role) || role,
      content: clean,
      ...(at ? { at } : {}),
    });
  }
  const title = c.str('title');
  return { id, ...(title?.trim() ? { title: title.trim() } : {}), ...(created ? { createdAt: created } : {}), messages, where };
}

/** Parse a ChatGPT `conversations.json` (already JSON-parsed) into conversations. */
export function parseChatGPT(json: unknown, file: string): ParsedHistory {
  if (!Array.isArray(json)) throw bad(file, '$', 'must be an array of conversations (the conversations.json of a ChatGPT data export)');
  const counts = { skipped: 0, truncated: 0 };
  const conversations = json.map((c, i) => conversation(c, step('$', i), file, counts));
  return { conversations, facts: [], ...counts };
}
