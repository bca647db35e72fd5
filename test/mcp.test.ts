import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openMemory } from '../src/index.js';
import { CLI, tempDb } from './helpers.js';

// Every test spawns the built CLI (`node dist/cli/main.js ... mcp`) and talks to it with the
// official SDK client over stdio, against a real temporary file.

interface Server {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

async function startServer(db: string, args: string[], embedder = 'none'): Promise<Server> {
  assert.ok(existsSync(CLI), `${CLI} is missing: run npm run build first`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--db', db, '--embedder', embedder, 'mcp', ...args],
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const client = new Client({ name: 'mnemolite-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function call(s: Server, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await s.client.callTool({ name, arguments: args })) as CallToolResult;
}

async function callOk(s: Server, name: string, args: Record<string, unknown>): Promise<{ text: string; data: Record<string, unknown> }> {
  const r = await call(s, name, args);
  assert.ok(!r.isError, `${name} failed: ${text(r)}`);
  assert.ok(r.structuredContent, `${name} returns structured content`);
  return { text: text(r), data: r.structuredContent };
}

async function callErr(s: Server, name: string, args: Record<string, unknown>, re: RegExp): Promise<void> {
  const r = await call(s, name, args);
  assert.equal(r.isError, true, `${name} should fail: ${text(r)}`);
  assert.match(text(r), re);
}

test('mnemolite mcp: lists the tools and runs each against a real file', async () => {
  const db = tempDb();
  const s = await startServer(db, ['--namespace', 'a', '--session', 'mcp-session']);
  try {
    const info = s.client.getServerVersion();
    assert.equal(info?.name, 'mnemolite');
    assert.match(s.client.getInstructions() ?? '', /namespace "a"/);
    assert.match(s.client.getInstructions() ?? '', /store durable facts/);

    const { tools } = await s.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [
        'memory_store',
        'memory_recall',
        'memory_get',
        'memory_list',
        'memory_history',
        'memory_forget',
        'memory_profile',
        'memory_profile_update',
        'memory_context',
      ],
    );
    for (const t of tools) {
      assert.ok(t.description && !t.description.includes('\n'), `${t.name} has a one-line description`);
      assert.match(t.description, /\. Use when: \S/, `${t.name}'s description says when to use it (clients may drop server instructions)`);
      assert.equal(t.inputSchema.type, 'object');
      assert.ok(!('namespace' in (t.inputSchema.properties ?? {})), `${t.name} takes no namespace`);
      assert.equal((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, false);
      assert.equal(t.outputSchema?.type, 'object', `${t.name} declares its structured output`);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.memory_recall!.inputSchema.required, ['query']);
    assert.deepEqual(Object.keys(byName.memory_recall!.inputSchema.properties ?? {}), [
      'query',
      'limit',
      'mode',
      'since',
      'until',
      'category',
      'minRelevance',
      'includeOutdated',
      'before',
      'after',
    ]);
    assert.deepEqual(Object.keys(byName.memory_store!.inputSchema.properties ?? {}), [
      'content',
      'key',
      'category',
      'metadata',
      'ttl',
      'expiresAt',
      'pinned',
      'importance',
      'eventAt',
      'supersedes',
    ]);
    assert.equal(byName.memory_forget!.annotations?.destructiveHint, true);
    assert.equal(byName.memory_recall!.annotations?.readOnlyHint, true);

    const stored = await callOk(s, 'memory_store', {
      content: 'Alice prefers green tea',
      category: 'preference',
      key: 'alice-drink',
      metadata: { source: 'chat' },
    });
    const id = stored.data.id as string;
    assert.equal(stored.data.replaced, false);
    assert.match(stored.text, /^Stored memory /);
    await callOk(s, 'memory_store', { content: 'The billing service is written in Go', category: 'fact' });

    // memory_context: a dated block, or a plain "no relevant memory".
    const ctx = await callOk(s, 'memory_context', { query: 'green tea', maxTokens: 100 });
    assert.match(ctx.text, /^Relevant memories \(most relevant first\):\n- \[\d{4}-\d\d-\d\d\] Alice prefers green tea/);
    const noCtx = await callOk(s, 'memory_context', { query: 'capital of Australia' });
    assert.match(noCtx.text, /^No relevant memory for "capital of Australia"/);
    assert.equal(noCtx.data.text, '');
    assert.match((await callOk(s, 'memory_recall', { query: 'capital of Australia' })).text, /^No relevant memory/);

    const rec = await callOk(s, 'memory_recall', { query: 'what does alice drink, tea?', limit: 5, mode: 'keyword', minRelevance: 0 });
    const hits = rec.data.hits as { id: string; content: string; keywordRank: number }[];
    assert.equal(hits[0]!.id, id);
    assert.equal(hits[0]!.keywordRank, 1);
    assert.match(rec.text, /1\. Alice prefers green tea\n {3}current \| id: .* \| category: preference \| key: alice-drink/);
    assert.equal((await callOk(s, 'memory_recall', { query: 'tea', category: 'fact' })).data.count, 0);
    assert.equal((await callOk(s, 'memory_recall', { query: 'tea', since: '2999-01-01' })).data.count, 0);

    const got = await callOk(s, 'memory_get', { id });
    const m = got.data.memory as { content: string; sessionId: string; metadata: unknown };
    assert.equal(m.content, 'Alice prefers green tea');
    assert.equal(m.sessionId, 'mcp-session');
    assert.deepEqual(m.metadata, { source: 'chat' });

    const list = await callOk(s, 'memory_list', { limit: 10 });
    assert.equal(list.data.total, 2);
    assert.equal((list.data.memories as unknown[]).length, 2);
    assert.equal((await callOk(s, 'memory_list', { category: 'fact' })).data.total, 1);

    const hist = await callOk(s, 'memory_history', { id });
    assert.deepEqual(
      (hist.data.versions as { content: string; current: boolean }[]).map((v) => [v.content, v.current]),
      [['Alice prefers green tea', true]],
    );

    const forgot = await callOk(s, 'memory_forget', { id });
    assert.deepEqual(forgot.data, { id, forgotten: true });

    // Errors come back as tool errors with the library's message; the server keeps serving.
    await callErr(s, 'memory_get', { id }, /NOT_FOUND.*No memory with id/);
    await callErr(s, 'memory_forget', { id }, /nothing was deleted/);
    await callErr(s, 'memory_recall', { query: 'tea', mode: 'vector' }, /Semantic recall is off/);
    await callErr(s, 'memory_recall', { query: 'tea', since: 'someday' }, /since must be a valid date/);
    await callErr(s, 'memory_recall', { query: 'tea', limit: 1000 }, /limit/);
    await callErr(s, 'memory_store', { content: '  ' }, /empty/);
    await callErr(s, 'memory_store', {}, /content/);
    await callErr(s, 'memory_store', { content: 'x'.repeat(100_001) }, /bytes; the limit is 100000/);
    assert.equal((await callOk(s, 'memory_list', {})).data.total, 1, 'failed calls wrote nothing');
  } finally {
    await s.close();
  }
  assert.match(s.stderr(), /serving .* namespace "a"/, 'logs go to stderr');
  assert.match(s.stderr(), /stopping \(stdin closed\)/, 'the server stops when the client disconnects');
  const mem = await openMemory({ path: db, embedder: 'none' });
  try {
    assert.deepEqual(
      (await mem.list({ namespace: '*' })).map((r) => [r.namespace, r.content]),
      [['a', 'The billing service is written in Go']],
    );
  } finally {
    await mem.close();
  }
});

test('mnemolite mcp: namespace isolation — another namespace is invisible and undeletable', async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  const { id: secret } = await mem.add('The launch code of team b is 1234', { namespace: 'b', key: 'launch', category: 'secret' });
  await mem.close();

  const a = await startServer(db, ['--namespace', 'a']);
  const b = await startServer(db, ['--namespace', 'b']);
  try {
    assert.equal((await callOk(a, 'memory_recall', { query: 'launch code' })).data.count, 0);
    assert.equal((await callOk(a, 'memory_list', {})).data.total, 0);
    assert.equal((await callOk(a, 'memory_list', { category: 'secret' })).data.total, 0);
    await callErr(a, 'memory_get', { id: secret }, /No memory with id/);
    await callErr(a, 'memory_forget', { id: secret }, /nothing was deleted/);
    // A namespace argument is rejected by the schema, whatever the tool.
    await callErr(a, 'memory_recall', { query: 'launch code', namespace: 'b' }, /namespace/);
    await callErr(a, 'memory_list', { namespace: '*' }, /namespace/);
    await callErr(a, 'memory_get', { id: secret, namespace: 'b' }, /namespace/);
    await callErr(a, 'memory_forget', { id: secret, namespace: 'b' }, /namespace/);
    await callErr(a, 'memory_store', { content: 'overwrite', key: 'launch', namespace: 'b' }, /namespace/);
    // The same key in namespace a makes a separate memory.
    const mine = await callOk(a, 'memory_store', { content: 'Team a has no launch code', key: 'launch' });
    assert.equal(mine.data.replaced, false);
    assert.notEqual(mine.data.id, secret);

    // Server b (a second process on the same file) sees its own memory, not a's.
    const seen = await callOk(b, 'memory_recall', { query: 'launch code' });
    assert.deepEqual(
      (seen.data.hits as { id: string }[]).map((h) => h.id),
      [secret],
    );
    assert.equal((await callOk(b, 'memory_get', { id: secret })).data.memory && true, true);
    await callErr(b, 'memory_get', { id: mine.data.id as string }, /No memory with id/);
  } finally {
    await a.close();
    await b.close();
  }
  const check = await openMemory({ path: db, embedder: 'none' });
  try {
    const s = await check.get(secret);
    assert.equal(s?.content, 'The launch code of team b is 1234', 'b’s memory is untouched');
    assert.equal(s?.namespace, 'b');
  } finally {
    await check.close();
  }
});

test('mnemolite mcp: memory_recall with before/after shows the turns around each hit, marked as context, in its namespace only', async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  const chat = (words: string[]) => words.map((content, i) => ({ speaker: i % 2 ? 'Ben' : 'Ana', content }));
  await mem.addConversation(chat(['Where shall we eat tonight?', 'The ramen place on Rua Augusta', 'What time?', 'At eight']), {
    namespace: 'a',
    sessionId: 's1',
    minWords: 0,
    contextWindow: 0,
  });
  await mem.addConversation(chat(['Ramen again?', 'Sure, secret plan']), { namespace: 'b', sessionId: 's1', minWords: 0, contextWindow: 0 });
  await mem.close();
  const s = await startServer(db, ['--namespace', 'a', '--min-relevance', '0']);
  try {
    const { tools } = await s.client.listTools();
    const props = tools.find((t) => t.name === 'memory_recall')!.inputSchema.properties as Record<string, { maximum?: number }>;
    assert.equal(props.before?.maximum, 20);
    assert.equal(props.after?.maximum, 20);
    // The SDK client checks structuredContent against the advertised output schema.
    const r = await callOk(s, 'memory_recall', { query: 'ramen', mode: 'keyword', limit: 1, before: 1, after: 2 });
    const [hit] = r.data.hits as { content: string; neighbours?: { before: { content: string }[]; after: { content: string }[] } }[];
    assert.equal(hit!.content, 'Ben: The ramen place on Rua Augusta');
    assert.deepEqual(
      hit!.neighbours!.before.map((m) => m.content),
      ['Ana: Where shall we eat tonight?'],
    );
    assert.deepEqual(
      hit!.neighbours!.after.map((m) => m.content),
      ['Ana: What time?', 'Ben: At eight'],
    );
    assert.match(r.text, /context, the turns around it in its conversation \(not matches\)[^\n]*\n\s+\[before\] Ana: Where shall we eat tonight\?/);
    assert.match(r.text, /\[after\] Ana: What time\?[^\n]*\n\s+\[after\] Ben: At eight/);
    assert.ok(!r.text.includes('secret plan'));
    await callErr(s, 'memory_recall', { query: 'ramen', before: 21 }, /before/);
  } finally {
    await s.close();
  }
});

test('mnemolite mcp --read-only offers only the reading tools; --namespace "*" is refused', async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  await mem.add('A note for reading', { namespace: 'a' });
  await mem.close();
  const s = await startServer(db, ['--namespace', 'a', '--read-only']);
  try {
    const { tools } = await s.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['memory_recall', 'memory_get', 'memory_list', 'memory_history', 'memory_profile', 'memory_context'],
    );
    // The instructions do not ask the model to store what it cannot.
    assert.doesNotMatch(s.client.getInstructions() ?? '', /store durable/);
    assert.match(s.client.getInstructions() ?? '', /read-only/);
    assert.equal((await callOk(s, 'memory_recall', { query: 'note' })).data.count, 1);
    const r = (await s.client.callTool({ name: 'memory_store', arguments: { content: 'x' } })) as CallToolResult;
    assert.equal(r.isError, true);
    assert.match(text(r), /memory_store not found/);
  } finally {
    await s.close();
  }
  await assert.rejects(startServer(db, ['--namespace', '*']));
});

test('mnemolite mcp with the bundled local model: semantic recall', async () => {
  const db = tempDb();
  const s = await startServer(db, ['--namespace', 'ops'], 'local');
  try {
    await callOk(s, 'memory_store', { content: 'We deploy the Rust service on a Raspberry Pi 4' });
    await callOk(s, 'memory_store', { content: 'Lunch on Fridays is pizza with the team' });
    const r = await callOk(s, 'memory_recall', { query: 'which single-board computer runs our backend', mode: 'vector', limit: 1 });
    const hits = r.data.hits as { content: string; vectorRank: number }[];
    assert.equal(hits[0]!.content, 'We deploy the Rust service on a Raspberry Pi 4');
    assert.equal(hits[0]!.vectorRank, 1);
    const hybrid = await callOk(s, 'memory_recall', { query: 'ARM hardware deployment' });
    assert.equal((hybrid.data.hits as { content: string }[])[0]!.content, 'We deploy the Rust service on a Raspberry Pi 4');
  } finally {
    await s.close();
  }
  assert.match(s.stderr(), /semantic recall on/);
});

test('mnemolite mcp: a message over 10 MiB gets a JSON-RPC error and the server keeps serving', { timeout: 120_000 }, async () => {
  const p = spawn(process.execPath, [CLI, '--db', tempDb(), '--embedder', 'none', 'mcp', '--namespace', 'a'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  const replies: Record<string, unknown>[] = [];
  let buf = '';
  let wake: (() => void) | null = null;
  p.stdout.on('data', (d: Buffer) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      replies.push(JSON.parse(buf.slice(0, i)) as Record<string, unknown>);
      buf = buf.slice(i + 1);
    }
    wake?.();
  });
  const next = async (n: number): Promise<void> => {
    while (replies.length < n)
      await new Promise<void>((r) => {
        wake = r;
      });
  };
  const exited = new Promise<number | null>((r) => p.on('close', r));
  const send = (m: unknown): boolean => p.stdin.write(`${JSON.stringify(m)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  await next(1);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // 11 MiB in one JSON-RPC message, written in pieces as a client would.
  const huge = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'memory_store', arguments: { content: 'x'.repeat(11 * 1024 * 1024) } },
  });
  for (let i = 0; i < huge.length; i += 1 << 20) p.stdin.write(huge.slice(i, i + (1 << 20)));
  p.stdin.write('\n');
  await next(2);
  const err = replies[1] as { id: unknown; error?: { code: number; message: string } };
  assert.equal(err.id, null);
  assert.equal(err.error?.code, -32600);
  assert.match(err.error!.message, /limit is 10485760 bytes/);
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_store', arguments: { content: 'still serving' } } });
  await next(3);
  assert.equal((replies[2] as { id: number }).id, 3);
  assert.equal((replies[2] as { result?: { isError?: boolean } }).result?.isError, undefined);
  p.stdin.end();
  assert.equal(await exited, 0);
});

test('mnemolite mcp: a "__proto__" key in the arguments is refused (-32602), not dropped; memory_history of 60 versions of 100 kB answers in pages', {
  timeout: 180_000,
}, async () => {
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  const { id } = await mem.add(`version 0 ${'y'.repeat(99_000)}`, { namespace: 'a' });
  for (let v = 1; v < 60; v++) await mem.update(id, { content: `version ${v} ${'y'.repeat(99_000)}` });
  await mem.close();
  const s = await startServer(db, ['--namespace', 'a']);
  try {
    await assert.rejects(
      call(s, 'memory_store', JSON.parse('{"content":"poisoned","metadata":{"__proto__":{"admin":true},"b":1}}') as Record<string, unknown>),
      (err: Error & { code?: number }) => err.code === -32602 && /"__proto__" is not allowed/.test(err.message),
    );
    const seen: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const r = await callOk(s, 'memory_history', { id, limit: 100, offset });
      assert.ok(Buffer.byteLength(JSON.stringify(r.data)) <= 2 * 1024 * 1024, 'one page is about 1 MiB');
      seen.push(...(r.data.versions as { content: string }[]).map((v) => v.content.slice(0, 11)));
      offset = r.data.nextOffset as number | undefined;
    }
    assert.equal(seen.length, 60);
    assert.equal(new Set(seen).size, 60);
    assert.match(s.stderr(), /refused a message using the forbidden key "__proto__"/);
  } finally {
    await s.close();
  }
  const after = await openMemory({ path: db, embedder: 'none', readonly: true });
  assert.equal(await after.count({ namespace: '*' }), 1, 'the poisoned memory was not stored');
  await after.close();
});

test('the MCP stdio transport answers an answer it cannot send (not serialisable, or past the limit) with a JSON-RPC error, logged', async () => {
  const { PassThrough } = await import('node:stream');
  const { AnsweringStdioTransport } = await import('../src/mcp/stdio-transport.js');
  const out = new PassThrough();
  const logged: string[] = [];
  const t = new AnsweringStdioTransport(new PassThrough(), out, { maxBytes: 1000, log: (l) => logged.push(l) });
  let written = '';
  out.on('data', (d: Buffer) => {
    written += d;
  });
  await t.send({ jsonrpc: '2.0', id: 7, result: { big: 10n } as unknown as Record<string, unknown> });
  await t.send({ jsonrpc: '2.0', id: 'x', result: { text: 'z'.repeat(2000) } });
  await t.send({ jsonrpc: '2.0', id: 8, result: { fine: true } });
  const lines = written
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: unknown });
  assert.deepEqual(
    lines.map((l) => [l.id, l.error?.code ?? 'ok']),
    [
      [7, -32603],
      ['x', -32603],
      [8, 'ok'],
    ],
  );
  assert.equal(logged.length, 2);
  assert.match(logged[0]!, /could not send the answer to request 7: .*BigInt/);
  assert.match(logged[1]!, /more than the limit of 1000/);
});

test('mnemolite mcp: a question nothing clearly answers gets its closest memory as a low-confidence guess (bundled model)', async () => {
  const s = await startServer(tempDb(), [], 'local');
  try {
    await callOk(s, 'memory_store', { content: 'Priya plays badminton on Thursday evenings.' });
    await callOk(s, 'memory_store', { content: 'Priya drives a blue Skoda Octavia.' });
    const query = 'What sport does Priya play on Thursdays?';
    const top = (await callOk(s, 'memory_recall', { query, minRelevance: 0 })).data.hits as { content: string; relevance: number }[];
    assert.match(top[0]!.content, /badminton/);
    // A threshold just above the best hit: nothing clears it, and bestMatch (the default) shows the closest, marked.
    const minRelevance = top[0]!.relevance + (1 - top[0]!.relevance) / 2;
    const ctx = await callOk(s, 'memory_context', { query, minRelevance });
    assert.match(ctx.text, /^Possibly related \(low confidence\):\n- \[\d{4}-\d\d-\d\d\] Priya plays badminton/);
    assert.equal(ctx.data.lowConfidence, true);
    const rec = await callOk(s, 'memory_recall', { query, minRelevance });
    assert.match(rec.text, /^No memory is clearly relevant to "What sport does Priya play on Thursdays\?"\. Closest \(low confidence, relevance /);
  } finally {
    await s.close();
  }
  const strict = await startServer(tempDb(), ['--no-best-match'], 'local');
  try {
    await callOk(strict, 'memory_store', { content: 'Priya plays badminton on Thursday evenings.' });
    const ctx = await callOk(strict, 'memory_context', { query: 'What sport does Priya play on Thursdays?', minRelevance: 0.999 });
    assert.match(ctx.text, /^No relevant memory for/);
  } finally {
    await strict.close();
  }
});
