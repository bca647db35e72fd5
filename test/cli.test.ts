import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { DEFAULT_RECENCY_WEIGHT } from '../src/recall/recency.js';
import { MEMORY_TOOL_NAMES, WRITE_TOOLS } from '../src/tools.js';
import { ROOT, cli, cliAsync, tempDb, tempDir } from './helpers.js';

// Every command runs the built CLI (dist/cli/main.js) as a real child process.

test('add, recall, get, list, update, forget, stats with --json and readable output', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  const added = cli([
    ...base,
    '--json',
    'add',
    'We',
    'deploy',
    'on',
    'a',
    'Raspberry',
    'Pi',
    '-n',
    'agent-1',
    '-k',
    'deploy-target',
    '--category',
    'core',
    '--session',
    's1',
    '--metadata',
    '{"source":"cli"}',
    '--created-at',
    '2026-03-01T00:00:00Z',
  ]);
  assert.equal(added.code, 0, added.stderr);
  const { id, replaced } = JSON.parse(added.stdout) as { id: string; replaced: boolean };
  assert.equal(replaced, false);
  const again = cli([...base, 'add', 'We deploy on a Raspberry Pi 5', '-n', 'agent-1', '-k', 'deploy-target']);
  assert.equal(again.code, 0);
  assert.equal(again.stdout.trim(), `replaced ${id}`);
  assert.equal(cli([...base, 'add', '-'], { input: 'from stdin: the cat is called Whiskers' }).code, 0);

  const rec = cli([...base, '--json', 'recall', 'raspberry', '-n', 'agent-1']);
  assert.equal(rec.code, 0, rec.stderr);
  const hits = JSON.parse(rec.stdout) as { id: string; keywordRank: number; content: string }[];
  assert.equal(hits[0]!.id, id);
  assert.equal(hits[0]!.keywordRank, 1);
  const human = cli([...base, 'recall', 'whiskers']);
  assert.match(human.stdout, /Whiskers/);
  assert.match(human.stderr, /semantic recall is off/);

  const got = JSON.parse(cli([...base, '--json', 'get', id]).stdout) as { content: string; metadata: unknown; createdAt: string };
  assert.equal(got.content, 'We deploy on a Raspberry Pi 5');
  assert.equal(got.createdAt, '2026-03-01T00:00:00.000Z');
  assert.match(cli([...base, 'get', id]).stdout, /namespace: agent-1/);

  const list = JSON.parse(cli([...base, '--json', 'list']).stdout) as unknown[];
  assert.equal(list.length, 2, 'list shows every namespace by default');
  assert.equal((JSON.parse(cli([...base, '--json', 'list', '-n', 'agent-1']).stdout) as unknown[]).length, 1);
  assert.match(cli([...base, 'list']).stdout, /namespace/);

  const up = cli([...base, '--json', 'update', id, '--content', 'We deploy on an Intel NUC']);
  assert.equal(up.code, 0, up.stderr);
  assert.equal((JSON.parse(up.stdout) as { content: string }).content, 'We deploy on an Intel NUC');

  const stats = JSON.parse(cli([...base, '--json', 'stats']).stdout) as { memories: number; semantic: boolean };
  assert.equal(stats.memories, 2);
  assert.equal(stats.semantic, false);
  assert.match(cli([...base, 'stats']).stdout, /semantic:\s+OFF/);

  assert.equal(cli([...base, 'forget', id]).code, 0);
  const gone = cli([...base, 'forget', id]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /No memory with id/);
  assert.equal(cli([...base, 'get', id]).code, 1);
});

test('exit codes: 1 for user errors with a one-line message, 0 for help', () => {
  const db = tempDb();
  const bad = (args: string[], re: RegExp) => {
    const r = cli(['--db', db, '--embedder', 'none', ...args]);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.ok(!/at .*\.js:\d+/.test(r.stderr), 'no stack trace');
  };
  bad(['add', '   '], /empty/);
  bad(['recall', 'x', '--mode', 'fuzzy'], /Allowed choices/);
  bad(['recall', 'x', '--limit', '0'], /limit/);
  bad(['recall', 'x', '--limit', 'abc'], /whole number/);
  bad(['add', 'x', '--metadata', '{nope'], /JSON object/);
  bad(['add', 'x', '--created-at', 'not-a-date'], /valid date/);
  bad(['recall', 'x', '--mode', 'vector'], /Semantic recall is off/);
  bad(['frobnicate'], /unknown command/);
  const notDb = join(tempDir(), 'notes.txt');
  writeFileSync(notDb, 'hello, I am not a database at all, just some text that is long enough'.repeat(3));
  const r = cli(['--db', notDb, 'stats']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /not a SQLite database/);
  assert.equal(cli(['--help']).code, 0);
  assert.match(cli(['--help']).stdout, /recall/);
});

test('export and import: lossless JSON Lines round trip into a new file', () => {
  const src = tempDb('src.db');
  const base = ['--db', src, '--embedder', 'none'];
  cli([
    ...base,
    'add',
    'first memory',
    '-n',
    'a',
    '-k',
    'k1',
    '--category',
    'c',
    '--session',
    's',
    '--metadata',
    '{"x":[1,2,{"y":null}],"ü":"ñ"}',
    '--created-at',
    '2025-01-02T03:04:05.678Z',
  ]);
  cli([...base, 'add', 'second memory with "quotes" and\nnewlines', '-n', 'b']);
  cli([...base, 'add', 'third 🚀 東京']);
  const out = join(tempDir(), 'dump.jsonl');
  const ex = cli([...base, 'export', out]);
  assert.equal(ex.code, 0, ex.stderr);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 3);
  assert.equal(cli([...base, 'export', out]).code, 1, 'export never overwrites');

  const dst = tempDb('dst.db');
  const im = cli(['--db', dst, '--embedder', 'none', '--json', 'import', out]);
  assert.equal(im.code, 0, im.stderr);
  assert.deepEqual(JSON.parse(im.stdout), { imported: 3, replaced: 0, skipped: 0 });
  const a = cli([...base, 'export']).stdout;
  const b = cli(['--db', dst, '--embedder', 'none', 'export']).stdout;
  assert.equal(b, a, 'identical ids, content, metadata, timestamps');
  // Re-import skips everything; --on-conflict replace replaces.
  assert.deepEqual(JSON.parse(cli(['--db', dst, '--embedder', 'none', '--json', 'import', out]).stdout), { imported: 0, replaced: 0, skipped: 3 });
  assert.deepEqual(JSON.parse(cli(['--db', dst, '--embedder', 'none', '--json', 'import', out, '--on-conflict', 'replace']).stdout), {
    imported: 0,
    replaced: 3,
    skipped: 0,
  });
  // Stdin works; a bad line imports nothing.
  const bad = `${readFileSync(out, 'utf8')}{not json}\n`;
  const fresh = tempDb('fresh.db');
  const r = cli(['--db', fresh, '--embedder', 'none', 'import', '-'], { input: bad });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /-:4 is not valid JSON/);
  assert.equal(existsSync(fresh), false, 'nothing written');
  const badRecord = `${readFileSync(out, 'utf8')}{"content":""}\n`;
  const fresh2 = tempDb('fresh2.db');
  const r2 = cli(['--db', fresh2, '--embedder', 'none', 'import', '-'], { input: badRecord });
  assert.equal(r2.code, 1);
  assert.equal(existsSync(fresh2), false, 'a bad record imports nothing, and the new file is removed again');
});

test('export --vectors keeps vectors; import reuses them for the same model', () => {
  const src = tempDb('v.db');
  cli(['--db', src, 'add', 'vectors travel with the export']);
  const dump = cli(['--db', src, 'export', '--vectors']).stdout;
  const rec = JSON.parse(dump.trim()) as { embedding: number[]; embeddingModel: string };
  assert.equal(rec.embedding.length, 512);
  assert.equal(rec.embeddingModel, 'energetic-ai/use-lite@0.2.0');
  const dst = tempDb('v2.db');
  assert.equal(cli(['--db', dst, 'import', '-'], { input: dump }).code, 0);
  const db = new Database(dst, { readonly: true });
  const a = new Database(src, { readonly: true }).prepare('SELECT embedding FROM memories').pluck().get() as Buffer;
  assert.deepEqual(db.prepare('SELECT embedding FROM memories').pluck().get(), a);
});

test('backup while another process writes gives a consistent, openable copy', async () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  cli([...base, 'add', 'seed memory']);
  const writers = Array.from({ length: 6 }, (_, i) => cliAsync([...base, 'add', `concurrent write ${i}`]));
  const dest = join(tempDir(), 'backup.db');
  const b = await cliAsync([...base, 'backup', dest]);
  const results = await Promise.all(writers);
  assert.equal(b.code, 0, b.stderr);
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  const copy = new Database(dest, { readonly: true });
  assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
  const n = copy.prepare('SELECT count(*) FROM memories').pluck().get() as number;
  const fts = copy.prepare("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'memory OR write'").pluck().get() as number;
  assert.ok(n >= 1 && n <= 7);
  assert.equal(fts, n, 'FTS index and table agree in the snapshot');
  copy.close();
  const again = cli([...base, 'backup', dest]);
  assert.equal(again.code, 1, 'never overwrites');
  const st = JSON.parse(cli(['--db', dest, '--embedder', 'none', '--json', 'stats']).stdout) as { memories: number };
  assert.equal(st.memories, n);
});

test('reindex switches a file to another embedder with progress; demo runs offline', () => {
  const db = tempDb();
  cli(['--db', db, '--embedder', 'none', 'add', 'Keyword-only memory about the Raspberry Pi']);
  const before = JSON.parse(cli(['--db', db, '--json', 'stats']).stdout) as { unembedded: number };
  assert.equal(before.unembedded, 1);
  const r = cli(['--db', db, '--json', 'reindex']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { embedded: number }).embedded, 1);
  assert.equal((JSON.parse(cli(['--db', db, '--json', 'stats']).stdout) as { unembedded: number }).unembedded, 0);

  const demo = cli(['demo']);
  assert.equal(demo.code, 0, demo.stderr);
  assert.match(demo.stdout, /keyword \(FTS5 BM25\)/);
  const dj = JSON.parse(cli(['--json', 'demo']).stdout) as { results: Record<string, Record<string, { content: string }[]>> };
  const pi = dj.results['Deploying on ARM hardware']!;
  assert.equal(pi.vector![0]!.content, 'My Raspberry Pi setup');
  assert.equal(pi.hybrid![0]!.content, 'My Raspberry Pi setup');
  assert.ok(!pi.keyword!.some((h) => h.content === 'My Raspberry Pi setup'));
});

test('a model mismatch on the CLI names the fix', () => {
  const db = tempDb();
  cli(['--db', db, 'add', 'made with the local model']);
  const r = cli(['--db', db, '--embedder', 'openai', '--model', 'text-embedding-3-small', 'recall', 'x']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /mnemolite reindex/);
});

// ---- foot-guns a first-time user hits ------------------------------------------------------

test('get, update, history and forget accept the 13-character ids that recall prints; an ambiguous prefix lists the candidates', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  const a = (JSON.parse(cli([...base, '--json', 'add', 'the kettle is in the attic']).stdout) as { id: string }).id;
  const b = (JSON.parse(cli([...base, '--json', 'add', 'the ladder is in the garage']).stdout) as { id: string }).id;
  const table = cli([...base, 'recall', 'kettle']);
  assert.equal(table.code, 0, table.stderr);
  const shown = table.stdout.split(/\s+/).find((w) => a.startsWith(w) && w.length >= 8);
  assert.ok(shown && shown.length < a.length, `recall shows a shortened id:\n${table.stdout}`);

  const got = cli([...base, '--json', 'get', shown]);
  assert.equal(got.code, 0, got.stderr);
  assert.equal((JSON.parse(got.stdout) as { id: string }).id, a);
  assert.equal(cli([...base, 'update', shown, '--content', 'the kettle is in the kitchen']).stdout.trim(), `updated ${a}`);
  assert.match(cli([...base, 'history', shown]).stdout, /attic/);

  // UUID v7 ids made a moment apart share their leading (time) characters.
  let common = 0;
  while (a[common] === b[common]) common++;
  assert.ok(common >= 4, `ids ${a} and ${b} share a prefix`);
  const prefix = a.slice(0, common);
  const amb = cli([...base, 'forget', prefix]);
  assert.equal(amb.code, 1);
  assert.match(amb.stderr, new RegExp(`${prefix} matches 2 memories`));
  assert.ok(amb.stderr.includes(a) && amb.stderr.includes(b), amb.stderr);
  assert.equal((JSON.parse(cli([...base, '--json', 'list']).stdout) as unknown[]).length, 2, 'nothing deleted');

  assert.equal(cli([...base, 'forget', shown]).stdout.trim(), `forgot ${a}`);
  assert.equal(cli([...base, 'get', shown]).code, 1);
  assert.equal(cli([...base, 'get', b.slice(0, 13)]).code, 0);
});

test('--ttl needs a unit: "7d" and "7 days" work, a bare number (as from an unquoted --ttl 7 days) is refused and stores nothing', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  const created = '2026-03-01T00:00:00.000Z';
  const unquoted = cli([...base, 'add', 'foo', '--ttl', '7', 'days']);
  assert.equal(unquoted.code, 1);
  assert.match(unquoted.stderr, /--ttl 7 has no unit/);
  assert.equal(cli([...base, 'add', 'foo', '--ttl', '2 months']).code, 1);
  assert.match(cli([...base, 'add', 'foo', '--ttl', '2mo']).stderr, /Months vary in length/);
  assert.match(cli([...base, 'add', 'foo', '--ttl', '7 fortnights']).stderr, /does not know the unit "fortnights"/);
  assert.equal(cli([...base, 'add', 'foo', '--ttl', '0d']).code, 1);
  assert.equal(existsSync(db), false, 'no refused add created the file');

  const week = 7 * 86_400_000;
  for (const ttl of ['7d', '7 days', '7 Days', '1 week', '168h', `${week}ms`]) {
    const r = cli([...base, '--json', 'add', `ttl ${ttl}`, '--created-at', created, '--ttl', ttl]);
    assert.equal(r.code, 0, r.stderr);
    const rec = JSON.parse(cli([...base, '--json', 'get', (JSON.parse(r.stdout) as { id: string }).id, '--include-expired']).stdout) as {
      content: string;
      expiresAt: string;
    };
    assert.equal(rec.content, `ttl ${ttl}`);
    assert.equal(Date.parse(rec.expiresAt) - Date.parse(created), week, ttl);
  }
  assert.equal(cli([...base, 'recall', 'x', '--recency', '30']).code, 1, '--recency needs a unit too');
});

test('recall that finds nothing in its namespace says which namespaces match', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  assert.equal(cli([...base, 'add', 'green tea with lemon', '-n', 'agent-1']).code, 0);
  assert.equal(cli([...base, 'add', 'lemon cake recipe', '-n', 'agent-2']).code, 0);
  const r = cli([...base, 'recall', 'lemon']);
  assert.equal(r.code, 0);
  assert.match(
    r.stderr,
    /nothing in namespace "default"; matches exist in: agent-1 \(1\), agent-2 \(1\)|nothing in namespace "default"; matches exist in: agent-2 \(1\), agent-1 \(1\)/,
  );
  const in1 = cli([...base, 'recall', 'cake', '-n', 'agent-1']);
  assert.match(in1.stderr, /nothing in namespace "agent-1"; matches exist in: agent-2 \(1\)/);
  const found = cli([...base, 'recall', 'tea', '-n', 'agent-1']);
  assert.match(found.stdout, /green tea/);
  assert.doesNotMatch(found.stderr, /matches exist/);
  assert.doesNotMatch(cli([...base, 'recall', 'nowhere']).stderr, /matches exist/);
});

test('an unbuilt better-sqlite3 says to run npm rebuild better-sqlite3', () => {
  // A copy of the package whose better-sqlite3 has no compiled module (as after installing with scripts off).
  const dir = tempDir();
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  const nm = join(dir, 'node_modules');
  mkdirSync(nm);
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name !== 'better-sqlite3' && name !== '.bin') symlinkSync(join(ROOT, 'node_modules', name), join(nm, name));
  }
  const bs = join(ROOT, 'node_modules', 'better-sqlite3');
  mkdirSync(join(nm, 'better-sqlite3'));
  copyFileSync(join(bs, 'package.json'), join(nm, 'better-sqlite3', 'package.json'));
  cpSync(join(bs, 'lib'), join(nm, 'better-sqlite3', 'lib'), { recursive: true });
  const r = spawnSync(process.execPath, [join(dir, 'dist', 'cli', 'main.js'), '--db', join(dir, 'm.db'), '--embedder', 'none', 'add', 'x'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /npm rebuild better-sqlite3/);
  assert.doesNotMatch(r.stderr, /Database error/);
});

test('help texts match the code: recency weight default, prune, mcp --read-only tools', () => {
  const help = (...args: string[]): string => cli([...args, '--help']).stdout.replace(/\s+/g, ' ');
  assert.match(help('recall'), new RegExp(`share of the score that decays \\(default ${DEFAULT_RECENCY_WEIGHT}\\)`));
  assert.doesNotMatch(help('prune'), /mnemolite \d/);
  const reads = MEMORY_TOOL_NAMES.filter((n) => !WRITE_TOOLS.has(n));
  assert.ok(reads.length >= 4);
  assert.match(help('mcp'), new RegExp(`--read-only offer only the read tools: ${reads.join(', ')}`));
});

test('--json errors are one JSON object on stderr: { error: { code, message } }, with the same exit codes', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none', '--json'];
  assert.equal(cli([...base, 'add', 'a note']).code, 0);
  const errorOf = (r: { code: number; stderr: string }): { code: string; message: string } => {
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    return (JSON.parse(lines[0]!) as { error: { code: string; message: string } }).error;
  };
  const missing = cli([...base, 'get', '0190aaaa-0000-7000-8000-000000000000']);
  assert.equal(missing.code, 1);
  assert.equal(errorOf(missing).code, 'NOT_FOUND');
  const bad = cli([...base, 'recall', 'x', '--limit', 'many']);
  assert.equal(bad.code, 1);
  assert.equal(errorOf(bad).code, 'INVALID_INPUT');
  const usage = cli([...base, 'recall']);
  assert.equal(usage.code, 1);
  assert.deepEqual(errorOf(usage), { code: 'INVALID_INPUT', message: "missing required argument 'query'" });
  assert.equal(errorOf(cli([...base, '--bogus', 'stats'])).code, 'INVALID_INPUT');
  // Without --json the same errors stay readable lines.
  assert.match(cli(['--db', db, '--embedder', 'none', 'recall']).stderr, /^error: missing required argument 'query'/);
});

test('recall --before/--after: the turns around each hit under it, marked as context; --json carries them as neighbours; bad counts refused', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  const turns = ['Ana: Shall we get a dog?', 'Ben: A beagle maybe', 'Ana: They howl a lot', 'Ben: Then a greyhound', 'Ana: Deal'];
  for (const t of turns) assert.equal(cli([...base, 'add', t, '--session', 'chat-1', '--context-window', '0']).code, 0);
  assert.equal(cli([...base, 'add', 'Ana: greyhound racing is cruel', '-n', 'other', '--session', 'chat-1']).code, 0);
  const r = cli([...base, '--json', 'recall', 'beagle', '--before', '1', '--after', '2']);
  assert.equal(r.code, 0, r.stderr);
  const [hit] = JSON.parse(r.stdout) as { content: string; neighbours: { before: { content: string }[]; after: { content: string }[] } }[];
  assert.equal(hit!.content, 'Ben: A beagle maybe');
  assert.deepEqual(
    hit!.neighbours.before.map((m) => m.content),
    ['Ana: Shall we get a dog?'],
  );
  assert.deepEqual(
    hit!.neighbours.after.map((m) => m.content),
    ['Ana: They howl a lot', 'Ben: Then a greyhound'],
  );
  const human = cli([...base, 'recall', 'beagle', '--before', '1', '--after', '2']);
  assert.equal(human.code, 0, human.stderr);
  const lines = human.stdout.split('\n');
  const at = (s: string): number => lines.findIndex((l) => l.includes(s));
  assert.ok(at('Ben: A beagle maybe') > 0, human.stdout);
  assert.ok(at('· before: Ana: Shall we get a dog?') > at('Ben: A beagle maybe'), 'under the hit');
  assert.ok(at('· after: Ana: They howl a lot') > at('· before: Ana: Shall we get a dog?'), 'in order');
  assert.ok(at('· after: Ben: Then a greyhound') > at('· after: Ana: They howl a lot'), 'in order');
  assert.match(human.stdout, /the turns before and after the hit above in its session, context, not matches/);
  assert.ok(!human.stdout.includes('racing'), 'never a turn of another namespace');
  // Without the flags: no context rows.
  assert.ok(!cli([...base, 'recall', 'beagle']).stdout.includes('·'));
  for (const bad of [
    ['--before', '21'],
    ['--after', '-1'],
    ['--before', '1.5'],
  ]) {
    const e = cli([...base, 'recall', 'beagle', ...bad]);
    assert.equal(e.code, 1, `${bad.join(' ')}: ${e.stderr}`);
    assert.match(e.stderr, /before|after/);
  }
});

test('export writes each namespace profile with its versions after the memories (--no-profiles leaves them out); import restores them', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  assert.equal(cli([...base, 'add', 'Alice likes tea', '-n', 'alice']).code, 0);
  assert.equal(cli([...base, 'profile', 'set', 'City: Lisbon', '-n', 'alice']).code, 0, 'profile set');
  assert.equal(cli([...base, 'profile', 'set', 'City: Porto', '-n', 'alice']).code, 0);
  const dir = tempDir();
  const file = join(dir, 'out.jsonl');
  const ex = cli([...base, 'export', file]);
  assert.equal(ex.code, 0, ex.stderr);
  assert.match(ex.stderr, /exported 1 memories and 1 profile to/);
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(lines.length, 2);
  assert.equal(lines[1]!.kind, 'profile');
  assert.deepEqual(
    (lines[1]!.versions as { content: string }[]).map((v) => v.content),
    ['City: Lisbon', 'City: Porto'],
  );
  const bare = cli([...base, 'export', '--no-profiles']);
  assert.equal(bare.stdout.trim().split('\n').length, 1);
  const copy = tempDb();
  const im = cli(['--db', copy, '--embedder', 'none', 'import', file]);
  assert.equal(im.code, 0, im.stderr);
  assert.match(im.stdout, /imported 1, replaced 0, skipped 0; profiles: imported 1, replaced 0, skipped 0/);
  const shown = cli(['--db', copy, '--embedder', 'none', '--json', 'profile', 'history', '-n', 'alice']);
  assert.equal(shown.code, 0, shown.stderr);
  assert.deepEqual(
    (JSON.parse(shown.stdout) as { versions: { content: string }[] }).versions.map((v) => v.content),
    ['City: Porto', 'City: Lisbon'],
  );
  // A bad profile line names its line; nothing is imported.
  const badFile = join(dir, 'bad.jsonl');
  writeFileSync(badFile, `\n${JSON.stringify({ content: 'x', namespace: 'bob' })}\n\n${JSON.stringify({ kind: 'profile', namespace: 'bob', versions: [] })}\n`);
  const bad = cli(['--db', copy, '--embedder', 'none', 'import', badFile]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /bad\.jsonl:4 \(a profile\): versions must be a list/);
  assert.equal(cli(['--db', copy, '--embedder', 'none', 'count', '-n', 'bob']).stdout.trim(), '0');
});
