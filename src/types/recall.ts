/** Public types of recall: the relevance options and the evidence behind a hit's relevance. */

/** Recall options for relevance, time words and the preferences. */
export interface RelevanceRecallOptions {
  /**
   * Drop hits whose calibrated `relevance` is below this (0..1). Unset in the library (every hit is
   * returned); the agent surfaces default to `DEFAULT_MIN_RELEVANCE`.
   */
  minRelevance?: number;
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

/** Raw evidence for one hit. `undefined` = that leg did not run. */
export interface RelevanceEvidence {
  /** BM25 / query idf mass, clamped to [0, 1]; 0 when the memory matched no query term. */
  coverage?: number;
  /** Cosine between the memory's vector and the query's. */
  cosine?: number;
  /**
   * The best coverage any keyword candidate reaches for this query: how much of the query's
   * vocabulary the store knows at all (low for a question about something no memory mentions).
   */
  queryCoverage?: number;
}
