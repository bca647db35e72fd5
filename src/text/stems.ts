/** Light stemming for the rules that compare two memories' words (current over stale, supersede: 'auto'). */
import { STOP_WORDS } from './stopwords.js';

/**
 * Light stem: plural, then a simple verb ending, then a final "e", so "moved"/"moves"/"moving",
 * "release"/"released" and "meeting"/"meetings" meet.
 */
export function stem(w: string): string {
  // endsWith and slice, not regular expressions: this runs for every word of every candidate compared.
  let x = w.endsWith("'s") ? w.slice(0, -2) : w;
  if (x.length > 3 && x.endsWith('s') && !x.endsWith('ss')) x = x.slice(0, -1);
  if (x.length > 5 && x.endsWith('ing')) x = x.slice(0, -3);
  if (x.length > 4 && x.endsWith('ed')) x = x.slice(0, -2);
  if (x.length > 4 && x.endsWith('e')) x = x.slice(0, -1);
  return x;
}

/** Whether every character of `text` is ASCII: then letters and digits are [a-z0-9] and the word loops below need no Unicode classes. */
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Each maximal run of `[a-z0-9]` (and `_` when `underscore`) in an ASCII, lower-cased text, in order,
 * until `visit` returns false: what the Unicode word patterns of {@link stems} and MMR's token sets
 * find in such a text, several times faster.
 */
export function asciiWords(low: string, underscore: boolean, visit: (w: string) => boolean): void {
  for (let i = 0; i < low.length; ) {
    const c = low.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (underscore && c === 95))) {
      i++;
      continue;
    }
    let j = i + 1;
    for (; j < low.length; j++) {
      const d = low.charCodeAt(j);
      if (!((d >= 97 && d <= 122) || (d >= 48 && d <= 57) || (underscore && d === 95))) break;
    }
    if (!visit(low.slice(i, j))) return;
    i = j;
  }
}

/** Whether {@link asciiWords} reads `text` as the Unicode patterns would. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * Distinct words read of a text when two texts are compared (current over stale, supersede: 'auto',
 * MMR's word overlap): a fact or a chat turn has far fewer, and the rules compare every pair of up
 * to 100 candidates, so a 100 kB memory must not cost 15,000 words per pair.
 */
export const MAX_COMPARED_WORDS = 1000;

/**
 * Content words of a text, lower-cased and lightly stemmed; identifiers (`snake_case`, `camelCase`)
 * stay whole. Reads until `max` distinct ones are found.
 */
export function stems(text: string, max = MAX_COMPARED_WORDS): Set<string> {
  const out = new Set<string>();
  if (isAscii(text)) {
    asciiWords(text.toLowerCase(), true, (w) => {
      if (!STOP_WORDS.has(w) && w.length > 1) out.add(stem(w));
      return out.size < max;
    });
    return out;
  }
  for (const [w] of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    if (!STOP_WORDS.has(w) && w.length > 1) out.add(stem(w));
    if (out.size >= max) break;
  }
  return out;
}
