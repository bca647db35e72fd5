/**
 * The FTS5 tokenizer of `memories_fts` (`porter unicode61 remove_diacritics 2`), re-done in
 * JavaScript for ASCII text, so query terms and the terms of new memories can be looked up in
 * the in-memory keyword index without a round trip through SQLite.
 *
 * Only ASCII is handled here: unicode61's case folding and diacritic removal tables are large,
 * so text with any non-ASCII character is tokenized by FTS5 itself (see the keyword leg).
 * The tests check this against FTS5 on a generated corpus and an English word list.
 */

/** FTS5 passes tokens shorter than 3 or longer than 64 bytes through unstemmed. */
const STEM_MIN = 3;
const STEM_MAX = 64;

/** True when every UTF-16 unit of `s` is ASCII (< 0x80). */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Lower-cased, stemmed tokens of ASCII text, in order (with repeats). Token characters are
 * letters and digits; everything else separates tokens, as in unicode61.
 */
export function tokenizeAscii(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const tokenChar = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (tokenChar) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(stem(text.slice(start, i).toLowerCase()));
      start = -1;
    }
  }
  return out;
}

// ---- Porter stemmer, as FTS5 implements it ----------------------------------
// Works on a lower-case ASCII word held in a mutable char array.

function isVowel(w: string[], i: number, yIsVowel: boolean): boolean {
  const c = w[i];
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || (yIsVowel && c === 'y');
}

/** Position just after the first vowel-then-consonant run in w[from, to), or 0 if none. */
function gobbleVC(w: string[], from: number, to: number, prevCons: boolean): number {
  let cons = prevCons;
  let i = from;
  for (; i < to; i++) {
    cons = !isVowel(w, i, cons);
    if (!cons) break;
  }
  for (i++; i < to; i++) {
    cons = !isVowel(w, i, cons);
    if (cons) return i + 1;
  }
  return 0;
}

/** Porter measure m > 0 of w[0, n). */
function mGt0(w: string[], n: number): boolean {
  return gobbleVC(w, 0, n, false) !== 0;
}

/** m > 1. */
function mGt1(w: string[], n: number): boolean {
  const k = gobbleVC(w, 0, n, false);
  return k !== 0 && gobbleVC(w, k, n, true) !== 0;
}

/** m == 1. */
function mEq1(w: string[], n: number): boolean {
  const k = gobbleVC(w, 0, n, false);
  return k !== 0 && gobbleVC(w, k, n, true) === 0;
}

/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function oStar(w: string[], n: number): boolean {
  const last = w[n - 1];
  if (last === 'w' || last === 'x' || last === 'y') return false;
  let mask = 0;
  let cons = false;
  for (let i = 0; i < n; i++) {
    cons = !isVowel(w, i, cons);
    mask = ((mask << 1) | (cons ? 1 : 0)) & 0x7;
  }
  return mask === 0x5;
}

/** *v*: the stem contains a vowel (y counts as a vowel anywhere but the first letter). */
function hasVowel(w: string[], n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(w, i, i > 0)) return true;
  return false;
}

function endsWith(w: string[], n: number, suffix: string): boolean {
  const k = suffix.length;
  if (n <= k) return false; // FTS5 requires something before the suffix
  for (let i = 0; i < k; i++) if (w[n - k + i] !== suffix[i]) return false;
  return true;
}

type Cond = ((w: string[], n: number) => boolean) | null;
/** [suffix, condition on the stem, replacement, whether the step reports a change]. */
type Rule = [string, Cond, string, boolean?];

const sOrT = (w: string[], n: number): boolean => (w[n - 1] === 's' || w[n - 1] === 't') && mGt1(w, n);

/** Rules grouped by the suffix's second-to-last letter, tried in order; the first suffix match ends the step. */
function rules(list: Rule[]): Map<string, Rule[]> {
  const m = new Map<string, Rule[]>();
  for (const r of list) {
    const key = r[0][r[0].length - 2]!;
    m.set(key, [...(m.get(key) ?? []), r]);
  }
  return m;
}

const STEP1B = rules([
  ['eed', mGt0, 'ee'],
  ['ed', hasVowel, '', true],
  ['ing', hasVowel, '', true],
]);
const STEP1B2 = rules([
  ['at', null, 'ate', true],
  ['bl', null, 'ble', true],
  ['iz', null, 'ize', true],
]);
const STEP2 = rules([
  ['ational', mGt0, 'ate'],
  ['tional', mGt0, 'tion'],
  ['enci', mGt0, 'ence'],
  ['anci', mGt0, 'ance'],
  ['izer', mGt0, 'ize'],
  ['logi', mGt0, 'log'],
  ['bli', mGt0, 'ble'],
  ['alli', mGt0, 'al'],
  ['entli', mGt0, 'ent'],
  ['eli', mGt0, 'e'],
  ['ousli', mGt0, 'ous'],
  ['ization', mGt0, 'ize'],
  ['ation', mGt0, 'ate'],
  ['ator', mGt0, 'ate'],
  ['alism', mGt0, 'al'],
  ['iveness', mGt0, 'ive'],
  ['fulness', mGt0, 'ful'],
  ['ousness', mGt0, 'ous'],
  ['aliti', mGt0, 'al'],
  ['iviti', mGt0, 'ive'],
  ['biliti', mGt0, 'ble'],
]);
const STEP3 = rules([
  ['icate', mGt0, 'ic'],
  ['ative', mGt0, ''],
  ['alize', mGt0, 'al'],
  ['iciti', mGt0, 'ic'],
  ['ical', mGt0, 'ic'],
  ['ful', mGt0, ''],
  ['ness', mGt0, ''],
]);
const STEP4 = rules([
  ['al', mGt1, ''],
  ['ance', mGt1, ''],
  ['ence', mGt1, ''],
  ['er', mGt1, ''],
  ['ic', mGt1, ''],
  ['able', mGt1, ''],
  ['ible', mGt1, ''],
  ['ant', mGt1, ''],
  ['ement', mGt1, ''],
  ['ment', mGt1, ''],
  ['ent', mGt1, ''],
  ['ion', sOrT, ''],
  ['ou', mGt1, ''],
  ['ism', mGt1, ''],
  ['ate', mGt1, ''],
  ['iti', mGt1, ''],
  ['ous', mGt1, ''],
  ['ive', mGt1, ''],
  ['ize', mGt1, ''],
]);

/** Apply one rule table; returns [new length, changed flag]. */
function step(w: string[], n: number, table: Map<string, Rule[]>): [number, boolean] {
  const group = table.get(w[n - 2]!);
  if (!group) return [n, false];
  for (const [suffix, cond, rep, flag] of group) {
    if (!endsWith(w, n, suffix)) continue;
    const stemLen = n - suffix.length;
    if (cond && !cond(w, stemLen)) return [n, false];
    for (let i = 0; i < rep.length; i++) w[stemLen + i] = rep[i]!;
    return [stemLen + rep.length, !!flag];
  }
  return [n, false];
}

/** Porter stem of a lower-case ASCII token, exactly as FTS5's `porter` tokenizer makes it. */
export function stem(token: string): string {
  if (token.length < STEM_MIN || token.length > STEM_MAX) return token;
  const w = token.split('');
  let n = w.length;
  // Step 1a
  if (w[n - 1] === 's') {
    if (w[n - 2] === 'e') {
      if ((n > 4 && w[n - 4] === 's' && w[n - 3] === 's') || (n > 3 && w[n - 3] === 'i')) n -= 2;
      else n -= 1;
    } else if (w[n - 2] !== 's') n -= 1;
  }
  // Step 1b
  const [afterStep1b, changed] = step(w, n, STEP1B);
  n = afterStep1b;
  if (changed) {
    let again: boolean;
    [n, again] = step(w, n, STEP1B2);
    if (!again) {
      const c = w[n - 1]!;
      if (!isVowel(w, n - 1, false) && c !== 'l' && c !== 's' && c !== 'z' && c === w[n - 2]) n--;
      else if (mEq1(w, n) && oStar(w, n)) w[n++] = 'e';
    }
  }
  // Step 1c
  if (w[n - 1] === 'y' && hasVowel(w, n - 1)) w[n - 1] = 'i';
  // Steps 2 to 4
  [n] = step(w, n, STEP2);
  [n] = step(w, n, STEP3);
  [n] = step(w, n, STEP4);
  // Step 5a
  if (w[n - 1] === 'e' && (mGt1(w, n - 1) || (mEq1(w, n - 1) && !oStar(w, n - 1)))) n--;
  // Step 5b
  if (n > 1 && w[n - 1] === 'l' && w[n - 2] === 'l' && mGt1(w, n - 1)) n--;
  return w.slice(0, n).join('');
}
