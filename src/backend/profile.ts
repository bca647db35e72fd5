/** The SQLite file's working memory (src/lifecycle/profile.ts): the `profiles` table of schema 7. */
import { nextProfileVersion, oldestKeptVersion } from '../lifecycle/profile.js';
import type { Store } from '../store/store.js';
import type { ProfileRow } from '../types/profile.js';

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
