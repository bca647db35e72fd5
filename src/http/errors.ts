import type { z } from 'zod';
import { ERROR_CODES, hidePaths } from '../errors.js';
import { MnemoliteError } from '../index.js';

/** An error answered with a 4xx status and a JSON body `{ error: { code, message, details? } }`. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    if (details) this.details = details;
  }
}

/** JSON error body. */
export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Describe a zod failure in one sentence naming the field. */
export function describeIssues(where: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    return `${where}${field ? ` ${field}` : ''} has unknown field(s): ${keys.map((k) => JSON.stringify(k)).join(', ')}. Check the spelling; /openapi.json lists the fields.`;
  }
  const msg = issue.message.replace(/^Invalid input: /, '');
  if (!field && issue.code === 'invalid_type' && /received undefined/.test(msg)) {
    return where === 'body' ? 'The request needs a JSON body. Send one with Content-Type: application/json.' : `${where}: ${msg}.`;
  }
  if (!field) return `${where}: ${msg}.`;
  const what = where === 'body' ? 'body field' : `${where} parameter`;
  return `${what} "${field}": ${msg}.`;
}

/**
 * Turn any error into a status and a safe JSON body. Library and request errors keep their message
 * (it says what to do); anything unexpected becomes a generic 500 with no message, stack or path.
 */
export function toErrorResponse(err: unknown, hide: readonly string[] = []): { status: number; body: ErrorBody; internal: boolean } {
  const r = errorResponse(err);
  // Library messages name the file (useful in a terminal); no server-side path reaches a client.
  r.body.error.message = hidePaths(r.body.error.message, hide);
  return r;
}

function errorResponse(err: unknown): { status: number; body: ErrorBody; internal: boolean } {
  if (err instanceof HttpError) {
    return { status: err.status, body: { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } }, internal: false };
  }
  if (err instanceof MnemoliteError) {
    // The status, and whether the message is shown, come from the one table (src/errors.ts).
    const info = ERROR_CODES[err.code] as { http: number; httpShowsMessage: boolean } | undefined;
    const status = info?.http ?? 500;
    if (status >= 500 && !info?.httpShowsMessage) {
      return {
        status,
        body: { error: { code: err.code, message: 'The server could not complete the request because of a storage problem. The server log has details.' } },
        internal: true,
      };
    }
    const details = status < 500 && err.details ? { details: err.details } : {};
    return { status, body: { error: { code: err.code, message: err.message, ...details } }, internal: status >= 500 };
  }
  const e = err as { statusCode?: number; code?: string; message?: string } | null;
  const sc = e && typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (sc >= 400 && sc < 500) {
    switch (e?.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return bad(400, 'INVALID_JSON', 'The request body is not valid JSON. Check quotes, commas and brackets.');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return bad(400, 'INVALID_JSON', 'The request body is empty but Content-Type says application/json. Send a JSON body, or drop the header.');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return bad(
          413,
          'PAYLOAD_TOO_LARGE',
          'The request body is larger than the server accepts. Send fewer memories per request (content is at most 100,000 bytes each), or start the server with a larger --body-limit.',
        );
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return bad(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return bad(400, 'BAD_REQUEST', 'The Content-Length header does not match the body.');
      default:
        if (sc === 414)
          return bad(414, 'URI_TOO_LONG', 'The URL is too long. Memory ids are at most 200 characters; send long filters in a POST body (e.g. /api/recall).');
        return bad(sc, 'BAD_REQUEST', 'The request could not be read. Check the method, headers and body against /openapi.json.');
    }
  }
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'Internal server error. The server log has details.' } }, internal: true };
}

function bad(status: number, code: string, message: string): { status: number; body: ErrorBody; internal: boolean } {
  return { status, body: { error: { code, message } }, internal: false };
}
