/**
 * Scopes beyond one namespace: recall, list and count over a list of namespaces or a prefix, on
 * every store, with each namespace's statistics its own, and tokens / MCP read scopes that still
 * confine the caller.
 */
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openMemory, type Memory } from '../src/index.js';
import { parseTokens } from '../src/http/auth.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { MAX_SCOPE_NAMESPACES } from '../src/recall/scope.js';
import { memoryTools } from '../src/tools.js';
import { CLI, cli, errorCode as code, tempDb } from './helpers.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

/** Every namespace gets the word "garden"; the neighbours of user-1 hold it too, and must never show up. */
async function plant(mem: Memory): Promise<void> {
  const rows: [string, string][] = [
    ['user-1/agent-a', 'The garden needs watering on Tuesdays'],
    ['user-1/agent-a', 'Lunch was a tomato salad'],
    ['user-1/agent-b', 'She planted roses in the garden last spring'],
    ['user-1/agent-b', 'garden garden garden party planning notes'],
    ['user-10/agent-a', 'The garden shed is blue (user-10)'],
    ['user-2/agent-a', 'A garden in Porto (user-2)'],
    ['a/x', 'garden of a/x'],
    ['ab/x', 'garden of ab/x'],
  ];
  for (const [namespace, content] of rows) await mem.add(content, { namespace });
}

for (const t of targets) {
  test(`scopes on ${t.name}: prefix and list for recall, list and count; isolation; per-namespace statistics; bounds`, async () => {
    const mem = await openMemory({ ...t.fresh(), embedder: 'none' });
    try {
      await plant(mem);
      const hits = await mem.recall('garden', { namespace: 'user-1/*', limit: 10 });
      assert.deepEqual(
        [...new Set(hits.map((h) => h.namespace))].sort(),
        ['user-1/agent-a', 'user-1/agent-b'],
        'hits carry their namespace, never user-10 or user-2',
      );
      assert.equal(hits.length, 3);
      assert.deepEqual(
        (await mem.recall('garden', { namespace: 'a/*' })).map((h) => h.content),
        ['garden of a/x'],
        '"a/*" does not match "ab/x"',
      );
      assert.deepEqual(await mem.recall('garden', { namespace: 'nobody/*' }), []);

      // Each hit scores as it does in its own namespace alone: the statistics stay per namespace.
      const list = await mem.recall('garden', { namespace: ['user-1/agent-b', 'user-2/agent-a'], limit: 10 });
      for (const h of list) {
        const alone = await mem.recall('garden', { namespace: h.namespace, limit: 10 });
        const same = alone.find((a) => a.id === h.id)!;
        assert.equal(h.score, same.score, `${h.namespace}: same score`);
        assert.equal(h.relevance, same.relevance, `${h.namespace}: same relevance`);
      }
      // Merged by relevance, each namespace's own order kept.
      for (let i = 1; i < list.length; i++) if (list[i]!.namespace !== list[i - 1]!.namespace) assert.ok(list[i - 1]!.relevance >= list[i]!.relevance);
      assert.equal((await mem.recall('garden', { namespace: 'user-1/*', limit: 1 })).length, 1, 'limit applies to the merged hits');

      assert.equal(await mem.count({ namespace: 'user-1/*' }), 4);
      assert.equal(await mem.count({ namespace: 'user-1*' }), 5, 'a prefix without "/" matches user-10 too, as written');
      assert.equal(await mem.count({ namespace: ['user-2/agent-a', 'a/x'] }), 2);
      const listed = await mem.list({ namespace: 'user-1/*', order: 'asc' });
      assert.deepEqual(
        listed.map((m) => m.namespace),
        ['user-1/agent-a', 'user-1/agent-a', 'user-1/agent-b', 'user-1/agent-b'],
      );
      assert.equal((await mem.list({ namespace: ['a/x', 'ab/x'], limit: 1, offset: 1, order: 'asc' }))[0]!.namespace, 'ab/x');
      assert.equal((await mem.listWithTotal({ namespace: 'user-1/*', limit: 1 })).total, 4);

      // Bounded, typed errors.
      const many = Array.from({ length: MAX_SCOPE_NAMESPACES + 1 }, (_, i) => `n${i}`);
      assert.equal(await code(mem.recall('garden', { namespace: many })), 'INVALID_INPUT');
      assert.equal(await code(mem.recall('garden', { namespace: [] })), 'INVALID_INPUT');
      assert.equal(await code(mem.recall('garden', { namespace: ['a/x', '*'] })), 'INVALID_INPUT');
      assert.equal(await code(mem.recall('garden', { namespace: 'us*er/*' })), 'INVALID_INPUT');
      assert.equal(await code(mem.count({ namespace: ['a/x', 'user-*'] })), 'INVALID_INPUT');
      assert.equal(await code(mem.recall('', { namespace: 'nobody/*' })), 'INVALID_INPUT', 'a bad query is refused even when the prefix matches nothing');
      for (let i = 0; i <= MAX_SCOPE_NAMESPACES; i++) await mem.add(`garden ${i}`, { namespace: `wide/${i}` });
      assert.equal(await code(mem.recall('garden', { namespace: 'wide/*' })), 'INVALID_INPUT', 'a prefix matching too many namespaces is refused');
      assert.equal(await code(mem.add('x', { namespace: 'user-1/agent-a' })), 'ok');
    } finally {
      await mem.close();
    }
  });
}

test('a namespace name ending in "*" is refused on write; one in an older file is read literally inside a prefix recall (it once recursed without end)', async () => {
  const path = tempDb();
  let mem = await openMemory({ path, embedder: 'none' });
  try {
    await assert.rejects(
      mem.add('fuzz note about tea', { namespace: 'x*' }),
      (e: Error & { code?: string }) => e.code === 'INVALID_INPUT' && /end in "\*"/.test(e.message),
    );
    await mem.add('fuzz note about tea', { namespace: 'xq' });
    await mem.add('another note about tea', { namespace: 'xy' });
    await mem.add('a tea note elsewhere', { namespace: 'z' });
  } finally {
    await mem.close();
  }
  // A file written before the rule: rename the namespace in place.
  const db = new Database(path);
  db.prepare("UPDATE memories SET namespace = 'x*' WHERE namespace = 'xq'").run();
  db.close();
  mem = await openMemory({ path, embedder: 'none' });
  try {
    const hits = await mem.recall('tea note', { namespace: 'x*', mode: 'keyword' });
    assert.deepEqual(hits.map((h) => h.namespace).sort(), ['x*', 'xy']);
  } finally {
    await mem.close();
  }
});

test('HTTP: a token for user-1/* may use the prefix and its namespaces; a narrower token may not widen', async () => {
  const WIDE = 'wwwwwwwwWide-token-00001';
  const ONE = 'ooooooooOne-token-000002';
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  await plant(mem);
  const app = createServer({ memory: mem, tokens: parseTokens({ MNEMOLITE_TOKENS: `${WIDE}=user-1/* ${ONE}=user-1/agent-a` }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const recall = (token: string, namespace: unknown) =>
    fetch(`${serverUrl(app)}/api/recall`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'garden', namespace, limit: 20 }),
    });
  const list = (token: string, namespace: string) =>
    fetch(`${serverUrl(app)}/api/memories?namespace=${encodeURIComponent(namespace)}`, { headers: { authorization: `Bearer ${token}` } });
  try {
    let res = await recall(WIDE, 'user-1/*');
    assert.equal(res.status, 200, await res.clone().text());
    const hits = ((await res.json()) as { hits: { namespace: string }[] }).hits;
    assert.deepEqual([...new Set(hits.map((h) => h.namespace))].sort(), ['user-1/agent-a', 'user-1/agent-b']);
    res = await recall(WIDE, ['user-1/agent-a', 'user-1/agent-b']);
    assert.equal(res.status, 200);
    assert.equal((await recall(WIDE, 'user-*')).status, 403, 'wider than the grant');
    assert.equal((await recall(WIDE, ['user-1/agent-a', 'user-2/agent-a'])).status, 403, 'one namespace of the list outside the grant');
    assert.equal((await recall(ONE, 'user-1/*')).status, 403, 'a one-namespace token may not use the prefix');
    assert.equal((await recall(ONE, ['user-1/agent-a', 'user-1/agent-b'])).status, 403);
    assert.equal((await recall(ONE, ['user-1/agent-a'])).status, 200);
    res = await list(WIDE, 'user-1/*');
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { total: number }).total, 4);
    assert.equal((await list(ONE, 'user-1/*')).status, 403);
  } finally {
    await app.close();
    await mem.close();
  }
});

test('tools: readScope widens what the model reads, never where it writes; a pattern namespace is refused', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    await plant(mem);
    const tools = memoryTools(mem, { namespace: 'user-1/agent-a', readScope: 'user-1/*', minRelevance: 0 });
    const r = await tools.execute('memory_recall', { query: 'garden', limit: 10 });
    assert.ok(r.ok, r.text);
    const ns = (r.data.hits as { namespace: string }[]).map((h) => h.namespace);
    assert.ok(ns.includes('user-1/agent-b') && !ns.some((n) => !n.startsWith('user-1/')), ns.join());
    const other = (await mem.list({ namespace: 'user-2/agent-a' }))[0]!;
    assert.ok(!(await tools.execute('memory_get', { id: other.id })).ok, 'outside the read scope: not found');
    const stored = await tools.execute('memory_store', { content: 'written by agent a' });
    assert.ok(stored.ok);
    assert.equal((await mem.get(stored.data.id as string))!.namespace, 'user-1/agent-a');
    assert.throws(() => memoryTools(mem, { namespace: 'user-1/*' }), /pattern/);
    assert.throws(() => memoryTools(mem, { namespace: 'user-1/agent-a', readScope: '*' }), /readScope/);
  } finally {
    await mem.close();
  }
});

test('MCP: the namespace lock holds; --read-scope reads user-1/* and nothing else', async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  await plant(mem);
  await mem.close();
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const start = async (args: string[]): Promise<Client> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--db', db, '--embedder', 'none', 'mcp', ...args],
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    const c = new Client({ name: 'mnemolite-test', version: '1.0.0' });
    await c.connect(transport);
    return c;
  };
  const namespaces = async (c: Client, args: Record<string, unknown>): Promise<string[]> => {
    const r = (await c.callTool({ name: 'memory_recall', arguments: { query: 'garden', limit: 20, minRelevance: 0, ...args } })) as CallToolResult;
    if (r.isError) return ['error'];
    return [...new Set((r.structuredContent as { hits: { namespace?: string; content: string }[] }).hits.map((h) => h.namespace ?? 'locked'))].sort();
  };
  const locked = await start(['--namespace', 'user-1/agent-a']);
  try {
    assert.deepEqual(await namespaces(locked, {}), ['locked']);
    assert.deepEqual(await namespaces(locked, { namespace: 'user-1/*' }), ['error'], 'the model cannot name a namespace');
  } finally {
    await locked.close();
  }
  const wide = await start(['--namespace', 'user-1/agent-a', '--read-scope', 'user-1/*']);
  try {
    assert.deepEqual(await namespaces(wide, {}), ['user-1/agent-a', 'user-1/agent-b']);
  } finally {
    await wide.close();
  }
});

test('CLI: list, recall and count-like stats over a prefix as child processes', async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  await plant(mem);
  await mem.close();
  let r = cli(['--db', db, '--embedder', 'none', '--json', 'recall', 'garden', '-n', 'user-1/*']);
  assert.equal(r.code, 0, r.stderr);
  const hits = JSON.parse(r.stdout) as { namespace: string }[];
  assert.deepEqual([...new Set(hits.map((h) => h.namespace))].sort(), ['user-1/agent-a', 'user-1/agent-b']);
  r = cli(['--db', db, '--embedder', 'none', '--json', 'list', '-n', 'a/*']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    (JSON.parse(r.stdout) as { namespace: string }[]).map((m) => m.namespace),
    ['a/x'],
  );
});

test('CLI: repeated -n is a list for recall, list and count; a name with a comma stays one name; a pattern inside a list is refused', async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  await plant(mem);
  await mem.add('garden of the comma namespace', { namespace: 'x,y' });
  await mem.add('garden of x alone', { namespace: 'x' });
  await mem.close();
  const base = ['--db', db, '--embedder', 'none', '--json'];
  const spaces = (stdout: string): string[] => [...new Set((JSON.parse(stdout) as { namespace: string }[]).map((h) => h.namespace))].sort();
  let r = cli([...base, 'recall', 'garden', '-n', 'user-1/agent-a', '-n', 'user-2/agent-a', '--min-relevance', '0']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(spaces(r.stdout), ['user-1/agent-a', 'user-2/agent-a']);
  r = cli([...base, 'list', '--namespace', 'a/x', '--namespace', 'ab/x']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(spaces(r.stdout), ['a/x', 'ab/x']);
  r = cli([...base, 'count', '-n', 'user-1/agent-b', '-n', 'a/x']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { count: 3 });
  r = cli(['--db', db, '--embedder', 'none', 'count', '-n', 'user-1/*']);
  assert.equal(r.stdout.trim(), '4', r.stderr);
  r = cli(['--db', db, '--embedder', 'none', 'count']);
  assert.equal(r.stdout.trim(), '10', `every namespace by default ${r.stderr}`);
  // One value is one name: the comma is part of it, never a separator.
  r = cli([...base, 'recall', 'garden', '-n', 'x,y']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(spaces(r.stdout), ['x,y']);
  r = cli([...base, 'list', '-n', 'x,y', '-n', 'x']);
  assert.deepEqual(spaces(r.stdout), ['x', 'x,y']);
  // Human output of a list recall names each hit's namespace nowhere it could be confused: the JSON has it; the hint knows the list.
  r = cli(['--db', db, '--embedder', 'none', 'recall', 'roses', '-n', 'a/x', '-n', 'ab/x']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /nothing in namespaces "a\/x", "ab\/x"; matches exist in: user-1\/agent-b \(1\)/);
  // A pattern inside a list is refused with a clear message, and nothing is read.
  r = cli([...base, 'recall', 'garden', '-n', 'user-1/*', '-n', 'a/x']);
  assert.equal(r.code, 1);
  assert.match(JSON.parse(r.stderr).error.message, /a list names namespaces, not patterns/);
});

test('MCP --read-scope: repeated, each value is one name (commas kept); once, commas still separate names', async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  await mem.add('garden of the comma namespace', { namespace: 'x,y' });
  await mem.add('garden of x alone', { namespace: 'x' });
  await mem.add('garden of y alone', { namespace: 'y' });
  await mem.add('garden of the writer', { namespace: 'w' });
  await mem.close();
  const seen = async (args: string[]): Promise<string[]> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--db', db, '--embedder', 'none', 'mcp', '--namespace', 'w', ...args],
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    const c = new Client({ name: 'mnemolite-test', version: '1.0.0' });
    await c.connect(transport);
    try {
      const r = (await c.callTool({ name: 'memory_recall', arguments: { query: 'garden', limit: 20, minRelevance: 0 } })) as CallToolResult;
      assert.ok(!r.isError, JSON.stringify(r.content));
      return [...new Set((r.structuredContent as { hits: { namespace: string }[] }).hits.map((h) => h.namespace))].sort();
    } finally {
      await c.close();
    }
  };
  assert.deepEqual(await seen(['--read-scope', 'x,y']), ['x', 'y'], 'one value: names separated by commas, as before');
  assert.deepEqual(await seen(['--read-scope', 'x,y', '--read-scope', 'w']), ['w', 'x,y'], 'repeated: each value literally');
});
