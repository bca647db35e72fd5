/**
 * The stores every store-dependent behaviour is tested on: the SQLite file; PGlite (PostgreSQL in
 * WebAssembly, with pgvector) over a loopback socket; a real PostgreSQL server when one is available
 * (`.ci/run` starts PostgreSQL 15, which has no pgvector: that target is keyword-only).
 */
import { after } from 'node:test';
import type { OpenOptions } from '../src/index.js';
import { tempDb } from './helpers.js';
import { freshSchema, startPglite, startPostgres, type PgServer } from './pg-servers.js';

export type Location = Pick<OpenOptions, 'path' | 'url' | 'postgres'>;

export interface StoreTarget {
  name: string;
  /** Whether vectors can be stored (pgvector present, or the file). */
  vectors: boolean;
  /** A new, empty store. */
  fresh(): Location;
}

/** Start the servers (stopped after the file's tests) and list the targets; `pglite` is the PGlite server itself, for tests that need its URL. */
export async function storeTargets(): Promise<StoreTarget[] & { pglite: PgServer }> {
  const pglite = await startPglite();
  let real: PgServer | null = null;
  try {
    real = await startPostgres();
  } catch {
    real = null;
  }
  after(async () => {
    await pglite.stop();
    await real?.stop();
  });
  const targets: StoreTarget[] = [
    { name: 'SQLite file', vectors: true, fresh: () => ({ path: tempDb() }) },
    { name: pglite.label, vectors: true, fresh: () => ({ url: pglite.url, postgres: { schema: freshSchema(), poolSize: 1 } }) },
  ];
  if (real) {
    const r = real;
    targets.push({ name: r.label, vectors: r.vectors, fresh: () => ({ url: r.url, postgres: { schema: freshSchema() } }) });
  }
  return Object.assign(targets, { pglite });
}
