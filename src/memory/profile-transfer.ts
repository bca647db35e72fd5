/**
 * Profiles (working memory) in exports, imports and migrations: the record both stores write and
 * read (src/types/profile.ts `ProfileExportRecord`), checked here once before anything is written.
 */
import { invalid } from '../errors.js';
import { isoDate } from '../zod-dates.js';
import { PROFILE_VERSIONS_KEPT, type NamespacedProfileRow, type ProfileExportRecord, type ProfileRow } from '../types/profile.js';
import { checkProfile, profileNamespace } from './profile.js';

/** The fields of a profile record; any other is refused (as for memory records). */
const FIELDS = new Set(['kind', 'namespace', 'versions']);
const VERSION_FIELDS = new Set(['version', 'content', 'savedAt']);

/** Whether an import record is a profile (`kind: "profile"`); a record without `kind` is a memory. */
export function isProfileRecord(rec: unknown): boolean {
  return rec !== null && typeof rec === 'object' && !Array.isArray(rec) && 'kind' in rec;
}

/** Group stored versions (ordered by namespace, then version) into export records. */
export function* profileRecords(rows: Iterable<NamespacedProfileRow>): Generator<ProfileExportRecord> {
  let cur: ProfileExportRecord | null = null;
  for (const r of rows) {
    if (!cur || cur.namespace !== r.namespace) {
      if (cur) yield cur;
      cur = { kind: 'profile', namespace: r.namespace, versions: [] };
    }
    cur.versions.push({ version: r.version, content: r.content, savedAt: r.saved_at });
  }
  if (cur) yield cur;
}

/** A validated profile record: its namespace and versions (oldest first) as the stores write them. */
export interface ParsedProfileRecord {
  namespace: string;
  rows: ProfileRow[];
}

/** Check one profile record of an import (`n`: its 1-based position). INVALID_INPUT names what to fix. */
export function checkProfileRecord(rec: Record<string, unknown>, n: number): ParsedProfileRecord {
  const at = `import record ${n}`;
  if (rec.kind !== 'profile')
    throw invalid(`${at} has kind ${JSON.stringify(rec.kind)}; a record is a memory (no kind) or a profile (kind "profile"). Nothing was imported.`, {
      record: n,
      field: 'kind',
    });
  const unknown = Object.keys(rec).filter((k) => !FIELDS.has(k));
  if (unknown.length)
    throw invalid(
      `${at} (a profile) has unknown field(s) ${unknown
        .slice(0, 5)
        .map((k) => JSON.stringify(k.slice(0, 100)))
        .join(', ')}; a profile record has kind, namespace and versions. Nothing was imported.`,
      {
        record: n,
      },
    );
  let namespace: string;
  try {
    namespace = profileNamespace(rec.namespace);
    if (namespace.endsWith('*')) throw invalid(`A profile belongs to one namespace, not a pattern ("${namespace}").`);
  } catch (err) {
    throw invalid(`${at} (a profile): ${(err as Error).message} Nothing was imported.`, { record: n, field: 'namespace' });
  }
  const versions = rec.versions;
  if (!Array.isArray(versions) || !versions.length || versions.length > PROFILE_VERSIONS_KEPT)
    throw invalid(`${at} (a profile): versions must be a list of 1 to ${PROFILE_VERSIONS_KEPT} versions, oldest first. Nothing was imported.`, {
      record: n,
      field: 'versions',
    });
  const rows: ProfileRow[] = [];
  for (let i = 0; i < versions.length; i++) {
    const v = versions[i] as Record<string, unknown> | null;
    const where = `${at} (a profile) version ${i + 1}`;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalid(`${where} is not an object. Nothing was imported.`, { record: n });
    const extra = Object.keys(v).filter((k) => !VERSION_FIELDS.has(k));
    if (extra.length)
      throw invalid(
        `${where} has unknown field(s) ${extra
          .slice(0, 5)
          .map((k) => JSON.stringify(k.slice(0, 100)))
          .join(', ')}; a version has version, content and savedAt. Nothing was imported.`,
        { record: n },
      );
    const version = v.version;
    const prev = rows.length ? rows[rows.length - 1]!.version : 0;
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version <= prev)
      throw invalid(`${where}: version must be a whole number above ${prev} (versions go oldest first, each higher). Nothing was imported.`, { record: n });
    let content: string;
    try {
      content = checkProfile(v.content);
    } catch (err) {
      throw invalid(`${where}: ${(err as Error).message} Nothing was imported.`, { record: n, field: 'content' });
    }
    const saved = isoDate.safeParse(v.savedAt);
    if (!saved.success || typeof v.savedAt !== 'string')
      throw invalid(`${where}: savedAt must be an ISO 8601 time such as 2026-03-01T12:00:00Z. Nothing was imported.`, { record: n, field: 'savedAt' });
    rows.push({ version, content, saved_at: saved.data });
  }
  return { namespace, rows };
}
