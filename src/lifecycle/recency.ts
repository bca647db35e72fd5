/**
 * Recency: half-life decay of recall scores by age, opt-in.
 *
 * factor = (1 − weight) + weight × 0.5^(age / halfLife), where age is the time since the memory's
 * current content was stated (its createdAt, or its last content change when later). Pinned and
 * category `core` memories are exempt (factor 1). Ages in the future count as 0.
 */

/** Decay factor in (0, 1]. */
export function recencyFactor(ageMs: number, halfLifeMs: number, weight = 1): number {
  const decay = Math.pow(0.5, Math.max(0, ageMs) / halfLifeMs);
  return (1 - weight) + weight * decay;
}

/** Category whose memories never decay. */
export const CORE_CATEGORY = 'core';
