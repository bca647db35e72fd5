/**
 * Stored rows as the public records: the one place that reads a row's text columns, so a damaged
 * row becomes `NOT_A_DATABASE` here rather than a record with a Buffer for content.
 */
import { MnemoliteError } from '../errors.js';
import { withLifecycle } from '../lifecycle/record.js';
import type { MemoryRow } from '../types/rows.js';
import type { MemoryRecord } from '../types/memory.js';

const TEXT_COLUMNS = ['id', 'namespace', 'content', 'metadata', 'created_at', 'updated_at'] as const;
const OPTIONAL_TEXT_COLUMNS = ['key', 'category', 'session_id', 'event_at'] as const;

/**
 * The metadata column as an object. A row whose text columns are not text (a damaged page can
 * turn them into BLOBs or numbers), or whose metadata is not JSON, means the file is damaged.
 */
export function storedMetadata(r: MemoryRow): Record<string, unknown> {
  const bad = TEXT_COLUMNS.find((c) => typeof r[c] !== 'string') ?? OPTIONAL_TEXT_COLUMNS.find((c) => r[c] !== null && typeof r[c] !== 'string');
  if (bad) throw new MnemoliteError('NOT_A_DATABASE', `The ${bad} of a memory (row ${r.seq}) is not text, so the store is damaged. Restore it from a backup.`);
  try {
    return JSON.parse(r.metadata) as Record<string, unknown>;
  } catch {
    throw new MnemoliteError('NOT_A_DATABASE', `The metadata of memory ${r.id} is not valid JSON, so the file is damaged. Restore it from a backup.`);
  }
}

/** A stored row as the record the API returns. */
export function toRecord(r: MemoryRow): MemoryRecord {
  return withLifecycle(
    {
      id: r.id,
      content: r.content,
      key: r.key,
      namespace: r.namespace,
      category: r.category,
      sessionId: r.session_id,
      metadata: storedMetadata(r),
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
      eventAt: r.event_at ? new Date(r.event_at) : null,
    },
    r,
  );
}

/** The context column as a list of texts (a damaged value means a damaged store). */
export function storedContext(r: MemoryRow): string[] {
  try {
    const c = JSON.parse(r.context!) as unknown;
    if (Array.isArray(c) && c.every((x) => typeof x === 'string')) return c as string[];
  } catch {
    /* below */
  }
  throw new MnemoliteError('NOT_A_DATABASE', `The context of memory ${r.id} is not a list of texts, so the store is damaged. Restore it from a backup.`);
}
