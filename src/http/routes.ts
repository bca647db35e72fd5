import { Readable } from 'node:stream';
import type { AddOptions, Memory, MemoryRecord } from '../index.js';
import { capBytes } from '../text/json-bounds.js';
import { allows, type Principal } from './auth.js';
import { HttpError } from './errors.js';
import { route, type RouteDef } from './route.js';
import {
  AddBody,
  AddManyBody,
  ExportQuery,
  GetQuery,
  HistoryQuery,
  IdParams,
  ListQuery,
  NamespaceParams,
  ProfileBody,
  ProfileHistoryQuery,
  ProfileParams,
  PruneBody,
  RecallBody,
  ContextBody,
  ScopeQuery,
  StatsQuery,
  UpdateBody,
} from './schemas.js';

/** Every namespace (the library's wildcard). */
const ALL = '*';

/**
 * Largest JSON a list page may take: 1000 memories of 100 kB control characters (escaped six
 * times over) would otherwise build a string past V8's limit. At least one memory is returned.
 */
export const LIST_PAGE_BYTES = 16 * 1024 * 1024;

function grantText(p: Principal): string {
  return p.namespaces === '*' ? 'every namespace' : p.namespaces.map((n) => JSON.stringify(n)).join(', ');
}

/**
 * The namespace a request works in. Without a `namespace`, a token limited to exactly one
 * namespace works in it; otherwise the route's default applies. A namespace outside the
 * caller's grant is a 403.
 */
export function scopeNamespace(p: Principal, requested: string | undefined, fallback: string): string {
  const g = p.namespaces;
  if (requested === undefined && g !== '*' && g.length === 1 && !g[0]!.endsWith('*')) return g[0]!;
  const ns = requested ?? fallback;
  if (allows(g, ns)) return ns;
  if (ns === ALL) {
    throw new HttpError(403, 'FORBIDDEN', `This token may only use ${grantText(p)}, not every namespace. Pass namespace=<one of them>.`);
  }
  throw new HttpError(403, 'FORBIDDEN', `This token may not use namespace "${ns}". It may use ${grantText(p)}.`, { namespace: ns });
}

/** {@link scopeNamespace} for a namespace, a prefix (`"user-1/*"`, which the grant must cover whole) or a list (each inside the grant). */
export function scopeNamespaces(p: Principal, requested: string | string[] | undefined, fallback: string): string | string[] {
  return Array.isArray(requested) ? requested.map((n) => scopeNamespace(p, n, fallback)) : scopeNamespace(p, requested, fallback);
}

/** A memory the caller may see, or a 404 (memories of other namespaces do not exist for it). */
async function visible(mem: Memory, p: Principal, id: string, requested: string | undefined, includeExpired = true): Promise<MemoryRecord> {
  if (requested !== undefined && !allows(p.namespaces, requested)) scopeNamespace(p, requested, ALL);
  const rec = await mem.get(id, { ...(requested !== undefined ? { namespace: requested } : {}), ...(includeExpired ? { includeExpired: true } : {}) });
  if (!rec || !allows(p.namespaces, rec.namespace)) {
    throw new HttpError(
      404,
      'NOT_FOUND',
      `No memory with id ${id}${requested !== undefined ? ` in namespace "${requested}"` : ''}. List ids with GET /api/memories.`,
      { id },
    );
  }
  return rec;
}

/** Drop undefined values (the library's strict option parsers treat keys as given). */
function defined<T extends Record<string, unknown>>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** One concrete namespace of a path, inside the caller's grant. */
function pathNamespace(p: Principal, ns: string): string {
  if (ns === ALL) throw new HttpError(400, 'INVALID_INPUT', 'A profile belongs to one namespace: "*" is not a namespace.');
  return scopeNamespace(p, ns, ALL);
}

/** Working memory: one profile document per namespace (mem.profile). */
function profileRoutes(mem: Memory): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/api/namespaces/:namespace/profile',
      operationId: 'getProfile',
      tag: 'profile',
      auth: true,
      summary: "A namespace's profile (working memory)",
      description: 'The always-current document of the namespace (version 0 and "" when none was written). The token must cover the namespace.',
      params: ProfileParams,
      responses: { 200: { description: 'The profile', schema: 'Profile' } },
      errors: [400, 401, 403],
      async handler({ params, principal }) {
        return mem.profile.get({ namespace: pathNamespace(principal, params.namespace) });
      },
    }),
    route({
      method: 'PUT',
      path: '/api/namespaces/:namespace/profile',
      operationId: 'setProfile',
      tag: 'profile',
      auth: true,
      summary: "Replace a namespace's profile",
      description:
        "Writes a new version of the profile. With expectedVersion, writes only if the stored version is still that one (else 409 CONFLICT: read it again and reapply the change), so two agents never lose each other's update.",
      params: ProfileParams,
      body: ProfileBody,
      bodyName: 'ProfileRequest',
      responses: { 200: { description: 'The profile as written', schema: 'Profile' } },
      errors: [400, 401, 403, 409, 413, 415],
      async handler({ params, body, principal }) {
        return mem.profile.set(body.content, defined({ namespace: pathNamespace(principal, params.namespace), expectedVersion: body.expectedVersion }));
      },
    }),
    route({
      method: 'GET',
      path: '/api/namespaces/:namespace/profile/history',
      operationId: 'profileHistory',
      tag: 'profile',
      auth: true,
      summary: "A profile's kept versions",
      description: 'The versions kept (at most 50), newest first, paged by offset and limit.',
      params: ProfileParams,
      query: ProfileHistoryQuery,
      responses: { 200: { description: 'A page of versions', schema: 'ProfileHistory' } },
      errors: [400, 401, 403],
      async handler({ params, query, principal }) {
        return mem.profile.history(defined({ namespace: pathNamespace(principal, params.namespace), offset: query.offset, limit: query.limit }));
      },
    }),
  ];
}

/** The routes of the HTTP API, in the order /openapi.json lists them. */
export function apiRoutes(mem: Memory, version: string): RouteDef[] {
  return [
    route({
      method: 'POST',
      path: '/api/memories',
      operationId: 'addMemory',
      tag: 'memories',
      auth: true,
      summary: 'Remember a text',
      description:
        'Stores one memory (namespace defaults to "default"). A key already used in the namespace replaces that memory, keeping its id and createdAt. An identical memory already stored is not stored twice (deduplicated: "exact", its id is returned).',
      body: AddBody,
      bodyName: 'AddRequest',
      responses: { 201: { description: 'Stored', schema: 'AddResult' } },
      errors: [400, 401, 403, 409, 413, 415],
      async handler({ body, principal, reply }) {
        const { content, namespace, ...opts } = body;
        const ns = scopeNamespace(principal, namespace, 'default');
        const r = await mem.add(content, defined({ ...opts, namespace: ns }) as AddOptions);
        reply.code(201);
        return r;
      },
    }),
    route({
      method: 'POST',
      path: '/api/memories/batch',
      operationId: 'addMemories',
      tag: 'memories',
      auth: true,
      summary: 'Remember many texts in one transaction',
      description: 'All memories are validated and embedded first, then written in one transaction: all or nothing.',
      body: AddManyBody,
      bodyName: 'AddManyRequest',
      responses: { 201: { description: 'Stored, in request order', schema: 'AddManyResult' } },
      errors: [400, 401, 403, 409, 413, 415],
      async handler({ body, principal, reply }) {
        const items = body.memories.map(({ namespace, ...rest }) => defined({ ...rest, namespace: scopeNamespace(principal, namespace, 'default') }));
        const results = await mem.addMany(items as Parameters<Memory['addMany']>[0]);
        reply.code(201);
        return { results };
      },
    }),
    route({
      method: 'GET',
      path: '/api/memories',
      operationId: 'listMemories',
      tag: 'memories',
      auth: true,
      summary: 'List memories matching filters',
      description: 'Newest first by default. Without namespace, lists every namespace the caller may see.',
      query: ListQuery,
      responses: { 200: { description: 'A page of memories and the total count', schema: 'ListResult' } },
      errors: [400, 401, 403],
      async handler({ query, principal }) {
        const { limit = 50, offset = 0, order, namespace, ...filter } = query;
        const f = defined({ ...filter, namespace: scopeNamespace(principal, namespace, ALL) });
        const { memories: page, total } = await mem.listWithTotal(defined({ ...f, limit, offset, order }) as Parameters<Memory['list']>[0]);
        const memories = capBytes(page, LIST_PAGE_BYTES);
        // A page cut short by its size says where the next one starts.
        return memories.length < page.length ? { memories, total, limit, offset, nextOffset: offset + memories.length } : { memories, total, limit, offset };
      },
    }),
    route({
      method: 'GET',
      path: '/api/memories/:id',
      operationId: 'getMemory',
      tag: 'memories',
      auth: true,
      summary: 'One memory by id',
      description: 'Expired memories (not pruned yet) are 404 unless includeExpired=true.',
      params: IdParams,
      query: GetQuery,
      responses: { 200: { description: 'The memory', schema: 'Memory' } },
      errors: [400, 401, 403, 404],
      async handler({ params, query, principal }) {
        return visible(mem, principal, params.id, query.namespace, query.includeExpired === true);
      },
    }),
    route({
      method: 'GET',
      path: '/api/memories/:id/history',
      operationId: 'memoryHistory',
      tag: 'memories',
      auth: true,
      summary: 'Earlier versions of a memory',
      description:
        'Content changes (by update or a key upsert) keep the previous text; memories it superseded contribute theirs. Oldest first; the last version is the current content. Paged: limit (default 100) and offset; a page is also cut at ~16 MiB of JSON. nextOffset is set when more versions follow.',
      params: IdParams,
      query: HistoryQuery,
      responses: { 200: { description: 'A page of versions', schema: 'HistoryResult' } },
      errors: [400, 401, 403, 404],
      async handler({ params, query, principal }) {
        const { limit = 100, offset = 0, namespace } = query;
        const rec = await visible(mem, principal, params.id, namespace);
        // One more than asked tells whether another page follows; only the page's texts are read.
        const got = await mem.history(params.id, { namespace: rec.namespace, offset, limit: limit + 1 });
        const versions = capBytes(got.slice(0, limit), LIST_PAGE_BYTES);
        return versions.length < got.length ? { versions, limit, offset, nextOffset: offset + versions.length } : { versions, limit, offset };
      },
    }),
    route({
      method: 'PATCH',
      path: '/api/memories/:id',
      operationId: 'updateMemory',
      tag: 'memories',
      auth: true,
      summary: 'Change a memory',
      description: 'Only the fields given change; null clears key, category or sessionId. New content is re-embedded.',
      params: IdParams,
      query: ScopeQuery,
      body: UpdateBody,
      bodyName: 'UpdateRequest',
      responses: { 200: { description: 'The memory after the change', schema: 'Memory' } },
      errors: [400, 401, 403, 404, 409, 413, 415],
      async handler({ params, query, body, principal }) {
        const rec = await visible(mem, principal, params.id, query.namespace);
        return mem.update(params.id, defined(body), { namespace: rec.namespace });
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/memories/:id',
      operationId: 'forgetMemory',
      tag: 'memories',
      auth: true,
      summary: 'Forget (delete) a memory',
      params: IdParams,
      query: ScopeQuery,
      responses: { 200: { description: 'Deleted', schema: 'ForgetResult' } },
      errors: [400, 401, 403, 404, 409],
      async handler({ params, query, principal }) {
        const rec = await visible(mem, principal, params.id, query.namespace);
        if (!(await mem.forget(params.id, { namespace: rec.namespace }))) {
          throw new HttpError(404, 'NOT_FOUND', `No memory with id ${params.id}. List ids with GET /api/memories.`, { id: params.id });
        }
        return { id: params.id, forgotten: true };
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/namespaces/:namespace',
      operationId: 'eraseNamespace',
      tag: 'memories',
      auth: true,
      summary: 'Erase everything of one namespace',
      description:
        "Deletes every memory of the namespace with its history, the vectors cached for it and its keyword statistics, leaving no trace in the file's bytes (as forget does). The token must cover the namespace. Answers what was removed.",
      params: NamespaceParams,
      responses: { 200: { description: 'What was removed', schema: 'EraseResult' } },
      errors: [400, 401, 403, 409],
      async handler({ params, principal }) {
        if (params.namespace === ALL) throw new HttpError(400, 'INVALID_INPUT', 'Erase one namespace at a time, by name: "*" is not a namespace.');
        return mem.erase({ namespace: scopeNamespace(principal, params.namespace, ALL) });
      },
    }),
    ...profileRoutes(mem),
    route({
      method: 'POST',
      path: '/api/recall',
      operationId: 'recall',
      tag: 'recall',
      auth: true,
      summary: 'Find memories relevant to a query',
      description:
        'Hybrid recall (the default with an embedder) runs a keyword leg (FTS5 BM25) and a vector leg (cosine) with the same filters and fuses them (query-adaptive convex combination by default; `fusion: "rrf"` for Reciprocal Rank Fusion). Each hit carries keywordRank and vectorRank: a hit with a vectorRank and no keywordRank was found by meaning only. Namespace defaults to "default"; "*" searches every namespace.',
      body: RecallBody,
      bodyName: 'RecallRequest',
      responses: { 200: { description: 'Hits, best first', schema: 'RecallResult' } },
      errors: [400, 401, 403, 413, 415, 502],
      async handler({ body, principal }) {
        const { query, namespace, ...opts } = body;
        const hits = await mem.recall(
          query,
          defined({ ...opts, namespace: scopeNamespaces(principal, namespace, 'default') }) as Parameters<Memory['recall']>[1],
        );
        // Cut as list pages are: 1000 hits of 100 kB must not build one string past V8's limit.
        const shown = capBytes(hits, LIST_PAGE_BYTES);
        return shown.length < hits.length ? { hits: shown, omitted: hits.length - shown.length } : { hits };
      },
    }),
    route({
      method: 'POST',
      path: '/api/context',
      operationId: 'context',
      tag: 'recall',
      auth: true,
      summary: 'Relevant memories as a prompt-ready text block',
      description:
        'The memories relevant to a query above the relevance threshold (default 0.5), with their dates, current facts first and superseded ones left out, as one text block within maxTokens (Memory.context). `text` is "" when nothing is relevant.',
      body: ContextBody,
      bodyName: 'ContextRequest',
      responses: { 200: { description: 'The block and the memories in it', schema: 'ContextResult' } },
      errors: [400, 401, 403, 413, 415, 502],
      async handler({ body, principal }) {
        const { query, namespace, ...opts } = body;
        return mem.context(query, defined({ ...opts, namespace: scopeNamespace(principal, namespace, 'default') }) as Parameters<Memory['context']>[1]);
      },
    }),
    route({
      method: 'GET',
      path: '/api/stats',
      operationId: 'stats',
      tag: 'file',
      auth: true,
      summary: 'Counts, embedding model, file size',
      query: StatsQuery,
      responses: { 200: { description: 'Numbers about the memory file', schema: 'Stats' } },
      errors: [400, 401, 403],
      async handler({ query, principal }) {
        const s = await mem.stats({ namespace: scopeNamespace(principal, query.namespace, ALL) });
        if (principal.namespaces !== '*') {
          // The file's path, size and query-vector cache are shared by every tenant: the cache
          // count moves when others recall, so none of it is shown to a namespace-limited token.
          const { path: _p, fileBytes: _b, cacheEntries: _c, ...rest } = s;
          return rest;
        }
        return s;
      },
    }),
    route({
      method: 'POST',
      path: '/api/prune',
      operationId: 'prune',
      tag: 'file',
      auth: true,
      summary: 'Delete expired memories and reclaim space',
      description:
        'Deletes expired memories (pinned ones never) with their history. Without namespace, prunes every namespace the caller may see. Reclaiming space (vacuum, checkpoint) is file-level maintenance: only a token with access to every namespace runs it and sees the file-level fields.',
      body: PruneBody,
      bodyName: 'PruneRequest',
      responses: { 200: { description: 'What was (or, with dryRun, would be) deleted', schema: 'PruneResult' } },
      errors: [400, 401, 403, 409, 413, 415],
      async handler({ body, principal }) {
        const ns = scopeNamespace(principal, body.namespace, ALL);
        const limited = principal.namespaces !== '*';
        if (limited && body.vacuum !== undefined && body.vacuum !== 'none') {
          throw new HttpError(
            403,
            'FORBIDDEN',
            `vacuum "${body.vacuum}" reclaims space in the whole file (shared by every namespace); it needs a token with access to every namespace. Leave vacuum out (or "none") to delete your expired memories.`,
          );
        }
        const r = await mem.prune(defined({ ...(ns !== ALL ? { namespace: ns } : {}), dryRun: body.dryRun, vacuum: limited ? 'none' : body.vacuum } as const));
        if (!limited) return r;
        // The file's size and free pages are every tenant's: a limited token sees only its own deletions.
        const { autoVacuum: _a, vacuum: _v, freePagesBefore: _f, freePagesAfter: _g, bytesBefore: _b, bytesAfter: _c, note: _n, ...own } = r;
        return own;
      },
    }),
    route({
      method: 'GET',
      path: '/api/export',
      operationId: 'exportMemories',
      tag: 'file',
      auth: true,
      summary: 'Export memories as JSON Lines',
      description:
        'One JSON record per line, the format of `mnemolite export` (readable by `mnemolite import`). Without namespace, exports every namespace the caller may see.',
      query: ExportQuery,
      responses: { 200: { description: 'JSON Lines, one ExportRecord per line', schema: 'ExportRecord', contentType: 'application/x-ndjson' } },
      errors: [400, 401, 403],
      async handler({ query, principal, reply }) {
        const { vectors, namespace, ...filter } = query;
        const opts = defined({ ...filter, namespace: scopeNamespace(principal, namespace, ALL), vectors });
        // Streamed line by line with backpressure (the export reads in pages, so no cursor stays
        // open while other requests run): memory stays flat however large the file is.
        const records = mem.export(opts as Parameters<Memory['export']>[0]);
        reply.type('application/x-ndjson; charset=utf-8');
        return Readable.from(
          (async function* () {
            for await (const rec of records) yield `${JSON.stringify(rec)}\n`;
          })(),
          { objectMode: false },
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/me',
      operationId: 'me',
      tag: 'server',
      auth: true,
      summary: 'How the caller is authenticated, which namespaces it may use, and which of them hold memories',
      responses: { 200: { description: 'The caller', schema: 'MeResult' } },
      errors: [401],
      async handler({ principal }) {
        // Filtered here, so a caller learns only the names inside its own grant.
        const inUse = Object.keys((await mem.stats({ namespace: ALL })).namespaces).filter((n) => allows(principal.namespaces, n));
        return { auth: principal.via, namespaces: principal.namespaces, namespacesInUse: inUse.sort(), readOnly: mem.readonly };
      },
    }),
    route({
      method: 'GET',
      path: '/api/health',
      operationId: 'health',
      tag: 'server',
      auth: false,
      summary: 'Liveness check (no token needed)',
      responses: { 200: { description: 'The server is up', schema: 'HealthResult' } },
      async handler() {
        return { ok: true, version };
      },
    }),
  ];
}
