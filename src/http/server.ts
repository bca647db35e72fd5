import { VERSION } from '../version.js';
import { STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MnemoliteError, type Memory } from '../index.js';
import { isPoisonKey } from '../text/json-bounds.js';
import { isLoopback, matchToken, type Principal, type TokenEntry } from './auth.js';
import { HttpError, describeIssues, toErrorResponse, type ErrorBody } from './errors.js';
import { INSPECTOR_CSS, INSPECTOR_HTML, INSPECTOR_JS } from './inspector/assets.js';
import { buildOpenApi } from './openapi.js';
import type { RouteDef } from './route.js';
import { apiRoutes } from './routes.js';

/** Default request body limit: 1 MiB (a single memory is at most 100,000 bytes of content). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Default cap on open connections. Each costs a socket and a file descriptor (the memory file
 * needs some too); beyond it a new connection is closed at once instead of starving the process.
 */
export const DEFAULT_MAX_CONNECTIONS = 256;

/**
 * Default cap on connections from one address: one client (or a few hundred sockets that never
 * finish their headers) cannot take every slot. Behind a reverse proxy every connection comes from
 * the proxy's address: raise it to `maxConnections` there.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;

/**
 * Default time a connection has to send its request line and headers, which carry the token:
 * until then nobody is authenticated, so a slot is not held for long.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

/** An idle keep-alive connection is closed after this (Node's default; Fastify's is 72 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Largest request line plus headers, in bytes (Node's default `maxHeaderSize`). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** The open memory file. The server does not close it. */
  memory: Memory;
  /** Host the server will bind to: decides whether tokens are required (default `127.0.0.1`). */
  host?: string;
  /** Bearer tokens (see `parseTokens`). Empty: no authentication, allowed on loopback only. */
  tokens?: TokenEntry[];
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Most connections open at once (default {@link DEFAULT_MAX_CONNECTIONS}); more are closed at once. */
  maxConnections?: number;
  /** Most connections open at once from one address (default {@link DEFAULT_MAX_CONNECTIONS_PER_ADDRESS}, at most `maxConnections`). */
  maxConnectionsPerAddress?: number;
  /** Milliseconds a connection has to send its request line and headers (default {@link DEFAULT_HEADERS_TIMEOUT_MS}); then 408 and closed. */
  headersTimeoutMs?: number;
  /** Serve the web inspector at `/` (default true). */
  inspector?: boolean;
  /** Where unexpected errors are logged (default: stderr). */
  logError?: (message: string) => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** `host[:port]` without the port, lower-cased; IPv6 brackets kept off. */
function hostName(h: string): string {
  const s = h.trim().toLowerCase();
  if (s.startsWith('[')) return s.slice(1, s.indexOf(']'));
  const i = s.lastIndexOf(':');
  return i > 0 && s.indexOf(':') === i ? s.slice(0, i) : s;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text, refusing bytes that are not UTF-8: a lenient decode would store U+FFFD in
 * place of each bad byte, changing the client's text without telling it.
 */
function decodeUtf8(raw: Buffer): string {
  try {
    return UTF8.decode(raw);
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'The request body is not valid UTF-8. Send JSON encoded as UTF-8; nothing was changed.');
  }
}

/**
 * Errors Node's HTTP parser raises before a request exists (too long a URL or headers, garbage):
 * answered in the API's JSON error shape instead of Fastify's own, then the socket is closed.
 */
function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let status = 400;
  let body: ErrorBody = { error: { code: 'BAD_REQUEST', message: 'The request could not be read as HTTP. Check the method, URL and headers.' } };
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // The request line is the first line: without its end in what was read, the URL is the long part.
    const lineEnd = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.indexOf('\r\n') : -1;
    if (lineEnd === -1 || lineEnd > MAX_HEADER_BYTES / 2) {
      status = 414;
      body = {
        error: {
          code: 'URI_TOO_LONG',
          message: `The URL is too long (the request line and headers may take ${MAX_HEADER_BYTES / 1024} KiB). Memory ids are at most 200 characters; send long filters in a POST body (e.g. /api/recall).`,
        },
      };
    } else {
      status = 431;
      body = {
        error: {
          code: 'HEADERS_TOO_LARGE',
          message: `The request headers are too large (at most ${MAX_HEADER_BYTES / 1024} KiB with the request line). Send fewer or shorter headers.`,
        },
      };
    }
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = { error: { code: 'REQUEST_TIMEOUT', message: 'The request took too long to arrive. Send it again.' } };
  }
  const text = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    ...Object.entries(SECURITY_HEADERS).map(([k, v]) => `${k}: ${v}`),
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(text)}`,
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${text}`);
}

/** JSON.parse that names the problem and refuses prototype-poisoning keys. */
function parseJsonBody(text: string): unknown {
  if (!text.trim())
    throw new HttpError(400, 'INVALID_JSON', 'The request body is empty but Content-Type says application/json. Send a JSON body, or drop the header.');
  let poisoned = false;
  let value: unknown;
  try {
    value = JSON.parse(text, (k, v: unknown) => {
      if (isPoisonKey(k, v)) poisoned = true;
      return v;
    });
  } catch (err) {
    throw new HttpError(400, 'INVALID_JSON', `The request body is not valid JSON (${(err as Error).message}). Check quotes, commas and brackets.`);
  }
  if (poisoned) throw new HttpError(400, 'INVALID_JSON', 'The request body uses the forbidden key "__proto__" or "constructor.prototype".');
  return value;
}

function parse<S extends z.ZodType>(schema: S | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const r = schema.safeParse(value);
  if (!r.success) throw new HttpError(400, 'INVALID_INPUT', describeIssues(where, r.error));
  return r.data;
}

/**
 * Build the HTTP server (not yet listening): the JSON API under `/api`, `/openapi.json`, and the
 * web inspector at `/`. Call `listen({ port, host })` on the result.
 *
 * Security: with no tokens the server must be bound to loopback (this function refuses otherwise);
 * requests must then name a loopback Host (DNS-rebinding guard). With tokens, every `/api` route
 * except `/api/health` needs `Authorization: Bearer <token>`. Requests with an `Origin` of another
 * site are refused, and only `application/json` bodies are parsed, so web pages cannot drive the API.
 */
export function createServer(options: ServerOptions): FastifyInstance {
  const mem = options.memory;
  const host = options.host ?? '127.0.0.1';
  const tokens = options.tokens ?? [];
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const loopback = isLoopback(host);
  const logError = options.logError ?? ((m: string) => process.stderr.write(`${m}\n`));
  if (!loopback && tokens.length === 0) {
    throw new MnemoliteError(
      'INVALID_INPUT',
      `Refusing to listen on ${host} without a token: anyone who can reach it could read and change every memory. Set MNEMOLITE_TOKEN (e.g. export MNEMOLITE_TOKEN=$(openssl rand -hex 32)) or MNEMOLITE_TOKENS, or bind to 127.0.0.1.`,
    );
  }
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1024)
    throw new MnemoliteError('INVALID_INPUT', 'The body limit must be a whole number of bytes, at least 1024.');
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new MnemoliteError('INVALID_INPUT', 'maxConnections must be a whole number, 1 or more.');
  const perAddress = Math.min(options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, maxConnections);
  if (!Number.isInteger(perAddress) || perAddress < 1) throw new MnemoliteError('INVALID_INPUT', 'maxConnectionsPerAddress must be a whole number, 1 or more.');
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  if (!Number.isInteger(headersTimeout) || headersTimeout < 100 || headersTimeout > 120_000)
    throw new MnemoliteError('INVALID_INPUT', 'headersTimeoutMs must be a whole number of milliseconds from 100 to 120000.');

  const app = Fastify({
    logger: false,
    bodyLimit,
    routerOptions: { maxParamLength: 200 },
    requestTimeout: 120_000,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node checks the timeouts on this interval (default 30 s, which would stretch a 10 s timeout to 40 s).
    http: { maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: headersTimeout, connectionsCheckingInterval: Math.min(1000, Math.ceil(headersTimeout / 4)) },
    return503OnClosing: true,
    clientErrorHandler: (err, socket) => answerClientError(err, socket),
    frameworkErrors: (err, _req, res) => {
      const reply = res as unknown as FastifyReply;
      const { status, body } = toErrorResponse(err);
      void reply
        .code(status >= 500 ? 400 : status)
        .headers(SECURITY_HEADERS)
        .send(status >= 500 ? { error: { code: 'BAD_REQUEST', message: 'The request URL could not be read.' } } : body);
    },
  });
  // Only JSON bodies: a web page cannot send application/json to another origin without a CORS
  // preflight, which this server never approves.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, raw, done) => {
    try {
      done(null, parseJsonBody(decodeUtf8(raw as Buffer)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.decorateRequest('principal', null);
  // Node closes connections beyond this as soon as they are accepted (no response is possible).
  app.server.maxConnections = maxConnections;
  // The same per address, so that one client cannot hold every slot.
  const perHost = new Map<string, number>();
  app.server.on('connection', (socket: Duplex & { remoteAddress?: string }) => {
    const addr = socket.remoteAddress ?? '';
    const n = (perHost.get(addr) ?? 0) + 1;
    if (n > perAddress) {
      socket.destroy();
      return;
    }
    perHost.set(addr, n);
    socket.once('close', () => {
      const left = (perHost.get(addr) ?? 1) - 1;
      if (left > 0) perHost.set(addr, left);
      else perHost.delete(addr);
    });
  });

  const authRequired = tokens.length > 0;
  const version = VERSION;
  const routes = apiRoutes(mem, version);
  const openapi = buildOpenApi(routes, { version, authRequired, bodyLimit });

  app.addHook('onRequest', async (req, reply) => {
    void reply.headers(SECURITY_HEADERS);
    const hostHeader = req.headers.host ?? '';
    if (loopback && tokens.length === 0) {
      // DNS rebinding: a web page on evil.example re-pointed to 127.0.0.1 still sends Host: evil.example.
      if (!isLoopback(hostName(hostHeader))) {
        throw new HttpError(
          403,
          'FORBIDDEN',
          `Host "${hostHeader.slice(0, 100)}" is not allowed: this server only answers requests addressed to localhost, 127.0.0.1 or [::1]. To reach it under another name, set a token (MNEMOLITE_TOKEN).`,
        );
      }
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let same = false;
      try {
        const o = new URL(origin);
        same = (o.protocol === 'http:' || o.protocol === 'https:') && o.host.toLowerCase() === hostHeader.toLowerCase();
      } catch {
        /* not a URL: refused */
      }
      if (!same)
        throw new HttpError(
          403,
          'FORBIDDEN',
          'Cross-origin requests are not allowed. Call the API from a program, or from the inspector served by this server.',
        );
    }
    const auth = req.routeOptions.config as { auth?: boolean } | undefined;
    if (!auth?.auth) return;
    if (!authRequired) {
      req.principal = { via: 'none', namespaces: '*' };
      return;
    }
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer[ \t]+(\S+)\s*$/i.exec(header) : null;
    if (!m) {
      void reply.header('www-authenticate', 'Bearer realm="mnemolite"');
      throw new HttpError(401, 'UNAUTHORIZED', 'This server needs a token. Send Authorization: Bearer <token> (MNEMOLITE_TOKEN or one of MNEMOLITE_TOKENS).');
    }
    const entry = matchToken(m[1]!, tokens);
    if (!entry) {
      void reply.header('www-authenticate', 'Bearer realm="mnemolite", error="invalid_token"');
      throw new HttpError(401, 'UNAUTHORIZED', 'The bearer token is not valid.');
    }
    req.principal = { via: 'token', namespaces: entry.namespaces };
  });

  app.setErrorHandler((err, req, reply) => {
    const { status, body, internal } = toErrorResponse(err, [mem.path]);
    if (internal) logError(`mnemolite serve: ${req.method} ${req.url.split('?')[0]} failed: ${(err as Error)?.stack ?? String(err)}`);
    if (status === 503) void reply.header('retry-after', '1');
    void reply.code(status).type('application/json; charset=utf-8').send(body);
  });

  app.setNotFoundHandler((req, reply) => {
    void reply
      .code(404)
      .send({ error: { code: 'NO_ROUTE', message: `No route ${req.method} ${req.url.split('?')[0]}. The API is described at /openapi.json.` } });
  });

  const register = (r: RouteDef): void => {
    app.route({
      method: r.method,
      url: r.path,
      config: { auth: r.auth },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const params = parse(r.params, req.params, 'path');
        const query = parse(r.query, req.query ?? {}, 'query');
        const body = parse(r.body, req.body, 'body');
        void reply.header('cache-control', 'no-store');
        return r.handler({ params, query, body, principal: req.principal!, request: req, reply } as never);
      },
    });
  };
  for (const r of routes) register(r);

  app.get('/openapi.json', async (_req, reply) => {
    void reply.header('cache-control', 'no-cache');
    return openapi;
  });

  if (options.inspector !== false) {
    const page = (type: string, text: string) => async (_req: FastifyRequest, reply: FastifyReply) => {
      void reply.headers({ 'content-type': type, 'content-security-policy': INSPECTOR_CSP, 'cache-control': 'no-cache' });
      return text;
    };
    app.get('/', page('text/html; charset=utf-8', INSPECTOR_HTML));
    app.get('/inspector.js', page('text/javascript; charset=utf-8', INSPECTOR_JS));
    app.get('/inspector.css', page('text/css; charset=utf-8', INSPECTOR_CSS));
  }

  return app;
}

/** The URL a listening server can be reached at, e.g. `http://127.0.0.1:7077`. */
export function serverUrl(app: FastifyInstance): string {
  const a = app.server.address() as AddressInfo | null;
  if (!a || typeof a === 'string') return String(a);
  const h = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return `http://${h}:${a.port}`;
}
