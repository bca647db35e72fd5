import { DEFAULTS } from '../defaults.js';
import { z } from 'zod';

// Request and response shapes of the HTTP API. Requests are checked against these (types, required
// fields, unknown fields) before the Memory API applies its own, finer validation; the OpenAPI
// document at /openapi.json is generated from the same schemas, so the two cannot drift apart.

const ns = z.string().describe('Namespace. See the description of each route for its default; "*" means every namespace where allowed.');
const isoDate = z.string().describe('ISO 8601 date or date-time, e.g. 2026-03-01 or 2026-03-01T12:00:00Z');
const metaValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const duration = z.union([z.number(), z.string()]).describe('Milliseconds, or a number with a unit: "90s", "15m", "12h", "30d", "2w", "1y"');

/** Query-string integer (query values arrive as text). */
const qInt = (min: number, max: number, describe: string) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .describe(describe);
/** Query-string boolean. */
const qBool = (describe: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .describe(describe);
/** Metadata equality filter passed as a JSON object in the query string. */
const qMeta = z
  .string()
  .transform((s, ctx) => {
    try {
      const v: unknown = JSON.parse(s);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      /* reported below */
    }
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object such as {"source":"chat"}' });
    return z.NEVER;
  })
  .describe('Equality filter on top-level metadata fields, as a JSON object, e.g. {"source":"chat"}');

const timeField = z
  .enum(['event', 'created'])
  .describe('The time since/until compare (and, in recall, the time preference): event (default: eventAt, else createdAt) or created (createdAt)');

const filterQuery = {
  namespace: ns.optional(),
  category: z.string().optional().describe('Only this category'),
  sessionId: z.string().optional().describe('Only this session id'),
  since: isoDate.optional().describe('Happened at or after this time (ISO 8601): eventAt, else createdAt; see timeField'),
  until: isoDate.optional().describe('Happened before this time (ISO 8601); see timeField'),
  timeField: timeField.optional(),
  metadata: qMeta.optional(),
};

export const AddBody = z
  .object({
    content: z.string().describe('The text to remember (at most 100,000 UTF-8 bytes)'),
    namespace: ns.optional().describe('Namespace (default "default")'),
    key: z.string().optional().describe('Key: adding with a key already used in the namespace replaces that memory (keeps id and createdAt)'),
    category: z.string().optional(),
    sessionId: z.string().optional(),
    contextWindow: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .describe('With sessionId: memories before this one in its session indexed as its conversational context (default 2, 0 = off)'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Any JSON object (at most 64,000 bytes as JSON)'),
    createdAt: isoDate.optional().describe('Creation time (default now)'),
    eventAt: isoDate
      .optional()
      .describe("When it happened (ISO 8601), e.g. the conversation's date; since/until and the time preference use it instead of createdAt"),
    expiresAt: isoDate.optional().describe('Absolute expiry time: the memory then disappears from recall, get and list (prune deletes it)'),
    ttl: duration.optional().describe('Time to live from createdAt, e.g. "7d" (not together with expiresAt)'),
    pinned: z.boolean().optional().describe('Pinned memories never expire and are never pruned'),
    importance: z.number().optional().describe('Importance in [0, 1] (unset = neutral 0.5); weighs recall when importanceWeight is given'),
    supersedes: z.string().optional().describe('Id of a memory in the same namespace that this one replaces (it then ranks below this one)'),
    force: z.boolean().optional().describe('Store even if an identical or near-identical memory exists'),
    nearDuplicates: z.enum(['off', 'report', 'merge']).optional().describe("Near-duplicate handling for this add (default: the server file's setting)"),
    dedupThreshold: z.number().optional().describe('Cosine similarity at or above which a memory is a near-duplicate (default 0.92)'),
  })
  .strict();

export const AddManyBody = z
  .object({
    memories: z.array(AddBody).min(1).max(1000).describe('1 to 1000 memories, stored in one transaction: all or nothing'),
  })
  .strict();

/** Recall fields for relevance, time words and the preferences, shared by /api/recall and /api/context. */
const relevanceFields = {
  minRelevance: z.number().min(0).max(1).optional().describe('Drop hits whose calibrated relevance is below this, 0 to 1 (default: none)'),
  now: isoDate.optional().describe('"Now" for time words in the query ("last week", "in March"); default the clock'),
  timePreference: z.boolean().optional().describe('Prefer memories in the time window the query names (default true)'),
  preferCurrent: z.boolean().optional().describe('Rank a newer memory above an older one stating another value of the same thing (default true)'),
  preferSpeaker: z.boolean().optional().describe('When the query names one person of a conversation, rank the turns that person spoke higher (default true)'),
  bestMatch: z
    .boolean()
    .optional()
    .describe(
      'With minRelevance: when nothing reaches it, return the most relevant hit (relevance ≥ 0.4) marked lowConfidence instead of nothing (default false)',
    ),
  excludeSuperseded: z
    .boolean()
    .optional()
    .describe('Leave out memories another memory replaced (those with supersededBy), before the cut to limit (default false)'),
};

export const RecallBody = z
  .object({
    query: z.string().describe('What to look for'),
    limit: z.number().int().min(1).max(1000).optional().describe(`Maximum hits (default ${DEFAULTS.recallLimit})`),
    mode: z.enum(['hybrid', 'keyword', 'vector']).optional().describe('Which legs run (default hybrid, or keyword when semantic recall is off)'),
    namespace: z
      .union([ns, z.array(z.string()).min(1).max(100)])
      .optional()
      .describe(
        'Namespace (default "default"; "*" searches every namespace), a prefix such as "user-1/*", or a list of up to 100 namespaces: each is searched with its own statistics and the hits are merged by relevance',
      ),
    category: z.string().optional(),
    sessionId: z.string().optional(),
    since: isoDate.optional().describe('Happened at or after this time: eventAt, else createdAt (see timeField)'),
    until: isoDate.optional().describe('Happened before this time (see timeField)'),
    timeField: timeField.optional(),
    metadata: z.record(z.string(), metaValue).optional().describe('Equality filter on top-level metadata fields'),
    fusion: z.enum(['adaptive', 'convex', 'rrf']).optional().describe('How hybrid mode merges the legs (default adaptive)'),
    neighbours: z
      .object({
        before: z.number().int().min(0).max(20).optional().describe('Turns before each hit in its session (0 to 20)'),
        after: z.number().int().min(0).max(20).optional().describe('Turns after each hit in its session (0 to 20)'),
      })
      .strict()
      .optional()
      .describe('Return each hit in a session with the turns around it (deduplicated, oldest first)'),
    weights: z
      .object({
        keyword: z.number().min(0).optional().describe('Relative weight of the keyword leg (default 1)'),
        vector: z.number().min(0).optional().describe('Relative weight of the vector leg (default 1)'),
      })
      .strict()
      .optional()
      .describe('Relative leg weights; only the ratio matters'),
    rrfK: z.number().positive().optional().describe('RRF constant k, with fusion "rrf" (default 60)'),
    candidates: z.number().int().min(1).max(10000).optional().describe('Results each leg contributes before fusion'),
    exact: z.boolean().optional().describe('Force an exact vector scan'),
    recency: z
      .object({
        halfLife: duration.describe('A memory this old scores half, e.g. "30d"'),
        weight: z.number().optional().describe('How much the decay counts, 0 to 1 (default 1)'),
        asOf: isoDate.optional().describe('Reference time for ages (default now)'),
      })
      .strict()
      .optional()
      .describe('Half-life decay of scores by age (pinned and category "core" memories are exempt)'),
    importanceWeight: z.number().optional().describe('Weight importance: score × (0.5 + importance)^importanceWeight (default 0: off)'),
    mmr: z
      .union([z.boolean(), z.object({ lambda: z.number().optional().describe('1 = relevance only, 0 = diversity only (default 0.7)') }).strict()])
      .optional()
      .describe('Re-rank the candidates for diversity (Maximal Marginal Relevance)'),
    ...relevanceFields,
  })
  .strict();

export const UpdateBody = z
  .object({
    content: z.string().optional().describe('New content (re-embedded)'),
    key: z.string().nullable().optional().describe('New key; null clears it'),
    category: z.string().nullable().optional().describe('New category; null clears it'),
    sessionId: z.string().nullable().optional().describe('New session id; null clears it'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Replaces the metadata'),
    eventAt: isoDate.nullable().optional().describe('When it happened; null clears it (its time is createdAt again)'),
    expiresAt: isoDate.nullable().optional().describe('New expiry time; null removes the expiry'),
    ttl: duration.optional().describe('New time to live, counted from now'),
    pinned: z.boolean().optional().describe('Pin or unpin'),
    importance: z.number().nullable().optional().describe('New importance in [0, 1]; null unsets it'),
  })
  .strict();

export const IdParams = z.object({ id: z.string().min(1).max(200).describe('Memory id (UUID v7)') });

export const ScopeQuery = z
  .object({
    namespace: ns.optional().describe('Only find the memory in this namespace'),
  })
  .strict();

export const HistoryQuery = ScopeQuery.extend({
  limit: qInt(1, 1000, 'Maximum versions (default 100)').optional(),
  offset: qInt(0, Number.MAX_SAFE_INTEGER, 'Versions to skip, oldest first (default 0)').optional(),
}).strict();

export const GetQuery = ScopeQuery.extend({
  includeExpired: qBool('Return it even if it has expired (and is not pruned yet)').optional(),
}).strict();

export const PruneBody = z
  .object({
    namespace: ns.optional().describe('Only this namespace (default: every namespace the caller may see)'),
    dryRun: z.boolean().optional().describe('Report what would be deleted without deleting'),
    vacuum: z
      .enum(['auto', 'full', 'none'])
      .optional()
      .describe(
        'Space reclaiming after the delete (default auto; auto and full need a token with access to every namespace: a limited token prunes with none)',
      ),
  })
  .strict();

export const ListQuery = z
  .object({
    ...filterQuery,
    namespace: ns.optional().describe('Namespace (default "*": every namespace the caller may see)'),
    limit: qInt(1, 1000, 'Maximum rows (default 50)').optional(),
    offset: qInt(0, Number.MAX_SAFE_INTEGER, 'Rows to skip (default 0)').optional(),
    order: z.enum(['asc', 'desc']).optional().describe('By creation time (default desc: newest first)'),
    includeExpired: qBool('Include expired memories not pruned yet (default false)').optional(),
  })
  .strict();

export const ExportQuery = z
  .object({
    ...filterQuery,
    namespace: ns.optional().describe('Namespace (default "*": every namespace the caller may see)'),
    vectors: qBool('Include embedding vectors (default false)').optional(),
    includeExpired: qBool('Include expired memories not pruned yet (default true: an export is a backup)').optional(),
  })
  .strict();

export const StatsQuery = z
  .object({
    namespace: ns.optional().describe('Only this namespace (default: every namespace the caller may see)'),
  })
  .strict();

// ---- responses (documentation only) ------------------------------------------------------------

export const MemorySchema = z.looseObject({
  id: z.string(),
  content: z.string(),
  key: z.string().nullable(),
  namespace: z.string(),
  category: z.string().nullable(),
  sessionId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string().describe('ISO 8601'),
  updatedAt: z.string().describe('ISO 8601'),
  eventAt: z.string().nullable().describe('When it happened (ISO 8601), null when not given: its time is then createdAt'),
  expiresAt: z.string().optional().describe('ISO 8601; absent when the memory does not expire'),
  pinned: z.literal(true).optional().describe('Present only when pinned'),
  importance: z.number().optional().describe('Importance in [0, 1], when set'),
  supersededBy: z.string().optional().describe('Id of the memory that replaced this one'),
});

export const RecallHitSchema = MemorySchema.extend({
  score: z
    .number()
    .describe(
      "Fused score in hybrid mode (0 to 1 for adaptive/convex fusion, Σ w/(k+rank) for rrf); the leg's own score (negated BM25 or cosine) in single-leg modes",
    ),
  keywordRank: z.number().int().optional().describe('1-based rank in the keyword (FTS5 BM25) leg, absent if the memory was not a keyword hit'),
  vectorRank: z.number().int().optional().describe('1-based rank in the vector (cosine) leg, absent if the memory was not a vector hit'),
  relevance: z.number().describe('Calibrated relevance, 0 to 1, comparable across queries (filter with minRelevance)'),
  evidence: z
    .object({
      coverage: z.number().optional().describe("BM25 over the query's idf mass"),
      cosine: z.number().optional().describe('Cosine to the query vector'),
      baseline: z
        .number()
        .optional()
        .describe('The best cosine questions about nothing the namespace holds get in it (median of fixed probes): relevance counts the cosine above it'),
      queryCoverage: z.number().optional().describe('Best coverage any keyword candidate reaches'),
      terms: z.number().optional().describe("Share of the query's vocabulary, weighted by idf, the memory contains"),
      inWindow: z.boolean().optional().describe('Whether the memory lies in a time window the query names'),
    })
    .describe('Raw leg evidence relevance was computed from'),
  lowConfidence: z.literal(true).optional().describe('Set on the one hit bestMatch returns when nothing reached minRelevance: a guess, show it as such'),
  neighbours: z
    .object({ before: z.array(MemorySchema), after: z.array(MemorySchema) })
    .optional()
    .describe('With the neighbours option: the turns around this hit in its session, oldest first'),
});

export const AddResultSchema = z.looseObject({
  id: z.string(),
  replaced: z.boolean().describe('true when an existing memory with the same key was replaced'),
  deduplicated: z
    .enum(['exact', 'merged'])
    .optional()
    .describe('Set when no new memory was stored: an identical one exists (exact) or the content was merged into a near-duplicate (merged); id is that memory'),
  nearDuplicates: z
    .array(z.looseObject({ id: z.string(), similarity: z.number(), content: z.string() }))
    .optional()
    .describe('Near-duplicates at or above the threshold, most similar first'),
});

export const StatsSchema = z.looseObject({
  path: z.string().optional().describe('The SQLite file (omitted for namespace-restricted tokens)'),
  memories: z.number().int(),
  namespaces: z.record(z.string(), z.number().int()),
  embedded: z.number().int(),
  unembedded: z.number().int(),
  semantic: z.boolean(),
  semanticReason: z.string().optional(),
  embedding: z.object({ provider: z.string(), model: z.string(), dims: z.number().int() }).nullable(),
  cacheEntries: z.number().int().optional().describe('Cached query vectors of the whole file (omitted for namespace-restricted tokens)'),
  fileBytes: z.number().int().optional().describe('Size of the whole file (omitted for namespace-restricted tokens)'),
  schemaVersion: z.number().int(),
  expired: z.number().int().optional().describe('Expired memories not pruned yet'),
});

export const ErrorSchema = z.object({
  error: z.object({
    code: z.string().describe('Stable machine-readable code, e.g. INVALID_INPUT, NOT_FOUND, UNAUTHORIZED, FORBIDDEN, PAYLOAD_TOO_LARGE'),
    message: z.string().describe('What went wrong and what to do'),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

export const ListResult = z.object({
  memories: z.array(MemorySchema),
  total: z.number().int().describe('Memories matching the filters (for paging)'),
  limit: z.number().int(),
  offset: z.number().int(),
  nextOffset: z.number().int().optional().describe('Set when the page was cut short by its size (about 16 MiB of JSON): fetch the rest from this offset'),
});

export const RecallResult = z.object({
  hits: z.array(RecallHitSchema),
  omitted: z
    .number()
    .int()
    .optional()
    .describe('Set when the answer was cut by its size (about 16 MiB of JSON): the lowest-ranked hits left out. Ask for a smaller limit.'),
});

export const ContextBody = z
  .object({
    query: z.string().describe('What the answer will be about'),
    maxTokens: z.number().int().min(20).max(100000).optional().describe('Token budget of the block (default 500)'),
    limit: z.number().int().min(1).max(200).optional().describe('Candidates recalled before the budget cut (default 20)'),
    header: z.string().optional().describe('First line of the block; "" for none'),
    profile: z.boolean().optional().describe("Put the namespace's profile (working memory) in full at the top (default true)"),
    namespace: ns.optional().describe('Namespace (default "default")'),
    category: z.string().optional(),
    since: isoDate.optional().describe('Happened at or after this time: eventAt, else createdAt (see timeField)'),
    until: isoDate.optional().describe('Happened before this time (see timeField)'),
    timeField: timeField.optional(),
    ...relevanceFields,
    minRelevance: z.number().min(0).max(1).optional().describe('Relevance threshold (default 0.5)'),
  })
  .strict();

export const ContextResultSchema = z.object({
  text: z.string().describe('The block; "" when nothing is relevant'),
  tokens: z.number().int(),
  omitted: z.number().int().describe('Relevant memories left out by the budget'),
  profileVersion: z.number().int().optional().describe('The version of the profile at the top of the block, when there is one'),
  lowConfidence: z
    .literal(true)
    .optional()
    .describe('With bestMatch: the block holds only the closest memory, below the threshold, under "Possibly related (low confidence):"'),
  memories: z.array(
    z.object({ id: z.string(), content: z.string(), date: z.string().describe('YYYY-MM-DD: eventAt when set, else createdAt'), relevance: z.number() }),
  ),
});
export const AddManyResult = z.object({ results: z.array(AddResultSchema) });
export const ForgetResult = z.object({ id: z.string(), forgotten: z.literal(true) });
export const NamespaceParams = z.object({ namespace: z.string().min(1).max(128).describe('The namespace to erase (one name, not "*")') });
export const EraseResultSchema = z.object({
  namespace: z.string(),
  memories: z.number().int().describe('Memories deleted'),
  historyVersions: z.number().int().describe('Earlier versions deleted with them'),
  cachedVectors: z.number().int().describe('Cached vectors removed (query vectors cached for the namespace, vectors of its texts)'),
});
export const ProfileParams = z.object({ namespace: z.string().min(1).max(128).describe('The namespace of the profile (one name, not "*")') });
export const ProfileBody = z
  .object({
    content: z.string().describe('The whole new profile (Markdown, at most 8192 UTF-8 bytes); "" clears it'),
    expectedVersion: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('The version read (0: no profile yet). When the stored version differs nothing is written and the answer is 409 CONFLICT'),
  })
  .strict();
export const ProfileHistoryQuery = z
  .object({
    offset: z.coerce.number().int().min(0).max(1000000).optional().describe('Versions to skip, newest first (default 0)'),
    limit: z.coerce.number().int().min(1).max(50).optional().describe('Versions per page (default 20, at most 50)'),
  })
  .strict();
export const ProfileSchema = z.object({
  namespace: z.string(),
  content: z.string().describe('The document; "" when there is none'),
  version: z.number().int().describe('Increases by one on every write; 0 when no profile was written'),
  updatedAt: z.string().nullable().describe('When this version was written (ISO 8601), null when there is none'),
});
export const ProfileHistoryResult = z.object({
  namespace: z.string(),
  total: z.number().int().describe('Versions kept (at most 50)'),
  versions: z.array(z.object({ version: z.number().int(), content: z.string(), savedAt: z.string() })).describe('Newest first'),
});
export const MeResult = z.object({
  auth: z.enum(['none', 'token']).describe('none: no token is configured (loopback only); token: authenticated by a bearer token'),
  namespaces: z.union([z.literal('*'), z.array(z.string())]).describe('"*" or the namespaces (and prefix* patterns) this caller may use'),
  namespacesInUse: z
    .array(z.string())
    .describe('The namespaces holding memories that this caller may use, sorted (a prefix* grant cannot be listed otherwise)'),
  readOnly: z.boolean().describe('true when the server opened the store read-only: every write answers 409'),
});
export const HealthResult = z.object({ ok: z.literal(true), version: z.string() });

export const ExportRecordSchema = MemorySchema.extend({
  eventAt: z.string().optional().describe('When it happened (ISO 8601), present only when set'),
  embedding: z.array(z.number()).optional().describe('Present with vectors=true'),
  embeddingModel: z.string().optional(),
});

export const HistoryResult = z.object({
  versions: z
    .array(
      z.looseObject({
        id: z.string(),
        content: z.string(),
        category: z.string().nullable(),
        metadata: z.record(z.string(), z.unknown()),
        validFrom: z.string().describe('When this content became current (ISO 8601)'),
        validUntil: z.string().nullable().describe('When it was replaced; null for the current content'),
        current: z.boolean(),
        endedBy: z.enum(['updated', 'superseded']).optional(),
      }),
    )
    .describe('Oldest first; the last is the current content'),
  limit: z.number().int(),
  offset: z.number().int(),
  nextOffset: z.number().int().optional().describe('Set when more versions follow (the limit was reached, or the page was cut at about 16 MiB of JSON)'),
});

export const PruneResultSchema = z.looseObject({
  deleted: z.number().int(),
  ids: z.array(z.string()),
  historyDeleted: z.number().int(),
  pinnedKept: z.number().int(),
  dryRun: z.boolean(),
  autoVacuum: z.string().optional().describe("The file's auto_vacuum mode (omitted for namespace-limited tokens, as are the fields below)"),
  vacuum: z.string().optional().describe('Space reclaiming that ran: none, incremental or full'),
  freePagesBefore: z.number().int().optional(),
  freePagesAfter: z.number().int().optional(),
  bytesBefore: z.number().int().optional().describe('Size of the whole file before'),
  bytesAfter: z.number().int().optional(),
  note: z.string().optional(),
});
