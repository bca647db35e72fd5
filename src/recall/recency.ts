/**
 * Recency: half-life decay of recall scores by age, opt-in.
 *
 * factor = (1 − weight) + weight × 0.5^(age / halfLife), where age is the time since the memory's
 * current content was stated (its createdAt, or its last content change when later). Pinned and
 * category `core` memories are exempt (factor 1). Ages in the future count as 0.
 *
 * The default weight is 0.2: on the quality benchmark (EVAL.md, "Lifecycle features") a full
 * decay (weight 1) lets recent but unrelated memories push relevant ones out, even on the "latest
 * value" queries, while a 0.1–0.3 floor turns recency into a tie-breaker between similarly relevant
 * memories and improves those queries without hurting the rest.
 */

/** Default share of the score that decays. */
export const DEFAULT_RECENCY_WEIGHT = 0.2;

/** Decay factor in (0, 1]. */
export function recencyFactor(ageMs: number, halfLifeMs: number, weight = DEFAULT_RECENCY_WEIGHT): number {
  const decay = 0.5 ** (Math.max(0, ageMs) / halfLifeMs);
  return 1 - weight + weight * decay;
}

/** Category whose memories never decay. */
export const CORE_CATEGORY = 'core';
