/** What one error code means, and how each surface answers it. */
export interface ErrorCodeInfo {
  /** HTTP status the server answers with. */
  readonly http: number;
  /** Whether the HTTP server shows the library's message (else a generic one; the log has the details). */
  readonly httpShowsMessage: boolean;
  /**
   * CLI exit code: 1 for every error the library reports, disk full included (the docs promise
   * that 2 means an internal error, a bug, and nothing else).
   */
  readonly exit: 1;
  /** Whether the same call may succeed later unchanged (after a wait, or once the server is back). */
  readonly retryable: boolean;
  /** One sentence: when it happens. */
  readonly meaning: string;
}

/**
 * Every error code with its HTTP status, CLI exit code, retryability and meaning: the one table
 * the HTTP server, the CLI and docs/errors.md (checked by test/errors.test.ts) derive from.
 */
export const ERROR_CODES = {
  INVALID_INPUT: {
    http: 400,
    httpShowsMessage: true,
    exit: 1,
    retryable: false,
    meaning: 'An argument or option is wrong (type, range, size, unknown field); nothing was changed.',
  },
  NOT_FOUND: {
    http: 404,
    httpShowsMessage: true,
    exit: 1,
    retryable: false,
    meaning: 'No memory with that id (in that namespace), or a supersedes target that does not exist.',
  },
  NOT_A_DATABASE: { http: 500, httpShowsMessage: false, exit: 1, retryable: false, meaning: 'The file is not a mnemolite store, or it is damaged.' },
  SCHEMA_TOO_NEW: { http: 500, httpShowsMessage: false, exit: 1, retryable: false, meaning: 'The store was written by a newer mnemolite; upgrade to open it.' },
  EMBEDDING_MISMATCH: {
    http: 500,
    httpShowsMessage: false,
    exit: 1,
    retryable: false,
    meaning: 'The store holds vectors of another embedding model than the one it was opened with.',
  },
  EMBEDDER_FAILED: {
    http: 502,
    httpShowsMessage: true,
    exit: 1,
    retryable: true,
    meaning: 'The embedder could not embed (provider unreachable or failing, model missing); nothing was written.',
  },
  RERANKER_FAILED: {
    http: 502,
    httpShowsMessage: true,
    exit: 1,
    retryable: true,
    meaning: 'The rerank function given to recall threw or did not return one finite score per candidate.',
  },
  SEMANTIC_DISABLED: {
    http: 400,
    httpShowsMessage: true,
    exit: 1,
    retryable: false,
    meaning: 'A vector or hybrid call on a store opened without an embedder.',
  },
  READ_ONLY: {
    http: 409,
    httpShowsMessage: true,
    exit: 1,
    retryable: false,
    meaning: 'A write on a store opened read-only, or a change that needs a writable store.',
  },
  BUSY: {
    http: 503,
    httpShowsMessage: true,
    exit: 1,
    retryable: true,
    meaning: 'Another writer held the lock for longer than busyTimeoutMs; nothing was written.',
  },
  CLOSED: { http: 503, httpShowsMessage: true, exit: 1, retryable: false, meaning: 'A call on a Memory after close(); open it again.' },
  STORAGE: {
    http: 500,
    httpShowsMessage: false,
    exit: 1,
    retryable: false,
    meaning: 'The storage failed (disk full, I/O error, permission, a PostgreSQL error).',
  },
  UNAVAILABLE: {
    http: 503,
    httpShowsMessage: false,
    exit: 1,
    retryable: true,
    meaning: 'The PostgreSQL server cannot be reached, refused the login, or has no such database.',
  },
  FILE_REPLACED: {
    http: 500,
    httpShowsMessage: true,
    exit: 1,
    retryable: false,
    meaning: 'The memory file was deleted, moved or replaced while it was open; nothing was written. Open it again (restart the server).',
  },
  CONFLICT: {
    http: 409,
    httpShowsMessage: true,
    exit: 1,
    retryable: false,
    meaning: 'The profile changed since the caller read it (expectedVersion differs); read it again and reapply the change.',
  },
  UNSUPPORTED: {
    http: 501,
    httpShowsMessage: false,
    exit: 1,
    retryable: false,
    meaning: 'The store cannot do this (e.g. backup on PostgreSQL, pgvector missing).',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/**
 * Machine-readable error codes. Every error mnemolite throws on purpose is a
 * {@link MnemoliteError} carrying one of these (see {@link ERROR_CODES}).
 */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The one error type of the library: a stable `code` plus a message that says what to do. */
export class MnemoliteError extends Error {
  /** Stable, machine-readable code. */
  readonly code: ErrorCode;
  /** Optional structured details (the offending field, limits, ...). */
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MnemoliteError';
    this.code = code;
    if (details) this.details = details;
  }
}

/** Shorthand for an {@link MnemoliteError} with code `INVALID_INPUT`. */
export function invalid(message: string, details?: Record<string, unknown>): MnemoliteError {
  return new MnemoliteError('INVALID_INPUT', message, details);
}

/**
 * `message` with every string of `hide` (the server's file path, the database URL) replaced by
 * "the memory file": what a caller outside the process (an HTTP client, a model) may read.
 */
export function hidePaths(message: string, hide: readonly string[]): string {
  let m = message;
  for (const h of hide) if (h && m.includes(h)) m = m.split(h).join('the memory file');
  return m;
}

/**
 * What a caller outside the process may read of `err`: its message without server paths, or, for
 * the codes whose details stay in the server's log (`httpShowsMessage: false`: storage failures,
 * damaged files), a generic sentence.
 */
export function publicMessage(err: MnemoliteError, hide: readonly string[]): string {
  if (!ERROR_CODES[err.code].httpShowsMessage) return 'The memory store could not complete the call because of a storage problem. The server log has details.';
  return hidePaths(err.message, hide);
}
