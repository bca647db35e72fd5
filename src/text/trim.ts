/**
 * `text` without the trailing characters in `chars` (UTF-16 code units; a set of BMP characters).
 * Linear, where the regex `/[…]+$/` is quadratic: a search tries every start of a long run of
 * those characters that does not reach the end, and scans the run again from each.
 */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}
