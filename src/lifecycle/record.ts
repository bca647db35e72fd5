/** Lifecycle fields on records, and the expiry rule. */
import type { MemoryRow } from '../types/rows.js';
import type { LifecycleFields } from '../types/lifecycle.js';

/** Add the lifecycle fields that are set on `row` to `rec` (absent ones stay absent). */
export function withLifecycle<T extends object>(
  rec: T,
  row: Partial<Pick<MemoryRow, 'expires_at' | 'pinned' | 'importance' | 'superseded_by'>>,
): T & LifecycleFields {
  const out = rec as T & LifecycleFields;
  if (row.expires_at) out.expiresAt = new Date(row.expires_at);
  if (row.pinned) out.pinned = true;
  if (row.importance !== null && row.importance !== undefined) out.importance = row.importance;
  if (row.superseded_by) out.supersededBy = row.superseded_by;
  return out;
}

/** Whether a row is expired at `nowIso`: it has an expiry at or before then and is not pinned. */
export function isExpired(row: Partial<Pick<MemoryRow, 'expires_at' | 'pinned'>>, nowIso: string): boolean {
  return !!row.expires_at && row.expires_at <= nowIso && !row.pinned;
}
