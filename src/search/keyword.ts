import { STOP_WORDS } from '../text/stopwords.js';

/** Tokens: runs of letters, marks and digits (same idea as FTS5's unicode61 tokenizer). */
const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;

/** Cap on query terms: a 100 KB query must not turn into a 20,000-term OR. */
export const MAX_QUERY_TERMS = 32;

/**
 * Turn free text into a safe FTS5 MATCH expression.
 *
 * Every token is wrapped in double quotes, so FTS5 operators in the input (`AND`, `NEAR`,
 * `*`, `^`, `:`, parentheses, quotes) are plain text. Terms are OR-joined so a natural-language
 * question finds memories that share only some of its words; BM25 ranks those with more and
 * rarer shared words first. Returns `null` when the text has no searchable token.
 */
export function toMatchExpression(text: string): string | null {
  const terms = queryTerms(text);
  if (!terms.length) return null;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/** Distinct lower-cased tokens of `text`, stop words dropped (unless nothing else is left). */
export function queryTerms(text: string): string[] {
  const all = [...new Set(text.toLowerCase().match(TOKEN) ?? [])];
  const kept = all.filter((t) => !STOP_WORDS.has(t));
  const terms = kept.length ? kept : all;
  return terms.slice(0, MAX_QUERY_TERMS);
}
