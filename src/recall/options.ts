/**
 * Recall options of issue 15 (relevance threshold, the clock for time expressions). The shape is
 * spread into the recall schema of src/validate.ts, as the lifecycle options are.
 */
import { z } from 'zod';
import { isoDate } from '../zod-dates.js';

/** Options of issue 15 on recall. */
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

/** Fields added to the recall schema. */
export const relevanceRecallShape = {
  minRelevance: z
    .number()
    .refine(Number.isFinite, 'must be finite')
    .refine((n) => n >= 0 && n <= 1, 'must be between 0 and 1')
    .optional(),
  now: isoDate.optional(),
  timePreference: z.boolean().optional(),
  preferCurrent: z.boolean().optional(),
  preferSpeaker: z.boolean().optional(),
};
