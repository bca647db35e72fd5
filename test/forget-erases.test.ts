/**
 * Forget means gone: after `forget` (and `erase` of a namespace) the file holds no trace of the
 * text in its bytes or its WAL, not in its history, not in the next turns' conversational
 * context, not as a cached vector, not as its hash; also after close and after a SIGKILL right
 * after the forget (a real child process). Raw bytes scanned; no clock.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import { parseTokens } from '../src/http/auth.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { MEMORY_TOOL_NAMES } from '../src/tools.js';
import { HashEmbedder, cli, tempDb, tempDir } from './helpers.js';
import { checkFile } from './stress/lib/filecheck.js';
import { startWorker } from './stress/lib/procs.js';

// Tokens that FTS5's porter stemmer keeps as they are, so the index would hold them verbatim.
const SECRET = 'my social security number is 078-05-1120 and the word qzvxkplmt';
const OLD = 'my social security number was 219-09-9999 and the word wjrbnhgfd';
const sha = (t: string): string => createHash('sha256').update(t, 'utf8').digest('hex');
const NEEDLES = ['078-05-1120', 'qzvxkplmt', '219-09-9999', 'wjrbnhgfd', sha(SECRET), sha(OLD)];

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Which needles the file and its WAL still hold. */
function traces(path: string, needles = NEEDLES): string[] {
  const found: string[] = [];
  for (const f of [path, `${path}-wal`]) {
    if (!existsSync(f)) continue;
    const bytes = readFileSync(f);
    for (const n of needles) if (bytes.includes(n)) found.push(`${n} in ${f.endsWith('-wal') ? '-wal' : 'the file'}`);
  }
  return found;
}

/** A secret in every place a text lands: content, an earlier version, the next turns' context, a cached query vector. */
async function plant(mem: Awaited<ReturnType<typeof openMemory>>, namespace = 'default'): Promise<string> {
  for (let i = 0; i < 50; i++) await mem.add(`an earlier turn ${i} about the weather and the garden`, { namespace, sessionId: 's' });
  const { id } = await mem.add(OLD, { namespace, sessionId: 's', key: 'secret' });
  await mem.update(id, { content: SECRET }, { namespace });
  for (let i = 0; i < 4; i++) await mem.add(`a later turn ${i} about the weather and the garden`, { namespace, sessionId: 's' });
  await mem.recall(SECRET, { namespace });
  return id;
}

test('forget leaves no trace of the text in the file or its WAL: not the content, an earlier version, the next turns’ context, a cached vector or a hash', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  const id = await plant(mem);
  assert.ok(traces(path).length > 0, 'the secret is in the file before the forget (the scan finds it)');
  const db = new Database(path, { readonly: true });
  const contexts = (): string[] =>
    db.prepare("SELECT context FROM memories WHERE context LIKE '%later turn%' OR context LIKE '%secur%'").pluck().all() as string[];
  assert.ok(
    contexts().some((c) => c.includes('qzvxkplmt')),
    'a later turn holds the secret in its context',
  );
  assert.equal(await mem.forget(id), true);
  assert.deepEqual(traces(path), [], 'after forget, with the Memory still open');
  assert.ok(!contexts().some((c) => c.includes('078-05') || c.includes('219-09')), 'the next turns’ contexts were rewritten without it');
  db.close();
  // The others are whole: the later turns are still found, by keyword and through their context.
  assert.equal((await mem.recall('later turn weather', { mode: 'keyword', limit: 10 })).filter((h) => /later turn/.test(h.content)).length, 4);
  assert.equal(await mem.count(), 54);
  await mem.close();
  assert.deepEqual(traces(path), [], 'after close');
  checkFile(path);
});

test('forget then SIGKILL (a real child process, killed right after forget returned): no trace in the file or its WAL', { timeout: 120_000 }, async () => {
  const path = join(tempDir(), 'killed.db');
  const w = await startWorker('forgetter.ts', { db: path, secret: SECRET, old: OLD });
  await w.waitFor((l) => l.op === 'forgotten');
  w.proc.kill('SIGKILL');
  const { signal } = await w.exited;
  assert.equal(signal, 'SIGKILL');
  assert.deepEqual(traces(path), [], w.stderr());
  const mem = await openMemory({ path, embedder: 'none', readonly: true });
  assert.equal(await mem.count(), 54);
  await mem.close();
  checkFile(path);
});

test('erase({ namespace }) removes the namespace and leaves no trace in the file; other namespaces are byte-for-byte the same', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  await plant(mem, 'user-1');
  await mem.addMany([
    { content: 'user-2 likes green tea', namespace: 'user-2' },
    { content: 'user-2 lives in Porto', namespace: 'user-2', sessionId: 's' },
  ]);
  await mem.recall('what does user-2 drink', { namespace: 'user-2' });
  const other = JSON.stringify(await all(mem.export({ namespace: 'user-2', vectors: true })));
  const r = await mem.erase({ namespace: 'user-1' });
  assert.equal(r.namespace, 'user-1');
  assert.equal(r.memories, 55);
  assert.equal(r.historyVersions, 1);
  assert.ok(r.cachedVectors >= 1, `cached vectors removed: ${r.cachedVectors}`);
  assert.deepEqual(traces(path, [...NEEDLES, 'earlier turn 7 about']), []);
  assert.equal(await mem.count({ namespace: 'user-1' }), 0);
  assert.deepEqual(Object.keys((await mem.stats()).namespaces), ['user-2']);
  assert.equal(JSON.stringify(await all(mem.export({ namespace: 'user-2', vectors: true }))), other);
  const db = new Database(path, { readonly: true });
  assert.equal(db.prepare("SELECT count(*) FROM embedding_cache WHERE namespace = 'user-1'").pluck().get(), 0);
  assert.ok((db.prepare("SELECT count(*) FROM embedding_cache WHERE namespace = 'user-2'").pluck().get() as number) >= 1, "user-2's cache stays");
  db.close();
  assert.deepEqual(await mem.erase({ namespace: 'user-1' }), { namespace: 'user-1', memories: 0, historyVersions: 0, cachedVectors: 0 });
  for (const bad of [{ namespace: '*' }, {}, { namespace: '' }, { namespace: 'x', extra: 1 }])
    await assert.rejects(
      () => mem.erase(bad as { namespace: string }),
      (e: { code?: string }) => e.code === 'INVALID_INPUT',
    );
  await mem.close();
  checkFile(path);
});

test('erase over HTTP (DELETE /api/namespaces/{namespace}, a token that covers it) and the CLI (mnemolite erase -n); never an MCP tool', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  await mem.addMany([
    { content: 'agent-1 note', namespace: 'agent-1' },
    { content: 'agent-2 note', namespace: 'agent-2' },
    { content: 'team-a note', namespace: 'team-a' },
  ]);
  const ADMIN = 'admin-token-0123456789abcdef';
  const AGENT = 'agent-token-0123456789abcdef';
  const app = createServer({ memory: mem, tokens: parseTokens({ MNEMOLITE_TOKEN: ADMIN, MNEMOLITE_TOKENS: `${AGENT}=agent-1|team-*` }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const del = async (ns: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const res = await fetch(`${serverUrl(app)}/api/namespaces/${encodeURIComponent(ns)}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    assert.equal((await del('agent-2', AGENT)).status, 403, 'a namespace the token does not cover');
    assert.equal((await del('*', ADMIN)).status, 400);
    const ok = await del('agent-1', AGENT);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body, { namespace: 'agent-1', memories: 1, historyVersions: 0, cachedVectors: 0 });
    assert.equal((await del('team-a', AGENT)).body.memories, 1, 'a prefix grant covers team-a');
    assert.equal(await mem.count({ namespace: 'agent-2' }), 1);
    const doc = (await (await fetch(`${serverUrl(app)}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    assert.equal(doc.paths['/api/namespaces/{namespace}']?.delete?.operationId, 'eraseNamespace');
  } finally {
    await app.close();
    await mem.close();
  }
  const r = cli(['--db', path, '--embedder', 'none', 'erase', '-n', 'agent-2']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /erased namespace "agent-2": 1 memories, 0 earlier versions, 0 cached vectors/);
  assert.equal(cli(['--db', path, '--embedder', 'none', 'erase']).code, 1, 'erase needs -n');
  const j = cli(['--db', path, '--embedder', 'none', '--json', 'erase', '-n', 'nothing-here']);
  assert.deepEqual(JSON.parse(j.stdout), { namespace: 'nothing-here', memories: 0, historyVersions: 0, cachedVectors: 0 });
  assert.ok(!MEMORY_TOOL_NAMES.some((n) => /erase|namespace/.test(n)), 'no model tool erases a namespace');
});
