import { deflateRawSync } from 'node:zlib';

/** Estimated strength a token needs when the server listens beyond loopback. */
export const STRONG_TOKEN_BITS = 128;

/**
 * A conservative estimate of a token's entropy in bits: the smallest of
 * - length × log2 of the alphabet its character classes suggest (hex 16, base64 64, …),
 * - length × the empirical entropy of its characters (catches "aaaa…", "password1234…"),
 * - 8 × its deflated size (catches repeated patterns such as "abcdabcdabcd…").
 * `openssl rand -hex 32` scores about 240; 16 ordinary characters never reach 128.
 */
export function tokenBits(token: string): number {
  const n = token.length;
  if (!n) return 0;
  let alphabet: number;
  if (/^[0-9a-f]+$/.test(token) || /^[0-9A-F]+$/.test(token)) alphabet = 16;
  else {
    alphabet = 0;
    if (/[a-z]/.test(token)) alphabet += 26;
    if (/[A-Z]/.test(token)) alphabet += 26;
    if (/[0-9]/.test(token)) alphabet += 10;
    if (/[^A-Za-z0-9]/.test(token)) alphabet += 8;
  }
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const k of counts.values()) h -= (k / n) * Math.log2(k / n);
  // Deflate's own header and block overhead is a few bytes: not counted as entropy.
  const packed = Math.max(0, deflateRawSync(token, { level: 9 }).length - 3) * 8;
  return Math.min(n * Math.log2(alphabet), n * h, packed);
}
