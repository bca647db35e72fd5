/**
 * `--embed-workers N` of the bulk-embedding commands (import, reindex), through the built CLI as a
 * real child process: checked before anything is opened, mapped to the `embedWorkers` open option.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { cli, tempDir } from './helpers.js';

/** Chat JSONL of `n` turns in three conversations, deterministic. */
function chatJsonl(n: number): string {
  const topics = ['the pottery class', 'a trip to Lisbon', 'the new job at the bakery', 'adopting a second dog', 'moving to Kraków'];
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      conversation: `c${i % 3}`,
      role: i % 2 ? 'assistant' : 'user',
      content: `Turn ${i}: let us talk about ${topics[i % topics.length]} and what happened after (${i * 7}).`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }),
  ).join('\n');
}

/** content -> embedding bytes (hex) of every memory in the file. */
function vectors(db: string): Map<string, string> {
  const d = new Database(db, { readonly: true });
  try {
    const rows = d.prepare('SELECT content, embedding FROM memories').all() as { content: string; embedding: Buffer | null }[];
    return new Map(rows.map((r) => [r.content, r.embedding ? r.embedding.toString('hex') : '']));
  } finally {
    d.close();
  }
}

test('--embed-workers refuses anything but a whole number from 0 to 16, before opening anything', () => {
  const dir = tempDir();
  const file = join(dir, 'chat.jsonl');
  writeFileSync(file, chatJsonl(3));
  const refused = (args: string[]): void => {
    const db = join(dir, `never-${Math.random().toString(36).slice(2)}.db`);
    const r = cli(['--db', db, ...args]);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /--embed-workers must be a whole number from 0 to 16, got "/, args.join(' '));
    assert.equal(existsSync(db), false, `${args.join(' ')} created ${db}`);
  };
  for (const bad of ['17', '-1', '1.5', 'two', '', '0x2', '1e1']) refused(['import', '--from', 'chat-jsonl', file, '--embed-workers', bad]);
  refused(['import', '--from', 'markdown', dir, '--embed-workers', '17']);
  refused(['import', file, '--embed-workers', '-1']);
  refused(['reindex', '--embed-workers', '99']);
  // Only the bundled model has worker threads.
  const db = join(dir, 'none.db');
  const r = cli(['--db', db, '--embedder', 'none', 'import', '--from', 'chat-jsonl', file, '--embed-workers', '1']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /--embed-workers applies to the bundled model \(--embedder local\), not --embedder none/);
  assert.equal(existsSync(db), false);
  // Commands that do not embed in bulk do not have the option.
  const add = cli(['--db', db, '--embedder', 'none', 'add', 'hello', '--embed-workers', '1']);
  assert.notEqual(add.code, 0);
  assert.match(add.stderr, /unknown option '--embed-workers'/);
});

test('--embed-workers N sets the worker count (over MNEMOLITE_EMBED_WORKERS); 0 and 1 write the same vectors', { timeout: 240_000 }, () => {
  const dir = tempDir();
  const file = join(dir, 'chat.jsonl');
  // 300 turns: above the 256 texts from which the workers start.
  writeFileSync(file, chatJsonl(300));
  // A bad environment value breaks the default ('auto' reads it)...
  const bogus = { MNEMOLITE_EMBED_WORKERS: 'lots' };
  const dflt = cli(['--db', join(dir, 'default.db'), 'import', '--from', 'chat-jsonl', file], { env: bogus });
  assert.equal(dflt.code, 1, dflt.stderr);
  assert.match(dflt.stderr, /MNEMOLITE_EMBED_WORKERS must be/);
  // ...and an explicit --embed-workers does not read it.
  const dbs = { 0: join(dir, 'w0.db'), 1: join(dir, 'w1.db') };
  for (const n of [0, 1] as const) {
    const r = cli(['--db', dbs[n], '--json', 'import', '--from', 'chat-jsonl', file, '--embed-workers', String(n)], { env: bogus });
    assert.equal(r.code, 0, r.stderr);
    assert.ok((JSON.parse(r.stdout) as { written: number }).written > 0, r.stdout);
  }
  const a = vectors(dbs[0]);
  const b = vectors(dbs[1]);
  assert.ok(a.size > 100, `memories: ${a.size}`);
  assert.equal(b.size, a.size);
  for (const [content, v] of a) {
    assert.equal(v.length, 512 * 4 * 2, `${content} has a 512-float vector`);
    assert.equal(b.get(content), v, `${content}: same vector bytes with one worker`);
  }

  // reindex takes it too: a keyword-only file embedded with one worker matches the above.
  const kw = join(dir, 'keyword.db');
  assert.equal(cli(['--db', kw, '--embedder', 'none', 'import', '--from', 'chat-jsonl', file]).code, 0);
  const re = cli(['--db', kw, '--json', 'reindex', '--embed-workers', '1'], { env: bogus });
  assert.equal(re.code, 0, re.stderr);
  assert.equal((JSON.parse(re.stdout) as { embedded: number }).embedded, a.size);
  const c = vectors(kw);
  for (const [content, v] of a) assert.equal(c.get(content), v, `${content}: reindex with one worker, same vector bytes`);
});
