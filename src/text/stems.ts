/** Light stemming for the rules that compare two memories' words (current over stale, supersede: 'auto'). */
import { STOP_WORDS } from './stopwords.js';

/**
 * Light stem: plural, then a simple verb ending, then a final "e", so "moved"/"moves"/"moving",
 * "release"/"released" and "meeting"/"meetings" meet.
 */
export function stem(w: string): string {
  let x = w.replace(/'s$/, '');
  if (x.length > 3 && x.endsWith('s') && !x.endsWith('ss')) x = x.slice(0, -1);
  if (x.length > 5) x = x.replace(/ing$/, '');
  if (x.length > 4) x = x.replace(/ed$/, '');
  if (x.length > 4) x = x.replace(/e$/, '');
  return x;
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
  for (const [w] of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    if (!STOP_WORDS.has(w) && w.length > 1) out.add(stem(w));
    if (out.size >= max) break;
  }
  return out;
}
