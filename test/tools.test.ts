import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { MEMORY_TOOL_NAMES, MnemoliteError, memoryTools, openMemory, type Memory, type ToolResult } from '../src/index.js';
import { TOOL_ANSWER_BYTES } from '../src/tools.js';
import { startWorker } from './stress/lib/procs.js';
import { ROOT, runTs, tempDb } from './helpers.js';

function ok(r: ToolResult): Record<string, unknown> {
  assert.ok(r.ok, `expected success, got: ${r.text}`);
  return r.data;
}

function fails(r: ToolResult, code: string, re: RegExp): void {
  assert.equal(r.ok, false, `expected an error, got: ${r.text}`);
  if (r.ok) return;
  assert.equal(r.error.code, code, r.text);
  assert.ok(r.error instanceof MnemoliteError);
  assert.match(r.text, re);
  assert.deepEqual(r.data, { error: { code: r.error.code, message: r.error.message } });
}

async function withMem<T>(fn: (mem: Memory) => Promise<T>, embedder: 'none' | 'local' = 'none'): Promise<T> {
  const mem = await openMemory({ path: tempDb(), embedder });
  try {
    return await fn(mem);
  } finally {
    await mem.close();
  }
}

test('definitions: eight tools, one-line descriptions, strict JSON Schemas without a namespace', async () => {
  await withMem(async (mem) => {
    const t = memoryTools(mem, { namespace: 'a' });
    assert.deepEqual(
      t.definitions.map((d) => d.name),
      [...MEMORY_TOOL_NAMES],
    );
    assert.equal(t.namespace, 'a');
    for (const d of t.definitions) {
      assert.ok(d.description.length > 20 && d.description.length < 400 && !d.description.includes('\n'), d.description);
      // Many clients drop the MCP server's instructions: the when-to-use guidance must be in each description.
      assert.match(d.description, /\. Use when: \S/, `${d.name} says when to use it`);
      assert.equal(d.parameters.type, 'object');
      assert.equal(d.parameters.additionalProperties, false);
      assert.equal(d.parameters.$schema, undefined, 'no $schema key (some providers reject it)');
      const props = d.parameters.properties as Record<string, { description?: string }>;
      assert.ok(!('namespace' in props), `${d.name} must not take a namespace`);
      for (const [k, p] of Object.entries(props)) assert.ok(p.description, `${d.name}.${k} has a description`);
      assert.doesNotThrow(() => JSON.parse(JSON.stringify(d)));
    }
    const about = Object.fromEntries(t.definitions.map((d) => [d.name, d.description]));
    assert.match(about.memory_recall!, /before answering a question about the user/);
    assert.match(about.memory_store!, /preference/);
    assert.match(about.memory_list!, /use memory_recall/);
    const byName = Object.fromEntries(t.definitions.map((d) => [d.name, d.parameters]));
    assert.deepEqual(byName.memory_store!.required, ['content']);
    assert.deepEqual(byName.memory_recall!.required, ['query']);
    assert.deepEqual(byName.memory_get!.required, ['id']);
    assert.deepEqual(byName.memory_forget!.required, ['id']);
    assert.equal(byName.memory_list!.required, undefined);
    assert.deepEqual((byName.memory_recall!.properties as Record<string, { enum?: string[] }>).mode!.enum, ['hybrid', 'keyword', 'vector']);

    const chat = t.toOpenAITools();
    assert.equal(chat.length, 8);
    assert.deepEqual(chat[1], {
      type: 'function',
      function: { name: 'memory_recall', description: t.definitions[1]!.description, parameters: t.definitions[1]!.parameters },
    });
    const responses = t.toOpenAITools({ api: 'responses' });
    assert.deepEqual(responses[0], {
      type: 'function',
      name: 'memory_store',
      description: t.definitions[0]!.description,
      parameters: t.definitions[0]!.parameters,
    });
    chat[0]!.function.parameters.type = 'changed';
    assert.equal(t.definitions[0]!.parameters.type, 'object', 'callers get copies');

    const readOnly = memoryTools(mem, { namespace: 'a', readOnly: true });
    assert.deepEqual(
      readOnly.definitions.map((d) => d.name),
      ['memory_recall', 'memory_get', 'memory_list', 'memory_history', 'memory_profile'],
    );
    fails(await readOnly.execute('memory_store', { content: 'x' }), 'READ_ONLY', /read-only/);
  });
});

test('execute: store, recall, get, list, forget on a real file, with text and structured results', async () => {
  await withMem(async (mem) => {
    // minRelevance 0: this test is about the tool mechanics; the default threshold has its own test.
    const t = memoryTools(mem, { namespace: 'agent', sessionId: 'chat-1', minRelevance: 0 });
    const s = ok(
      await t.execute('memory_store', {
        content: 'Alice prefers green tea without sugar',
        category: 'preference',
        key: 'alice-drink',
        metadata: { source: 'user' },
      }),
    );
    assert.equal(s.replaced, false);
    const id = s.id as string;
    const stored = await mem.get(id);
    assert.equal(stored?.namespace, 'agent');
    assert.equal(stored?.sessionId, 'chat-1');
    assert.deepEqual(stored?.metadata, { source: 'user' });
    ok(await t.execute('memory_store', { content: 'The deploy target is a Raspberry Pi 4', category: 'fact' }));
    const dup = await t.execute('memory_store', { content: 'the deploy target is a Raspberry Pi 4.', category: 'fact' });
    assert.equal(ok(dup).deduplicated, 'exact');
    assert.match(dup.text, /^Already remembered as memory /);

    // The same key replaces (same id).
    const again = await t.execute('memory_store', {
      content: 'Alice prefers black tea',
      key: 'alice-drink',
      category: 'preference',
      metadata: { source: 'user' },
    });
    assert.equal(ok(again).id, id);
    assert.equal(ok(again).replaced, true);
    assert.match(again.text, /Replaced/);

    const rec = await t.execute('memory_recall', { query: 'what tea does alice drink', limit: 3 });
    const data = ok(rec) as { count: number; hits: { id: string; content: string; createdAt: string; score: number; keywordRank?: number }[] };
    assert.equal(data.hits[0]!.id, id);
    assert.equal(data.hits[0]!.content, 'Alice prefers black tea');
    assert.equal(typeof data.hits[0]!.createdAt, 'string', 'JSON-safe dates');
    assert.equal(data.hits[0]!.keywordRank, 1);
    assert.match(rec.text, /^1 memory matches "what tea does alice drink"/);
    assert.match(rec.text, new RegExp(`id: ${id}`));
    assert.match(rec.text, /category: preference/);
    ok(await t.execute('memory_recall', { query: 'tea', category: 'fact' })).count === 0 || assert.fail('category filter');
    assert.equal(ok(await t.execute('memory_recall', { query: 'tea', since: '2999-01-01' })).count, 0);
    assert.equal(ok(await t.execute('memory_recall', { query: 'tea', until: '2999-01-01' })).count, 1);
    assert.match((await t.execute('memory_recall', { query: 'zebra' })).text, /No relevant memory for "zebra"/);

    const got = await t.execute('memory_get', { id });
    assert.equal((ok(got).memory as { content: string }).content, 'Alice prefers black tea');
    assert.match(got.text, /metadata: \{"source":"user"\}/);
    assert.match(got.text, /session: chat-1/);

    const list = await t.execute('memory_list', { limit: 1 });
    const l = ok(list) as { count: number; total: number; memories: { content: string }[] };
    assert.equal(l.count, 1);
    assert.equal(l.total, 2);
    assert.match(list.text, /^1 of 2 memories, newest first/);
    assert.equal((ok(await t.execute('memory_list', { category: 'fact' })) as { total: number }).total, 1);
    assert.equal((ok(await t.execute('memory_list', { offset: 1 })) as { count: number }).count, 1);

    const gone = await t.execute('memory_forget', { id });
    assert.deepEqual(ok(gone), { id, forgotten: true });
    assert.equal(await mem.get(id), null);
    fails(await t.execute('memory_forget', { id }), 'NOT_FOUND', /No memory with id/);
    fails(await t.execute('memory_get', { id }), 'NOT_FOUND', /memory_recall or memory_list/);
  });
});

test('execute validates arguments and returns typed errors instead of throwing', async () => {
  await withMem(async (mem) => {
    const t = memoryTools(mem, { namespace: 'a' });
    fails(await t.execute('memory_store', {}), 'INVALID_INPUT', /memory_store needs the argument "content"/);
    fails(await t.execute('memory_store', { content: '   ' }), 'INVALID_INPUT', /empty/);
    fails(await t.execute('memory_store', { content: 'x', metadata: [1, 2] }), 'INVALID_INPUT', /metadata/);
    fails(
      await t.execute('memory_store', { content: 'x', tags: ['a'] }),
      'INVALID_INPUT',
      /unknown argument\(s\) "tags"\. Allowed arguments: content, key, category, metadata/,
    );
    fails(await t.execute('memory_recall', { query: 'x', limit: 500 }), 'INVALID_INPUT', /limit/);
    fails(await t.execute('memory_recall', { query: 'x', limit: '3' }), 'INVALID_INPUT', /limit/);
    fails(await t.execute('memory_recall', { query: 'x', mode: 'fuzzy' }), 'INVALID_INPUT', /mode/);
    fails(await t.execute('memory_recall', { query: 'x', mode: 'vector' }), 'SEMANTIC_DISABLED', /Semantic recall is off/);
    fails(await t.execute('memory_recall', { query: 'x', since: 'last tuesday' }), 'INVALID_INPUT', /since must be a valid date/);
    fails(await t.execute('memory_list', { limit: 0 }), 'INVALID_INPUT', /limit/);
    fails(await t.execute('memory_get', { id: 42 }), 'INVALID_INPUT', /id/);
    fails(await t.execute('memory_teleport', {}), 'INVALID_INPUT', /Unknown tool "memory_teleport"\. Available: memory_store/);
    fails(await t.execute('memory_recall', '{"query": '), 'INVALID_INPUT', /not valid JSON/);
    fails(await t.execute('memory_recall', [1]), 'INVALID_INPUT', /must be a JSON object/);
    // OpenAI sends arguments as a JSON string.
    ok(await t.execute('memory_store', '{"content":"stored from a JSON string"}'));
    assert.equal(ok(await t.execute('memory_list', '')).total, 1);
    assert.equal(await mem.count({ namespace: '*' }), 1, 'failed calls wrote nothing');
  });
});

test('namespace isolation: no argument reaches another namespace', async () => {
  await withMem(async (mem) => {
    const { id: secret } = await mem.add('The launch code of namespace b is 1234', { namespace: 'b', key: 'launch', category: 'secret' });
    const a = memoryTools(mem, { namespace: 'a' });
    fails(await a.execute('memory_recall', { query: 'launch code', namespace: 'b' }), 'INVALID_INPUT', /does not take a namespace: the host fixed it/);
    fails(await a.execute('memory_store', { content: 'x', namespace: 'b' }), 'INVALID_INPUT', /does not take a namespace/);
    assert.equal(ok(await a.execute('memory_recall', { query: 'launch code' })).count, 0);
    assert.equal(ok(await a.execute('memory_list', { category: 'secret' })).total, 0);
    fails(await a.execute('memory_get', { id: secret }), 'NOT_FOUND', /No memory/);
    fails(await a.execute('memory_forget', { id: secret }), 'NOT_FOUND', /nothing was deleted/);
    // Same key in namespace a is a different memory.
    const mine = ok(await a.execute('memory_store', { content: 'My own launch note', key: 'launch' }));
    assert.equal(mine.replaced, false);
    assert.notEqual(mine.id, secret);
    const b = await mem.get(secret);
    assert.equal(b?.content, 'The launch code of namespace b is 1234');
    assert.equal(b?.namespace, 'b');

    assert.throws(() => memoryTools(mem, { namespace: '*' }), /"\*" would let the model reach every namespace/);
    assert.throws(
      () => memoryTools(mem, { namespace: 'bad\nname' }),
      (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
    );
    assert.equal(memoryTools(mem).namespace, 'default');
  });
});

test('toAISDKTools: description, wrapped input schema, execute returning structured data', async () => {
  await withMem(async (mem) => {
    const t = memoryTools(mem, { namespace: 'a' });
    // Stand-in for the AI SDK's jsonSchema() helper: it wraps a JSON Schema.
    const jsonSchema = (s: Record<string, unknown>) => ({ kind: 'json-schema' as const, jsonSchema: s });
    const tools = t.toAISDKTools(jsonSchema);
    assert.deepEqual(Object.keys(tools), [...MEMORY_TOOL_NAMES]);
    assert.equal(tools.memory_recall.inputSchema.kind, 'json-schema');
    assert.deepEqual(tools.memory_recall.inputSchema.jsonSchema, t.definitions[1]!.parameters);
    const stored = await tools.memory_store.execute({ content: 'Bob works on the billing service' });
    assert.equal(typeof stored.id, 'string');
    const hits = await tools.memory_recall.execute({ query: 'billing' });
    assert.equal((hits.hits as { id: string }[])[0]!.id, stored.id);
    assert.deepEqual(await tools.memory_get.execute({ id: 'missing' }), {
      error: { code: 'NOT_FOUND', message: 'No memory with id missing. Find ids with memory_recall or memory_list.' },
    });
    assert.deepEqual(t.toAISDKTools().memory_get.inputSchema, t.definitions[2]!.parameters, 'plain JSON Schema without a wrapper');
  });
});

test('semantic recall through the tools with the bundled local model', async () => {
  await withMem(async (mem) => {
    const t = memoryTools(mem, { namespace: 'ops' });
    ok(await t.execute('memory_store', { content: 'We deploy the Rust service on a Raspberry Pi 4' }));
    ok(await t.execute('memory_store', { content: 'Lunch on Fridays is pizza with the team' }));
    const r = ok(await t.execute('memory_recall', { query: 'which single-board computer runs our backend', mode: 'vector', limit: 1 })) as {
      hits: { content: string; vectorRank: number }[];
    };
    assert.equal(r.hits[0]!.content, 'We deploy the Rust service on a Raspberry Pi 4');
    assert.equal(r.hits[0]!.vectorRank, 1);
  }, 'local');
});

test('examples/agent-loop.ts runs an offline agent loop that stores and recalls', async () => {
  delete process.env.OPENAI_API_KEY; // the scripted stand-in model, never the network
  const r = await runTs(join(ROOT, 'examples', 'agent-loop.ts'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /tool memory_store\(.*Raspberry Pi 4.*\) -> ok/);
  assert.match(r.stdout, /tool memory_recall\(.*\) -> ok/);
  assert.match(r.stdout, /assistant: From memory: The user said: I deploy the Rust service on a Raspberry Pi 4\./);
  assert.match(r.stdout, /assistant: From memory: The user said: my cat is called Whiskers\./);
});

test('memory_store lifecycle arguments: expiry, pinning, importance, supersedes (within the namespace only)', async () => {
  await withMem(async (mem) => {
    const a = memoryTools(mem, { namespace: 'a' });
    const b = memoryTools(mem, { namespace: 'b' });
    const gone = ok(await a.execute('memory_store', { content: 'The door code is 1234 until Friday', expiresAt: '2001-01-01' }));
    const hits = ok(await a.execute('memory_recall', { query: 'door code', mode: 'keyword' })).hits as { id: string }[];
    assert.ok(!hits.some((h) => h.id === gone.id), 'expired memories are never recalled');
    const pinned = ok(await a.execute('memory_store', { content: 'The user is called Ada', pinned: true, importance: 0.9, ttl: '7d' }));
    const rec = await mem.get(pinned.id as string, { namespace: 'a' });
    assert.ok(rec);
    const old = ok(await a.execute('memory_store', { content: 'The staging server is staging-1.internal' }));
    const neu = ok(await a.execute('memory_store', { content: 'The staging server is staging-2.internal', supersedes: old.id }));
    // The model sees current facts only, unless it asks for the outdated ones, which come marked.
    const current = ok(await a.execute('memory_recall', { query: 'staging server', mode: 'keyword' }));
    const currentIds = (current.hits as { id: string; status: string }[]).map((h) => h.id);
    assert.ok(currentIds.includes(neu.id as string) && !currentIds.includes(old.id as string), 'a replaced memory is left out by default');
    assert.ok((current.hits as { status: string }[]).every((h) => h.status === 'current'));
    const all = await a.execute('memory_recall', { query: 'staging server', mode: 'keyword', includeOutdated: true });
    const both = ok(all).hits as { id: string; status: string; supersededBy?: string }[];
    const order = both.map((h) => h.id);
    assert.ok(
      order.indexOf(neu.id as string) >= 0 && order.indexOf(neu.id as string) < order.indexOf(old.id as string),
      'the successor ranks above the superseded memory',
    );
    assert.deepEqual(
      both.find((h) => h.id === old.id)?.status === 'outdated' && both.find((h) => h.id === old.id)?.supersededBy,
      neu.id,
      'the replaced memory is marked outdated, with its successor',
    );
    assert.match(all.text, new RegExp(`staging-1\\.internal\\n\\s+OUTDATED \\(replaced by ${neu.id}\\)`));
    assert.match(all.text, /staging-2\.internal\n\s+current \| id: /);
    const chosen = memoryTools(mem, { namespace: 'a', includeOutdated: true });
    assert.ok((ok(await chosen.execute('memory_recall', { query: 'staging server', mode: 'keyword' })).hits as { id: string }[]).some((h) => h.id === old.id));
    fails(await b.execute('memory_store', { content: 'hijack', supersedes: neu.id }), 'NOT_FOUND', /namespace "b"/);
    fails(await a.execute('memory_store', { content: 'bad ttl', ttl: 'forever' }), 'INVALID_INPUT', /ttl/);
    fails(await a.execute('memory_store', { content: 'bad importance', importance: 3 }), 'INVALID_INPUT', /importance/);
  });
});

test('memory_history: an agent can read what it believed before, only in its namespace', async () => {
  await withMem(async (mem) => {
    const a = memoryTools(mem, { namespace: 'a' });
    const b = memoryTools(mem, { namespace: 'b' });
    const first = ok(await a.execute('memory_store', { content: 'The user lives in Lisbon', key: 'home-city' }));
    ok(await a.execute('memory_store', { content: 'The user lives in Porto', key: 'home-city' }));
    const r = await a.execute('memory_history', { id: first.id });
    const data = ok(r);
    const versions = data.versions as { content: string; current: boolean; endedBy?: string }[];
    assert.deepEqual(
      versions.map((v) => [v.content, v.current]),
      [
        ['The user lives in Lisbon', false],
        ['The user lives in Porto', true],
      ],
    );
    assert.equal(versions[0]!.endedBy, 'updated');
    assert.match(r.text, /Lisbon[\s\S]*\(current\) The user lives in Porto/);
    fails(await b.execute('memory_history', { id: first.id }), 'NOT_FOUND', /No memory/);
  });
});

test('memory_recall keeps only relevant memories by default and says so plainly when none is', async () => {
  await withMem(async (mem) => {
    await mem.addMany([
      { content: 'Alice prefers black tea', namespace: 'agent' },
      { content: 'The deploy target is a Raspberry Pi 4', namespace: 'agent' },
      { content: 'Standup moved to 9:30 on Mondays', namespace: 'agent' },
    ]);
    const t = memoryTools(mem, { namespace: 'agent' });
    const hit = ok(await t.execute('memory_recall', { query: 'black tea' })) as { hits: { content: string; relevance: number }[] };
    assert.equal(hit.hits[0]!.content, 'Alice prefers black tea');
    assert.ok(hit.hits.every((h) => h.relevance >= 0.5));
    const none = await t.execute('memory_recall', { query: 'What is the capital of Australia?' });
    assert.equal(ok(none).count, 0);
    assert.match(none.text, /^No relevant memory for "What is the capital of Australia\?"/);
    // The caller can lower the bar per call, or for the whole tool set.
    const all = ok(await t.execute('memory_recall', { query: 'deploy target standup', minRelevance: 0 })) as { count: number };
    assert.ok(all.count >= 2);
    fails(await t.execute('memory_recall', { query: 'Raspberry', minRelevance: 1.5 }), 'INVALID_INPUT', /minRelevance/);
  });
});

test('tool errors name no server path and keep storage details for the host: BUSY says "the memory file"; result.error has the full message', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none', busyTimeoutMs: 50 });
  const locker = await startWorker('locker.ts', { db: path });
  try {
    await locker.waitFor((l) => l.op === 'locked');
    const r = await memoryTools(mem, { namespace: 'a' }).execute('memory_store', { content: 'blocked by the lock' });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.error.code, 'BUSY');
    assert.ok(r.error.message.includes(path), 'the host sees the full message');
    for (const shown of [r.text, r.data.error.message]) {
      assert.ok(!shown.includes(path) && !shown.includes('mnemolite-test-'), shown);
      assert.match(shown, /the memory file/);
    }
  } finally {
    locker.send('release');
    await locker.exited;
    await mem.close();
  }
});

test('memory_store refuses a "__proto__" (or constructor.prototype) key as HTTP does, instead of dropping it; nothing is stored', async () => {
  await withMem(async (mem) => {
    const tools = memoryTools(mem, { namespace: 'a' });
    for (const args of [
      '{"content":"poisoned","metadata":{"__proto__":{"admin":true},"source":"x"}}',
      JSON.parse('{"content":"poisoned","metadata":{"__proto__":{"admin":true}}}') as unknown,
      { content: 'poisoned', metadata: { constructor: { prototype: { admin: true } } } },
    ]) {
      const r = await tools.execute('memory_store', args);
      fails(r, 'INVALID_INPUT', /forbidden key "__proto__"/);
    }
    assert.equal(await mem.count({ namespace: '*' }), 0);
  });
});

test('tool answers are bounded in bytes: list, recall and history of 100 kB memories say where to go on (nextOffset, omitted); paging returns each once', async () => {
  await withMem(async (mem) => {
    const tools = memoryTools(mem, { namespace: 'a', minRelevance: 0 });
    const big = (i: number): string => `note ${i} about the harbour ${'x'.repeat(99_000)}`;
    await mem.addMany(Array.from({ length: 30 }, (_, i) => ({ content: big(i), namespace: 'a' })));
    const bytes = (r: ToolResult): number => Buffer.byteLength(JSON.stringify(r.data)) + Buffer.byteLength(r.text);
    const seen = new Set<string>();
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const r = await tools.execute('memory_list', { limit: 100, offset });
      const d = ok(r) as { memories: { id: string }[]; nextOffset?: number };
      assert.ok(bytes(r) <= 2.5 * TOOL_ANSWER_BYTES, `list answer of ${bytes(r)} bytes`);
      for (const m of d.memories) seen.add(m.id);
      if (d.nextOffset !== undefined) assert.match(r.text, new RegExp(`offset ${d.nextOffset}`));
      offset = d.nextOffset;
    }
    assert.equal(seen.size, 30);
    const rec = await tools.execute('memory_recall', { query: 'harbour', limit: 30 });
    const rd = ok(rec) as { count: number; omitted?: number };
    assert.ok(bytes(rec) <= 2.5 * TOOL_ANSWER_BYTES, `recall answer of ${bytes(rec)} bytes`);
    assert.equal(rd.count + (rd.omitted ?? 0), 30);
    assert.ok((rd.omitted ?? 0) > 0, 'recall was cut');
    // 25 versions of 100 kB each.
    const [first] = await mem.list({ namespace: 'a', limit: 1 });
    for (let v = 0; v < 24; v++) await mem.update(first!.id, { content: `version ${v} ${big(v)}` });
    const versions: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const r = await tools.execute('memory_history', { id: first!.id, limit: 100, offset });
      const d = ok(r) as { versions: { content: string }[]; nextOffset?: number };
      assert.ok(bytes(r) <= 2.5 * TOOL_ANSWER_BYTES, `history answer of ${bytes(r)} bytes`);
      versions.push(...d.versions.map((x) => x.content.slice(0, 12)));
      offset = d.nextOffset;
    }
    assert.equal(versions.length, 25);
    assert.equal(new Set(versions).size, 25);
  });
});

test('memory_recall: when nothing reaches the threshold, the closest memory comes worded as a low-confidence guess (bundled model)', async () => {
  await withMem(async (mem) => {
    await mem.addMany([
      { content: 'Priya reports to Dana Whitfield, the head of platform engineering.' },
      { content: 'Priya is allergic to peanuts and carries an EpiPen.' },
      { content: 'Priya plays badminton on Thursday evenings.' },
      { content: 'Priya drives a blue Skoda Octavia.' },
    ]);
    const query = 'What sport does Priya play on Thursdays?';
    const [top] = await mem.recall(query, { limit: 1 });
    assert.ok(top && /badminton/.test(top.content) && top.relevance >= 0.3, 'the right memory ranks first');
    // A threshold just above the best hit: nothing clears it.
    const minRelevance = top.relevance + (1 - top.relevance) / 2;
    const guess = await memoryTools(mem, { minRelevance }).execute('memory_recall', { query });
    const data = ok(guess);
    assert.match(
      guess.text,
      new RegExp(`^No memory is clearly relevant to "${query.replace('?', '\\?')}"\\. Closest \\(low confidence, relevance ${top.relevance.toFixed(2)}`),
    );
    assert.match(guess.text, /1\. Priya plays badminton on Thursday evenings\./);
    assert.deepEqual(
      (data.hits as { content: string; lowConfidence?: true }[]).map((h) => [h.content, h.lowConfidence]),
      [['Priya plays badminton on Thursday evenings.', true]],
    );
    const strict = await memoryTools(mem, { minRelevance, bestMatch: false }).execute('memory_recall', { query });
    assert.match(strict.text, /^No relevant memory for/);
    assert.equal(ok(strict).count, 0);
  }, 'local');
});
