/**
 * Conversational context and session evidence at query time, over the keyword candidates: a
 * memory's own BM25 plus its context field's, then a session with a strong match lifts its other
 * matches. The write side (what the context is) is src/lifecycle/context.ts.
 */

/**
 * Weights of the keyword leg's conversational evidence: `context`, of the context field's BM25 where
 * it exceeds the memory's own; `session`, of a session's best keyword match added to its other
 * matches. Chosen by leave-one-set-out cross-validation over LoCoMo, LongMemEval and the generated
 * sets (EVAL.md "Keyword leg on user–assistant chats").
 */
export const KEYWORD_EVIDENCE = { context: 0.5, session: 0.6, sessionDecay: 1, roleSession: 1, lengthPower: 0 };

/** What session evidence may read about a candidate: its length in characters and whether a role (`user`, `assistant`) said it. */
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
 */
export function withContext(
  own: readonly KeywordCandidate[],
  context: readonly KeywordCandidate[],
  depth: number,
  weight = KEYWORD_EVIDENCE.context,
): KeywordCandidate[] {
  if (!context.length || weight === 0) return own.slice(0, depth);
  const s = new Map<number, number>();
  for (const h of own) s.set(h.seq, h.bm25);
  for (const h of context) {
    const o = s.get(h.seq) ?? 0;
    s.set(h.seq, o + weight * Math.min(0, h.bm25 - o)); // bm25: lower is better
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
 * a session keep their score. Returns the candidates re-sorted, best first.
 */
export function withSessionEvidence(
  kw: readonly KeywordCandidate[],
  sessionOf: ReadonlyMap<number, string>,
  weight = KEYWORD_EVIDENCE.session,
  shape: SessionShape = {},
): KeywordCandidate[] {
  if (!sessionOf.size || weight === 0) return kw.slice();
  const best = new Map<string, number>();
  for (const h of kw.slice(0, SESSION_EVIDENCE_DEPTH)) {
    const s = sessionOf.get(h.seq);
    if (s !== undefined) best.set(s, Math.min(best.get(s) ?? 0, h.bm25)); // bm25: lower is better
  }
  const lens = new Map<string, number[]>();
  if (shape.length)
    for (const h of kw.slice(0, SESSION_EVIDENCE_DEPTH)) {
      const s = sessionOf.get(h.seq),
        l = shape.length.get(h.seq);
      if (s !== undefined && l !== undefined) lens.set(s, [...(lens.get(s) ?? []), l]);
    }
  const medLen = new Map([...lens].map(([s, ls]) => [s, ls.sort((a, b) => a - b)[Math.floor(ls.length / 2)]!]));
  const seen = new Map<string, number>();
  const decay = KEYWORD_EVIDENCE.sessionDecay;
  return kw
    .map((h, i) => {
      const s = i < SESSION_EVIDENCE_DEPTH ? sessionOf.get(h.seq) : undefined;
      if (s === undefined) return h;
      const k = seen.get(s) ?? 0;
      seen.set(s, k + 1);
      let f = decay ** k;
      if (shape.role?.has(h.seq)) f *= KEYWORD_EVIDENCE.roleSession;
      const len = shape.length?.get(h.seq);
      if (len !== undefined && KEYWORD_EVIDENCE.lengthPower > 0) f *= Math.min(1, (medLen.get(s)! / Math.max(1, len)) ** KEYWORD_EVIDENCE.lengthPower);
      return { seq: h.seq, bm25: h.bm25 + weight * best.get(s)! * f };
    })
    .sort((a, b) => a.bm25 - b.bm25 || a.seq - b.seq);
}
