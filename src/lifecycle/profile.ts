/**
 * The write rule of working memory both stores share: an optimistic update (the caller's expected
 * version must be the stored one) and the bound on kept versions.
 */
import { MnemoliteError } from '../errors.js';
import { PROFILE_VERSIONS_KEPT } from '../types/profile.js';

/** The version a write creates over `current` (0: none yet), or CONFLICT when `expected` is stale. */
export function nextProfileVersion(namespace: string, current: number, expected: number | undefined): number {
  if (expected !== undefined && expected !== current)
    throw new MnemoliteError(
      'CONFLICT',
      `The profile of "${namespace}" is at version ${current}, not ${expected}: it changed since it was read. Read it again and reapply the change.`,
      { namespace, version: current, expectedVersion: expected },
    );
  return current + 1;
}

/** Versions below this one are erased after writing `version`. */
export function oldestKeptVersion(version: number): number {
  return version - PROFILE_VERSIONS_KEPT + 1;
}
