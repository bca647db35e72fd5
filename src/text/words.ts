/** Characters of scripts written without spaces between words (each counts as about one word). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;

/** Approximate word count: whitespace-separated words, plus CJK/Thai characters counted one by one. */
export function wordCount(text: string): number {
  const unspaced = text.match(UNSPACED)?.length ?? 0;
  const spaced = text.replace(UNSPACED, ' ').split(/\s+/).filter(Boolean).length;
  return spaced + unspaced;
}

/**
 * Approximate token count of a text for chunking: words × 1.3, or characters / 4 when that is
 * larger (code, URLs and long identifiers have few spaces). No tokenizer is needed.
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  return Math.max(Math.ceil(wordCount(text) * 1.3), Math.ceil(text.length / 4));
}
