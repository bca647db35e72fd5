/**
 * How a LangGraph namespace tuple and item key become a mnemolite namespace and key, reversibly.
 *
 * Labels are joined with `/`. Every `%` is escaped, so percent-decoding inverts the encoding
 * exactly and two different tuples can never share a string: `/` (the separator), `*` (mnemolite's
 * "every namespace"), control characters (refused by mnemolite) and whole-blank labels (refused
 * as blank) are escaped too; everything else stays readable (`["users", "42"]` → `users/42`).
 */
import { MnemoliteError } from '../../errors.js';

/** Longest encoded namespace mnemolite accepts. */
export const MAX_NAMESPACE_CHARS = 128;
/** Longest encoded key: the key is also the memory's session id (see store.ts), which allows 256. */
export const MAX_KEY_CHARS = 256;

const pct = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

function escapeLabel(s: string, special: RegExp): string {
  // A blank label would make a blank (refused) namespace or key: escape all of it.
  if (s.trim() === '') return encodeURIComponent(s);
  return s.replace(special, pct);
}

const NAMESPACE_SPECIAL = /[%/*\u0000-\u001f\u007f]/g;
const KEY_SPECIAL = /[%\u0000-\u001f\u007f]/g;

/** `["users", "42"]` → `"users/42"`. Throws `INVALID_INPUT` when the result exceeds mnemolite's limit. */
export function encodeNamespace(namespace: readonly string[]): string {
  const out = namespace.map((l) => escapeLabel(l, NAMESPACE_SPECIAL)).join('/');
  if (out.length > MAX_NAMESPACE_CHARS) {
    throw new MnemoliteError(
      'INVALID_INPUT',
      `The namespace ${JSON.stringify(namespace)} is ${out.length} characters as a mnemolite namespace; the limit is ${MAX_NAMESPACE_CHARS}. Use shorter labels.`,
      { namespace: [...namespace] },
    );
  }
  return out;
}

/** Inverse of {@link encodeNamespace}; `null` for a string it cannot have produced. */
export function decodeNamespace(ns: string): string[] | null {
  try {
    const labels = ns.split('/').map((l) => decodeURIComponent(l));
    return encodeNamespace(labels) === ns ? labels : null;
  } catch {
    return null;
  }
}

/** An item key as a mnemolite key. Throws `INVALID_INPUT` for an empty or too long key. */
export function encodeKey(key: string): string {
  if (typeof key !== 'string' || key === '') throw new MnemoliteError('INVALID_INPUT', `An item key must be a non-empty string (got ${JSON.stringify(key)}).`);
  const out = escapeLabel(key, KEY_SPECIAL);
  if (out.length > MAX_KEY_CHARS) {
    throw new MnemoliteError('INVALID_INPUT', `The item key is ${out.length} characters once encoded; the limit is ${MAX_KEY_CHARS}.`, {
      key: key.slice(0, 80),
    });
  }
  return out;
}

/** Inverse of {@link encodeKey}. */
export function decodeKey(key: string): string {
  return decodeURIComponent(key);
}
