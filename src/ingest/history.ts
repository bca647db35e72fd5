/**
 * Importing the chat history people already have (ChatGPT, Claude, generic chat JSON Lines) and
 * mem0 memories. Each conversation becomes one session through `Memory.addConversation`; a
 * re-import compares what is stored with what would be written and writes only the difference.
 */
import { createHash } from 'node:crypto';
import { MnemoliteError, invalid } from '../errors.js';
import type { Memory } from '../memory/memory.js';
import type { AddInput, MemoryRecord, Metadata } from '../types/memory.js';
import { checkContent, parseAdd } from '../validate.js';
import { parseChatGPT } from './chatgpt.js';
import { parseChatJsonl } from './chat-jsonl.js';
import { parseClaude } from './claude.js';
import { conversationItems, type ConversationTurn } from '../memory/conversation.js';
import type { HistoryConversation, HistoryFact, ParsedHistory } from './history-types.js';
import { dataText, parseJson, type HistoryData } from './json-source.js';
import { parseMem0 } from './mem0.js';

/** Export formats {@link importHistory} reads. */
export type HistorySource = 'chatgpt' | 'claude' | 'mem0' | 'chat-jsonl';

/** The formats, for CLIs and validation. */
export const HISTORY_SOURCES: readonly HistorySource[] = ['chatgpt', 'claude', 'mem0', 'chat-jsonl'];

/** Options for {@link importHistory}. */
export interface HistoryImportOptions {
  /** Namespace of every memory (default `"default"`). */
  namespace?: string;
  /** Category of every memory. */
  category?: string;
  /** Name of the input in error messages (default `"input"`; the CLI passes the file name). */
  file?: string;
  /** Short turns merged into a neighbour, as in `addConversation` (default 5 words). */
  minWords?: number;
  /** Parse and compare only: report what would change, write nothing. */
  dryRun?: boolean;
  /** Called as conversations (or mem0 memories) are done, with (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** Result of {@link importHistory}. */
export interface HistoryImportResult {
  source: HistorySource;
  /** Conversations (or mem0 memories) in the input. */
  total: number;
  /** New ones written. */
  added: number;
  /** Ones that changed since the last import; only their changed part was rewritten. */
  updated: number;
  /** Ones already stored exactly as they are: nothing written. */
  unchanged: number;
  /** Messages kept (or mem0 memories). */
  messages: number;
  /** Memories written. */
  written: number;
  /** Stored memories removed because their part of a conversation changed. */
  removed: number;
  /** Messages left out: system, tool, hidden, empty, or off the current branch. */
  skipped: number;
  /** Messages cut to fit the content limit (marked `[…]`). */
  truncated: number;
}

/** Conversations whose writes start together: enough turns to keep worker threads busy, few enough to bound memory. */
const WAVE_TURNS = 512;
const WAVE_CONVERSATIONS = 64;
const PAGE = 10_000;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Parse `data` as `source` (no writes). */
export function parseHistory(source: HistorySource, data: HistoryData, file = 'input'): ParsedHistory {
  if (!HISTORY_SOURCES.includes(source)) throw invalid(`Unknown history format "${String(source)}". Use one of: ${HISTORY_SOURCES.join(', ')}.`);
  const text = dataText(data, file);
  if (source === 'chat-jsonl') {
    if (text !== undefined) return parseChatJsonl(text, file);
    if (!Array.isArray(data)) throw invalid(`${file}: chat-jsonl input must be JSON Lines text or an array of line objects. Nothing was imported.`);
    return parseChatJsonl(data, file);
  }
  const json = text !== undefined ? parseJson(text, file) : data;
  if (source === 'chatgpt') return parseChatGPT(json, file);
  if (source === 'claude') return parseClaude(json, file);
  return parseMem0(json, file);
}

/** A session id (or key) from a source and an export id; hashed when the id is too long or has control characters. */
function idFor(prefix: string, id: string, max: number): string {
  const plain = `${prefix}:${id}`;
  if (plain.length <= max && !CONTROL.test(plain) && plain.trim() === plain) return plain;
  return `${prefix}:sha256:${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
}

/** JSON with sorted keys, to compare metadata whatever order it was stored in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Whether a stored memory is exactly what `item` would write. */
function same(m: MemoryRecord, item: AddInput): boolean {
  const at = item.createdAt === undefined ? undefined : new Date(item.createdAt).toISOString();
  const event = item.eventAt === undefined ? null : new Date(item.eventAt).toISOString();
  return (
    m.content === item.content &&
    (at === undefined || m.createdAt.toISOString() === at) &&
    // A memory imported before eventAt existed is rewritten once to gain it.
    (m.eventAt?.toISOString() ?? null) === event &&
    m.category === (item.category ?? null) &&
    canonical(m.metadata) === canonical(item.metadata ?? {})
  );
}

async function listAll(mem: Memory, filter: { namespace: string; sessionId?: string; metadata: Record<string, string> }): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await mem.list({ ...filter, limit: PAGE, offset, order: 'asc', includeExpired: true });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

/** What to write for one conversation. */
interface Plan {
  status: 'added' | 'updated' | 'unchanged';
  turns: ConversationTurn[];
  /** First turn to (re)write; the memories of earlier turns are kept. */
  from: number;
  sessionId: string;
  metadata: Metadata;
  /** The conversation's own time: the `eventAt` of turns without a time of their own. */
  eventAt: string | undefined;
  stale: string[];
  /** Memories the rewrite will create. */
  writes: number;
}

function firstTurnOf(item: AddInput): number {
  const md = item.metadata ?? {};
  return Array.isArray(md.turns) ? Number(md.turns[0]) : Number(md.turn);
}

function storedFirstTurn(m: MemoryRecord): number {
  const md = m.metadata;
  return Array.isArray(md.turns) ? Number(md.turns[0]) : Number(md.turn);
}

async function planConversation(
  mem: Memory,
  source: HistorySource,
  c: HistoryConversation,
  o: HistoryImportOptions & { namespace: string; file: string },
): Promise<Plan> {
  const sessionId = idFor(source, c.id, 256);
  const metadata: Metadata = { source, conversation: c.id, ...(c.title ? { title: c.title } : {}) };
  const turns: ConversationTurn[] = c.messages.map((m) => ({ speaker: m.speaker, content: m.content, ...(m.at ? { at: m.at } : {}) }));
  const eventAt = c.createdAt;
  const opts = {
    sessionId,
    namespace: o.namespace,
    metadata,
    ...(eventAt ? { eventAt } : {}),
    ...(o.category !== undefined ? { category: o.category } : {}),
    ...(o.minWords !== undefined ? { minWords: o.minWords } : {}),
  };
  let items: AddInput[];
  try {
    // Everything is checked before the first write: a bad conversation imports nothing.
    ({ items } = conversationItems(turns, opts));
    items.forEach((it) => checkContent(it.content));
  } catch (err) {
    if (err instanceof MnemoliteError)
      throw invalid(`${o.file}: ${c.where} (conversation ${JSON.stringify(c.id)}): ${err.message} Nothing was imported.`, err.details);
    throw err;
  }
  const existing = await listAll(mem, { namespace: o.namespace, sessionId, metadata: { source } });
  const byFirst = new Map<number, MemoryRecord>();
  for (const m of existing) byFirst.set(storedFirstTurn(m), m);
  // Keep the longest run of memories, from the first turn on, that are exactly what would be written.
  let kept = 0;
  const keep = new Set<string>();
  for (const it of items) {
    const m = byFirst.get(firstTurnOf(it));
    if (!m || keep.has(m.id) || !same(m, it)) break;
    keep.add(m.id);
    kept++;
  }
  const stale = existing.filter((m) => !keep.has(m.id)).map((m) => m.id);
  if (kept === items.length && !stale.length) return { status: 'unchanged', turns, from: turns.length, sessionId, metadata, eventAt, stale, writes: 0 };
  let from = kept < items.length ? firstTurnOf(items[kept]!) : turns.length;
  // The rest is written from turn `from` on; if that alone would not give the same memories as the
  // whole conversation (grouping across the cut), rewrite it all so the next import finds it unchanged.
  if (from < turns.length) {
    const tail = conversationItems(turns.slice(from), { ...opts, firstTurn: from }).items;
    if (canonical(tail) !== canonical(items.slice(kept))) {
      from = 0;
      stale.splice(0, stale.length, ...existing.map((m) => m.id));
    }
  }
  const writes = from === 0 ? items.length : items.length - kept;
  return { status: existing.length ? 'updated' : 'added', turns, from, sessionId, metadata, eventAt, stale, writes };
}

async function writeConversation(mem: Memory, p: Plan, o: HistoryImportOptions & { namespace: string }): Promise<number> {
  // Write first, then remove what it replaces: a failure leaves a duplicate, never a gap.
  if (p.from < p.turns.length) {
    await mem.addConversation(p.turns.slice(p.from), {
      sessionId: p.sessionId,
      namespace: o.namespace,
      metadata: p.metadata,
      firstTurn: p.from,
      ...(p.eventAt ? { eventAt: p.eventAt } : {}),
      ...(o.category !== undefined ? { category: o.category } : {}),
      ...(o.minWords !== undefined ? { minWords: o.minWords } : {}),
    });
  }
  let removed = 0;
  for (const id of p.stale) if (await mem.forget(id, { namespace: o.namespace })) removed++;
  return removed;
}

async function importConversations(
  mem: Memory,
  source: HistorySource,
  convs: HistoryConversation[],
  o: HistoryImportOptions & { namespace: string; file: string },
  res: HistoryImportResult,
): Promise<void> {
  const ids = new Set<string>();
  for (const c of convs) {
    if (ids.has(c.id)) throw invalid(`${o.file}: ${c.where} repeats conversation id ${JSON.stringify(c.id)}. Nothing was imported.`);
    ids.add(c.id);
  }
  const plans: Plan[] = [];
  for (const c of convs) plans.push(await planConversation(mem, source, c, o));
  for (const p of plans) res[p.status]++;
  res.messages = convs.reduce((n, c) => n + c.messages.length, 0);
  res.written = plans.reduce((n, p) => n + p.writes, 0);
  if (o.dryRun) {
    res.removed = plans.reduce((n, p) => n + p.stale.length, 0);
    return;
  }
  const todo = plans.filter((p) => p.status !== 'unchanged');
  // Many short conversations are many small embedding calls: say how much is coming, so a
  // worker-thread embedder starts its workers, and write a wave of conversations at a time.
  mem.embedder?.prepareBulk?.(todo.reduce((n, p) => n + p.turns.length - p.from, 0));
  let done = res.unchanged;
  o.onProgress?.(done, res.total);
  for (let i = 0; i < todo.length; ) {
    const wave: Plan[] = [];
    let turns = 0;
    while (i < todo.length && wave.length < WAVE_CONVERSATIONS && (turns < WAVE_TURNS || !wave.length)) {
      const p = todo[i++]!;
      wave.push(p);
      turns += p.turns.length - p.from;
    }
    const removed = await Promise.all(wave.map((p) => writeConversation(mem, p, o)));
    res.removed += removed.reduce((a, b) => a + b, 0);
    done += wave.length;
    o.onProgress?.(done, res.total);
  }
}

async function importFacts(
  mem: Memory,
  facts: HistoryFact[],
  o: HistoryImportOptions & { namespace: string; file: string },
  res: HistoryImportResult,
): Promise<void> {
  const existing = new Map((await listAll(mem, { namespace: o.namespace, metadata: { source: 'mem0' } })).map((m) => [m.key, m]));
  const items: AddInput[] = [];
  for (const f of facts) {
    const item: AddInput = {
      content: f.content,
      key: idFor('mem0', f.id, 512),
      namespace: o.namespace,
      metadata: { source: 'mem0', ...f.metadata },
      force: true,
      // mem0 extracts a fact when it is said, so its created_at is also when it was stated.
      ...(f.createdAt ? { createdAt: f.createdAt, eventAt: f.createdAt } : {}),
      ...(o.category !== undefined ? { category: o.category } : {}),
    };
    try {
      checkContent(item.content);
      const { content: _c, force: _f, ...opts } = item;
      parseAdd(opts);
    } catch (err) {
      if (err instanceof MnemoliteError)
        throw invalid(`${o.file}: ${f.where} (memory ${JSON.stringify(f.id)}): ${err.message} Nothing was imported.`, err.details);
      throw err;
    }
    const m = existing.get(item.key!);
    if (m && same(m, item)) res.unchanged++;
    else {
      res[m ? 'updated' : 'added']++;
      items.push(item);
    }
  }
  res.messages = facts.length;
  res.written = items.length;
  if (o.dryRun) return;
  mem.embedder?.prepareBulk?.(items.length);
  let done = res.unchanged;
  o.onProgress?.(done, res.total);
  for (let i = 0; i < items.length; i += 500) {
    const batch = items.slice(i, i + 500);
    await mem.addMany(batch);
    done += batch.length;
    o.onProgress?.(done, res.total);
  }
}

/**
 * Import chat history or memories exported from another tool.
 *
 * - `chatgpt`: `conversations.json` of a ChatGPT data export (the current branch of each
 *   conversation's message tree; system, tool and hidden messages left out);
 * - `claude`: `conversations.json` of a Claude data export;
 * - `mem0`: a mem0 memories export (JSON array, or `{ results }`);
 * - `chat-jsonl`: JSON Lines, one `{ conversation, role, content, timestamp }` per message.
 *
 * Each conversation becomes a session (`sessionId` `"<source>:<conversation id>"`) written by
 * {@link Memory.addConversation}: speaker = role (or name), `eventAt` and `createdAt` = the message's
 * time (`eventAt` = the conversation's time for a message without one),
 * `{ source, conversation, title }` in the metadata. mem0 memories become one memory each, keyed
 * `"mem0:<id>"`. The whole input is parsed and checked before anything is written: a malformed
 * input throws `INVALID_INPUT` naming the line or JSON path. Importing the same input again
 * writes nothing; a conversation that changed has only its changed part rewritten.
 *
 * @param data the file's contents (text or bytes), or the already parsed JSON.
 */
export async function importHistory(
  memory: Memory,
  source: HistorySource,
  data: HistoryData,
  options: HistoryImportOptions = {},
): Promise<HistoryImportResult> {
  if (options === null || typeof options !== 'object') throw invalid('importHistory options must be an object.');
  const namespace = options.namespace ?? 'default';
  if (namespace === '*') throw invalid('importHistory needs one namespace, not "*".');
  parseAdd({ namespace, ...(options.category !== undefined ? { category: options.category } : {}) });
  if (options.minWords !== undefined && !(Number.isInteger(options.minWords) && options.minWords >= 0)) throw invalid('minWords must be a whole number ≥ 0.');
  const file = options.file ?? 'input';
  const parsed = parseHistory(source, data, file);
  const o = { ...options, namespace, file };
  const res: HistoryImportResult = {
    source,
    total: source === 'mem0' ? parsed.facts.length : parsed.conversations.length,
    added: 0,
    updated: 0,
    unchanged: 0,
    messages: 0,
    written: 0,
    removed: 0,
    skipped: parsed.skipped,
    truncated: parsed.truncated,
  };
  if (source === 'mem0') await importFacts(memory, parsed.facts, o, res);
  else await importConversations(memory, source, parsed.conversations, o, res);
  return res;
}
