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
import { parseTimeExpressions, type TimeExpression } from './time-expr.js';

/**
 * Factor applied to the score of a candidate outside every window the query names. 0.5 measured on
 * the facts set's time questions run without their `since`/`until` filters (EVAL.md "Time in
 * questions").
 */
export const OUT_OF_WINDOW_FACTOR = 0.5;

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
 * of `windows` are preferred. Returns a new list; the same list when there is no window.
 */
export function preferWindows(fused: readonly FusedHit[], windows: readonly TimeExpression[], timeOf: ReadonlyMap<number, number>): FusedHit[] {
  if (!windows.length) return fused.slice();
  const inside = (t: number | undefined): boolean => t !== undefined && windows.some((w) => t >= w.from.getTime() && t < w.to.getTime());
  return fused
    .map((h, i) => ({ h: inside(timeOf.get(h.seq)) ? h : { ...h, score: scale(h.score, OUT_OF_WINDOW_FACTOR) }, i }))
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .map((x) => x.h);
}
