/**
 * The CLI under fuzzed command lines (every command except the long-running servers and the
 * demo, every string option and argument), and SQL / FTS5 operators through the CLI.
 * Exit codes: 0 ok, 1 user error with one clear line; never 2, never a stack or raw SQLite error.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { openMemory } from '../src/index.js';
import { CLI, cli, tempDir } from './helpers.js';
import { checkFile } from './stress/lib/filecheck.js';
import { runs } from './stress/lib/prop.js';
import { startWorker } from './stress/lib/procs.js';
import { commandLine, judge } from './workers/cli-args.js';

function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const p = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, MNEMOLITE_DB: '', OPENAI_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '',
      stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    p.on('close', (code) => res({ code, stdout, stderr }));
  });
}

test('CLI fuzz, in one process: hundreds of hostile command lines through main(), exit 0 or 1 with a clear message', { timeout: 300_000 }, async (t) => {
  const dir = tempDir();
  assert.equal(cli(['--db', join(dir, 'memory.db'), '--embedder', 'none', 'add', 'a seed memory about tea']).code, 0);
  const w = await startWorker('cli-fuzz.ts', { cli: CLI, dir, runs: runs(400), seed: 5 });
  await w.exited;
  const violations = w.lines.filter((l) => l.op === 'violation');
  assert.deepEqual(violations, [], w.stderr());
  const done = w.lines.find((l) => l.op === 'done');
  assert.ok(done, `the fuzz worker finished: ${w.stderr()}`);
  t.diagnostic(`exit codes: ${JSON.stringify(done.counts)}`);
  checkFile(join(dir, 'memory.db'));
});

test('CLI fuzz, real processes: a sample of hostile command lines as separate `mnemolite` processes', { timeout: 300_000 }, async () => {
  const dir = tempDir();
  assert.equal(cli(['--db', join(dir, 'memory.db'), '--embedder', 'none', 'add', 'a seed memory about tea']).code, 0);
  const lines = fc.sample(commandLine(false), { numRuns: runs(8), seed: 9 });
  for (let i = 0; i < lines.length; i += 2) {
    const results = await Promise.all(lines.slice(i, i + 2).map((argv) => run(argv, dir)));
    results.forEach((r, k) => {
      const why = judge(r.code, r.stderr);
      assert.equal(why, null, `${JSON.stringify(lines[i + k])}: ${why}\n${r.stderr}`);
    });
  }
  checkFile(join(dir, 'memory.db'));
});

test('CLI injection: SQL and FTS5 operators in every flag are stored and matched as plain text', () => {
  const dir = tempDir();
  const db = join(dir, "o'brien; DROP TABLE memories.db");
  const base = ['--db', db, '--embedder', 'none', '--json'];
  const evil = ["'; DROP TABLE memories; --", '" OR 1=1 -- NEAR(tea coffee)', '%'];
  for (const [i, p] of evil.entries()) {
    const r = cli([
      ...base,
      'add',
      '-n',
      p,
      '-k',
      p,
      '--category',
      p,
      '--session',
      p,
      '--metadata',
      JSON.stringify({ v: p, [p]: p }),
      '--',
      `${p} about tea #${i}`,
    ]);
    assert.equal(r.code, 0, r.stderr);
  }
  cli([...base, 'add', '-n', 'innocent', '--', 'an innocent memory about tea']);
  for (const p of evil) {
    const list = JSON.parse(cli([...base, 'list', '-n', p]).stdout) as { namespace: string; category: string; key: string }[];
    assert.equal(list.length, 1, `exactly one memory in namespace ${p}`);
    assert.deepEqual([list[0]!.namespace, list[0]!.category, list[0]!.key], [p, p, p]);
    const hits = JSON.parse(cli([...base, 'recall', '-n', p, '--', p]).stdout) as { namespace: string }[];
    assert.ok(hits.every((h) => h.namespace === p));
  }
  for (const p of evil.slice(0, 1)) {
    const byMeta = JSON.parse(cli([...base, 'list', '--meta', `v=${p}`]).stdout) as unknown[];
    assert.equal(byMeta.length, 1, `--meta v=${p} matches one`);
  }
  const bad = cli([...base, 'list', '--meta', "a') OR 1=1 --=x"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /may only use letters, digits/);
  assert.equal((JSON.parse(cli([...base, 'stats']).stdout) as { memories: number }).memories, evil.length + 1);
  checkFile(db);
});

test('CLI files: export and backup to a path that cannot be created fail with exit 1 and create nothing', () => {
  const dir = tempDir();
  const db = join(dir, 'm.db');
  assert.equal(cli(['--db', db, '--embedder', 'none', 'add', 'something to export']).code, 0);
  const long = join(dir, `${'x'.repeat(300)}.jsonl`);
  for (const args of [
    ['export', long],
    ['backup', long],
    ['export', join(dir, 'missing', 'dir', 'out.jsonl')],
    ['backup', join(dir, 'missing', 'b.db')],
  ]) {
    const r = cli(['--db', db, '--embedder', 'none', ...args]);
    assert.equal(r.code, 1, `${args[0]} ${args[1]!.slice(-30)}: exit ${r.code} ${r.stderr}`);
    assert.match(r.stderr, /^error: /);
    assert.doesNotMatch(r.stdout + r.stderr, /exported|backed up/);
  }
});

test('CLI terminal escapes: ESC, BEL, CR and C1 controls in stored text are shown visibly by list, get, recall and history; --json stays exact', () => {
  const db = join(tempDir(), 'm.db');
  const base = ['--db', db, '--embedder', 'none'];
  const content = 'tea\u001b[2J\u001b]0;pwned\u0007 fake\rline\u009b31m tab\tend\nsecond line';
  const add = cli([...base, '--json', 'add', '-'], { input: content });
  assert.equal(add.code, 0, add.stderr);
  const { id } = JSON.parse(add.stdout) as { id: string };
  const outputs = {
    list: cli([...base, 'list']).stdout,
    get: cli([...base, 'get', id]).stdout,
    recall: cli([...base, 'recall', 'tea']).stdout,
    history: cli([...base, 'history', id]).stdout,
  };
  for (const [cmd, out] of Object.entries(outputs)) {
    assert.ok(out.length > 0, cmd);
    assert.doesNotMatch(out, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${cmd} prints no raw control character`);
  }
  assert.match(outputs.get, /tea\\x1b\[2J\\x1b\]0;pwned\\x07 fake\\x0dline\\x9b31m tab\tend\nsecond line/);
  const exact = JSON.parse(cli([...base, '--json', 'get', id]).stdout) as { content: string };
  assert.equal(exact.content, content);
});

test('CLI files: backup to a dangling symlink refuses and creates nothing at the link target', () => {
  const dir = tempDir();
  const db = join(dir, 'm.db');
  assert.equal(cli(['--db', db, '--embedder', 'none', 'add', 'something to back up']).code, 0);
  const target = join(dir, 'elsewhere.db');
  const link = join(dir, 'link.db');
  symlinkSync(target, link);
  const r = cli(['--db', db, '--embedder', 'none', 'backup', link]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /^error: .*already exists/);
  assert.equal(existsSync(target), false, 'the link target was not created');
  assert.equal(lstatSync(link).isSymbolicLink(), true, 'the link is left alone');
  const ok = cli(['--db', db, '--embedder', 'none', 'backup', join(dir, 'b.db')]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(cli(['--db', join(dir, 'b.db'), '--embedder', 'none', '--json', 'list']).stdout.includes('something to back up'), true);
});

test('CLI files: --db at a FIFO or /dev/null is refused before SQLite opens it (no hang, no -journal file)', () => {
  const dir = tempDir();
  const fifo = join(dir, 'pipe.db');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  for (const path of [fifo, '/dev/null']) {
    for (const args of [['list'], ['add', 'x'], ['--json', 'stats']]) {
      const r = cli(['--db', path, '--embedder', 'none', ...args]);
      assert.equal(r.code, 1, `${path} ${args.join(' ')}: exit ${r.code} ${r.stderr}`);
      // With --json the error is one JSON object on stderr.
      assert.match(args[0] === '--json' ? (JSON.parse(r.stderr) as { error: { message: string } }).error.message : r.stderr, /^(error: )?.*not a regular file/);
    }
  }
  assert.equal(existsSync('/dev/null-journal'), false);
  assert.equal(existsSync(`${fifo}-journal`) || existsSync(`${fifo}-wal`), false);
});

test('CLI files: a failed import (or a dry run) into a new path leaves no file behind (every --from); an existing file is kept', () => {
  const dir = tempDir();
  const bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, '{"content":"fine"}\n{"content":""}\n');
  const badJson = join(dir, 'bad.json');
  writeFileSync(badJson, '{"not": "an export"');
  const cases: [string, string[]][] = [
    ['jsonl (a bad record)', ['import', bad]],
    ['jsonl from stdin is read first', ['import', bad, '--from', 'jsonl']],
    ['chatgpt', ['import', '--from', 'chatgpt', badJson]],
    ['claude', ['import', '--from', 'claude', badJson]],
    ['mem0', ['import', '--from', 'mem0', badJson]],
    ['chat-jsonl', ['import', '--from', 'chat-jsonl', bad]],
    ['markdown (a missing directory)', ['import', '--from', 'markdown', join(dir, 'no-such-dir')]],
  ];
  for (const [what, args] of cases) {
    const db = join(dir, `new-${what.replace(/\W+/g, '-')}.db`);
    const r = cli(['--db', db, '--embedder', 'none', ...args]);
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    for (const f of [db, `${db}-wal`, `${db}-shm`, `${db}-journal`]) assert.equal(existsSync(f), false, `${what}: ${f} was left behind`);
  }
  // An existing file is never removed by a failed import, even an empty one.
  const kept = join(dir, 'kept.db');
  const added = cli(['--db', kept, '--embedder', 'none', '--json', 'add', 'soon gone']);
  assert.equal(cli(['--db', kept, '--embedder', 'none', 'forget', JSON.parse(added.stdout).id]).code, 0);
  assert.equal(existsSync(kept), true);
  assert.equal(cli(['--db', kept, '--embedder', 'none', 'import', bad]).code, 1);
  assert.equal(existsSync(kept), true);
  // A dry run into a new path writes nothing: not even the file.
  const chat = join(dir, 'chat.jsonl');
  writeFileSync(chat, '{"conversation":"c1","role":"user","content":"I moved to Munich","timestamp":"2026-01-02T10:00:00Z"}\n');
  const dry = join(dir, 'dry.db');
  const dr = cli(['--db', dry, '--embedder', 'none', 'import', '--from', 'chat-jsonl', chat, '--dry-run']);
  assert.equal(dr.code, 0, dr.stderr);
  assert.match(dr.stdout, /would write 1 memory/);
  for (const f of [dry, `${dry}-wal`, `${dry}-shm`]) assert.equal(existsSync(f), false, `dry run: ${f} was left behind`);
  // A successful import into a new path creates it.
  const good = join(dir, 'good.jsonl');
  writeFileSync(good, '{"content":"fine"}\n');
  const made = join(dir, 'made.db');
  assert.equal(cli(['--db', made, '--embedder', 'none', 'import', good]).code, 0);
  assert.equal(existsSync(made), true);
});

test('CLI stdout: a failed write (> /dev/full) fails every command with one error line (export: "the export is incomplete"); a reader closing the pipe ends it quietly', async (t) => {
  if (!existsSync('/dev/full')) {
    t.skip('no /dev/full on this system');
    return;
  }
  const dir = tempDir();
  const db = join(dir, 'm.db');
  const mem = await openMemory({ path: db, embedder: 'none' });
  // Past the pipe buffer and Node's write chunks: about 300 kB of JSON.
  await mem.addMany(Array.from({ length: 600 }, (_, i) => ({ content: `memory ${i} about tea and ${'biscuits '.repeat(50)}`, namespace: 'default' })));
  const id = (await mem.list({ limit: 1 }))[0]!.id;
  await mem.close();
  const base = ['--db', db, '--embedder', 'none'];
  for (const args of [['export'], ['--json', 'list', '--limit', '1000'], ['list'], ['recall', 'tea'], ['get', id], ['stats'], ['--json', 'stats']]) {
    const full = openSync('/dev/full', 'w');
    const r = spawnSync(process.execPath, [CLI, ...base, ...args], {
      stdio: ['ignore', full, 'pipe'],
      encoding: 'utf8',
      env: { ...process.env, MNEMOLITE_DB: '' },
    });
    closeSync(full);
    assert.equal(r.status, 1, `${args.join(' ')} > /dev/full: exit ${r.status}\n${r.stderr}`);
    // One error: a line of text, or with --json one JSON object.
    const errors = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('error: ') || l.startsWith('{'))
      .map((l) => (l.startsWith('{') ? `error: ${(JSON.parse(l) as { error: { code: string; message: string } }).error.message}` : l));
    assert.equal(errors.length, 1, `${args.join(' ')}: one error line: ${r.stderr}`);
    assert.match(errors[0]!, /^error: Writing to stdout failed \(ENOSPC\); the (export|output) is incomplete\./, args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at |internal error/, `no stack trace: ${r.stderr}`);
    if (args[0] === 'export') assert.match(r.stderr, /the export is incomplete/);
  }
  // `| head -c 100`: the reader stops early; no error, no stack trace, exit 0.
  for (const args of [['export'], ['--json', 'list', '--limit', '1000']]) {
    const r = await new Promise<{ code: number | null; stderr: string }>((res) => {
      const p = spawn(process.execPath, [CLI, ...base, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MNEMOLITE_DB: '' } });
      let stderr = '';
      p.stderr.on('data', (d) => {
        stderr += d;
      });
      p.stdout.once('data', () => p.stdout.destroy());
      p.on('close', (code) => res({ code, stderr }));
    });
    assert.equal(r.code, 0, `${args.join(' ')} | head: exit ${r.code}\n${r.stderr}`);
    assert.equal(r.stderr, '', args.join(' '));
  }
});
