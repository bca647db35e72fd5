/**
 * The property-based reliability suites with more runs (`MNEMOLITE_STRESS=5`: five times the
 * `npm test` number of fast-check runs), each in its own test process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers.js';

const SUITES = ['reliability-input', 'reliability-isolation', 'reliability-files', 'reliability-roundtrip', 'reliability-cli'];

for (const suite of SUITES) {
  test(`stress: ${suite} with 5x the fast-check runs`, { timeout: 1_800_000 }, async (t) => {
    const r = await new Promise<{ code: number | null; out: string }>((res) => {
      const p = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', join(ROOT, 'test', `${suite}.test.ts`)], {
        cwd: ROOT,
        env: { ...process.env, MNEMOLITE_STRESS: '5' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      p.stdout.on('data', (d) => {
        out += d;
      });
      p.stderr.on('data', (d) => {
        out += d;
      });
      p.on('close', (code) => res({ code, out }));
    });
    for (const line of r.out.split('\n').filter((l) => /^# (pass|fail|duration_ms)/.test(l))) t.diagnostic(line.slice(2));
    assert.equal(
      r.code,
      0,
      r.out
        .split('\n')
        .filter((l) => /^not ok|error:|Counterexample|Caused by/.test(l))
        .join('\n') || r.out.slice(-4000),
    );
  });
}
