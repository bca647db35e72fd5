/**
 * Concurrency, heavy variant (`npm run stress`): 4 writer and 4 reader processes for ~30 s
 * (a bounded number of operations), and many rounds of processes racing to create one file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { tempDb } from '../helpers.js';
import { runConcurrency } from './lib/concurrency.js';
import { pairRounds } from './lib/pairs.js';
import { startWorker } from './lib/procs.js';

test('stress: 4 writers + 4 readers, ~30 s of operations', { timeout: 900_000 }, async (t) => {
  await runConcurrency({ writers: 4, readers: 4, ops: 4000, seed: 2, stride: 25, log: (m) => t.diagnostic(m) });
});

test('stress: 600 random files of pairs, D forgotten by another connection, one-candidate recall in every mode', { timeout: 900_000 }, async (t) => {
  const { checks } = await pairRounds(600, 2);
  t.diagnostic(`${checks} checks`);
});

test('stress: 20 rounds of 8 processes racing to create the same new file', { timeout: 900_000 }, async () => {
  for (let round = 0; round < 20; round++) {
    const path = tempDb();
    const ws = await Promise.all(Array.from({ length: 8 }, (_, i) => startWorker('opener.ts', { db: path, tag: i })));
    await Promise.all(ws.map((w) => w.waitFor((l) => l.op === 'loaded')));
    for (const w of ws) w.send('go');
    await Promise.all(ws.map((w) => w.exited));
    for (const w of ws)
      assert.deepEqual(
        w.lines.filter((l) => l.op !== 'loaded'),
        [{ op: 'ok' }],
        `round ${round}: ${JSON.stringify(w.lines)} ${w.stderr()}`,
      );
    const db = new Database(path, { readonly: true });
    assert.equal(db.prepare('SELECT count(*) FROM memories').pluck().get(), 8);
    db.close();
  }
});
