/**
 * The recall options' schema for relevance, time words and the preferences ({@link RelevanceRecallOptions}
 * in src/types/recall.ts). The shape is spread into the recall schema of src/validate.ts, as the
 * lifecycle options are.
 */
import { z } from 'zod';
import { isoDate } from '../zod-dates.js';
import type { RerankFunction } from '../types/recall.js';

/** Most turns `neighbours` returns on each side of a hit. */
export const MAX_NEIGHBOURS = 20;

/** Fields added to the recall schema. */
export const relevanceRecallShape = {
  minRelevance: z
    .number()
    .refine(Number.isFinite, 'must be finite')
    .refine((n) => n >= 0 && n <= 1, 'must be between 0 and 1')
    .optional(),
  bestMatch: z.boolean().optional(),
  excludeSuperseded: z.boolean().optional(),
  rerank: z.custom<RerankFunction>((v) => typeof v === 'function', 'must be a function (query, candidates) => scores').optional(),
  rerankTop: z.number().int().min(1).max(200).optional(),
  neighbours: z
    .object({ before: z.number().int().min(0).max(MAX_NEIGHBOURS).optional(), after: z.number().int().min(0).max(MAX_NEIGHBOURS).optional() })
    .strict()
    .optional(),
  now: isoDate.optional(),
  timePreference: z.boolean().optional(),
  preferCurrent: z.boolean().optional(),
  preferSpeaker: z.boolean().optional(),
};
