/**
 * Machine-readable error codes. Every error mnemolite throws on purpose is a
 * {@link MnemoliteError} carrying one of these.
 */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'NOT_A_DATABASE'
  | 'SCHEMA_TOO_NEW'
  | 'EMBEDDING_MISMATCH'
  | 'EMBEDDER_FAILED'
  | 'SEMANTIC_DISABLED'
  | 'READ_ONLY'
  | 'BUSY'
  | 'CLOSED'
  | 'STORAGE'
  | 'UNAVAILABLE'
  | 'UNSUPPORTED';

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
