/**
 * Chat messages as the SDKs hand them over, turned into conversation turns ({ speaker, content, at })
 * for {@link addConversation}: OpenAI Chat Completions (`{ role, content }`, string or content
 * parts), OpenAI Responses API input items, Anthropic Messages (`content` blocks), the AI SDK's
 * `ModelMessage` (`content` parts) and `UIMessage` (`parts`). Pure: no I/O, no Memory.
 *
 * What a chat holds besides words becomes a placeholder ("[image]", "[file: a.pdf]"), never an
 * error: a stored turn must not fail because the user pasted a screenshot. System/developer
 * messages and tool traffic are skipped unless asked for; a model's reasoning is never stored.
 */
import { invalid } from '../errors.js';

/** A chat message of one of the SDK shapes above (checked at run time; see docs/api.md). */
export type ChatMessageInput = object;

/** Which chat messages {@link chatTurns} keeps besides user and assistant words. */
export interface ChatMessageOptions {
  /** Keep system and developer messages (default false: instructions are not memories). */
  keepSystem?: boolean;
  /** Keep tool calls and tool results as turns, e.g. "[tool call: get_weather {"city":"Porto"}]" (default false). */
  keepTools?: boolean;
  /** Speaker names per role, e.g. `{ user: 'Caroline' }` (default: the role, or a Chat Completions message's `name`). */
  speakers?: Partial<Record<'user' | 'assistant' | 'system' | 'tool', string>>;
}

/** A turn before validation (conversation.ts checks speaker, content and `at`). */
export interface RawTurn {
  speaker: unknown;
  content: unknown;
  at?: unknown;
}

type Kind = 'user' | 'assistant' | 'system' | 'tool';
const ROLE: Record<string, Kind> = {
  user: 'user',
  assistant: 'assistant',
  model: 'assistant',
  system: 'system',
  developer: 'system',
  tool: 'tool',
  function: 'tool',
};
/** Response / Agents SDK items that are never turns: a model's reasoning, compaction markers, references. */
const SKIPPED_ITEMS = new Set(['reasoning', 'compaction', 'item_reference', 'unknown']);
/** Tool items whose arguments or output are worth a line; other "*_call" items become "[tool: <type>]". */
const KNOWN_TOOL_ITEMS = new Set([
  'function_call',
  'function_call_output',
  'function_call_result',
  'computer_call',
  'computer_call_result',
  'hosted_tool_call',
]);
/** A tool argument or result longer than this is cut in the stored turn (the turn is a memory, not a log). */
const TOOL_TEXT_CHARS = 2000;

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const cut = (s: string): string => (s.length > TOOL_TEXT_CHARS ? `${s.slice(0, TOOL_TEXT_CHARS)}…` : s);
function json(v: unknown): string {
  if (typeof v === 'string') return cut(v);
  try {
    return cut(JSON.stringify(v) ?? '');
  } catch {
    return '';
  }
}
const named = (what: string, name: unknown): string => (typeof name === 'string' && name ? `[${what}: ${name}]` : `[${what}]`);

/** One part's text: words, a placeholder, a tool line (`tool: true`), or null for what is never stored (reasoning, step markers). */
function partText(p: unknown, path: string): { text: string; tool?: true } | null {
  if (typeof p === 'string') return { text: p };
  if (!isObj(p) || typeof p.type !== 'string')
    throw invalid(`${path} must be a content part with a "type" (such as { "type": "text", "text": "…" }), got ${describe(p)}.`);
  const t = p.type;
  switch (t) {
    case 'text':
    case 'input_text':
    case 'output_text':
      if (typeof p.text !== 'string') throw invalid(`${path}.text must be a string.`);
      return { text: p.text };
    case 'refusal':
      return { text: typeof p.refusal === 'string' ? p.refusal : '[refusal]' };
    case 'image':
    case 'image_url':
    case 'input_image':
      return { text: '[image]' };
    case 'input_audio':
    case 'audio':
      return { text: '[audio]' };
    case 'file':
    case 'input_file':
    case 'document': {
      const file = isObj(p.file) ? p.file : undefined;
      return { text: named('file', p.filename ?? file?.filename ?? p.title) };
    }
    case 'reasoning':
    case 'thinking':
    case 'redacted_thinking':
    case 'step-start':
    case 'source-url':
    case 'source-document':
    case 'search_result':
      return null;
    case 'tool_use':
    case 'server_tool_use':
    case 'tool-call':
    case 'function_call':
    case 'hosted_tool_call':
    case 'computer_call':
      return { text: `[tool call: ${String(p.name ?? p.toolName ?? 'tool')} ${json(p.input ?? p.arguments ?? p.args ?? {})}]`, tool: true };
    case 'tool_result':
    case 'tool-result':
    case 'function_call_output':
    case 'function_call_result':
    case 'computer_call_result':
    case 'web_search_tool_result':
      return { text: `[tool result: ${toolOutput(p.content ?? p.output ?? p.result, path)}]`, tool: true };
    case 'dynamic-tool':
      return { text: `[tool: ${String(p.toolName ?? 'tool')} ${json(p.output ?? p.input ?? {})}]`, tool: true };
  }
  // The AI SDK's UIMessage names tool parts "tool-<name>" and custom data parts "data-<name>".
  if (t.startsWith('tool-')) return { text: `[tool: ${t.slice(5)} ${json(p.output ?? p.input ?? {})}]`, tool: true };
  if (t.startsWith('data-')) return null;
  throw invalid(
    `${path}.type "${t.slice(0, 60)}" is not a content part mnemolite knows (text, image, file, audio, refusal, reasoning, tool calls and results).`,
  );
}

/** A tool result's text: a string, text blocks, or JSON. */
function toolOutput(v: unknown, path: string): string {
  if (typeof v === 'string') return cut(v);
  if (Array.isArray(v)) {
    const texts = v.map((b, i) =>
      isObj(b) && typeof b.text === 'string' ? b.text : isObj(b) && typeof b.type === 'string' ? (partText(b, `${path}.content[${i}]`)?.text ?? '') : json(b),
    );
    return cut(texts.filter(Boolean).join(' '));
  }
  if (isObj(v) && v.type === 'text' && typeof (v.text ?? v.value) === 'string') return cut(String(v.text ?? v.value));
  return json(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object')
    return `an object with keys ${
      Object.keys(v as object)
        .slice(0, 6)
        .join(', ') || '(none)'
    }`;
  return typeof v;
}

/** Text of a content value (string, parts array, or null) and whether it held only tool traffic. */
function contentText(content: unknown, path: string): { text: string; toolOnly: boolean } {
  if (content === undefined || content === null) return { text: '', toolOnly: false };
  if (typeof content === 'string') return { text: content, toolOnly: false };
  if (!Array.isArray(content)) throw invalid(`${path} must be a string or an array of content parts, got ${describe(content)}.`);
  const words: string[] = [];
  const tools: string[] = [];
  content.forEach((p, i) => {
    const t = partText(p, `${path}[${i}]`);
    if (t) (t.tool ? tools : words).push(t.text);
  });
  return words.length ? { text: words.join('\n'), toolOnly: false } : { text: tools.join('\n'), toolOnly: tools.length > 0 };
}

/**
 * The turns of `messages`, in order, each `{ speaker, content, at }` or null when skipped. Elements
 * that are already turns (`{ speaker, content, at? }`) pass through for conversation.ts to check.
 * Unknown shapes throw `INVALID_INPUT` naming the path, e.g. `messages[3].content[1].type`.
 */
export function chatTurns(messages: readonly unknown[], options: ChatMessageOptions = {}): (RawTurn | null)[] {
  return messages.map((m, i) => chatTurn(m, `messages[${i}]`, options));
}

function chatTurn(m: unknown, path: string, o: ChatMessageOptions): RawTurn | null {
  if (!isObj(m)) throw invalid(`${path} must be a chat message such as { "role": "user", "content": "…" } or a turn { speaker, content }, got ${describe(m)}.`);
  if ('speaker' in m) return m as unknown as RawTurn;
  const at = m.createdAt ?? m.timestamp;
  // Responses API items without a role: tool calls, their outputs, reasoning.
  if (typeof m.role !== 'string') {
    if (typeof m.type !== 'string')
      throw invalid(`${path} has neither "role" nor "speaker": pass chat messages ({ role, content }) or turns ({ speaker, content }).`);
    // Tool traffic of the Responses API and the Agents SDK: "*_call", "*_call_output", "*_call_result", "*_output".
    if (!o.keepTools) {
      if (/_(call|output|result)$/.test(m.type) || SKIPPED_ITEMS.has(m.type)) return null;
    }
    if (SKIPPED_ITEMS.has(m.type)) return null;
    const t = /_(call|output|result)$/.test(m.type) && !KNOWN_TOOL_ITEMS.has(m.type) ? { text: `[tool: ${m.type}]` } : partText(m, path);
    if (!t) return null;
    return { speaker: o.speakers?.tool ?? 'tool', content: t.text, ...(at !== undefined ? { at } : {}) };
  }
  const kind = ROLE[m.role];
  if (!kind) throw invalid(`${path}.role "${m.role.slice(0, 40)}" is not a chat role (user, assistant, system, developer, tool).`);
  if (m.type !== undefined && m.type !== 'message') throw invalid(`${path}.type "${String(m.type).slice(0, 40)}" is not a message item.`);
  if (kind === 'system' && !o.keepSystem) return null;
  let { text, toolOnly } = contentText(
    'parts' in m && m.content === undefined ? m.parts : m.content,
    `${path}.${'parts' in m && m.content === undefined ? 'parts' : 'content'}`,
  );
  // Chat Completions: an assistant message calling tools has `tool_calls` (content often null).
  if (Array.isArray(m.tool_calls) && m.tool_calls.length) {
    const calls = m.tool_calls.map((c) => {
      const f = isObj(c) && isObj(c.function) ? c.function : {};
      return `[tool call: ${String(f.name ?? 'tool')} ${json(f.arguments ?? {})}]`;
    });
    if (!text) {
      text = calls.join('\n');
      toolOnly = true;
    }
  }
  if (typeof m.refusal === 'string' && !text) text = m.refusal;
  const tool = kind === 'tool' || toolOnly;
  if (tool && !o.keepTools) return null;
  if (!text.trim()) return null;
  if (kind === 'tool' && !toolOnly) text = `[tool result: ${cut(text)}]`;
  const speakerKind: Kind = tool ? 'tool' : kind;
  const speaker = o.speakers?.[speakerKind] ?? (typeof m.name === 'string' && m.name.trim() && !tool ? m.name : speakerKind);
  return { speaker, content: text, ...(at !== undefined && at !== null ? { at } : {}) };
}
