import { z } from 'zod';
import type { RouteDef } from './route.js';
import {
  AddManyResult,
  AddResultSchema,
  ErrorSchema,
  ExportRecordSchema,
  HealthResult,
  ListResult,
  MeResult,
  MemorySchema,
  RecallHitSchema,
  RecallResult,
  ContextResultSchema,
  StatsSchema,
  ForgetResult,
  EraseResultSchema,
  ProfileSchema,
  ProfileHistoryResult,
  HistoryResult,
  PruneResultSchema,
} from './schemas.js';

type Json = Record<string, unknown>;

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: bad JSON, a field of the wrong type, an unknown field, or a value out of range',
  401: 'Missing or wrong bearer token',
  403: 'The token may not use this namespace, or the request came from another origin or host',
  404: 'No such memory (or it is in a namespace the token may not see)',
  409: 'The server opened the file read-only',
  413: 'The request body is larger than the server accepts',
  415: 'The body is not JSON (send Content-Type: application/json)',
  502: 'The embedding provider failed',
};

const OUTPUTS: Record<string, z.ZodType> = {
  Memory: MemorySchema,
  RecallHit: RecallHitSchema,
  AddResult: AddResultSchema,
  AddManyResult,
  ListResult,
  RecallResult,
  ContextResult: ContextResultSchema,
  ForgetResult,
  EraseResult: EraseResultSchema,
  Profile: ProfileSchema,
  ProfileHistory: ProfileHistoryResult,
  Stats: StatsSchema,
  HistoryResult,
  PruneResult: PruneResultSchema,
  ExportRecord: ExportRecordSchema,
  MeResult,
  HealthResult,
  Error: ErrorSchema,
};

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema of a zod schema, without the `$schema`/`$id` keys that do not belong inside OpenAPI. */
function jsonSchema(s: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _s, $id: _i, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

function components(routes: RouteDef[]): Record<string, Json> {
  const out = z.registry<{ id: string }>();
  for (const [id, s] of Object.entries(OUTPUTS)) out.add(s, { id });
  const res = z.toJSONSchema(out, { uri: (id) => `#/components/schemas/${id}`, io: 'output', unrepresentable: 'any' }) as { schemas: Record<string, Json> };
  const schemas: Record<string, Json> = {};
  for (const [id, s] of Object.entries(res.schemas)) {
    const { $schema: _s, $id: _i, ...rest } = s;
    schemas[id] = rest;
  }
  for (const r of routes) if (r.body && r.bodyName) schemas[r.bodyName] = jsonSchema(r.body, 'input');
  return schemas;
}

function parameters(s: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!s) return [];
  const shape = (s as unknown as { shape: Record<string, z.ZodType> }).shape;
  return Object.entries(shape).map(([name, field]) => {
    const { description, ...schema } = jsonSchema(field, 'input');
    return {
      name,
      in: where,
      required: where === 'path' || !field.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema,
    };
  });
}

/** Fastify `/a/:id` to OpenAPI `/a/{id}`. */
const openapiPath = (p: string): string => p.replace(/:([A-Za-z_]+)/g, '{$1}');

/**
 * The OpenAPI 3.1 document of the API, generated from the same zod schemas that validate requests.
 * `authRequired` says whether the server was started with tokens.
 */
export function buildOpenApi(routes: RouteDef[], opts: { version: string; authRequired: boolean; bodyLimit: number }): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) {
    const responses: Record<string, Json> = {};
    for (const [status, doc] of Object.entries(r.responses)) {
      responses[status] = {
        description: doc.description,
        ...(doc.schema ? { content: { [doc.contentType ?? 'application/json']: { schema: ref(doc.schema) } } } : {}),
      };
    }
    for (const status of r.errors ?? []) {
      if (status === 401 && !opts.authRequired && r.auth) continue;
      responses[String(status)] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: ref('Error') } } };
    }
    responses['500'] = {
      description: 'Unexpected server error (no details are returned; see the server log)',
      content: { 'application/json': { schema: ref('Error') } },
    };
    const op: Json = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: [r.tag],
      parameters: [...parameters(r.params, 'path'), ...parameters(r.query, 'query')],
      ...(r.body && r.bodyName ? { requestBody: { required: true, content: { 'application/json': { schema: ref(r.bodyName) } } } } : {}),
      responses,
      security: r.auth && opts.authRequired ? [{ bearerAuth: [] }] : [],
    };
    const path = openapiPath(r.path);
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'mnemolite HTTP API',
      version: opts.version,
      description:
        'Long-term memory for AI agents in one SQLite file. JSON over HTTP; errors are `{ "error": { "code", "message" } }`. ' +
        `Request bodies are limited to ${opts.bodyLimit} bytes. ` +
        (opts.authRequired
          ? 'This server requires `Authorization: Bearer <token>` on /api routes (except /api/health); a token may be limited to some namespaces.'
          : 'This server listens on loopback only and needs no token.'),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'memories', description: 'Add, list, read, change and forget memories' },
      { name: 'recall', description: 'Keyword, vector and hybrid search' },
      { name: 'profile', description: 'Working memory: one always-current document per namespace' },
      { name: 'file', description: 'The memory file as a whole' },
      { name: 'server', description: 'The server itself' },
    ],
    paths,
    components: {
      schemas: components(routes),
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'MNEMOLITE_TOKEN or a token of MNEMOLITE_TOKENS' } },
    },
  };
}
