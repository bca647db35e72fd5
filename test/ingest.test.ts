import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { MnemoliteError, chunkMarkdown, importMarkdown, openMemory, type ConversationTurn, type Memory } from '../src/index.js';
import { estimateTokens } from '../src/text/words.js';
import { HashEmbedder, cli, tempDb, tempDir } from './helpers.js';

// ---- conversations ----------------------------------------------------------------

const chat: ConversationTurn[] = [
  { speaker: 'Caroline', content: 'I went to an LGBTQ support group yesterday and it was so powerful.', at: '2023-05-08T13:56:00Z' },
  { speaker: 'Melanie', content: 'wow', at: '2023-05-08T13:57:00Z' },
  { speaker: 'Melanie', content: 'That sounds amazing, what happened there?', at: '2023-05-08T13:58:00Z' },
  { speaker: 'Caroline', content: 'The transgender stories were so inspiring to hear.', at: '2023-05-08T14:00:00Z' },
  { speaker: 'Melanie', content: 'haha yes', at: '2023-05-08T14:01:00Z' },
  { speaker: 'Melanie', content: 'ok', at: '2023-05-08T14:01:30Z' },
  { speaker: 'Caroline', content: 'I am thinking about a career in counseling now.', at: '2023-05-08T14:03:00Z' },
];

test('addConversation: one speaker-prefixed memory per turn, short turns merged, metadata, time and session', async () => {
  const emb = new HashEmbedder();
  const mem = await openMemory({ path: tempDb(), embedder: emb });
  try {
    const res = await mem.addConversation(chat, { sessionId: 'session-1', namespace: 'locomo' });
    assert.deepEqual(
      res.map((r) => r.turns),
      [
        [0, 1],
        [2, 2],
        [3, 5],
        [6, 6],
      ],
    );
    assert.equal(emb.calls, 1, 'embedded in one batch');
    const rows = await mem.list({ namespace: 'locomo', order: 'asc' });
    assert.equal(rows.length, 4);
    assert.deepEqual(
      rows.map((r) => r.id),
      res.map((r) => r.id),
    );
    assert.equal(rows[0]!.content, 'Caroline: I went to an LGBTQ support group yesterday and it was so powerful.\nMelanie: wow');
    assert.deepEqual(rows[0]!.metadata, { speaker: 'Caroline', turn: 0, turns: [0, 1], speakers: ['Caroline', 'Melanie'] });
    assert.equal(rows[1]!.content, 'Melanie: That sounds amazing, what happened there?');
    assert.deepEqual(rows[1]!.metadata, { speaker: 'Melanie', turn: 2 });
    assert.equal(rows[2]!.content, 'Caroline: The transgender stories were so inspiring to hear.\nMelanie: haha yes\nMelanie: ok');
    assert.equal(rows[1]!.createdAt.toISOString(), '2023-05-08T13:58:00.000Z');
    assert.equal(rows[3]!.createdAt.toISOString(), '2023-05-08T14:03:00.000Z');
    assert.ok(rows.every((r) => r.sessionId === 'session-1' && r.namespace === 'locomo'));

    const bySpeaker = await mem.list({ namespace: 'locomo', metadata: { speaker: 'Melanie' } });
    assert.equal(bySpeaker.length, 1);
    const hits = await mem.recall('support group', { namespace: 'locomo', sessionId: 'session-1', mode: 'keyword' });
    assert.equal(hits[0]!.id, res[0]!.id);
  } finally {
    await mem.close();
  }
});

test('addConversation: options and edge cases', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    // minWords 0: never merge; firstTurn numbers turns for sessions added in several calls.
    const each = await mem.addConversation(chat.slice(0, 3), { sessionId: 's2', minWords: 0, firstTurn: 10, category: 'chat', metadata: { source: 'locomo' } });
    assert.deepEqual(
      each.map((r) => r.turns),
      [
        [10, 10],
        [11, 11],
        [12, 12],
      ],
    );
    const one = await mem.get(each[1]!.id);
    assert.deepEqual(one?.metadata, { source: 'locomo', speaker: 'Melanie', turn: 11 });
    assert.equal(one?.category, 'chat');

    // Short turns at the start join the next turn; a run of short turns is cut into groups.
    const lead = await mem.addConversation(
      [
        { speaker: 'A', content: 'hi' },
        { speaker: 'B', content: 'hey there' },
        { speaker: 'A', content: 'So, did you finish reading the book I lent you last month?' },
      ],
      { sessionId: 's3' },
    );
    assert.deepEqual(
      lead.map((r) => r.turns),
      [[0, 2]],
    );
    assert.deepEqual((await mem.get(lead[0]!.id))?.metadata, { speaker: 'A', turn: 2, turns: [0, 2], speakers: ['A', 'B'] });
    const shorts = await mem.addConversation(
      Array.from({ length: 9 }, (_, i) => ({ speaker: i % 2 ? 'A' : 'B', content: `ok ${i}` })),
      { sessionId: 's4' },
    );
    assert.deepEqual(
      shorts.map((r) => r.turns),
      [
        [0, 3],
        [4, 7],
        [8, 8],
      ],
    );

    assert.deepEqual(await mem.addConversation([], { sessionId: 'empty' }), []);

    // A turn repeating an earlier one (here: another session) is still its own memory.
    const repeat = await mem.addConversation(chat.slice(2, 3), { sessionId: 's5', minWords: 0 });
    assert.notEqual(repeat[0]!.id, each[2]!.id);
    assert.equal((await mem.get(repeat[0]!.id))?.sessionId, 's5');

    // All or nothing.
    const before = await mem.count({ namespace: '*' });
    const bad = async (turns: unknown, re: RegExp): Promise<void> => {
      await assert.rejects(
        mem.addConversation(turns as ConversationTurn[], { sessionId: 'bad' }),
        (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT' && re.test(e.message),
      );
    };
    await bad(
      [
        { speaker: 'A', content: 'fine turn with enough words in it' },
        { speaker: 'B', content: '   ' },
      ],
      /turn 1: content must be a non-empty string/,
    );
    await bad([{ speaker: '', content: 'x' }], /turn 0: speaker/);
    await bad([{ speaker: 'A', content: 'x', at: 'yesterday-ish' }], /turn 0: at must be a Date/);
    await bad([{ speaker: 'A', content: 'x', who: 'B' }], /unknown field\(s\): who/);
    await bad('not an array', /expects an array/);
    await bad([{ speaker: 'A', content: 'a long turn '.repeat(9000) }], /^the memory of turn 0 is \d+ bytes; the limit is 100000/);
    await bad(
      [
        { speaker: 'A', content: 'a first turn that is long enough' },
        { speaker: 'B', content: 'a long turn '.repeat(9000) },
      ],
      /^the memory of turn 1 is \d+ bytes/,
    );
    assert.equal(await mem.count({ namespace: '*' }), before, 'nothing written by failed calls');
  } finally {
    await mem.close();
  }
});

// ---- Markdown chunking ------------------------------------------------------------

test('chunkMarkdown: heading paths, exact line ranges, code fences, size bound and overlap', () => {
  const para = (n: number, w: string) => Array.from({ length: 40 }, (_, i) => `${w}${n}x${i}`).join(' ');
  const long = Array.from({ length: 20 }, (_, i) => para(i, 'w')).join('\n\n');
  const text = [
    'Preamble line before any heading.',
    '',
    '# Memory',
    '',
    '## User',
    '- Name: Bob',
    '- Prefers green tea',
    '',
    '## Projects',
    '### mnemolite',
    'SQLite memory for agents.',
    '```sh',
    '# not a heading inside code',
    '```',
    '#hashtag is not a heading either',
    '## Long notes',
    long,
  ].join('\r\n');
  const chunks = chunkMarkdown(`\uFEFF${text}`);
  const lines = text.split('\r\n').flatMap((l) => l.split('\n'));
  assert.equal(chunks[0]!.content, 'Preamble line before any heading.');
  assert.equal(chunks[0]!.heading, null);
  assert.deepEqual([chunks[0]!.lineStart, chunks[0]!.lineEnd], [1, 1]);
  assert.equal(chunks[1]!.content, 'Memory > User\n\n- Name: Bob\n- Prefers green tea');
  assert.deepEqual([chunks[1]!.lineStart, chunks[1]!.lineEnd], [5, 7]);
  assert.equal(chunks[2]!.heading, 'Memory > Projects > mnemolite', '"## Projects" has no body of its own, so no chunk');
  assert.match(chunks[2]!.content, /# not a heading inside code\n```\n#hashtag is not a heading either$/);
  assert.deepEqual([chunks[2]!.lineStart, chunks[2]!.lineEnd], [10, 15]);
  const longChunks = chunks.filter((c) => c.heading === 'Memory > Long notes');
  assert.ok(longChunks.length >= 3, `long section split (${longChunks.length})`);
  for (const c of chunks) {
    assert.ok(estimateTokens(c.content) <= 400 * 1.05, `chunk of ${estimateTokens(c.content)} tokens`);
    // The body is exactly the file's lines in the range (minus the heading line).
    const body = c.heading ? c.content.slice(c.heading.length + 2) : c.content;
    const range = lines.slice(c.lineStart - 1, c.lineEnd).join('\n');
    assert.ok(range.includes(body), `lines ${c.lineStart}-${c.lineEnd} hold the chunk`);
  }
  for (let i = 1; i < longChunks.length; i++) {
    const prev = longChunks[i - 1]!;
    const cur = longChunks[i]!;
    assert.ok(cur.lineStart <= prev.lineEnd && cur.lineStart > prev.lineStart, 'consecutive chunks overlap by whole lines');
    const firstPara = cur.content.split('\n\n')[1]!;
    assert.ok(prev.content.includes(firstPara), 'the overlapping paragraph repeats');
    assert.ok(prev.content.endsWith(firstPara) || prev.content.includes(`${firstPara}\n\n`));
  }
  assert.ok(
    longChunks.every((c) => c.content.startsWith('Memory > Long notes\n\n')),
    'every chunk carries its heading path',
  );

  // A huge line without breaks is still cut to size; an empty text has no chunks.
  const huge = chunkMarkdown(`# Blob\n${'x'.repeat(20_000)}\nend`, { maxTokens: 100, overlapTokens: 0 });
  assert.ok(huge.length > 40);
  assert.ok(huge.every((c) => estimateTokens(c.content) <= 105));
  assert.equal(
    huge
      .map((c) => c.content.replace('Blob\n\n', ''))
      .join('')
      .replace(/\n/g, ''),
    `${'x'.repeat(20_000)}end`,
  );
  assert.deepEqual(chunkMarkdown(''), []);
  assert.deepEqual(chunkMarkdown('# Only a heading\n\n## And another\n'), []);
  assert.throws(() => chunkMarkdown('x', { maxTokens: 10 }), /maxTokens/);
  assert.throws(() => chunkMarkdown('x', { maxTokens: 100, overlapTokens: 60 }), /overlapTokens/);
});

// ---- Markdown files -----------------------------------------------------------------

function workspace(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'memory'));
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, 'node_modules'));
  writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n\n## User\n- Name: Bob\n- Drinks green tea\n\n## Deploy\nThe Rust service runs on a Raspberry Pi 4.\n');
  writeFileSync(join(dir, 'memory', '2026-03-01.md'), '# 2026-03-01\n\n- standup: the release moved to Friday\n- Bob asked for a Pi 5\n');
  writeFileSync(join(dir, 'memory', 'notes.txt'), 'not markdown');
  writeFileSync(join(dir, '.git', 'HEAD.md'), '# hidden');
  writeFileSync(join(dir, 'node_modules', 'README.md'), '# dependency readme');
  return dir;
}

/** Commits made by other connections since the last call (PRAGMA data_version changes with each). */
function commitWatcher(path: string): () => boolean {
  const db = new Database(path, { readonly: true });
  let last = db.pragma('data_version', { simple: true });
  return () => {
    const now = db.pragma('data_version', { simple: true });
    const changed = now !== last;
    last = now;
    return changed;
  };
}

async function mdMemories(mem: Memory, ns = 'default') {
  return mem.list({ namespace: ns, metadata: { source: 'markdown' }, order: 'asc', limit: 1000 });
}

test('importMarkdown: MEMORY.md and memory/YYYY-MM-DD.md with provenance; unchanged files write nothing; changed files replace their chunks', async () => {
  const dir = workspace();
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  try {
    const progress: [number, number][] = [];
    const first = await importMarkdown(mem, dir, { namespace: 'agent', onProgress: (d, t) => progress.push([d, t]) });
    assert.equal(first.files.length, 2, 'hidden directories, node_modules and non-.md files are skipped');
    // In chunks: 0 before the first write, then after each file (MEMORY.md has 2 chunks, the daily note 1).
    assert.equal(progress.length, 3, JSON.stringify(progress));
    assert.deepEqual(progress[0], [0, 3]);
    assert.deepEqual(progress[2], [3, 3]);
    assert.ok([1, 2].includes(progress[1]![0]), JSON.stringify(progress));
    assert.deepEqual([first.added, first.replaced, first.unchanged, first.chunks, first.removed], [2, 0, 0, 3, 0]);
    const rows = await mdMemories(mem, 'agent');
    assert.equal(rows.length, 3);
    const daily = rows.find((r) => r.metadata.file === '2026-03-01.md')!;
    assert.equal(daily.createdAt.toISOString(), '2026-03-01T00:00:00.000Z');
    assert.equal(daily.metadata.date, '2026-03-01');
    const deploy = rows.find((r) => r.metadata.heading === 'Memory > Deploy')!;
    assert.equal(deploy.content, 'Memory > Deploy\n\nThe Rust service runs on a Raspberry Pi 4.');
    assert.equal(deploy.key, `md:${join(dir, 'MEMORY.md')}#1`);
    assert.equal(deploy.metadata.path, join(dir, 'MEMORY.md'));
    assert.deepEqual([deploy.metadata.lineStart, deploy.metadata.lineEnd], [7, 8]);
    assert.match(String(deploy.metadata.fileHash), /^[0-9a-f]{64}$/);
    assert.equal((await mem.recall('raspberry', { namespace: 'agent' }))[0]!.id, deploy.id);

    // Unchanged: nothing is written at all.
    const changed = commitWatcher(db);
    const progressAgain: [number, number][] = [];
    const again = await importMarkdown(mem, dir, { namespace: 'agent', onProgress: (d, t) => progressAgain.push([d, t]) });
    assert.deepEqual([again.added, again.replaced, again.unchanged, again.chunks], [0, 0, 2, 0]);
    assert.deepEqual(progressAgain.at(-1), [3, 3], 'unchanged files count as done');
    assert.equal(changed(), false, 'no commit happened');
    assert.deepEqual(await mdMemories(mem, 'agent'), rows);

    // Changed: the file's chunks are replaced, fewer chunks remove the extra ones, other files untouched.
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n\n## User\n- Name: Bob\n- Drinks black coffee now\n');
    const third = await importMarkdown(mem, dir, { namespace: 'agent' });
    assert.deepEqual([third.added, third.replaced, third.unchanged, third.chunks, third.removed], [0, 1, 1, 1, 1]);
    assert.equal(changed(), true);
    const after = await mdMemories(mem, 'agent');
    assert.equal(after.length, 2);
    const user = after.find((r) => r.metadata.file === 'MEMORY.md')!;
    assert.equal(user.id, rows.find((r) => r.metadata.heading === 'Memory > User')!.id, 'chunk 0 keeps its id');
    assert.match(user.content, /black coffee/);
    assert.equal((await mem.recall('raspberry', { namespace: 'agent' })).length, 0, 'the removed chunk is gone');
    assert.deepEqual(
      after.find((r) => r.metadata.file === '2026-03-01.md'),
      daily,
    );

    // The same file in another namespace is independent; a different chunk size re-chunks.
    assert.equal((await importMarkdown(mem, join(dir, 'MEMORY.md'), { namespace: 'other' })).added, 1);
    assert.equal((await importMarkdown(mem, join(dir, 'MEMORY.md'), { namespace: 'other', maxTokens: 200, overlapTokens: 40 })).replaced, 1);
    assert.equal((await mdMemories(mem, 'agent')).length, 2);

    // An emptied file removes its chunks.
    writeFileSync(join(dir, 'MEMORY.md'), '');
    const emptied = await importMarkdown(mem, join(dir, 'MEMORY.md'), { namespace: 'agent' });
    assert.deepEqual([emptied.replaced, emptied.removed], [1, 1]);
    assert.equal((await mdMemories(mem, 'agent')).length, 1);
  } finally {
    await mem.close();
  }
});

test('importMarkdown errors: missing path, empty directory, non-UTF-8 file (nothing written)', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    const dir = tempDir();
    const code = (c: string) => (e: unknown) => e instanceof MnemoliteError && e.code === c;
    await assert.rejects(importMarkdown(mem, join(dir, 'missing.md')), code('NOT_FOUND'));
    await assert.rejects(importMarkdown(mem, dir), code('NOT_FOUND'));
    writeFileSync(join(dir, 'bad.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    await assert.rejects(importMarkdown(mem, join(dir, 'bad.md')), (e: unknown) => code('INVALID_INPUT')(e) && /not UTF-8/.test((e as Error).message));
    writeFileSync(join(dir, 'a-good.md'), '# Good\n\nA perfectly fine note.\n');
    await assert.rejects(importMarkdown(mem, dir), /bad\.md is not UTF-8/, 'a bad file in a directory stops the import before any write');
    await assert.rejects(importMarkdown(mem, dir, { namespace: '*' }), code('INVALID_INPUT'));
    assert.equal(await mem.count({ namespace: '*' }), 0);
  } finally {
    await mem.close();
  }
});

test('CLI: mnemolite import --from markdown <dir>, twice, then a changed file', () => {
  const dir = workspace();
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  const r1 = cli([...base, 'import', '--from', 'markdown', dir, '-n', 'agent', '--category', 'notes']);
  assert.equal(r1.code, 0, r1.stderr);
  assert.match(r1.stdout, /MEMORY\.md: added 2 chunks/);
  assert.match(r1.stdout, /2 files: 2 added, 0 replaced, 0 unchanged; 3 chunks written, 0 removed/);
  const r2 = cli([...base, '--json', 'import', '--from', 'markdown', dir, '-n', 'agent', '--category', 'notes']);
  assert.equal(r2.code, 0, r2.stderr);
  const j = JSON.parse(r2.stdout) as { unchanged: number; chunks: number; files: { status: string }[] };
  assert.equal(j.unchanged, 2);
  assert.equal(j.chunks, 0);
  assert.ok(j.files.every((f) => f.status === 'unchanged'));
  writeFileSync(join(dir, 'memory', '2026-03-01.md'), `${readFileSync(join(dir, 'memory', '2026-03-01.md'), 'utf8')}- the release shipped\n`);
  const r3 = cli([...base, 'import', '--from', 'markdown', dir, '-n', 'agent', '--category', 'notes']);
  assert.match(r3.stdout, /2026-03-01\.md: replaced 1 chunk\n/);
  assert.match(r3.stdout, /MEMORY\.md: unchanged/);
  const rec = JSON.parse(cli([...base, '--json', 'recall', 'release shipped', '-n', 'agent']).stdout) as {
    category: string;
    createdAt: string;
    metadata: { lineEnd: number };
  }[];
  assert.equal(rec[0]!.category, 'notes');
  assert.equal(rec[0]!.createdAt, '2026-03-01T00:00:00.000Z');
  assert.equal(rec[0]!.metadata.lineEnd, 5);
  const missing = cli([...base, 'import', '--from', 'markdown', join(dir, 'nope')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /does not exist/);
  rmSync(dir, { recursive: true, force: true });
});
