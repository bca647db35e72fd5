/**
 * Words by which a memory says that it states a changed value ("moved to", "now", "switched",
 * "no longer", "(was …)"). Both current-over-stale at recall (src/recall/current.ts) and
 * `supersede: 'auto'` on add (src/lifecycle/auto-supersede.ts) read them, so the list lives here once.
 */

/** A change word in a memory's own text: the writer says the value changed. */
export const UPDATE_CUE =
  /\b(now(?! and (?:then|again))|moved|changed|switched|replaced|took over|taken over|upgraded|bumped|promoted|no longer|anymore|^(?:[\w -]{1,30}:\s*)?new|finished|migrated|migration done|instead|relocated|raised|lowered)\b|\(was\b/i;

/**
 * Words of a life change a memory reports without naming the attribute ("sold the Jazz and bought a
 * Tesla", "Lena and I broke up", "Karen retired", "quit volleyball", "picked up the new Skoda"). They
 * count for current over stale at recall, where the two memories must also be about the same thing;
 * `supersede: 'auto'` links without a question, so it keeps to {@link UPDATE_CUE}.
 */
export const CHANGE_CUE =
  /\b(sold|quit|retired|resigned|broke up|split up|ended things|traded|gave up|stopped|no more|new|bought|accepted an? (?:offer|role|job|position)|got the keys|starts? there)\b/i;

/** Whether a memory reports a changed value: an update word ({@link UPDATE_CUE}) or a life change ({@link CHANGE_CUE}). */
export function saysChange(content: string): boolean {
  return UPDATE_CUE.test(content) || CHANGE_CUE.test(content);
}

/** Whether a memory's text reads as an update of an earlier value. */
export function saysUpdate(content: string): boolean {
  return UPDATE_CUE.test(content);
}

/**
 * The time a memory's statement was made (ms since epoch): its `eventAt` when set, else `createdAt`.
 * What "newer" means for current over stale (a stored row, src/recall/prefer.ts) and for
 * `supersede: 'auto'` (a record): one function for both shapes, so the two rules cannot disagree.
 */
export function statedAt(m: { createdAt: Date; eventAt?: Date | null | undefined } | { created_at: string; event_at: string | null }): number {
  if ('created_at' in m) return Date.parse(m.event_at ?? m.created_at);
  return (m.eventAt ?? m.createdAt).getTime();
}
