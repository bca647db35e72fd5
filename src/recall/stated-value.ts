/**
 * Amounts a memory states about what a question asks. "How many sessions of the support group did I
 * attend?" is answered by "I did attend three sessions of the bereavement support group" and, later,
 * "I remember attending five sessions": two values of one attribute, each in a sentence that
 * matches the question. Long chat turns carry such a fact in passing ("… By the way, I've had my
 * Canon with me on five trips now"), so the whole turn's vector says little about it, while the
 * sentence that holds the number and the question's words does. Current over stale
 * (src/recall/current.ts) takes two such memories with different values as evidence of an update.
 */
import { stem } from '../text/stems.js';
import { STOP_WORDS } from '../text/stopwords.js';

/** Questions that ask for an amount: a count, a frequency, a duration, a page. */
const AMOUNT_QUESTION = /\b(how\s+(many|much|often|long|far|old|frequently)|what\s+(number|percentage|amount|page|size))\b/i;

/** Words that state an amount or a frequency (digits count too). */
const AMOUNT_WORDS: ReadonlySet<string> = new Set(
  (
    'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty ' +
    'thirty forty fifty sixty seventy eighty ninety hundred thousand dozen half couple first second third fourth fifth sixth seventh ' +
    'eighth ninth tenth once twice thrice daily weekly biweekly fortnightly monthly yearly annually every'
  ).split(' '),
);

/** A sentence's end: . ! ? before a space (not after a title such as "Dr.", nor inside "3.5"), a semicolon or a line break; one character, no runs (linear on "......"). */
const SENTENCE_END = /(?<!\b(?:dr|mr|mrs|ms|prof|st|jr|sr|vs|no|e\.g|i\.e))[.!?](?=\s|$)|[;\n]/;

/** Characters of a memory read for its amounts: a chat turn or a note has far fewer. */
export const MAX_AMOUNT_TEXT = 16_000;

/** The words of a question that asks for an amount, worked out once per query (every candidate is read against them). */
export interface AmountQuestion {
  /** The question's stems (stop words aside), less the words that ask ("many", "often"). */
  stems: ReadonlySet<string>;
  /** The question's words as written, lower-cased: a number among them names a thing ("80D"), not an amount. */
  words: ReadonlySet<string>;
  /** How many of {@link stems} a sentence must hold: two, or one for a question with only one. */
  need: number;
}

/** The question's side of the rule, or null when `query` does not ask for an amount (or names nothing to count). */
export function amountQuestion(query: string, queryStems: ReadonlySet<string>): AmountQuestion | null {
  const m = AMOUNT_QUESTION.exec(query);
  if (!m) return null;
  // The word that asks ("many", "often", "number") is no word of the thing counted; "page" is.
  const asking = stem((m[2] ?? m[3]!).toLowerCase());
  const stems = asking === 'page' ? queryStems : new Set([...queryStems].filter((t) => t !== asking));
  if (!stems.size) return null;
  return { stems, words: new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []), need: Math.min(2, stems.size) };
}

/** The amounts a memory states in sentences that match the question, and the question's words those sentences hold. */
export interface StatedAmount {
  /** The amount words and numbers ("three", "5", "5th", "every"), lower-cased. */
  values: Set<string>;
  /** The question's stems found in those sentences. */
  terms: Set<string>;
  /** Share of the text read taken by those sentences (1: the memory is the statement; small: said in passing). */
  share: number;
}

/**
 * Largest {@link StatedAmount.share} of an amount said in passing: at least a quarter of the memory
 * is about something else, so its vector is not the amount's. Current over stale waives its vector
 * tests only for a newer memory that says its amount in passing; a newer note that is its statement
 * keeps them ("The design team has 4 designers and 2 engineers" is no update of "Our team has 6
 * engineers": far from the question, as its vector says).
 */
export const IN_PASSING_SHARE = 0.75;

/** How near (in words) an amount must stand to a word of the question: "three sessions", "tried out 3 of Emma's recipes". */
export const AMOUNT_REACH = 2;

/** A year ("since November 2020") dates a statement; it is not an amount of anything. */
const YEAR = /^(1[89]|20)\d\d$/;

/**
 * The amounts `content` states in sentences holding at least {@link AmountQuestion.need} of the
 * question's stems, each amount within {@link AMOUNT_REACH} words of one of them ("level 5" in a
 * sentence about classes is not the number of classes). Numbers that are words of the question
 * ("Canon EOS 80D"), years, and the question's own "many" / "often" are not amounts. Null when no
 * sentence states one.
 */
export function statedAmount(content: string, q: AmountQuestion): StatedAmount | null {
  const { stems: queryStems, words: queryWords, need } = q;
  let out: StatedAmount | null = null;
  // Bounded by the text read, whatever a memory holds (the rule compares up to 100 candidates).
  const text = content.slice(0, MAX_AMOUNT_TEXT);
  for (const sentence of text.toLowerCase().split(SENTENCE_END)) {
    const words = sentence.match(/[\p{L}\p{N}]+/gu);
    if (!words) continue;
    const termAt: boolean[] = [];
    const terms = new Set<string>();
    const candidates: number[] = [];
    words.forEach((w, i) => {
      termAt.push(false);
      if (queryWords.has(w) || !STOP_WORDS.has(w)) {
        const t = stem(w);
        if (queryStems.has(t)) {
          terms.add(t);
          termAt[i] = true;
        }
      }
      if (!queryWords.has(w) && !YEAR.test(w) && ((w.charCodeAt(0) >= 48 && w.charCodeAt(0) <= 57) || AMOUNT_WORDS.has(w))) candidates.push(i);
    });
    if (terms.size < need) continue;
    const near = (i: number): boolean => {
      for (let j = Math.max(0, i - AMOUNT_REACH); j <= i + AMOUNT_REACH && j < words.length; j++) if (termAt[j]) return true;
      return false;
    };
    const values = candidates.filter(near).map((i) => words[i]!);
    if (!values.length) continue;
    out ??= { values: new Set(), terms: new Set(), share: 0 };
    for (const v of values) out.values.add(v);
    for (const t of terms) out.terms.add(t);
    out.share += sentence.length / text.length;
  }
  return out;
}

/** Whether an amount was said in passing (see {@link IN_PASSING_SHARE}). */
export function inPassing(a: StatedAmount): boolean {
  return a.share < IN_PASSING_SHARE;
}

/** Whether two stated amounts are values of one attribute that differ: a shared question word, other numbers. */
export function otherAmount(older: StatedAmount, newer: StatedAmount): boolean {
  let shared = false;
  for (const t of older.terms) if (newer.terms.has(t)) shared = true;
  if (!shared) return false;
  if (older.values.size !== newer.values.size) return true;
  for (const v of older.values) if (!newer.values.has(v)) return true;
  return false;
}
