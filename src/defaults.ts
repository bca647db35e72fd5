/** Defaults of the library's calls, in one place: the API, the HTTP schema texts and the docs take them from here. */
export const DEFAULTS = {
  /** Hits a recall returns. */
  recallLimit: 10,
  /** Candidates each recall leg fetches at least (and at least 3 × limit). */
  recallCandidates: 50,
  /** Candidates a recall may fetch at most. */
  maxCandidates: 1000,
  /** Memories a list returns. */
  listLimit: 100,
} as const;
