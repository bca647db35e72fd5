/**
 * Time in questions: "what happened last week", "in March", "two days ago" become a soft
 * preference for memories whose time falls in the window the phrase names (src/recall/time-expr.ts).
 * Nothing is filtered out: a memory outside the window keeps its place relative to the others
 * outside it and can still win on strong evidence; only `since` / `until` filter.
 *
 * A memory's time is its `eventAt` (when it happened) when set, else its `createdAt`; with
 * `timeField: 'created'`, its `createdAt` (src/recall/prefer.ts reads the times).
 */
import type { FusedHit } from './fusion.js';
import { queryTerms } from '../search/keyword.js';
import { STOP_WORDS } from '../text/stopwords.js';
import { parseTimeExpressions, type TimeExpression } from './time-expr.js';

/**
 * Factor applied to the score of a candidate outside every window the query names. 0.5 measured on
 * the facts set's time questions run without their `since`/`until` filters (EVAL.md "Time in
 * questions").
 */
export const OUT_OF_WINDOW_FACTOR = 0.5;

/**
 * Words a question about a time window uses without naming a topic ("What happened last week?",
 * "What did we talk about yesterday?", "Anything new since Monday?"); stop words are dropped anyway.
 */
const NO_TOPIC = new Set(
  `happen happened happening happens go goes going went gone get gets getting got gotten done talk talked talking discuss discussed
  chat chatted say said mention mentioned new anything something everything nothing stuff thing things up lately recently time`.split(/\s+/),
);

/**
 * Whether `query` asks about something besides the `windows` it names: a word left once the time
 * phrases, stop words and the words of {@link NO_TOPIC} are taken out.
 */
export function hasTopic(query: string, windows: readonly TimeExpression[]): boolean {
  let rest = '';
  let at = 0;
  for (const w of [...windows].sort((a, b) => a.start - b.start)) {
    rest += ` ${query.slice(at, w.start)}`;
    at = Math.max(at, w.end);
  }
  rest += ` ${query.slice(at)}`;
  return queryTerms(rest).some((t) => !NO_TOPIC.has(t) && !STOP_WORDS.has(t));
}

/** The windows a query names, relative to `now`; empty when it names none. */
export function queryWindows(query: string, now: Date): TimeExpression[] {
  return parseTimeExpressions(query, { now }) ?? [];
}

/** Scale a score by a positive factor so a larger factor always ranks higher (negative scores too). */
function scale(score: number, factor: number): number {
  return score >= 0 ? score * factor : score / factor;
}

/**
 * Re-rank `fused` (best first) so that candidates whose time (`timeOf`, ms since epoch) lies in one
 * of `windows` are preferred: the others have their score scaled by {@link OUT_OF_WINDOW_FACTOR}, or,
 * when the question has no `topic` besides the window, rank below every memory inside it. Returns a
 * new list.
 */
export function preferWindows(fused: readonly FusedHit[], windows: readonly TimeExpression[], timeOf: ReadonlyMap<number, number>, topic = true): FusedHit[] {
  if (!windows.length) return fused.slice();
  const inside = (t: number | undefined): boolean => t !== undefined && windows.some((w) => t >= w.from.getTime() && t < w.to.getTime());
  // A question that names only the window ("What happened last week?") asks for the window's
  // memories: all of them first, in their order, whatever their words.
  if (!topic) {
    const isIn = fused.map((h) => inside(timeOf.get(h.seq)));
    return [...fused.filter((_, i) => isIn[i]), ...fused.filter((_, i) => !isIn[i])];
  }
  return fused
    .map((h, i) => ({ h: inside(timeOf.get(h.seq)) ? h : { ...h, score: scale(h.score, OUT_OF_WINDOW_FACTOR) }, i }))
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .map((x) => x.h);
}
