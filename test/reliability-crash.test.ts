/**
 * Crash safety, short variant (50 kills: test/stress/crash.test.ts, `npm run stress`).
 * A real child process writing real batches is killed with SIGKILL; the file is checked after every kill.
 */
import { test } from 'node:test';
import { runCrashLoop } from './stress/lib/crash.js';

test('SIGKILL at random moments: file opens, integrity ok, acknowledged batches present, no half batch, FTS and vectors agree', {
  timeout: 180_000,
}, async (t) => {
  await runCrashLoop({ kills: 8, seed: 7, log: (m) => t.diagnostic(m) });
});
