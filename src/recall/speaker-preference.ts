/**
 * Speaker preference: a question that names one person of a conversation ("What did Caroline
 * research?", "Melanie's kids") asks about what that person said, so turns spoken by that person
 * rank higher. A query naming two or more of the speakers ("How did Caroline and Melanie meet?")
 * gets no preference. Nothing is filtered out: the others keep their order among themselves.
 *
 * A memory's speakers are its metadata `speakers` (grouped turns) or `speaker` (set by
 * `addConversation` and the history importers); failing those, a memory in a session whose text
 * starts with "Name: " (a chat turn stored with `addMany`, as the LoCoMo protocol's second path
 * does) is Name's. Without a session such a prefix is more often a label ("TODO: ", "Travel: ")
 * than a person, so it does not count. Only the speakers of the candidates are looked at, so a
 * name known in another namespace never counts. Names are compared as word tokens
 * (case-insensitive; "Caroline's" names Caroline); nothing of the query reaches SQL or FTS5.
 */
import { SPEAKER_PREFIX } from '../text/speaker.js';
import type { FusedHit } from './fusion.js';

/**
 * Factor applied to the score of a candidate not spoken by the person the query names. Chosen by
 * leave-one-conversation-out cross-validation on the LoCoMo dev half (EVAL.md "Speaker preference").
 */
export const OTHER_SPEAKER_FACTOR = 0.5;

/** Lower-case word tokens; an apostrophe splits, so "Caroline's" gives "caroline" and "s". */
export function nameTokens(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Whether `seq` occurs as a contiguous run inside `tokens`. */
function containsRun(tokens: readonly string[], seq: readonly string[]): boolean {
  if (!seq.length || seq.length > tokens.length) return false;
  outer: for (let i = 0; i + seq.length <= tokens.length; i++) {
    for (let j = 0; j < seq.length; j++) if (tokens[i + j] !== seq[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Role names the chat importers use as speakers (ChatGPT's `user` / `assistant`, Claude's `human`).
 * They are also common words ("add a user to the team"), and the answer to such a question is often
 * the assistant's turn, so a role never counts as named.
 */
export const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'human', 'system', 'tool', 'ai', 'bot', 'model', 'unknown']);

/**
 * The speakers (from `known`) that `query` names: the speaker's whole name as consecutive words, or
 * its first word alone when no other known speaker starts with that word ("Ann" for "Ann Lee").
 * Role names ({@link ROLES}) are never named.
 */
export function namedSpeakers(query: string, known: Iterable<string>): string[] {
  const q = nameTokens(query);
  const names = [...new Set(known)].map((name) => ({ name, t: nameTokens(name) })).filter((x) => x.t.length > 0 && !(x.t.length === 1 && ROLES.has(x.t[0]!)));
  const firstCount = new Map<string, number>();
  for (const x of names) firstCount.set(x.t[0]!, (firstCount.get(x.t[0]!) ?? 0) + 1);
  return names.filter((x) => containsRun(q, x.t) || (x.t.length > 1 && firstCount.get(x.t[0]!) === 1 && q.includes(x.t[0]!))).map((x) => x.name);
}

/**
 * A memory's speakers: metadata `speakers` (grouped turns), else `speaker`, else the "Name: " prefix
 * of a memory in a session; empty when none.
 */
export function speakersOf(m: { metadata: Readonly<Record<string, unknown>>; content: string; sessionId: string | null }): string[] {
  const many = m.metadata.speakers;
  if (Array.isArray(many)) return many.filter((s): s is string => typeof s === 'string');
  if (typeof m.metadata.speaker === 'string') return [m.metadata.speaker];
  const p = m.sessionId === null ? null : SPEAKER_PREFIX.exec(m.content);
  return p ? [p[1]!.trim()] : [];
}

/** Scale a score by a positive factor so a larger factor always ranks higher (negative scores too). */
function scale(score: number, factor: number): number {
  return score >= 0 ? score * factor : score / factor;
}

/**
 * Re-rank `fused` (best first): when `query` names exactly one of the candidates' speakers, every
 * candidate spoken by someone else has its score scaled by `factor`. `speakers` maps a candidate's
 * seq to its speakers. A candidate with no speaker (a fact added on its own, in a namespace that
 * also holds chats) keeps its score: it was not said by someone else, and "the user's favourite
 * colour" may be such a fact. Returns `fused` itself when no preference applies, else a new list.
 */
export function preferSpeaker(
  fused: readonly FusedHit[],
  speakers: ReadonlyMap<number, readonly string[]>,
  query: string,
  factor: number = OTHER_SPEAKER_FACTOR,
): readonly FusedHit[] {
  const known = new Set<string>();
  for (const h of fused) for (const s of speakers.get(h.seq) ?? []) known.add(s);
  if (known.size < 2) return fused; // one voice (or none): naming it says nothing about who spoke
  const named = namedSpeakers(query, known);
  if (named.length !== 1) return fused;
  const who = named[0]!;
  return fused
    .map((h, i) => {
      const by = speakers.get(h.seq) ?? [];
      return { h: by.length === 0 || by.includes(who) ? h : { ...h, score: scale(h.score, factor) }, i };
    })
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .map((x) => x.h);
}
