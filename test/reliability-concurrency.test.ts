/**
 * Concurrency, short variant (the ~30 s one is test/stress/concurrency.test.ts, `npm run stress`).
 * Real processes on one real file; no timing in any assertion.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { tempDb } from './helpers.js';
import { runConcurrency } from './stress/lib/concurrency.js';
import { startWorker } from './stress/lib/procs.js';

test('4 writers + 4 readers: no error reaches a caller, every acknowledged write is there, readers never see stale state', { timeout: 180_000 }, async (t) => {
  await runConcurrency({ writers: 4, readers: 4, ops: 60, seed: 1, log: (m) => t.diagnostic(m) });
});

test('processes racing to create the same new file all succeed (no false NOT_A_DATABASE)', { timeout: 120_000 }, async () => {
  const path = tempDb();
  const ws = await Promise.all(Array.from({ length: 8 }, (_, i) => startWorker('opener.ts', { db: path, tag: i })));
  await Promise.all(ws.map((w) => w.waitFor((l) => l.op === 'loaded')));
  for (const w of ws) w.send('go'); // open at (nearly) the same moment
  await Promise.all(ws.map((w) => w.exited));
  for (const w of ws) assert.deepEqual(w.lines.filter((l) => l.op !== 'loaded'), [{ op: 'ok' }], w.stderr());
  const db = new Database(path, { readonly: true });
  assert.equal(db.prepare('SELECT count(*) FROM memories').pluck().get(), 8);
  db.close();
});
