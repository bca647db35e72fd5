import { invalid } from '../errors.js';
import type { ExportRecord } from '../types/memory.js';

/** Every field of {@link ExportRecord}; the compiler refuses this table when export gains a field it lacks. */
const EXPORT_FIELDS = {
  id: true,
  content: true,
  key: true,
  namespace: true,
  category: true,
  sessionId: true,
  metadata: true,
  createdAt: true,
  updatedAt: true,
  eventAt: true,
  embedding: true,
  embeddingModel: true,
  context: true,
  contextEmbedding: true,
  expiresAt: true,
  pinned: true,
  importance: true,
  supersededBy: true,
} satisfies Record<keyof ExportRecord, true>;

/**
 * The fields an import record may have: those {@link Memory.export} writes. Anything else is
 * refused rather than dropped, so a misspelt field (`"catgory"`) or a file from a newer mnemolite
 * (with a field this version cannot store) loses nothing silently.
 */
export const IMPORT_FIELDS: ReadonlySet<string> = new Set(Object.keys(EXPORT_FIELDS));

/** Refuse a record with a field export never writes. `n` is the record's 1-based position. */
export function checkKnownFields(rec: Record<string, unknown>, n: number): void {
  const unknown = Object.keys(rec).filter((k) => !IMPORT_FIELDS.has(k));
  if (!unknown.length) return;
  throw invalid(
    `import record ${n} has unknown field${unknown.length === 1 ? '' : 's'} ${unknown
      .slice(0, 5)
      .map((k) => JSON.stringify(k.slice(0, 100)))
      .join(
        ', ',
      )}; an import record has the fields export writes (${[...IMPORT_FIELDS].join(', ')}). Fix the spelling, drop the field, or import with the mnemolite version that exported the file. Nothing was imported.`,
    { record: n, fields: unknown.slice(0, 5) },
  );
}

/**
 * Refuse a file in which two records carry the same id: which one was meant is unknowable, and
 * skipping the second (what a plain insert would do) drops data without a word.
 */
export function checkDuplicateIds(ids: readonly (string | undefined)[]): void {
  const first = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (id === undefined) continue;
    const at = first.get(id);
    if (at === undefined) {
      first.set(id, i + 1);
      continue;
    }
    const all = ids.flatMap((x, j) => (x === id ? [j + 1] : []));
    // A long run of the same id names the first few records and how many more.
    const list = all.length <= 5 ? `${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}` : `${all.slice(0, 5).join(', ')} (and ${all.length - 5} more)`;
    throw invalid(`import records ${list} have the same id ${id}; each record needs its own id (or none, to get a new one). Nothing was imported.`, {
      id,
      records: all.slice(0, 100),
    });
  }
}
