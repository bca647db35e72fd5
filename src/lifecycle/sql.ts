/** Prepared-statement cache for the lifecycle modules (per connection). */
import type Database from 'better-sqlite3';
import type { Store } from '../store/store.js';

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A cached prepared statement on the store's connection. */
export function stmt(store: Store, sql: string): Database.Statement {
  let m = cache.get(store.db);
  if (!m) cache.set(store.db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = store.db.prepare(sql)));
  return s;
}
