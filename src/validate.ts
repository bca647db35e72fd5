import { z } from 'zod';
import { MnemoliteError, invalid } from './errors.js';
import type { RowFilter } from './types/rows.js';
import { ALL_NAMESPACES, namespaceFor, type NamespacedVerb } from './namespaces.js';
import { isoDate as dateLike } from './zod-dates.js';
import { lifecycleAddShape, lifecycleRecallShape, lifecycleUpdateShape } from './options/lifecycle.js';
import { relevanceRecallShape } from './options/recall.js';

/** Largest content accepted, in UTF-8 bytes. Split longer documents into several memories. */
export const MAX_CONTENT_BYTES = 100_000;
/** Largest metadata accepted, as JSON, in bytes. */
export const MAX_METADATA_BYTES = 64_000;
/** Largest recall query accepted, in characters (only the first terms are used anyway). */
export const MAX_QUERY_CHARS = 100_000;
/** Deepest nesting of objects and arrays accepted in metadata (SQLite's JSON functions stop at 1000). */
export const MAX_METADATA_DEPTH = 64;
/** Largest conversational context window accepted (memories of the session before a new one). */
export const MAX_CONTEXT_WINDOW = 10;
export { ALL_NAMESPACES, DEFAULT_NAMESPACE } from './namespaces.js';

const CONTROL = /[\u0000-\u001f\u007f]/;

function wellFormed(s: string): boolean {
  return (s as string & { isWellFormed(): boolean }).isWellFormed();
}

/** A short label: namespace, key, category, session id. */
const label = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim().length > 0, 'must not be blank')
    .refine((s) => !CONTROL.test(s), 'must not contain control characters (tab, newline, NUL, ...)')
    .refine(wellFormed, 'must be valid Unicode (no lone surrogates)');

/** Check that metadata is a plain JSON object: no functions, cycles, NaN, BigInt, class instances. */
function checkJson(v: unknown, path: string, seen: Set<unknown>, depth = 0): string | null {
  if (depth > MAX_METADATA_DEPTH) return `${path.slice(0, 80)}... is nested more than ${MAX_METADATA_DEPTH} levels deep`;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') {
    if (typeof v === 'string' && !wellFormed(v)) return `${path} is not valid Unicode (lone surrogate)`;
    return null;
  }
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${path} is ${v}, which JSON cannot hold`;
  if (typeof v !== 'object') return `${path} is a ${typeof v}, which JSON cannot hold`;
  if (seen.has(v)) return `${path} is a circular reference`;
  seen.add(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = checkJson(v[i], `${path}[${i}]`, seen, depth + 1);
      if (e) return e;
    }
  } else {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null)
      return `${path} is a ${(v as object).constructor?.name ?? 'class instance'}; use plain objects, arrays, strings, numbers, booleans and null`;
    for (const [k, x] of Object.entries(v)) {
      if (!wellFormed(k)) return `${path} has a key that is not valid Unicode`;
      const e = checkJson(x, `${path}.${k}`, seen, depth + 1);
      if (e) return e;
    }
  }
  seen.delete(v);
  return null;
}

const metadata = z.unknown().transform((v, ctx) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    ctx.addIssue({ code: 'custom', message: 'must be a plain object such as { "source": "chat" }' });
    return z.NEVER;
  }
  const err = checkJson(v, 'metadata', new Set());
  if (err) {
    ctx.addIssue({ code: 'custom', message: `must be JSON-serialisable: ${err}` });
    return z.NEVER;
  }
  const json = JSON.stringify(v);
  if (Buffer.byteLength(json) > MAX_METADATA_BYTES) {
    ctx.addIssue({ code: 'custom', message: `is ${Buffer.byteLength(json)} bytes as JSON; the limit is ${MAX_METADATA_BYTES}` });
    return z.NEVER;
  }
  return json;
});

const META_KEY = /^[A-Za-z0-9_-]{1,64}$/;
const metadataFilter = z
  .record(
    z.string(),
    z.union([z.string(), z.number().refine(Number.isFinite, 'must be finite'), z.boolean(), z.null()], {
      message: 'must be a string, a finite number, a boolean or null',
    }),
  )
  .superRefine((o, ctx) => {
    for (const k of Object.keys(o)) {
      if (!META_KEY.test(k)) ctx.addIssue({ code: 'custom', message: `key "${k.slice(0, 40)}" may only use letters, digits, _ and - (1-64 characters)` });
    }
  })
  .transform((o) => Object.entries(o).map(([k, v]) => [`$."${k}"`, v] as [string, string | number | boolean | null]));

const filterShape = {
  namespace: label(128).optional(),
  category: label(128).optional(),
  sessionId: label(256).optional(),
  since: dateLike.optional(),
  until: dateLike.optional(),
  timeField: z.enum(['event', 'created'], { message: 'must be "event" or "created"' }).optional(),
  metadata: metadataFilter.optional(),
};

const intIn = (min: number, max: number) => z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

const addSchema = z
  .object({
    namespace: label(128)
      .refine(
        (s) => s !== ALL_NAMESPACES && !s.endsWith('*'),
        'must not end in "*": reading takes "*" as every namespace and "user-1/*" as a prefix, so such a name could never be read alone',
      )
      .optional(),
    key: label(512).optional(),
    category: label(128).optional(),
    sessionId: label(256).optional(),
    contextWindow: intIn(0, MAX_CONTEXT_WINDOW).optional(),
    metadata: metadata.optional(),
    createdAt: dateLike.optional(),
    eventAt: dateLike.optional(),
    ...lifecycleAddShape,
  })
  .strict();

const recallSchema = z
  .object({
    ...filterShape,
    limit: intIn(1, 1000).optional(),
    mode: z.enum(['hybrid', 'keyword', 'vector'], { message: 'must be "hybrid", "keyword" or "vector"' }).optional(),
    rrfK: z
      .number()
      .refine(Number.isFinite, 'must be finite')
      .refine((n) => n > 0 && n <= 100_000, 'must be between 0 (exclusive) and 100000')
      .optional(),
    candidates: intIn(1, 10_000).optional(),
    exact: z.boolean().optional(),
    fusion: z.enum(['adaptive', 'convex', 'rrf'], { message: 'must be "adaptive", "convex" or "rrf"' }).optional(),
    weights: z
      .object({
        keyword: z
          .number()
          .refine(Number.isFinite, 'must be finite')
          .refine((n) => n >= 0 && n <= 1000, 'must be between 0 and 1000')
          .optional(),
        vector: z
          .number()
          .refine(Number.isFinite, 'must be finite')
          .refine((n) => n >= 0 && n <= 1000, 'must be between 0 and 1000')
          .optional(),
      })
      .strict()
      .refine((w) => (w.keyword ?? 1) + (w.vector ?? 1) > 0, 'must not both be 0')
      .optional(),
    ...lifecycleRecallShape,
    ...relevanceRecallShape,
  })
  .strict();

const listSchema = z
  .object({
    ...filterShape,
    limit: intIn(1, 10_000).optional(),
    offset: intIn(0, Number.MAX_SAFE_INTEGER).optional(),
    order: z.enum(['asc', 'desc'], { message: 'must be "asc" or "desc"' }).optional(),
    includeExpired: z.boolean().optional(),
  })
  .strict();

const updateSchema = z
  .object({
    content: z.string().optional(),
    key: label(512).nullable().optional(),
    category: label(128).nullable().optional(),
    sessionId: label(256).nullable().optional(),
    metadata: metadata.optional(),
    eventAt: dateLike.nullable().optional(),
    ...lifecycleUpdateShape,
  })
  .strict();

const scopeSchema = z.object({ namespace: label(128).optional() }).strict();
const historySchema = z
  .object({
    namespace: label(128).optional(),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).optional(),
  })
  .strict();

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw invalid(`${what} must be an object.`);
  }
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const msg =
    issue.code === 'unrecognized_keys'
      ? `${what} has unknown option(s): ${(issue as { keys?: string[] }).keys?.join(', ')}. Check the spelling.`
      : issue.code === 'invalid_type'
        ? `${what}: ${field || 'value'} has the wrong type (${issue.message}).`
        : `${what}: ${field || 'value'} ${issue.message}.`;
  throw invalid(msg, { field, issue: issue.code });
}

/** Validate memory content: non-blank, within {@link MAX_CONTENT_BYTES}, valid Unicode, no NUL. */
export function checkContent(content: unknown, what = 'content'): string {
  if (typeof content !== 'string') throw invalid(`${what} must be a string, got ${content === null ? 'null' : typeof content}.`);
  if (!content.trim()) throw invalid(`${what} is empty or only whitespace. Pass the text to remember.`);
  if (content.includes('\u0000')) throw invalid(`${what} contains a NUL character (\\u0000). Remove it; mnemolite stores text, not binary data.`);
  if (!wellFormed(content)) throw invalid(`${what} is not valid Unicode (it has a lone surrogate). Fix the string's encoding.`);
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_CONTENT_BYTES)
    throw invalid(`${what} is ${bytes} bytes; the limit is ${MAX_CONTENT_BYTES}. Split it into several memories.`, { bytes, limit: MAX_CONTENT_BYTES });
  return content;
}

/** Validate a recall query string. */
export function checkQuery(q: unknown): string {
  if (typeof q !== 'string') throw invalid(`The recall query must be a string, got ${q === null ? 'null' : typeof q}.`);
  if (!q.trim()) throw invalid('The recall query is empty. Pass some words to search for.');
  if (q.length > MAX_QUERY_CHARS) throw invalid(`The recall query is ${q.length} characters; the limit is ${MAX_QUERY_CHARS}.`);
  if (!wellFormed(q)) throw invalid('The recall query is not valid Unicode (lone surrogate).');
  return q.replace(/\u0000/g, ' ');
}

/** Validate an id argument. */
export function checkId(id: unknown): string {
  if (typeof id !== 'string' || !id.trim() || id.length > 200 || CONTROL.test(id) || !wellFormed(id)) {
    throw invalid(`A memory id must be a non-empty string (as returned by add), got ${typeof id === 'string' ? JSON.stringify(id.slice(0, 60)) : typeof id}.`);
  }
  return id;
}

/** Parsed add options (metadata as JSON text, dates as ISO). */
export type ParsedAdd = z.output<typeof addSchema>;
/** Parsed recall options. */
export type ParsedRecall = z.output<typeof recallSchema>;
/** Parsed list options. */
export type ParsedList = z.output<typeof listSchema>;
/** Parsed update input. */
export type ParsedUpdate = z.output<typeof updateSchema>;

export const parseAdd = (v: unknown): ParsedAdd => parse(addSchema, v, 'add options');
export const parseRecall = (v: unknown): ParsedRecall => parse(recallSchema, v, 'recall options');
export const parseList = (v: unknown): ParsedList => parse(listSchema, v, 'list options');
export const parseUpdate = (v: unknown): ParsedUpdate => parse(updateSchema, v, 'update');
/** Parse `{ namespace? }`; with a verb, a missing namespace becomes the verb's default (src/namespaces.ts). */
export function parseScope(v: unknown): { namespace?: string };
export function parseScope(v: unknown, verb: NamespacedVerb): { namespace: string };
export function parseScope(v: unknown, verb?: NamespacedVerb): { namespace?: string } {
  const o = parse(scopeSchema, v, 'options');
  return verb ? { namespace: namespaceFor(verb, o.namespace) } : o;
}

const eraseSchema = z.object({ namespace: label(128) }).strict();

/** `erase` options: one concrete namespace (never `"*"`: erasing every namespace is not one call). */
export function parseErase(v: unknown): { namespace: string } {
  if (v === undefined || v === null || typeof v !== 'object' || !('namespace' in v))
    throw invalid('erase needs the namespace to erase: erase({ namespace: "user-42" }).');
  const o = parse(eraseSchema, v, 'erase options');
  if (o.namespace === ALL_NAMESPACES) throw invalid('erase takes one namespace, not "*": erase each namespace by name.');
  return o;
}

/** `history` options: its scope, and the page of versions. */
export function parseHistory(v: unknown): { namespace: string; offset?: number; limit?: number } {
  const o = parse(historySchema, v, 'options');
  return { ...o, namespace: namespaceFor('history', o.namespace) };
}

/** Storage filter from parsed options for `verb` (its namespace default applies); `*` means every namespace. */
export function toRowFilter(
  verb: NamespacedVerb,
  o: {
    namespace?: string;
    category?: string;
    sessionId?: string;
    since?: string;
    until?: string;
    timeField?: 'event' | 'created';
    metadata?: Array<[string, string | number | boolean | null]>;
    includeExpired?: boolean;
  },
): RowFilter {
  const f: RowFilter = {};
  const ns = namespaceFor(verb, o.namespace);
  if (ns !== ALL_NAMESPACES) f.namespace = ns;
  if (o.category !== undefined) f.category = o.category;
  if (o.sessionId !== undefined) f.sessionId = o.sessionId;
  if (o.since !== undefined) f.since = o.since;
  if (o.until !== undefined) f.until = o.until;
  if (o.timeField === 'created') f.timeField = 'created';
  if (o.metadata?.length) f.metadata = o.metadata;
  if (!o.includeExpired) f.activeAt = new Date().toISOString(); // expired memories are invisible (src/lifecycle/)
  if (f.since !== undefined && f.until !== undefined && f.since >= f.until) {
    throw new MnemoliteError('INVALID_INPUT', `since (${f.since}) must be before until (${f.until}).`);
  }
  return f;
}
