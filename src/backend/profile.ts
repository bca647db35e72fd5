/** The SQLite file's working memory (src/lifecycle/profile.ts): the `profiles` table of schema 7. */
import { nextProfileVersion, oldestKeptVersion } from '../lifecycle/profile.js';
import type { Store } from '../store/store.js';
import type { NamespacedProfileRow, ProfileRow } from '../types/profile.js';

/** The current version of a namespace's profile, if any. */
export function profileGet(store: Store, namespace: string): ProfileRow | undefined {
  return store.read(
    'read a profile',
    () =>
      store.stmt('SELECT version, content, saved_at FROM profiles WHERE namespace = ? ORDER BY version DESC LIMIT 1').get(namespace) as ProfileRow | undefined,
  );
}

/** Write a new version (one IMMEDIATE transaction, so two writers are serialised) and drop the oldest beyond the bound. */
export function profileSet(store: Store, namespace: string, content: string, expected: number | undefined, nowIso: string): ProfileRow {
  return store.write('write a profile', () => {
    const current = (store.stmt('SELECT max(version) FROM profiles WHERE namespace = ?').pluck().get(namespace) as number | null) ?? 0;
    const version = nextProfileVersion(namespace, current, expected);
    store.stmt('INSERT INTO profiles(namespace, version, content, saved_at) VALUES (?, ?, ?, ?)').run(namespace, version, content, nowIso);
    store.stmt('DELETE FROM profiles WHERE namespace = ? AND version < ?').run(namespace, oldestKeptVersion(version));
    return { version, content, saved_at: nowIso };
  });
}

/** A page of versions, newest first, and how many are kept. */
export function profileHistory(store: Store, namespace: string, offset: number, limit: number): { rows: ProfileRow[]; total: number } {
  return store.read('read a profile history', () => ({
    rows: store
      .stmt('SELECT version, content, saved_at FROM profiles WHERE namespace = ? ORDER BY version DESC LIMIT ? OFFSET ?')
      .all(namespace, limit, offset) as ProfileRow[],
    total: store.stmt('SELECT count(*) FROM profiles WHERE namespace = ?').pluck().get(namespace) as number,
  }));
}

/** Erase a namespace's profile with its versions (inside the erase transaction); returns how many versions went. */
export function profileErase(store: Store, namespace: string): number {
  return store.stmt('DELETE FROM profiles WHERE namespace = ?').run(namespace).changes;
}

/** Every kept version of one namespace's profile (undefined: of all), by namespace then version. */
export function profileExport(store: Store, namespace: string | undefined): NamespacedProfileRow[] {
  return store.read('read the profiles', () =>
    namespace === undefined
      ? (store.stmt('SELECT namespace, version, content, saved_at FROM profiles ORDER BY namespace, version').all() as NamespacedProfileRow[])
      : (store
          .stmt('SELECT namespace, version, content, saved_at FROM profiles WHERE namespace = ? ORDER BY version')
          .all(namespace) as NamespacedProfileRow[]),
  );
}

/** Write an imported profile's versions as they are, in one IMMEDIATE transaction (see `Backend.profileImport`). */
export function profileImport(store: Store, namespace: string, rows: ProfileRow[], onConflict: 'skip' | 'replace'): 'imported' | 'replaced' | 'skipped' {
  return store.write('import a profile', () => {
    const had = store.stmt('SELECT count(*) FROM profiles WHERE namespace = ?').pluck().get(namespace) as number;
    if (had && onConflict === 'skip') return 'skipped';
    if (had) store.stmt('DELETE FROM profiles WHERE namespace = ?').run(namespace);
    const ins = store.stmt('INSERT INTO profiles(namespace, version, content, saved_at) VALUES (?, ?, ?, ?)');
    for (const r of rows) ins.run(namespace, r.version, r.content, r.saved_at);
    return had ? 'replaced' : 'imported';
  });
}
