/**
 * A write keeps the keyword search compiled: `append` (the write path) reassigns fields of a
 * postings list that V8 would otherwise have treated as constant when it compiled the search, and
 * the first write of a process then discarded the compiled search (the next recalls ran it
 * unoptimised; BENCHMARKS.md "Recall after a bulk write"). Read from V8's own optimisation status
 * in a child process (`--allow-natives-syntax`), not from a clock.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'keyword-compiled-child.ts');
/** %GetOptimizationStatus: the function runs TurboFan code. */
const TURBOFANNED = 1 << 4;

for (const layout of ['one group', 'grouped']) {
  test(`keyword search stays compiled across a write (${layout})`, () => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', CHILD, layout === 'grouped' ? 'grouped' : 'one'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const { before, after } = JSON.parse(r.stdout.trim()) as { before: number; after: number };
    assert.ok(before & TURBOFANNED, `the search was compiled before the write (status ${before.toString(2)})`);
    assert.ok(after & TURBOFANNED, `the write discarded the compiled search (status ${after.toString(2)})`);
  });
}
