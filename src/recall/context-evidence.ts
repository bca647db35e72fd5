/**
 * Conversational context and session evidence at query time, over the keyword candidates: a
 * memory's own BM25 plus its context field's, then a session with a strong match lifts its other
 * matches. The write side (what the context is) is src/lifecycle/context.ts.
 */

/**
 * Weights of the keyword leg's conversational evidence: `context`, of the context field's BM25 where
 * it exceeds the memory's own; `roleContext`, the share of that weight a role-named turn (`user`,
 * `assistant`) gets; `session`, of a session's best keyword match added to its other matches;
 * `roleLength`, the power of (the session candidates' median length / the turn's length), at most 1,
 * that scales a role-named turn's session evidence (`Infinity`: a role turn longer than that median
 * gains none, one no longer gains it all). Chosen by leave-one-set-out cross-validation over
 * LoCoMo, LongMemEval and the generated sets, `roleLength` and `roleContext` on LongMemEval's tune
 * half (EVAL.md "Keyword leg on user–assistant chats", "Fusion and context on user–assistant chats").
 */
export const KEYWORD_EVIDENCE = { context: 0.5, roleContext: 0, session: 0.6, roleLength: Number.POSITIVE_INFINITY };

/** What session evidence reads about the candidates: their length in characters, and which a role (`user`, `assistant`) said. */
export interface SessionShape {
  length?: ReadonlyMap<number, number>;
  role?: ReadonlySet<number>;
}
/** One keyword candidate: `bm25` lower is better (FTS5's sign). */
export interface KeywordCandidate {
  seq: number;
  bm25: number;
}

/**
 * The keyword leg with context: own BM25 + `weight` × (context BM25 − own BM25) where the context
 * scores higher, over the candidates of both fields (a memory missing from one list scores 0 there),
 * best first. The context stands in for what a turn leaves unsaid ("What did you paint?" → "A
 * sunset over the lake."); it adds nothing to a memory that says as much itself. Added whole, it
 * ranked every echo of a statement (the assistant's answer repeating the user's words, the next
 * turns) above the statement itself, which has no context when it opens a session (EVAL.md).
 * A role-named turn (`shape.role`) gets `KEYWORD_EVIDENCE.roleContext` of the weight: in a chat with
 * an assistant a user's turn follows a long answer that names everything, so its context matched
 * nearly every question about the session (LongMemEval); between people (LoCoMo) nothing changes.
 */
export function withContext(
  own: readonly KeywordCandidate[],
  context: readonly KeywordCandidate[],
  depth: number,
  weight = KEYWORD_EVIDENCE.context,
  shape: Pick<SessionShape, 'role'> = {},
): KeywordCandidate[] {
  if (!context.length || weight === 0) return own.slice(0, depth);
  const s = new Map<number, number>();
  for (const h of own) s.set(h.seq, h.bm25);
  for (const h of context) {
    const w = shape.role?.has(h.seq) ? weight * KEYWORD_EVIDENCE.roleContext : weight;
    const o = s.get(h.seq);
    if (o === undefined && w === 0) continue; // a match by a context that does not count is no match
    s.set(h.seq, (o ?? 0) + w * Math.min(0, h.bm25 - (o ?? 0))); // bm25: lower is better
  }
  return [...s]
    .map(([seq, bm25]) => ({ seq, bm25 }))
    .sort((a, b) => a.bm25 - b.bm25 || a.seq - b.seq)
    .slice(0, depth);
}

/** Keyword candidates looked at for session evidence. */
export const SESSION_EVIDENCE_DEPTH = 50;

/**
 * Session evidence: a session in which some memory matches the query well is likely the one the
 * question is about, so each keyword candidate of a session gains `weight` (`KEYWORD_EVIDENCE.session`)
 * × the best keyword score among that session's candidates (its own included). Candidates without
 * a session keep their score. In a chat with an assistant (role-named turns, `shape.role`) the
 * session's long answers restate the user's words all over, so a role turn longer than the
 * session's median candidate gains less, by (median / length)^`roleLength` (by default nothing): between people
 * (LoCoMo) turns are of a length and the rule leaves them alone. Returns the candidates re-sorted, best first.
 */
export function withSessionEvidence(
  kw: readonly KeywordCandidate[],
  sessionOf: ReadonlyMap<number, string>,
  weight = KEYWORD_EVIDENCE.session,
  shape: SessionShape = {},
): KeywordCandidate[] {
  if (!sessionOf.size || weight === 0) return kw.slice();
  const top = kw.slice(0, SESSION_EVIDENCE_DEPTH);
  const best = new Map<string, number>();
  const lengths = new Map<string, number[]>();
  for (const h of top) {
    const s = sessionOf.get(h.seq);
    if (s === undefined) continue;
    best.set(s, Math.min(best.get(s) ?? 0, h.bm25)); // bm25: lower is better
    const l = shape.length?.get(h.seq);
    if (l !== undefined) lengths.set(s, [...(lengths.get(s) ?? []), l]);
  }
  const median = new Map([...lengths].map(([s, ls]) => [s, ls.sort((a, b) => a - b)[Math.floor(ls.length / 2)]!]));
  return kw
    .map((h, i) => {
      const s = i < SESSION_EVIDENCE_DEPTH ? sessionOf.get(h.seq) : undefined;
      if (s === undefined) return h;
      const len = shape.role?.has(h.seq) ? shape.length?.get(h.seq) : undefined;
      const r = len === undefined ? 1 : median.get(s)! / Math.max(1, len);
      const f = r >= 1 ? 1 : r ** KEYWORD_EVIDENCE.roleLength; // Infinity: a longer one gains nothing
      return { seq: h.seq, bm25: h.bm25 + weight * best.get(s)! * f };
    })
    .sort((a, b) => a.bm25 - b.bm25 || a.seq - b.seq);
}
