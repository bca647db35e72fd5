/** PostgreSQL's working memory (src/lifecycle/profile.ts): the `profiles` table of schema 8. */
import { nextProfileVersion, oldestKeptVersion } from '../lifecycle/profile.js';
import type { NamespacedProfileRow, ProfileRow } from '../types/profile.js';
import type { PgStore } from './store.js';

const COLS = `version, content, to_char(saved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS saved_at`;

/** The current version of a namespace's profile, if any. */
export async function profileGet(pg: PgStore, namespace: string): Promise<ProfileRow | undefined> {
  const [r] = await pg.db.query<ProfileRow>('read a profile', `SELECT ${COLS} FROM profiles WHERE namespace = $1 ORDER BY version DESC LIMIT 1`, [namespace]);
  return r;
}

/**
 * Write a new version. Two writers that read the same version race for the same primary key: the
 * insert that loses inserts nothing and answers CONFLICT, so no update is lost.
 */
export async function profileSet(pg: PgStore, namespace: string, content: string, expected: number | undefined, nowIso: string): Promise<ProfileRow> {
  for (let attempt = 0; ; attempt++) {
    const row = await pg.db.tx('write a profile', async (q) => {
      const [cur] = await q<{ v: number | null }>('SELECT max(version) AS v FROM profiles WHERE namespace = $1', [namespace]);
      const current = cur?.v ?? 0;
      const version = nextProfileVersion(namespace, current, expected);
      const ins = await q<{ version: number }>(
        'INSERT INTO profiles(namespace, version, content, saved_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING version',
        [namespace, version, content, nowIso],
      );
      if (!ins.length) {
        // Lost the race: with an expected version that is a conflict; a blind write reads again.
        if (expected !== undefined) nextProfileVersion(namespace, version, expected);
        return null;
      }
      await q('DELETE FROM profiles WHERE namespace = $1 AND version < $2', [namespace, oldestKeptVersion(version)]);
      return { version, content, saved_at: nowIso };
    });
    if (row) return row;
    if (attempt >= 5) nextProfileVersion(namespace, -1, 0); // still racing after retries: report a conflict
  }
}

/** A page of versions, newest first, and how many are kept. */
export async function profileHistory(pg: PgStore, namespace: string, offset: number, limit: number): Promise<{ rows: ProfileRow[]; total: number }> {
  const rows = await pg.db.query<ProfileRow>(
    'read a profile history',
    `SELECT ${COLS} FROM profiles WHERE namespace = $1 ORDER BY version DESC LIMIT $2 OFFSET $3`,
    [namespace, limit, offset],
  );
  const [n] = await pg.db.query<{ n: number }>('read a profile history', 'SELECT count(*)::int AS n FROM profiles WHERE namespace = $1', [namespace]);
  return { rows, total: n?.n ?? 0 };
}

/** Every kept version of one namespace's profile (undefined: of all), by namespace then version. */
export function profileExport(pg: PgStore, namespace: string | undefined): Promise<NamespacedProfileRow[]> {
  return namespace === undefined
    ? pg.db.query<NamespacedProfileRow>('read the profiles', `SELECT namespace, ${COLS} FROM profiles ORDER BY namespace COLLATE "C", version`, [])
    : pg.db.query<NamespacedProfileRow>('read the profiles', `SELECT namespace, ${COLS} FROM profiles WHERE namespace = $1 ORDER BY version`, [namespace]);
}

/** Write an imported profile's versions as they are, in one transaction (see `Backend.profileImport`). */
export async function profileImport(
  pg: PgStore,
  namespace: string,
  rows: ProfileRow[],
  onConflict: 'skip' | 'replace',
): Promise<'imported' | 'replaced' | 'skipped'> {
  return pg.db.tx('import a profile', async (q) => {
    // Two imports of one namespace's profile run one after the other (the second then sees the first).
    await q('SELECT pg_advisory_xact_lock(hashtext($1))', [`mnemolite-profile:${namespace}`]);
    const [cur] = await q<{ n: number }>('SELECT count(*)::int AS n FROM profiles WHERE namespace = $1', [namespace]);
    const had = (cur?.n ?? 0) > 0;
    if (had && onConflict === 'skip') return 'skipped';
    if (had) await q('DELETE FROM profiles WHERE namespace = $1', [namespace]);
    for (const r of rows)
      await q('INSERT INTO profiles(namespace, version, content, saved_at) VALUES ($1, $2, $3, $4)', [namespace, r.version, r.content, r.saved_at]);
    return had ? 'replaced' : 'imported';
  });
}
