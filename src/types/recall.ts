/** Public types of recall: the relevance options and the evidence behind a hit's relevance. */

/** Recall options for relevance, time words and the preferences. */
export interface RelevanceRecallOptions {
  /**
   * Drop hits whose calibrated `relevance` is below this (0..1). Unset in the library (every hit is
   * returned); the agent surfaces default to `DEFAULT_MIN_RELEVANCE`.
   */
  minRelevance?: number;
  /**
   * With `minRelevance`: when no hit reaches it, return the best hit anyway if its relevance is at
   * least `LOW_CONFIDENCE_RELEVANCE` (0.4), marked `lowConfidence: true`, instead of nothing. For the
   * agent surfaces' "best match, low confidence" answer; measured to be right about as often as wrong
   * (EVAL.md "Best match, low confidence"), so show it as such. Default false.
   */
  bestMatch?: boolean;
  /**
   * Leave out memories another memory explicitly replaced (they carry `supersededBy`), before the
   * cut to `limit`. Default false in the library (a superseded memory ranks directly below its
   * successor); the agent surfaces (MCP, `memoryTools`, the integrations) turn it on.
   */
  excludeSuperseded?: boolean;
  /**
   * Reorder the best `rerankTop` fused candidates by this function's scores (a cross-encoder, an
   * LLM) before the preferences, supersession and relevance run; those still apply after it. A
   * throw or a wrong answer is `RERANKER_FAILED`. Library only (not over HTTP or MCP).
   */
  rerank?: RerankFunction;
  /** How many candidates `rerank` sees (default 20, at most 200). */
  rerankTop?: number;
  /**
   * "Now" for time expressions in the query ("yesterday", "last week", "in March"): a Date or ISO
   * 8601 string (default: the clock). Memories in the window the query names rank higher; nothing
   * is filtered out (use `since` / `until` for that).
   */
  now?: Date | string;
  /** Turn the time preference off (`false`); default on. */
  timePreference?: boolean;
  /**
   * Rank a newer memory above an older one that states a different value about the same thing
   * (default on; src/lifecycle/current.ts). `false` turns it off.
   */
  preferCurrent?: boolean;
  /**
   * When the query names one of the people of a conversation ("What did Caroline research?"), rank
   * the turns that person spoke higher (default on; src/recall/speaker-preference.ts). A query
   * naming two or more of them gets no preference. `false` turns it off.
   */
  preferSpeaker?: boolean;
}

/** A candidate handed to a `rerank` function. */
export interface RerankCandidate {
  id: string;
  content: string;
  /** Its fused score (best first). */
  score: number;
}

/** A reranker: one score per candidate, in the order given (higher ranks first). */
export type RerankFunction = (query: string, candidates: RerankCandidate[]) => number[] | Promise<number[]>;

/** Raw evidence for one hit. `undefined` = that leg did not run. */
export interface RelevanceEvidence {
  /** BM25 / query idf mass, clamped to [0, 1]; 0 when the memory matched no query term. */
  coverage?: number;
  /** Cosine between the memory's vector and the query's. */
  cosine?: number;
  /**
   * The best cosine a question about nothing this namespace holds gets in it (the median over fixed
   * probe questions, src/recall/baseline.ts): relevance counts the cosine by how far it beats this.
   */
  baseline?: number;
  /**
   * The best coverage any keyword candidate reaches for this query: how much of the query's
   * vocabulary the store knows at all (low for a question about something no memory mentions).
   */
  queryCoverage?: number;
  /**
   * The share of the query's vocabulary, weighted by rarity (idf), that the memory contains, in
   * [0, 1]: each query word counts once, however often the memory repeats it (coverage, from BM25,
   * counts a common word repeated in a long memory up to 2.2 times).
   */
  terms?: number;
  /**
   * Whether the memory's time (`eventAt`, else `createdAt`; `createdAt` with `timeField: 'created'`)
   * lies in a window the query names ("last week", "in March"); absent when it names none.
   */
  inWindow?: boolean;
}
