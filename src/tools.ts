/**
 * Memory tools for LLM function calling: plain JSON-Schema definitions plus an executor.
 *
 * The same eight tools back the MCP server (`mnemolite mcp`). Every tool is bound to one
 * namespace chosen by the host program, never by the model: no argument can reach another
 * namespace.
 */
import { z } from 'zod';
import { MnemoliteError, publicMessage, type ErrorCode } from './errors.js';
import { capBytes, poisonKeyIn } from './text/json-bounds.js';
import type { Memory } from './memory/memory.js';
import type { MemoryRecord, NamespaceScope, RecallHit } from './types/memory.js';
import { PROFILE_MAX_BYTES, type Profile } from './types/profile.js';
import { ALL_NAMESPACES, DEFAULT_NAMESPACE, parseScope } from './validate.js';
import { DEFAULT_MIN_RELEVANCE } from './recall/relevance.js';
import { MAX_NEIGHBOURS } from './options/recall.js';

/** Names of the memory tools. */
export type MemoryToolName =
  | 'memory_store'
  | 'memory_recall'
  | 'memory_get'
  | 'memory_list'
  | 'memory_history'
  | 'memory_forget'
  | 'memory_profile'
  | 'memory_profile_update';

/** A JSON Schema object (draft 2020-12 subset that OpenAI, Anthropic, Gemini and MCP accept). */
export type JsonSchema = Record<string, unknown>;

/** A tool definition: what an LLM needs to call the tool. */
export interface ToolDefinition {
  name: MemoryToolName;
  /** One sentence that tells the model when to use the tool. */
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

/** A memory as tools return it (JSON-safe: dates are ISO 8601 strings). */
export interface ToolMemory {
  id: string;
  content: string;
  key: string | null;
  category: string | null;
  sessionId: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** When it happened (ISO 8601), or null when only its storage time is known. */
  eventAt: string | null;
}

/** A recall hit as tools return it. */
export interface ToolHit extends ToolMemory {
  score: number;
  /** Calibrated relevance in [0, 1] (see `RecallHit.relevance`). */
  relevance: number;
  keywordRank?: number;
  vectorRank?: number;
  /** `'outdated'`: another memory replaced this one (shown only with `includeOutdated`); else `'current'`. */
  status: 'current' | 'outdated';
  /** Id of the memory that replaced this one, when outdated. */
  supersededBy?: string;
  /** The closest memory when none reached `minRelevance` (`bestMatch`): a guess, worded as one. */
  lowConfidence?: true;
  /**
   * With `before`/`after`: the turns just before and after this hit in its session, oldest first
   * (context to read the hit in, not matches; a turn shown once per answer).
   */
  neighbours?: { before: ToolMemory[]; after: ToolMemory[] };
}

/** Outcome of {@link MemoryTools.execute}. Never thrown for user or model mistakes: they come back as `ok: false`. */
export type ToolResult =
  | {
      ok: true;
      /** Readable text for the model (what to put in a `tool` message). */
      text: string;
      /** Structured result (JSON-safe). */
      data: Record<string, unknown>;
    }
  | {
      ok: false;
      /** The error message, readable by the model (no server path; storage details left out). */
      text: string;
      /** `{ error: { code, message } }`, with the same message as `text`. */
      data: { error: { code: ErrorCode; message: string } };
      /** The typed error with its full message, for the host's log. */
      error: MnemoliteError;
    };

/**
 * Largest answer of one tool call, in bytes of JSON of its memories (at least one is returned):
 * a model cannot use more, and an MCP message must stay far below its 10 MiB limit. An answer cut
 * short says so (`omitted`, or `nextOffset` to page on).
 */
export const TOOL_ANSWER_BYTES = 1024 * 1024;

/** Options for {@link memoryTools}. */
export interface MemoryToolsOptions {
  /** The only namespace the tools read and write (default `"default"`). `"*"` is refused. */
  namespace?: string;
  /** Session id recorded on memories stored through `memory_store`. */
  sessionId?: string;
  /** Offer only the reading tools (recall, get, list). */
  readOnly?: boolean;
  /**
   * Relevance below which memory_recall returns nothing (default `DEFAULT_MIN_RELEVANCE`, 0.5: on
   * the eval sets ≥ 90% of off-topic questions then get "no relevant memory"). 0 returns every hit.
   */
  minRelevance?: number;
  /**
   * What memory_recall, memory_list and memory_get read, when wider than `namespace` (mem0's user
   * scope over its agents): a prefix such as `"user-1/*"` or a list of namespaces. Writes stay in
   * `namespace`; the model still cannot name a namespace. Hits then carry their namespace.
   */
  readScope?: NamespaceScope;
  /**
   * When nothing reaches `minRelevance`, memory_recall returns the closest memory (relevance ≥ 0.4)
   * worded as a low-confidence guess instead of "nothing" (default true). A person's facts asked in
   * other words often score below the threshold while ranking first; false answers "nothing".
   */
  bestMatch?: boolean;
  /**
   * memory_recall shows memories another memory replaced (marked outdated) instead of leaving them
   * out (default false). The model can also ask per call (`includeOutdated`).
   */
  includeOutdated?: boolean;
}

/** An OpenAI Chat Completions tool (`tools: [...]`). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** An OpenAI Responses API tool (`tools: [...]`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A Vercel AI SDK tool (`tools: { name: tool }`), built without depending on the `ai` package. */
export interface AISDKTool<S = JsonSchema> {
  description: string;
  inputSchema: S;
  execute: (args: unknown) => Promise<Record<string, unknown>>;
}

/** What {@link memoryTools} returns. */
export interface MemoryTools {
  /** The namespace every tool is bound to. */
  readonly namespace: string;
  /** Tool definitions (name, description, JSON-Schema parameters). */
  readonly definitions: ToolDefinition[];
  /**
   * Run a tool. `args` is an object or a JSON string (as OpenAI sends `function.arguments`).
   * Invalid arguments and errors such as an unknown id come back as `{ ok: false, error }`.
   */
  execute(name: string, args?: unknown): Promise<ToolResult>;
  /** Definitions for OpenAI-style function calling (Chat Completions by default, or the Responses API). */
  toOpenAITools(options?: { api?: 'chat' }): OpenAIChatTool[];
  toOpenAITools(options: { api: 'responses' }): OpenAIResponsesTool[];
  /**
   * Tools for the Vercel AI SDK (`generateText({ tools })`). Pass the SDK's `jsonSchema` helper so
   * `inputSchema` is in the form the SDK expects: `toAISDKTools(jsonSchema)`.
   * `execute` resolves to the structured result (or `{ error: { code, message } }`).
   */
  toAISDKTools<S = JsonSchema>(wrapSchema?: (schema: JsonSchema) => S): Record<MemoryToolName, AISDKTool<S>>;
}

// ---- schemas ------------------------------------------------------------------------

const DATE_HINT = 'ISO 8601 date or time, e.g. "2026-03-01" or "2026-03-01T12:00:00Z"';

/** Input schemas (zod), the single source for the JSON Schemas and for validation. @internal */
export const inputSchemas = {
  memory_store: z
    .object({
      content: z.string().min(1).describe('The text to remember: one self-contained fact, preference or event, written so it makes sense out of context.'),
      key: z
        .string()
        .min(1)
        .max(512)
        .optional()
        .describe('Optional stable name, e.g. "user-timezone". Storing again with the same key replaces that memory (use it for facts that change).'),
      category: z.string().min(1).max(128).optional().describe('Optional label, e.g. "preference", "fact", "event", "task".'),
      metadata: z.record(z.string(), z.unknown()).optional().describe('Optional JSON object of extra fields, e.g. {"source": "user"}.'),
      ttl: z.string().optional().describe('Optional lifetime after which the memory is forgotten, e.g. "7d", "12h", "1y". For temporary facts.'),
      expiresAt: z.string().optional().describe(`Optional time after which the memory is forgotten: ${DATE_HINT}.`),
      pinned: z.boolean().optional().describe('Pin a memory that must never expire or be pruned (e.g. core identity facts).'),
      importance: z.number().min(0).max(1).optional().describe('Optional importance from 0 to 1 (default unset).'),
      eventAt: z
        .string()
        .optional()
        .describe(`Optional time the fact or event happened, when not now (e.g. the meeting's date, "last Tuesday" resolved to a date): ${DATE_HINT}.`),
      supersedes: z
        .string()
        .min(1)
        .optional()
        .describe('Id of an older memory this one replaces (e.g. an outdated value); the old one then ranks below this one.'),
    })
    .strict(),
  memory_recall: z
    .object({
      query: z.string().min(1).describe('What to look for, in natural language or keywords.'),
      limit: z.number().int().min(1).max(50).optional().describe('Maximum results (1-50, default 5).'),
      mode: z
        .enum(['hybrid', 'keyword', 'vector'])
        .optional()
        .describe('"hybrid" (default: keywords + meaning), "keyword" (exact words) or "vector" (meaning only).'),
      since: z.string().optional().describe(`Only memories that happened at or after this time (event time, else when stored): ${DATE_HINT}.`),
      until: z.string().optional().describe(`Only memories that happened before this time (event time, else when stored): ${DATE_HINT}.`),
      category: z.string().min(1).max(128).optional().describe('Only memories with this category.'),
      minRelevance: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe('Only memories at least this relevant, 0 to 1 (default 0.5; 0 returns the best matches even when none is relevant).'),
      includeOutdated: z
        .boolean()
        .optional()
        .describe(
          'Also show memories that a newer one replaced, marked outdated (default false: only current ones), e.g. to answer "where did I live before?".',
        ),
      before: z
        .number()
        .int()
        .min(0)
        .max(MAX_NEIGHBOURS)
        .optional()
        .describe(`Also show up to this many turns before each hit in its conversation (0-${MAX_NEIGHBOURS}, default 0), to read a chat answer in context.`),
      after: z
        .number()
        .int()
        .min(0)
        .max(MAX_NEIGHBOURS)
        .optional()
        .describe(`Also show up to this many turns after each hit in its conversation (0-${MAX_NEIGHBOURS}, default 0), e.g. the answer to a question.`),
    })
    .strict(),
  memory_get: z
    .object({
      id: z.string().min(1).describe('The memory id, as returned by memory_recall, memory_list or memory_store.'),
    })
    .strict(),
  memory_list: z
    .object({
      limit: z.number().int().min(1).max(100).optional().describe('Maximum memories (1-100, default 20).'),
      offset: z.number().int().min(0).optional().describe('Memories to skip, for paging (default 0).'),
      category: z.string().min(1).max(128).optional().describe('Only memories with this category.'),
      since: z.string().optional().describe(`Only memories that happened at or after this time (event time, else when stored): ${DATE_HINT}.`),
      until: z.string().optional().describe(`Only memories that happened before this time (event time, else when stored): ${DATE_HINT}.`),
    })
    .strict(),
  memory_history: z
    .object({
      id: z.string().min(1).describe('The memory id whose earlier versions to show.'),
      limit: z.number().int().min(1).max(100).optional().describe('Maximum versions (1-100, default 20).'),
      offset: z.number().int().min(0).optional().describe('Versions to skip, oldest first, for paging (default 0).'),
    })
    .strict(),
  memory_forget: z
    .object({
      id: z.string().min(1).describe('The id of the memory to delete.'),
    })
    .strict(),
  memory_profile: z.object({}).strict(),
  memory_profile_update: z
    .object({
      content: z
        .string()
        .max(PROFILE_MAX_BYTES)
        .describe(`The whole new profile (Markdown, at most ${PROFILE_MAX_BYTES} bytes): keep every line still true, change what changed; "" clears it.`),
      expectedVersion: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('The version memory_profile returned; if someone changed the profile since, nothing is written and you get the new one to merge into.'),
    })
    .strict(),
} as const;

const memoryOut = z.object({
  id: z.string(),
  content: z.string(),
  key: z.string().nullable(),
  category: z.string().nullable(),
  sessionId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
  eventAt: z.string().nullable(),
  /** Set when the tools read several namespaces (`readScope`). */
  namespace: z.string().optional(),
});

/** Output schemas (zod) of the structured results, used by the MCP server. @internal */
export const outputSchemas = {
  memory_store: z.object({ id: z.string(), replaced: z.boolean(), deduplicated: z.enum(['exact', 'merged']).optional() }),
  memory_recall: z.object({
    query: z.string(),
    count: z.number().int(),
    omitted: z.number().int().optional(),
    hits: z.array(
      memoryOut.extend({
        score: z.number(),
        relevance: z.number(),
        keywordRank: z.number().int().optional(),
        vectorRank: z.number().int().optional(),
        status: z.enum(['current', 'outdated']),
        supersededBy: z.string().optional(),
        lowConfidence: z.literal(true).optional(),
        neighbours: z.object({ before: z.array(memoryOut), after: z.array(memoryOut) }).optional(),
      }),
    ),
  }),
  memory_get: z.object({ memory: memoryOut }),
  memory_list: z.object({
    count: z.number().int(),
    total: z.number().int(),
    offset: z.number().int(),
    nextOffset: z.number().int().optional(),
    memories: z.array(memoryOut),
  }),
  memory_history: z.object({
    id: z.string(),
    offset: z.number().int(),
    nextOffset: z.number().int().optional(),
    versions: z.array(
      z.object({
        id: z.string(),
        content: z.string(),
        validFrom: z.string(),
        validUntil: z.string().nullable(),
        current: z.boolean(),
        endedBy: z.enum(['updated', 'superseded']).optional(),
      }),
    ),
  }),
  memory_forget: z.object({ id: z.string(), forgotten: z.boolean() }),
  memory_profile: z.object({ content: z.string(), version: z.number().int(), updatedAt: z.string().nullable() }),
  memory_profile_update: z.object({ content: z.string(), version: z.number().int(), updatedAt: z.string().nullable() }),
} as const;

/**
 * One-line descriptions an LLM understands: what the tool does, then when to call it. The
 * when-to-use guidance lives here (not only in the MCP server instructions) because many clients
 * show the model tool descriptions and drop server instructions. @internal
 */
export const descriptions: Record<MemoryToolName, string> = {
  memory_store:
    'Save a fact, preference or event to long-term memory so it can be recalled in later conversations. ' +
    'Use when: the user states something durable (a preference, a decision, a fact about them or their work) or asks you to remember it; ' +
    'store one short self-contained fact per call, with a key for facts that change. Not for small talk or what is only needed in this conversation.',
  memory_recall:
    'Search long-term memory for what is relevant to a query; returns the best matching memories with their ids. ' +
    'Use when: before answering a question about the user, their preferences or past work, and before storing, to check whether the fact is already known.',
  memory_get:
    'Fetch one memory in full (content, category, metadata, dates) by its id. ' +
    "Use when: you have an id from memory_recall or memory_list and need that memory's details.",
  memory_list:
    'List stored memories, newest first, optionally only one category or time range. ' +
    'Use when: the user asks what you remember, or you need recent memories without a search query; to find something specific, use memory_recall.',
  memory_history:
    'Show what a memory said before: its earlier versions, oldest first, with when each was current. ' +
    'Use when: the user asks what something used to be or when it changed.',
  memory_forget:
    'Permanently delete one memory by its id, e.g. when it is wrong or outdated. ' +
    'Use when: the user asks you to forget something, or a memory is wrong; for a changed fact, prefer memory_store with the same key (keeps its history).',
  memory_profile:
    'Read the profile: the short always-current document about the user (name, city, job, partner, diet, allergies) and its version. ' +
    'Use when: before memory_profile_update, to get the current text and version.',
  memory_profile_update:
    'Rewrite the profile (working memory) in full: the always-current core facts about the user, kept short. ' +
    'Use when: a core fact is learnt or changes ("moved to Porto"); pass the version memory_profile gave. Other facts go to memory_store.',
};

/** Tools that change the memory file. @internal */
export const WRITE_TOOLS: ReadonlySet<MemoryToolName> = new Set(['memory_store', 'memory_forget', 'memory_profile_update']);

/** Every tool name, in a stable order. */
export const MEMORY_TOOL_NAMES: readonly MemoryToolName[] = [
  'memory_store',
  'memory_recall',
  'memory_get',
  'memory_list',
  'memory_history',
  'memory_forget',
  'memory_profile',
  'memory_profile_update',
];

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return rest;
}

// ---- formatting ---------------------------------------------------------------------

/** A memory as JSON-safe data. @internal */
export function toToolMemory(m: MemoryRecord): ToolMemory {
  return {
    id: m.id,
    content: m.content,
    key: m.key,
    category: m.category,
    sessionId: m.sessionId,
    metadata: m.metadata,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    eventAt: m.eventAt ? m.eventAt.toISOString() : null,
  };
}

function toToolHit(h: RecallHit): ToolHit {
  const out: ToolHit = { ...toToolMemory(h), score: h.score, relevance: h.relevance, status: h.supersededBy ? 'outdated' : 'current' };
  if (h.keywordRank !== undefined) out.keywordRank = h.keywordRank;
  if (h.vectorRank !== undefined) out.vectorRank = h.vectorRank;
  if (h.supersededBy) out.supersededBy = h.supersededBy;
  if (h.lowConfidence) out.lowConfidence = true;
  if (h.neighbours) out.neighbours = { before: h.neighbours.before.map(toToolMemory), after: h.neighbours.after.map(toToolMemory) };
  return out;
}

const when = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const indent = (s: string, pad: string): string => s.replace(/\r?\n/g, `\n${pad}`);

function describeLine(m: ToolMemory): string {
  const hit = 'status' in m ? (m as ToolHit) : null;
  const status = hit ? [hit.status === 'outdated' ? `OUTDATED (replaced by ${hit.supersededBy})` : 'current'] : [];
  const parts = [...status, `id: ${m.id}`, ...(m.eventAt ? [`happened: ${when(m.eventAt)}`] : []), `created: ${when(m.createdAt)}`];
  if (m.category) parts.push(`category: ${m.category}`);
  if (m.key) parts.push(`key: ${m.key}`);
  if ('relevance' in m) parts.push(`relevance: ${(m as ToolHit).relevance.toFixed(2)}`);
  return parts.join(' | ');
}

function numbered(items: ToolMemory[]): string {
  return items.map((m, i) => `${i + 1}. ${indent(m.content, '   ')}\n   ${describeLine(m)}${aroundText(m)}`).join('\n');
}

/** The turns around a hit, under it, marked as context (they are not matches). */
function aroundText(m: ToolMemory): string {
  const n = (m as ToolHit).neighbours;
  if (!n || (!n.before.length && !n.after.length)) return '';
  const turn = (t: ToolMemory, side: string): string => `\n     ${side} ${indent(t.content, '       ')} (${when(t.eventAt ?? t.createdAt)})`;
  return `\n   context, the turns around it in its conversation (not matches), oldest first:${n.before.map((t) => turn(t, '[before]')).join('')}${n.after.map((t) => turn(t, '[after]')).join('')}`;
}

// ---- validation ---------------------------------------------------------------------

function argError(tool: string, issues: z.core.$ZodIssue[]): MnemoliteError {
  const first = issues[0]!;
  const path = first.path.map(String).join('.');
  let msg: string;
  if (first.code === 'unrecognized_keys') {
    const keys = (first as { keys?: string[] }).keys ?? [];
    const allowed = Object.keys((inputSchemas as Record<string, z.ZodObject>)[tool]!.shape).join(', ');
    msg = keys.includes('namespace')
      ? `${tool} does not take a namespace: the host fixed it. Allowed arguments: ${allowed}.`
      : `${tool} got unknown argument(s) ${keys.map((k) => `"${k}"`).join(', ')}. Allowed arguments: ${allowed}.`;
  } else if (first.code === 'invalid_type' && first.input === undefined) {
    msg = `${tool} needs the argument "${path}".`;
  } else {
    msg = `${tool}: argument "${path || 'arguments'}" ${first.message.replace(/^Invalid input: /, '').replace(/^./, (c) => c.toLowerCase())}.`;
  }
  return new MnemoliteError('INVALID_INPUT', msg, { tool, field: path });
}

function parseArgs(tool: MemoryToolName, args: unknown): Record<string, unknown> {
  let value = args ?? {};
  if (typeof value === 'string') {
    const s = value.trim();
    try {
      value = s ? JSON.parse(s) : {};
    } catch {
      throw new MnemoliteError('INVALID_INPUT', `${tool}: the arguments are not valid JSON. Pass a JSON object such as {"query": "..."}.`, { tool });
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MnemoliteError('INVALID_INPUT', `${tool}: the arguments must be a JSON object.`, { tool });
  }
  // zod (and any object spread) drops such a key silently; HTTP refuses it, so the tools do too.
  if (poisonKeyIn(value) !== null)
    throw new MnemoliteError('INVALID_INPUT', `${tool}: the arguments use the forbidden key "__proto__" or "constructor.prototype"; rename it.`, { tool });
  const r = inputSchemas[tool].safeParse(value);
  if (!r.success) throw argError(tool, r.error.issues);
  return r.data as Record<string, unknown>;
}

const defined = <T extends Record<string, unknown>>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Whether `ns` is inside a read scope (one name, a `prefix*`, or a list). */
function inReadScope(scope: NamespaceScope, ns: string): boolean {
  if (typeof scope !== 'string') return scope.includes(ns);
  return scope.length > 1 && scope.endsWith('*') ? ns.startsWith(scope.slice(0, -1)) : scope === ns;
}

function profileAnswer(p: Profile, head: string): { text: string; data: Record<string, unknown> } {
  const data = { content: p.content, version: p.version, updatedAt: p.updatedAt ? p.updatedAt.toISOString() : null };
  const text = p.version
    ? `${head} (version ${p.version}, ${when(data.updatedAt!)}):\n${p.content || '(empty)'}`
    : 'No profile yet (version 0). Write one with memory_profile_update.';
  return { text, data };
}

// ---- executor -----------------------------------------------------------------------

/**
 * Tool definitions and an executor for LLM function calling, bound to one namespace.
 *
 * @example OpenAI Chat Completions
 * const tools = memoryTools(mem, { namespace: 'user-42' });
 * const res = await openai.chat.completions.create({ model, messages, tools: tools.toOpenAITools() });
 * for (const call of res.choices[0].message.tool_calls ?? []) {
 *   const r = await tools.execute(call.function.name, call.function.arguments);
 *   messages.push({ role: 'tool', tool_call_id: call.id, content: r.text });
 * }
 *
 * @example Vercel AI SDK
 * import { generateText, jsonSchema, stepCountIs } from 'ai';
 * await generateText({ model, prompt, tools: memoryTools(mem).toAISDKTools(jsonSchema), stopWhen: stepCountIs(5) });
 */
export function memoryTools(mem: Memory, options: MemoryToolsOptions = {}): MemoryTools {
  if (!mem || typeof (mem as Partial<Memory>).recall !== 'function')
    throw new MnemoliteError('INVALID_INPUT', 'memoryTools expects a Memory from openMemory().');
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  if (typeof namespace !== 'string' || !namespace.trim() || namespace === ALL_NAMESPACES) {
    throw new MnemoliteError(
      'INVALID_INPUT',
      `memoryTools needs one concrete namespace (got ${JSON.stringify(namespace)}); "*" would let the model reach every namespace.`,
    );
  }
  parseScope({ namespace });
  if (namespace.endsWith('*'))
    throw new MnemoliteError(
      'INVALID_INPUT',
      `memoryTools writes to one namespace, not a pattern ("${namespace}"); to read wider, pass readScope: "${namespace}".`,
    );
  const readScope = options.readScope ?? namespace;
  if (options.readScope !== undefined) {
    const names: unknown = typeof options.readScope === 'string' ? [options.readScope] : options.readScope;
    if (!Array.isArray(names) || !names.length)
      throw new MnemoliteError('INVALID_INPUT', 'memoryTools: readScope must be a namespace, a prefix such as "user-1/*", or a list of namespaces.');
    for (const n of names) {
      parseScope({ namespace: n });
      if (n === ALL_NAMESPACES)
        throw new MnemoliteError('INVALID_INPUT', 'memoryTools: readScope must not be "*": it would let the model read every namespace.');
    }
  }
  const multi =
    options.readScope !== undefined && (Array.isArray(options.readScope) || (typeof options.readScope === 'string' && options.readScope.endsWith('*')));
  const sessionId = options.sessionId;
  const minRelevance = options.minRelevance ?? DEFAULT_MIN_RELEVANCE;
  if (typeof minRelevance !== 'number' || !(minRelevance >= 0 && minRelevance <= 1)) {
    throw new MnemoliteError('INVALID_INPUT', `memoryTools: minRelevance must be a number from 0 to 1, got ${String(minRelevance)}.`);
  }
  const bestMatch = options.bestMatch ?? true;
  const includeOutdatedDefault = options.includeOutdated ?? false;
  const readOnly = !!options.readOnly || mem.readonly;
  const names = MEMORY_TOOL_NAMES.filter((n) => !(readOnly && WRITE_TOOLS.has(n)));
  const definitions: ToolDefinition[] = names.map((name) => ({ name, description: descriptions[name], parameters: jsonSchemaOf(inputSchemas[name]) }));
  const scope = { namespace };

  const run = async (tool: MemoryToolName, a: Record<string, unknown>): Promise<{ text: string; data: Record<string, unknown> }> => {
    switch (tool) {
      case 'memory_store': {
        const r = await mem.add(
          a.content as string,
          defined({
            namespace,
            key: a.key as string | undefined,
            category: a.category as string | undefined,
            metadata: a.metadata as Record<string, unknown> | undefined,
            sessionId,
            // What an agent chooses to store is a standalone fact, not a chat turn: no conversational context.
            contextWindow: 0,
            ttl: a.ttl as string | undefined,
            expiresAt: a.expiresAt as string | undefined,
            pinned: a.pinned as boolean | undefined,
            importance: a.importance as number | undefined,
            eventAt: a.eventAt as string | undefined,
            supersedes: a.supersedes as string | undefined,
          }),
        );
        const data: Record<string, unknown> = { id: r.id, replaced: r.replaced };
        if (r.deduplicated) data.deduplicated = r.deduplicated;
        const text =
          r.deduplicated === 'exact'
            ? `Already remembered as memory ${r.id}; nothing new was stored.`
            : r.deduplicated === 'merged'
              ? `Merged into the similar memory ${r.id} (its content is now the new text).`
              : r.replaced
                ? `Replaced the memory with key "${String(a.key)}" (id ${r.id}).`
                : `Stored memory ${r.id}.`;
        return { text, data };
      }
      case 'memory_recall': {
        const query = a.query as string;
        const limit = (a.limit as number | undefined) ?? 5;
        const withOutdated = (a.includeOutdated as boolean | undefined) ?? includeOutdatedDefault;
        const hits = (
          await mem.recall(
            query,
            defined({
              namespace: readScope,
              limit,
              // Left out before the cut to limit, so a replaced fact never costs a current one its place.
              excludeSuperseded: !withOutdated,
              bestMatch,
              mode: a.mode as 'hybrid' | 'keyword' | 'vector' | undefined,
              since: a.since as string | undefined,
              until: a.until as string | undefined,
              category: a.category as string | undefined,
              minRelevance: (a.minRelevance as number | undefined) ?? minRelevance,
              neighbours: a.before || a.after ? defined({ before: a.before as number | undefined, after: a.after as number | undefined }) : undefined,
            }),
          )
        ).map((h) => (multi ? { ...toToolHit(h), namespace: h.namespace } : toToolHit(h)));
        const shown = capBytes(hits, TOOL_ANSWER_BYTES);
        const omitted = hits.length - shown.length;
        const more = omitted ? `\n(${omitted} more left out: the answer is limited to about 1 MiB; ask for fewer with limit.)` : '';
        const text = !shown.length
          ? `No relevant memory for "${query}".`
          : shown[0]!.lowConfidence
            ? `No memory is clearly relevant to "${query}". Closest (low confidence, relevance ${shown[0]!.relevance.toFixed(2)}; use it only if it fits):\n${numbered(shown)}`
            : `${shown.length} ${shown.length === 1 ? 'memory matches' : 'memories match'} "${query}" (best first):\n${numbered(shown)}${more}`;
        return { text, data: { query, count: shown.length, ...(omitted ? { omitted } : {}), hits: shown } };
      }
      case 'memory_get': {
        const found = multi ? await mem.get(a.id as string) : await mem.get(a.id as string, scope);
        const m = found && inReadScope(readScope, found.namespace) ? found : null;
        if (!m) throw new MnemoliteError('NOT_FOUND', `No memory with id ${String(a.id)}. Find ids with memory_recall or memory_list.`, { id: a.id });
        const t = toToolMemory(m);
        const meta = Object.keys(t.metadata).length ? `\nmetadata: ${JSON.stringify(t.metadata)}` : '';
        const session = t.sessionId ? ` | session: ${t.sessionId}` : '';
        return { text: `${t.content}\n\n${describeLine(t)} | updated: ${when(t.updatedAt)}${session}${meta}`, data: { memory: t } };
      }
      case 'memory_list': {
        const filter = defined({
          namespace: readScope,
          category: a.category as string | undefined,
          since: a.since as string | undefined,
          until: a.until as string | undefined,
        });
        const offset = (a.offset as number | undefined) ?? 0;
        // The page and its total in one snapshot.
        const got = await mem.listWithTotal({ ...filter, limit: (a.limit as number | undefined) ?? 20, offset });
        const page = got.memories.map((m) => (multi ? { ...toToolMemory(m), namespace: m.namespace } : toToolMemory(m)));
        const total = got.total;
        const rows = capBytes(page, TOOL_ANSWER_BYTES);
        const next = rows.length < page.length ? offset + rows.length : undefined;
        const more = next !== undefined ? `\n(The answer is limited to about 1 MiB: list again with offset ${next} for the rest.)` : '';
        const text = rows.length
          ? `${rows.length} of ${total} ${total === 1 ? 'memory' : 'memories'}, newest first${offset ? ` (skipping ${offset})` : ''}:\n${numbered(rows)}${more}`
          : total
            ? `No memories at offset ${offset}; there are ${total}.`
            : 'No memories stored yet.';
        return { text, data: { count: rows.length, total, offset, ...(next !== undefined ? { nextOffset: next } : {}), memories: rows } };
      }
      case 'memory_history': {
        const offset = (a.offset as number | undefined) ?? 0;
        const limit = (a.limit as number | undefined) ?? 20;
        // One more than asked tells whether another page follows.
        const versions = await mem.history(a.id as string, { ...scope, offset, limit: limit + 1 });
        if (!versions.length && !(offset > 0 && (await mem.get(a.id as string, { ...scope, includeExpired: true }))))
          throw new MnemoliteError('NOT_FOUND', `No memory with id ${String(a.id)}. Find ids with memory_recall or memory_list.`, { id: a.id });
        const shown = capBytes(versions.slice(0, limit), TOOL_ANSWER_BYTES);
        const next = shown.length < versions.length ? offset + shown.length : undefined;
        const out = shown.map((v) => ({
          id: v.id,
          content: v.content,
          validFrom: v.validFrom.toISOString(),
          validUntil: v.validUntil ? v.validUntil.toISOString() : null,
          current: v.current,
          ...(v.endedBy ? { endedBy: v.endedBy } : {}),
        }));
        const text = out
          .map(
            (v, i) =>
              `${i + 1}. ${v.current ? '(current) ' : ''}${v.content}\n   ${v.validFrom.slice(0, 10)} → ${v.validUntil ? v.validUntil.slice(0, 10) : 'now'}${v.endedBy ? ` (${v.endedBy})` : ''}`,
          )
          .join('\n');
        const head = `${out.length} ${out.length === 1 ? 'version' : 'versions'}, oldest first${offset ? ` (skipping ${offset})` : ''}:`;
        const more = next !== undefined ? `\n(More versions follow: call again with offset ${next}.)` : '';
        return {
          text: out.length ? `${head}\n${text}${more}` : `No versions at offset ${offset}.`,
          data: { id: a.id as string, offset, ...(next !== undefined ? { nextOffset: next } : {}), versions: out },
        };
      }
      case 'memory_forget': {
        const gone = await mem.forget(a.id as string, scope);
        if (!gone)
          throw new MnemoliteError('NOT_FOUND', `No memory with id ${String(a.id)}; nothing was deleted. Find ids with memory_recall or memory_list.`, {
            id: a.id,
          });
        return { text: `Forgot memory ${String(a.id)}.`, data: { id: a.id as string, forgotten: true } };
      }
      case 'memory_profile':
        return profileAnswer(await mem.profile.get(scope), 'Profile');
      case 'memory_profile_update': {
        const expectedVersion = a.expectedVersion as number | undefined;
        try {
          const p = await mem.profile.set(a.content as string, defined({ namespace, expectedVersion }));
          return profileAnswer(p, 'Profile saved');
        } catch (err) {
          if (!(err instanceof MnemoliteError && err.code === 'CONFLICT')) throw err;
          // Give the model what it must merge into, so its next call can succeed.
          const now = await mem.profile.get(scope);
          throw new MnemoliteError(
            'CONFLICT',
            `The profile changed since version ${String(expectedVersion)}; nothing was written. It is now version ${now.version}:\n${now.content}\nMerge your change into it and call memory_profile_update again with expectedVersion ${now.version}.`,
            { version: now.version },
          );
        }
      }
    }
  };

  const execute = async (name: string, args?: unknown): Promise<ToolResult> => {
    try {
      if (!(MEMORY_TOOL_NAMES as readonly string[]).includes(name)) {
        throw new MnemoliteError('INVALID_INPUT', `Unknown tool "${String(name)}". Available: ${names.join(', ')}.`, { tool: name });
      }
      const tool = name as MemoryToolName;
      if (!names.includes(tool))
        throw new MnemoliteError('READ_ONLY', `${tool} is not available: this memory is read-only. Use ${names.join(', ')}.`, { tool });
      const r = await run(tool, parseArgs(tool, args));
      return { ok: true, ...r };
    } catch (err) {
      if (!(err instanceof MnemoliteError)) throw err;
      // A model (and whoever reads its output) sees no server path and no storage details.
      const message = publicMessage(err, [mem.path]);
      return { ok: false, text: `Error (${err.code}): ${message}`, data: { error: { code: err.code, message } }, error: err };
    }
  };

  function toOpenAITools(o?: { api?: 'chat' }): OpenAIChatTool[];
  function toOpenAITools(o: { api: 'responses' }): OpenAIResponsesTool[];
  function toOpenAITools(o: { api?: 'chat' | 'responses' } = {}): OpenAIChatTool[] | OpenAIResponsesTool[] {
    if (o.api === 'responses')
      return definitions.map((d) => ({ type: 'function' as const, name: d.name, description: d.description, parameters: structuredClone(d.parameters) }));
    return definitions.map((d) => ({
      type: 'function' as const,
      function: { name: d.name, description: d.description, parameters: structuredClone(d.parameters) },
    }));
  }

  return {
    namespace,
    definitions,
    execute,
    toOpenAITools,
    toAISDKTools<S = JsonSchema>(wrapSchema?: (schema: JsonSchema) => S) {
      const wrap = wrapSchema ?? ((s: JsonSchema) => s as unknown as S);
      const out = {} as Record<MemoryToolName, AISDKTool<S>>;
      for (const d of definitions) {
        out[d.name] = {
          description: d.description,
          inputSchema: wrap(structuredClone(d.parameters)),
          execute: async (args: unknown) => (await execute(d.name, args)).data,
        };
      }
      return out;
    },
  };
}
