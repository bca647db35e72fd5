/**
 * Crash safety and backups, heavy variant (`npm run stress`): 50 SIGKILLs at random moments,
 * and 10 backups of a multi-megabyte file while another process writes.
 */
import { test } from 'node:test';
import { runBackupWhileWriting } from './lib/backup.js';
import { runCrashLoop } from './lib/crash.js';

test('stress: 50 SIGKILLs at random moments while writing batches', { timeout: 900_000 }, async (t) => {
  await runCrashLoop({ kills: 50, seed: 13, log: (m) => t.diagnostic(m) });
});

test('stress: 10 backups of a large file while another process writes', { timeout: 900_000 }, async (t) => {
  await runBackupWhileWriting({ backups: 10, prefill: 4000, seed: 17, log: (m) => t.diagnostic(m) });
});
