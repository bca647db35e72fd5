/** Lifecycle features: dedup, expiry, pinning, importance, recency, MMR, supersession, history, prune. */
export * from './types.js';
export { durationMs, DEFAULT_DEDUP_THRESHOLD, DEFAULT_MMR_LAMBDA } from './options.js';
export { normaliseContent, dedupHash } from './dedup.js';
export { recencyFactor } from './recency.js';
export { mmrOrder } from './mmr.js';
