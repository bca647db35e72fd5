/**
 * No tenant can freeze the single-threaded server with one request inside the documented limits:
 * every regex in src/ is free of super-linear backtracking (checked statically by scslre, whose
 * attack strings are runs of one character: digits, punctuation, whitespace), and the add, recall,
 * context and import paths run on 100 kB adversarial strings without any regex backtracking more
 * than a fixed number of steps (counted by V8 itself). No clock: steps and sizes only.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { RegExpParser } from '@eslint-community/regexpp';
import fc from 'fast-check';
import { analyse } from 'scslre';
import ts from 'typescript';
import { atxHeading } from '../src/ingest/markdown.js';
import { MAX_TIME_TOKENS, parseTimeExpressions } from '../src/recall/time-expr.js';
import { ROOT, tempDir } from './helpers.js';
import { workerArgv } from './stress/lib/procs.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Every regex literal of src/, and every `new RegExp(...)` (built at run time, so reviewed by hand). */
function regexes(): { where: string; text: string; dynamic: boolean }[] {
  const out: { where: string; text: string; dynamic: boolean }[] = [];
  for (const file of sources(join(ROOT, 'src'))) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      const where = `${relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
      if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) out.push({ where, text: n.getText(sf), dynamic: false });
      if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && n.expression.getText(sf) === 'RegExp') out.push({ where, text: n.getText(sf), dynamic: true });
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** Regexes built at run time, each reviewed: an alternation of fixed words between lookarounds. */
const REVIEWED_DYNAMIC = ['src/pg/client.ts'];

test('every regex in src/ is free of super-linear backtracking on runs of one character (scslre)', () => {
  const found = regexes();
  assert.ok(found.length > 80, `found ${found.length} regexes`);
  const parser = new RegExpParser({ ecmaVersion: 2025 });
  const bad: string[] = [];
  for (const r of found) {
    if (r.dynamic) {
      if (!REVIEWED_DYNAMIC.some((f) => r.where.startsWith(f))) bad.push(`${r.where}: a RegExp built at run time; make it a literal or review it`);
      continue;
    }
    const reports = analyse(parser.parseLiteral(r.text)).reports;
    if (reports.length) bad.push(`${r.where}: ${r.text.slice(0, 80)} (${reports.map((x) => `${x.type}${x.exponential ? ', exponential' : ''}`).join(', ')})`);
  }
  assert.deepEqual(bad, []);
});

test('the add, recall, context and import paths on 100 kB adversarial strings: no regex runs more than 2,000 backtracks (counted by V8)', {
  timeout: 600_000,
}, async () => {
  // V8 counts each regex execution's backtracks and, past the limit, reruns it on its linear
  // engine, saying so: one such line means a super-linear regex on one of these paths. (Regexes
  // with the u flag cannot move engines; the static test above covers them.)
  const argv = await workerArgv('adversarial-text.ts');
  const flags = [
    '--enable-experimental-regexp-engine-on-excessive-backtracks',
    '--regexp-backtracks-before-fallback=2000',
    '--trace-experimental-regexp-engine',
  ];
  const r = await new Promise<{ code: number | null; out: string; err: string }>((res) => {
    const p = spawn(process.execPath, [...flags, ...argv, '--dir', tempDir()], { cwd: ROOT });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.on('close', (code) => res({ code, out, err }));
  });
  assert.equal(r.code, 0, r.err.slice(-2000));
  const lines = r.out.split('\n').filter(Boolean);
  const fallbacks = lines.filter((l) => /^Experimental/.test(l));
  assert.deepEqual(fallbacks.slice(0, 10), [], `regexes that backtracked more than 2,000 times:\n${fallbacks.join('\n').slice(0, 3000)}`);
  const done = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { op: string; kind?: string });
  assert.ok(
    done.some((l) => l.op === 'done'),
    r.err.slice(-2000),
  );
  assert.ok(done.filter((l) => l.op === 'ok').length >= 20, 'every adversarial input ran');
});

test('the time-expression parser reads at most MAX_TIME_TOKENS tokens of a query (a size bound, not a clock)', () => {
  const now = new Date('2026-03-01T00:00:00Z');
  assert.ok(parseTimeExpressions('what did we do last week', { now }));
  const late = `${'word '.repeat(MAX_TIME_TOKENS)}last week`;
  assert.equal(parseTimeExpressions(late, { now }), null, 'time words past the first tokens are not read');
  const early = `last week ${'word '.repeat(MAX_TIME_TOKENS * 5)}`;
  assert.equal(parseTimeExpressions(early, { now })?.[0]?.text, 'last week');
});

test('atxHeading reads Markdown heading lines exactly as the regex it replaced (property)', () => {
  const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(' ', '\t', '#', 'a', 'x', '\n', '\r', '\u2028'), { maxLength: 14 }).map((a) => a.join('')),
      (line) => {
        const m = ATX.exec(line);
        assert.deepEqual(atxHeading(line), m ? { level: m[1]!.length, title: m[2] } : null, JSON.stringify(line));
      },
    ),
    { numRuns: 20_000, seed: 3 },
  );
});
