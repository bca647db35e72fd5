/**
 * Working memory (mem.profile): one always-current document per namespace, versioned, on every
 * store (file, PGlite, PostgreSQL) and every surface (library, tools, MCP over the SDK client,
 * HTTP with tokens, CLI as a child process).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PROFILE_MAX_BYTES, PROFILE_VERSIONS_KEPT, openMemory } from '../src/index.js';
import { parseTokens } from '../src/http/auth.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { memoryTools } from '../src/tools.js';
import { CLI, cli, errorCode as code, tempDb, tempDir } from './helpers.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

for (const t of targets) {
  test(`profile on ${t.name}: get, set, optimistic update, history, bounds, isolation, erase, context`, async () => {
    const loc = t.fresh();
    const mem = await openMemory({ ...loc, embedder: 'none' });
    const other = await openMemory({ ...loc, embedder: 'none' });
    try {
      const empty = await mem.profile.get({ namespace: 'u1' });
      assert.deepEqual(empty, { namespace: 'u1', content: '', version: 0, updatedAt: null });

      const v1 = await mem.profile.set('Name: Ana\nCity: Lisbon', { namespace: 'u1', expectedVersion: 0 });
      assert.equal(v1.version, 1);
      assert.ok(v1.updatedAt instanceof Date);
      assert.equal((await other.profile.get({ namespace: 'u1' })).content, 'Name: Ana\nCity: Lisbon', 'another connection sees it');
      assert.equal((await mem.profile.get({ namespace: 'u2' })).version, 0, 'namespaces are isolated');
      assert.equal((await mem.profile.get()).version, 0, 'the default namespace is its own');

      // Two agents read version 1; the second write must not overwrite the first.
      const a = await mem.profile.get({ namespace: 'u1' });
      const b = await other.profile.get({ namespace: 'u1' });
      await mem.profile.set(`${a.content}\nJob: nurse`, { namespace: 'u1', expectedVersion: a.version });
      assert.equal(await code(other.profile.set(`${b.content}\nDiet: vegetarian`, { namespace: 'u1', expectedVersion: b.version })), 'CONFLICT');
      assert.equal((await mem.profile.get({ namespace: 'u1' })).content, 'Name: Ana\nCity: Lisbon\nJob: nurse', 'the refused write changed nothing');
      // update() rereads and reapplies: both changes land, even when the two run at once.
      await Promise.all([
        mem.profile.update((c) => `${c}\nDiet: vegetarian`, { namespace: 'u1' }),
        other.profile.update((c) => `${c}\nAllergies: peanuts`, { namespace: 'u1' }),
      ]);
      const both = await mem.profile.get({ namespace: 'u1' });
      assert.match(both.content, /Diet: vegetarian/);
      assert.match(both.content, /Allergies: peanuts/);
      assert.equal(both.version, 4);

      // Bad input: typed errors, nothing written.
      assert.equal(await code(mem.profile.set('x'.repeat(PROFILE_MAX_BYTES + 1), { namespace: 'u1' })), 'INVALID_INPUT');
      assert.equal(await code(mem.profile.set('é'.repeat(PROFILE_MAX_BYTES / 2 + 1), { namespace: 'u1' })), 'INVALID_INPUT', 'the limit is in bytes');
      assert.equal(await code(mem.profile.set('ok', { namespace: '*' })), 'INVALID_INPUT');
      assert.equal(await code(mem.profile.set('ok', { namespace: 'u1', expectedVersion: -1 })), 'INVALID_INPUT');
      assert.equal(await code(mem.profile.set(42 as unknown as string, { namespace: 'u1' })), 'INVALID_INPUT');
      assert.equal(await code(mem.profile.get({ namespace: 'u1', bogus: 1 } as never)), 'INVALID_INPUT');
      assert.equal((await mem.profile.get({ namespace: 'u1' })).version, 4);

      // History: newest first, paged, bounded.
      const h = await mem.profile.history({ namespace: 'u1', limit: 2 });
      assert.equal(h.total, 4);
      assert.deepEqual(
        h.versions.map((v) => v.version),
        [4, 3],
      );
      assert.equal((await mem.profile.history({ namespace: 'u1', offset: 3 })).versions[0]!.content, 'Name: Ana\nCity: Lisbon');
      for (let i = 0; i < PROFILE_VERSIONS_KEPT + 3; i++) await mem.profile.set(`City: c${i}`, { namespace: 'u3' });
      const kept = await mem.profile.history({ namespace: 'u3', limit: 50 });
      assert.equal(kept.total, PROFILE_VERSIONS_KEPT);
      assert.equal(kept.versions.at(-1)!.version, 4, 'the oldest versions were dropped');

      // context(): the profile in full at the top, even when no memory is relevant.
      await mem.add('Ana adopted a cat named Miso', { namespace: 'u1' });
      const ctx = await mem.context('cat Miso', { namespace: 'u1', mode: 'keyword', minRelevance: 0 });
      assert.ok(ctx.text.startsWith('Profile (always current):\nName: Ana'), ctx.text);
      assert.ok(ctx.text.indexOf('Allergies: peanuts') < ctx.text.indexOf('Miso'), 'profile above the memories');
      assert.equal(ctx.profileVersion, 4);
      const none = await mem.context('quantum chromodynamics', { namespace: 'u1', mode: 'keyword' });
      assert.match(none.text, /^Profile \(always current\):/);
      assert.equal(none.memories.length, 0);
      const off = await mem.context('cat Miso', { namespace: 'u1', mode: 'keyword', minRelevance: 0, profile: false });
      assert.ok(!off.text.includes('Profile'), 'profile: false leaves it out');
      assert.ok(!(await mem.context('cat Miso', { namespace: 'u2', mode: 'keyword', minRelevance: 0 })).text.includes('Ana'), 'no other namespace’s profile');

      // erase({ namespace }) takes the profile and its versions; other namespaces keep theirs.
      await mem.erase({ namespace: 'u1' });
      assert.equal((await mem.profile.get({ namespace: 'u1' })).version, 0);
      assert.equal((await mem.profile.history({ namespace: 'u1' })).total, 0);
      assert.equal((await mem.profile.get({ namespace: 'u3' })).version, PROFILE_VERSIONS_KEPT + 3);
    } finally {
      await other.close();
      await mem.close();
    }
  });
}

test('profile: read-only stores refuse writes; an erased profile leaves no trace in the file or its WAL', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  await mem.profile.set('Name: Zoltan\nAllergy: qzvxkplmt-pollen', { namespace: 'secret' });
  await mem.profile.set('Name: Zoltan\nAllergy: qzvxkplmt-pollen\nCity: Graz', { namespace: 'secret' });
  await mem.close();
  const ro = await openMemory({ path, embedder: 'none', readonly: true });
  assert.equal((await ro.profile.get({ namespace: 'secret' })).version, 2);
  assert.equal(await code(ro.profile.set('x', { namespace: 'secret' })), 'READ_ONLY');
  await ro.close();
  const rw = await openMemory({ path, embedder: 'none' });
  await rw.erase({ namespace: 'secret' });
  await rw.close();
  for (const f of [path, `${path}-wal`]) if (existsSync(f)) assert.ok(!readFileSync(f).includes('qzvxkplmt'), `no trace in ${f}`);
});

test('profile tools: memory_profile and memory_profile_update, conflicts the model can resolve, read-only hides the update', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    const tools = memoryTools(mem, { namespace: 'user-7' });
    const r0 = await tools.execute('memory_profile', {});
    assert.ok(r0.ok);
    assert.equal(r0.data.version, 0);
    const w = await tools.execute('memory_profile_update', { content: 'City: Lisbon', expectedVersion: 0 });
    assert.ok(w.ok, w.text);
    assert.equal(w.data.version, 1);
    const stale = await tools.execute('memory_profile_update', { content: 'City: Porto', expectedVersion: 0 });
    assert.ok(!stale.ok);
    assert.equal(stale.data.error.code, 'CONFLICT');
    assert.match(stale.text, /now version 1:\nCity: Lisbon/, 'the model gets what to merge into');
    const bad = await tools.execute('memory_profile_update', { content: 'x', namespace: 'other' });
    assert.ok(!bad.ok, 'no namespace argument');
    assert.equal((await mem.profile.get({ namespace: 'user-7' })).content, 'City: Lisbon');
    const ro = memoryTools(mem, { namespace: 'user-7', readOnly: true });
    assert.ok(!ro.definitions.some((d) => d.name === 'memory_profile_update'));
    assert.ok(ro.definitions.some((d) => d.name === 'memory_profile'));
    const refused = await ro.execute('memory_profile_update', { content: 'City: Porto' });
    assert.ok(!refused.ok);
    assert.equal(refused.data.error.code, 'READ_ONLY');
  } finally {
    await mem.close();
  }
});

async function mcp(db: string, args: string[]): Promise<Client> {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--db', db, '--embedder', 'none', 'mcp', ...args],
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  const client = new Client({ name: 'mnemolite-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

test('MCP: the profile tools over the official SDK client; --read-only offers no update', async () => {
  const db = tempDb();
  const c = await mcp(db, ['--namespace', 'u-mcp']);
  try {
    const names = (await c.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('memory_profile') && names.includes('memory_profile_update'));
    const w = (await c.callTool({ name: 'memory_profile_update', arguments: { content: 'Diet: vegan', expectedVersion: 0 } })) as CallToolResult;
    assert.ok(!w.isError);
    assert.equal((w.structuredContent as { version: number }).version, 1);
    const r = (await c.callTool({ name: 'memory_profile', arguments: {} })) as CallToolResult;
    assert.equal((r.structuredContent as { content: string }).content, 'Diet: vegan');
    const ctx = (await c.callTool({ name: 'memory_context', arguments: { query: 'what does the user eat' } })) as CallToolResult;
    assert.match(JSON.stringify(ctx.content), /Diet: vegan/, 'memory_context carries the profile');
  } finally {
    await c.close();
  }
  const ro = await mcp(db, ['--namespace', 'u-mcp', '--read-only']);
  try {
    const names = (await ro.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('memory_profile'));
    assert.ok(!names.includes('memory_profile_update'));
    const refused = (await ro.callTool({ name: 'memory_profile_update', arguments: { content: 'x' } })) as CallToolResult;
    assert.equal(refused.isError, true);
  } finally {
    await ro.close();
  }
  const check = await openMemory({ path: db, embedder: 'none', readonly: true });
  assert.equal((await check.profile.get({ namespace: 'u-mcp' })).content, 'Diet: vegan');
  await check.close();
});

test('HTTP: GET/PUT /api/namespaces/{ns}/profile with token confinement, 409 on a stale version, history, OpenAPI', async () => {
  const ADMIN = 'aaaaaaaaAdmin-token-0001';
  const AGENT = 'bbbbbbbbAgent-token-0002';
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const app = createServer({ memory: mem, tokens: parseTokens({ MNEMOLITE_TOKEN: ADMIN, MNEMOLITE_TOKENS: `${AGENT}=user-1/*` }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const req = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${serverUrl(app)}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  try {
    const ns = encodeURIComponent('user-1/agent-a');
    let res = await req('PUT', `/api/namespaces/${ns}/profile`, AGENT, { content: 'City: Lisbon', expectedVersion: 0 });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as { version: number }).version, 1);
    res = await req('PUT', `/api/namespaces/${ns}/profile`, AGENT, { content: 'City: Porto', expectedVersion: 0 });
    assert.equal(res.status, 409);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'CONFLICT');
    res = await req('PUT', `/api/namespaces/${ns}/profile`, AGENT, { content: 'City: Porto', expectedVersion: 1 });
    assert.equal(res.status, 200);
    res = await req('GET', `/api/namespaces/${ns}/profile`, AGENT);
    const got = (await res.json()) as { content: string; version: number; updatedAt: string };
    assert.equal(got.content, 'City: Porto');
    assert.equal(got.version, 2);
    assert.ok(!Number.isNaN(Date.parse(got.updatedAt)));
    res = await req('GET', `/api/namespaces/${ns}/profile/history?limit=1&offset=1`, AGENT);
    const h = (await res.json()) as { total: number; versions: { version: number; content: string }[] };
    assert.equal(h.total, 2);
    assert.deepEqual(
      h.versions.map((v) => v.content),
      ['City: Lisbon'],
    );
    // Outside the grant: 403, nothing written, nothing read.
    await mem.profile.set('Secret: yes', { namespace: 'user-2' });
    assert.equal((await req('GET', '/api/namespaces/user-2/profile', AGENT)).status, 403);
    assert.equal((await req('PUT', '/api/namespaces/user-2/profile', AGENT, { content: 'x' })).status, 403);
    assert.equal((await req('PUT', `/api/namespaces/${encodeURIComponent('*')}/profile`, ADMIN, { content: 'x' })).status, 400);
    assert.equal((await req('PUT', `/api/namespaces/${ns}/profile`, AGENT, { content: 'x'.repeat(PROFILE_MAX_BYTES + 1) })).status, 400);
    assert.equal((await mem.profile.get({ namespace: 'user-2' })).content, 'Secret: yes');
    const doc = (await (await fetch(`${serverUrl(app)}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    assert.equal(doc.paths['/api/namespaces/{namespace}/profile']?.put?.operationId, 'setProfile');
    assert.equal(doc.paths['/api/namespaces/{namespace}/profile']?.get?.operationId, 'getProfile');
  } finally {
    await app.close();
    await mem.close();
  }
});

test('CLI: mnemolite profile show | set | edit | history as child processes', () => {
  const db = tempDb();
  const base = ['--db', db, '--embedder', 'none'];
  let r = cli([...base, 'profile', 'set', '-n', 'u1', '-'], { input: 'Name: Ana\nCity: Lisbon\n' });
  assert.equal(r.code, 0, r.stderr);
  r = cli([...base, '--json', 'profile', 'show', '-n', 'u1']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { version: number }).version, 1);
  r = cli([...base, 'profile', 'set', '-n', 'u1', '--expect-version', '0', 'City: Porto']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /version 1, not 0/);
  // edit: a real editor process (a script) rewrites the temp file.
  const dir = tempDir();
  const editor = join(dir, 'editor.sh');
  writeFileSync(editor, '#!/bin/sh\nsed -i "s/Lisbon/Porto/" "$1"\n');
  chmodSync(editor, 0o755);
  r = cli([...base, 'profile', 'edit', '-n', 'u1'], { env: { EDITOR: editor } });
  assert.equal(r.code, 0, r.stderr);
  r = cli([...base, 'profile', 'show', '-n', 'u1']);
  assert.match(r.stdout, /City: Porto/);
  assert.match(r.stdout, /version 2/);
  r = cli([...base, '--json', 'profile', 'history', '-n', 'u1']);
  const h = JSON.parse(r.stdout) as { total: number; versions: { content: string }[] };
  assert.equal(h.total, 2);
  assert.match(h.versions[1]!.content, /Lisbon/);
  r = cli([...base, 'profile', 'set', '-n', 'u1', 'x'.repeat(PROFILE_MAX_BYTES + 1)]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /limit is 8192/);
});

test('HTTP: /api/context puts the profile on top; profile: false leaves it out', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  await mem.profile.set('Diet: vegan', { namespace: 'u' });
  await mem.add('We cook lentil soup on Sundays', { namespace: 'u' });
  const app = createServer({ memory: mem });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const ctx = async (body: Record<string, unknown>) =>
    (await (
      await fetch(`${serverUrl(app)}/api/context`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json()) as { text: string; profileVersion?: number };
  try {
    const on = await ctx({ query: 'lentil soup', namespace: 'u', minRelevance: 0 });
    assert.match(on.text, /^Profile \(always current\):\nDiet: vegan/);
    assert.equal(on.profileVersion, 1);
    const off = await ctx({ query: 'lentil soup', namespace: 'u', minRelevance: 0, profile: false });
    assert.ok(!off.text.includes('vegan'), off.text);
  } finally {
    await app.close();
    await mem.close();
  }
});
