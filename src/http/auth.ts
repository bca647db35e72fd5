import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { MnemoliteError } from '../index.js';
import { tokenBits } from './token-strength.js';

/**
 * Which namespaces a caller may touch: `'*'` (all), or a list of exact names and `prefix*` patterns.
 */
export type NamespaceGrant = '*' | string[];

/** One configured bearer token. Only its SHA-256 digest is kept in memory. */
export interface TokenEntry {
  digest: Buffer;
  namespaces: NamespaceGrant;
}

/** Who is calling: everything (no auth configured) or a token with its grant. */
export interface Principal {
  /** `none`: no token is configured (loopback only); `token`: authenticated by a bearer token. */
  via: 'none' | 'token';
  namespaces: NamespaceGrant;
}

/** Shortest token accepted: guessing a 16+ character random token over HTTP is hopeless. */
export const MIN_TOKEN_LENGTH = 16;

const TOKEN_CHARS = /^[A-Za-z0-9._~+/=-]+$/;

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

function checkToken(token: string, source: string, minBits: number): void {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new MnemoliteError('INVALID_INPUT', `${source}: a token must be at least ${MIN_TOKEN_LENGTH} characters. Generate one with: openssl rand -hex 32`);
  }
  if (!TOKEN_CHARS.test(token)) {
    throw new MnemoliteError('INVALID_INPUT', `${source}: a token may only use letters, digits and . _ ~ + / = - (e.g. the output of openssl rand -hex 32).`);
  }
  if (minBits > 0 && tokenBits(token) < minBits) {
    throw new MnemoliteError(
      'INVALID_INPUT',
      `${source}: a token is too weak to listen beyond loopback (estimated ${Math.floor(tokenBits(token))} bits; at least ${minBits} needed). Generate one with: openssl rand -hex 32`,
    );
  }
}

function checkPattern(p: string, source: string): string {
  if (!p || /[\u0000-\u001f\u007f]/.test(p) || p.length > 129)
    throw new MnemoliteError('INVALID_INPUT', `${source}: "${p}" is not a valid namespace or namespace pattern.`);
  if (p !== '*' && p.indexOf('*') !== -1 && p.indexOf('*') !== p.length - 1) {
    throw new MnemoliteError('INVALID_INPUT', `${source}: "${p}": "*" may only end a namespace pattern (e.g. "agent-*").`);
  }
  return p;
}

/**
 * Read the token configuration.
 *
 * - `MNEMOLITE_TOKEN=<token>`: a token with access to every namespace.
 * - `MNEMOLITE_TOKENS=<token>=<namespaces>,<token>=<namespaces>`: tokens limited to namespaces.
 *   `<namespaces>` is `*` (all), or names and `prefix*` patterns separated by `|`,
 *   e.g. `MNEMOLITE_TOKENS='3f9c…=agent-1|agent-2,77ab…=team-*,c0de…=*'`.
 *   Entries may also be separated by whitespace or newlines.
 *
 * `options.minBits`: refuse tokens whose estimated strength (see `tokenBits`) is lower; the
 * server asks for 128 bits when it listens beyond loopback.
 */
export function parseTokens(
  env: { MNEMOLITE_TOKEN?: string | undefined; MNEMOLITE_TOKENS?: string | undefined },
  options: { minBits?: number } = {},
): TokenEntry[] {
  const minBits = options.minBits ?? 0;
  const entries: TokenEntry[] = [];
  const seen = new Set<string>();
  const add = (token: string, namespaces: NamespaceGrant, source: string): void => {
    checkToken(token, source, minBits);
    if (seen.has(token)) throw new MnemoliteError('INVALID_INPUT', `${source}: the same token is configured twice. Give each token one entry.`);
    seen.add(token);
    entries.push({ digest: digest(token), namespaces });
  };
  const single = env.MNEMOLITE_TOKEN?.trim();
  if (single) add(single, '*', 'MNEMOLITE_TOKEN');
  const multi = env.MNEMOLITE_TOKENS?.trim();
  if (multi) {
    for (const raw of multi.split(/[,\s]+/)) {
      if (!raw) continue;
      // A token may end in '=' (base64 padding), so split at the last '=': namespaces never contain one.
      const at = raw.lastIndexOf('=');
      if (at <= 0 || at === raw.length - 1) {
        throw new MnemoliteError(
          'INVALID_INPUT',
          'MNEMOLITE_TOKENS: each entry must be <token>=<namespaces>, e.g. MNEMOLITE_TOKENS="<token1>=agent-1|agent-2,<token2>=*".',
        );
      }
      const token = raw.slice(0, at);
      const list = raw
        .slice(at + 1)
        .split('|')
        .map((p) => checkPattern(p, 'MNEMOLITE_TOKENS'));
      add(token, list.includes('*') ? '*' : list, 'MNEMOLITE_TOKENS');
    }
  }
  return entries;
}

/**
 * Find the token entry for a presented bearer token. Compares SHA-256 digests with
 * `crypto.timingSafeEqual` against every configured token (no early exit), so the time
 * taken does not depend on how much of a token was guessed right.
 */
export function matchToken(presented: string, tokens: TokenEntry[]): TokenEntry | undefined {
  const d = digest(presented);
  let found: TokenEntry | undefined;
  for (const t of tokens) {
    if (timingSafeEqual(d, t.digest) && !found) found = t;
  }
  return found;
}

/** Whether a grant allows one concrete namespace. */
export function allows(grant: NamespaceGrant, namespace: string): boolean {
  if (grant === '*') return true;
  if (namespace === '*') return false;
  return grant.some((p) => (p.endsWith('*') ? namespace.startsWith(p.slice(0, -1)) : p === namespace));
}

/** Whether a host name or address only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '::ffff:127.0.0.1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}
