/**
 * History importers (src/ingest/history.ts and one parser per format): fixtures are written here
 * from the documented export formats (branches, edits, attachments, empty messages, unicode), into
 * real SQLite files; the CLI runs as a real child process.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LocalEmbedder, importHistory, openMemory, type ExportRecord, type Memory } from '../src/index.js';
import { HashEmbedder, cli, tempDb, tempDir } from './helpers.js';

const T0 = Date.UTC(2025, 0, 5, 10, 0, 0) / 1000; // export times are seconds since 1970

interface Node {
  id: string;
  parent: string | null;
  children: string[];
  message: Record<string, unknown> | null;
}

/** A ChatGPT conversation: `msgs` are [id, parent, role, text, extra?]; children are derived. */
function chatgptConversation(
  id: string,
  title: string,
  current: string,
  msgs: [string, string | null, string, string | (string | Record<string, unknown>)[], Record<string, unknown>?][],
): Record<string, unknown> {
  const mapping: Record<string, Node> = { root: { id: 'root', parent: null, children: [], message: null } };
  msgs.forEach(([mid, parent, role, text, extra], i) => {
    const parts = typeof text === 'string' ? [text] : text;
    mapping[mid] = {
      id: mid,
      parent: parent ?? 'root',
      children: [],
      message: {
        id: mid,
        author: { role, name: null, metadata: {} },
        create_time: T0 + i * 60,
        update_time: null,
        content: { content_type: typeof text === 'string' ? 'text' : 'multimodal_text', parts },
        status: 'finished_successfully',
        end_turn: true,
        weight: 1,
        metadata: {},
        recipient: 'all',
        ...(extra ?? {}),
      },
    };
  });
  for (const n of Object.values(mapping)) if (n.parent) mapping[n.parent]!.children.push(n.id);
  return { title, create_time: T0, update_time: T0 + 3600, mapping, current_node: current, conversation_id: id, id, moderation_results: [] };
}

/** Two conversations: one with an edit (two branches), system/tool noise, hidden, empty, attachments, unicode. */
function chatgptExport(): Record<string, unknown>[] {
  return [
    chatgptConversation('c-garden', 'Garden plans 🌱', 'a3', [
      ['s0', null, 'system', ''],
      ['ctx', 's0', 'user', 'Custom instructions: be brief', { metadata: { is_visually_hidden_from_conversation: true } }],
      ['u1', 'ctx', 'user', 'I want to plant tomatoes and basil on the balcony this spring'],
      ['a1', 'u1', 'assistant', 'Tomatoes need at least six hours of sun; basil grows well next to them'],
      // The first version of the next question, later edited: the old branch must not be imported.
      ['u2old', 'a1', 'user', 'What about growing cucumbers on the balcony instead of tomatoes?'],
      ['a2old', 'u2old', 'assistant', 'Cucumbers need a trellis and a lot of water every single day'],
      ['u2', 'a1', 'user', 'What about peppers next to the basil, would that work too?'],
      [
        'call',
        'u2',
        'assistant',
        'search("peppers basil companion")',
        { recipient: 'browser', content: { content_type: 'code', language: 'unknown', text: 'search(...)' } },
      ],
      ['tool', 'call', 'tool', 'Search results: peppers and basil are good companions'],
      ['a2', 'tool', 'assistant', 'Yes, peppers and basil are good companions and like the same warm spot'],
      ['e1', 'a2', 'user', ''],
      [
        'u3',
        'e1',
        'user',
        [
          { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-abc', width: 10, height: 10 },
          'Here is a photo of my balcony in Kraków — Żółć ☀️',
        ],
        { metadata: { attachments: [{ id: 'f1', name: 'balcony.jpg', mime_type: 'image/jpeg' }] } },
      ],
      ['a3', 'u3', 'assistant', 'That balcony faces south, so the tomatoes will be happy there. 日当たりが良いですね'],
    ]),
    chatgptConversation('c-trip', 'Lisbon trip', 't2', [
      ['t1', null, 'user', 'We fly to Lisbon on the 12th of May and stay for a week'],
      ['t2', 't1', 'assistant', 'Great, I will remember the Lisbon trip from the 12th of May'],
    ]),
  ];
}

function exported(mem: Memory): ExportRecord[] {
  return [...mem.export()].sort((a, b) => a.id.localeCompare(b.id));
}

async function open(path = tempDb()): Promise<Memory> {
  return openMemory({ path, embedder: new HashEmbedder() });
}

test('ChatGPT: the current branch becomes a session, noise left out, times and titles kept', async () => {
  const mem = await open();
  const r = await importHistory(mem, 'chatgpt', JSON.stringify(chatgptExport()), { file: 'conversations.json' });
  assert.equal(r.total, 2);
  assert.equal(r.added, 2);
  assert.equal(r.messages, 8); // u1 a1 u2 a2 u3 a3 + t1 t2
  // system, hidden context, the browser call, the tool result, the empty message, and the old branch (u2old, a2old)
  assert.equal(r.skipped, 5);
  const garden = await mem.list({ sessionId: 'chatgpt:c-garden', order: 'asc' });
  const text = garden.map((m) => m.content).join('\n');
  assert.ok(!text.includes('cucumbers'), 'the edited-away branch is not imported');
  assert.ok(!text.includes('Search results') && !text.includes('search('), 'tool traffic is not imported');
  assert.ok(!text.includes('Custom instructions'), 'hidden messages are not imported');
  assert.match(text, /^user: I want to plant tomatoes/m);
  assert.match(text, /^user: \[image\]\nHere is a photo of my balcony in Kraków — Żółć ☀️\n\[file: balcony\.jpg\]/m);
  assert.match(text, /日当たりが良いですね/);
  assert.equal(garden[0]!.createdAt.toISOString(), new Date((T0 + 2 * 60) * 1000).toISOString()); // u1 is the third node written
  assert.equal(garden[0]!.eventAt?.toISOString(), new Date((T0 + 2 * 60) * 1000).toISOString(), 'eventAt is the message time');
  assert.deepEqual(
    { ...garden[0]!.metadata, turn: undefined, speaker: undefined },
    { source: 'chatgpt', conversation: 'c-garden', title: 'Garden plans 🌱', turn: undefined, speaker: undefined },
  );
  const hits = await mem.recall('peppers basil', { sessionId: 'chatgpt:c-garden', mode: 'keyword' });
  assert.ok(hits.length > 0);
  await mem.close();
});

test('re-importing the same file writes nothing', async () => {
  const mem = await open();
  const data = JSON.stringify(chatgptExport());
  await importHistory(mem, 'chatgpt', data);
  const before = exported(mem);
  const r = await importHistory(mem, 'chatgpt', Buffer.from(data));
  assert.deepEqual(
    { added: r.added, updated: r.updated, unchanged: r.unchanged, written: r.written, removed: r.removed },
    { added: 0, updated: 0, unchanged: 2, written: 0, removed: 0 },
  );
  assert.deepEqual(exported(mem), before);
  await mem.close();
});

test('a changed conversation rewrites only what changed', async () => {
  const mem = await open();
  const data = chatgptExport();
  await importHistory(mem, 'chatgpt', data);
  const before = await mem.list({ sessionId: 'chatgpt:c-garden', order: 'asc' });
  const trip = exported(mem).filter((m) => m.sessionId === 'chatgpt:c-trip');

  // The conversation went on: two more messages on the current branch.
  const grown = chatgptExport();
  const g = grown[0] as { mapping: Record<string, Node>; current_node: string };
  g.mapping.a3!.children.push('u4');
  g.mapping.u4 = {
    id: 'u4',
    parent: 'a3',
    children: ['a4'],
    message: {
      id: 'u4',
      author: { role: 'user' },
      create_time: T0 + 9000,
      content: { content_type: 'text', parts: ['Should I water the tomatoes every morning or every evening?'] },
      recipient: 'all',
    },
  };
  g.mapping.a4 = {
    id: 'a4',
    parent: 'u4',
    children: [],
    message: {
      id: 'a4',
      author: { role: 'assistant' },
      create_time: T0 + 9060,
      content: { content_type: 'text', parts: ['Water them in the morning so the leaves dry during the day'] },
      recipient: 'all',
    },
  };
  g.current_node = 'a4';
  const r = await importHistory(mem, 'chatgpt', grown);
  assert.deepEqual(
    { added: r.added, updated: r.updated, unchanged: r.unchanged, written: r.written, removed: r.removed },
    { added: 0, updated: 1, unchanged: 1, written: 2, removed: 0 },
  );
  const after = await mem.list({ sessionId: 'chatgpt:c-garden', order: 'asc' });
  assert.equal(after.length, before.length + 2);
  for (const m of before)
    assert.deepEqual(
      after.find((a) => a.id === m.id),
      m,
      'earlier memories are untouched',
    );
  assert.deepEqual(
    exported(mem).filter((m) => m.sessionId === 'chatgpt:c-trip'),
    trip,
  );

  // The user went back and switched to the old branch: the common start stays, the rest is replaced.
  const switched = chatgptExport();
  (switched[0] as { current_node: string }).current_node = 'a2old';
  const r2 = await importHistory(mem, 'chatgpt', switched);
  assert.equal(r2.updated, 1);
  const now = await mem.list({ sessionId: 'chatgpt:c-garden', order: 'asc' });
  assert.deepEqual(
    now.slice(0, 2).map((m) => m.id),
    before.slice(0, 2).map((m) => m.id),
  );
  assert.match(now.map((m) => m.content).join('\n'), /cucumbers/);
  assert.ok(!now.some((m) => m.content.includes('peppers')));
  assert.equal(r2.removed, after.length - 2);
  // And importing that again changes nothing.
  assert.equal((await importHistory(mem, 'chatgpt', switched)).written, 0);
  await mem.close();
});

test('a malformed file is refused with the JSON path or line, and nothing is written', async () => {
  const mem = await open();
  const broken = chatgptExport();
  (broken[1] as { mapping: Record<string, Node> }).mapping.t2!.parent = 'nope';
  await assert.rejects(importHistory(mem, 'chatgpt', JSON.stringify(broken), { file: 'conversations.json' }), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'INVALID_INPUT');
    assert.match(e.message, /^conversations\.json: \$\[1\]\.mapping\.t2\.parent names node "nope", which is not in mapping/);
    return true;
  });
  const wrongType = chatgptExport();
  (wrongType[0] as { mapping: Record<string, Node> }).mapping.a1!.message!.content = { content_type: 'text', parts: [42] };
  await assert.rejects(
    importHistory(mem, 'chatgpt', wrongType, { file: 'c.json' }),
    /c\.json: \$\[0\]\.mapping\.a1\.message\.content\.parts\[0\] must be a string or an object/,
  );
  await assert.rejects(
    importHistory(mem, 'chatgpt', '[{"title": "x",\n  "mapping": {]', { file: 'c.json' }),
    /c\.json is not valid JSON at line 2, column \d+/,
  );
  await assert.rejects(importHistory(mem, 'claude', '{"not": "an array"}', { file: 'claude.json' }), /claude\.json: \$ must be an array of conversations/);
  await assert.rejects(
    importHistory(mem, 'chat-jsonl', '{"conversation":"a","role":"user","content":"hi there"}\n\n{"conversation":"a","role":"user"}\n', { file: 'chat.jsonl' }),
    /chat\.jsonl:3: \$\.content is missing/,
  );
  await assert.rejects(
    importHistory(mem, 'chat-jsonl', '{"conversation":"a","role":"user","content":"hi"}\n{oops\n', { file: 'chat.jsonl' }),
    /chat\.jsonl:2 is not valid JSON/,
  );
  // Dates are real calendar dates, as everywhere: February 30 is a mistake, not March 2.
  await assert.rejects(
    importHistory(mem, 'chat-jsonl', '{"conversation":"a","role":"user","content":"hi","timestamp":"2026-02-30T10:00:00Z"}\n', { file: 'chat.jsonl' }),
    /chat\.jsonl:1: \$\.timestamp must be a date/,
  );
  await assert.rejects(
    importHistory(
      mem,
      'mem0',
      [
        { id: 'm1', memory: 'Likes tea' },
        { id: 'm1', memory: 'Likes coffee' },
      ],
      { file: 'mem0.json' },
    ),
    /mem0\.json: \$\[1\]\.id repeats id "m1"/,
  );
  // A bad conversation late in the file stops the import before the good ones are written.
  const late = chatgptExport();
  (late[1] as { mapping: Record<string, Node> }).mapping.t1!.message!.author = { role: 'user', name: 'x'.repeat(10) };
  (late[1] as { mapping: Record<string, Node> }).mapping.t1!.message!.content = { content_type: 'text', parts: 'not an array' };
  await assert.rejects(importHistory(mem, 'chatgpt', late), /\$\[1\]\.mapping\.t1\.message\.content\.parts must be an array/);
  assert.equal(await mem.count({ namespace: '*' }), 0);
  await mem.close();
});

test('Claude export: messages with sender/text/created_at, attachments, empty messages, edit branches', async () => {
  const at = (m: number): string => new Date((T0 + m * 60) * 1000).toISOString();
  const claude = [
    {
      uuid: 'k-1',
      name: 'Résumé help',
      created_at: at(0),
      updated_at: at(10),
      account: { uuid: 'acc' },
      chat_messages: [
        {
          uuid: 'm1',
          sender: 'human',
          text: 'Can you tighten the summary of my résumé for a data engineer role?',
          content: [],
          created_at: at(1),
          attachments: [{ file_name: 'resume.pdf', file_size: 1000, file_type: 'pdf', extracted_content: '...' }],
          files: [{ file_name: 'resume.pdf' }],
          parent_message_uuid: '00000000-0000-4000-8000-000000000000',
        },
        {
          uuid: 'm2',
          sender: 'assistant',
          text: '',
          content: [
            { type: 'text', text: 'Here is a tighter summary focused on pipelines and SQL' },
            { type: 'tool_use', name: 'x', input: {} },
          ],
          created_at: at(2),
          parent_message_uuid: 'm1',
        },
        { uuid: 'm3old', sender: 'human', text: 'Make it funnier please, with a joke about Kafka', created_at: at(3), parent_message_uuid: 'm2' },
        { uuid: 'm3', sender: 'human', text: 'Add that I led the migration to Spark 3 — 数据平台', created_at: at(4), parent_message_uuid: 'm2' },
        { uuid: 'm4', sender: 'assistant', text: '   ', content: [], created_at: at(5), parent_message_uuid: 'm3' },
        { uuid: 'm5', sender: 'assistant', text: 'Done: the summary now mentions leading the Spark 3 migration', created_at: at(6), parent_message_uuid: 'm4' },
      ],
    },
    { uuid: 'k-2', name: '', created_at: at(20), chat_messages: [] },
  ];
  const mem = await open();
  const r = await importHistory(mem, 'claude', JSON.stringify(claude));
  assert.deepEqual({ total: r.total, added: r.added, messages: r.messages, skipped: r.skipped }, { total: 2, added: 1, messages: 4, skipped: 2 });
  const ms = await mem.list({ sessionId: 'claude:k-1', order: 'asc' });
  const text = ms.map((m) => m.content).join('\n');
  assert.match(text, /^human: Can you tighten.*\n\[file: resume\.pdf\]$/m);
  assert.match(text, /^assistant: Here is a tighter summary focused on pipelines and SQL$/m);
  assert.match(text, /数据平台/);
  assert.ok(!text.includes('Kafka'));
  assert.equal(ms[0]!.metadata.title, 'Résumé help');
  assert.equal(ms[0]!.createdAt.toISOString(), at(1));
  assert.equal(ms[0]!.eventAt?.toISOString(), at(1), 'eventAt is the message time');
  assert.equal((await importHistory(mem, 'claude', claude)).written, 0);
  await mem.close();
});

test('mem0 export: one memory per mem0 memory, keyed, re-import skips, a changed one is replaced', async () => {
  const data = {
    results: [
      {
        id: 'a1b2',
        memory: 'Prefers vegetarian food',
        user_id: 'alice',
        hash: 'h1',
        metadata: { origin: 'chat' },
        categories: ['food'],
        created_at: '2025-01-02T03:04:05Z',
        updated_at: '2025-01-03T00:00:00Z',
      },
      { id: 'c3d4', memory: 'Lives in Zürich and commutes by bike 🚲', user_id: 'alice', agent_id: 'helper', created_at: '2025-02-01T00:00:00Z' },
      { id: 'e5f6', memory: '', user_id: 'alice' },
    ],
  };
  const mem = await open();
  const r = await importHistory(mem, 'mem0', JSON.stringify(data), { namespace: 'alice' });
  assert.deepEqual({ total: r.total, added: r.added, skipped: r.skipped, written: r.written }, { total: 2, added: 2, skipped: 1, written: 2 });
  const veg = (await mem.list({ namespace: 'alice', metadata: { mem0Id: 'a1b2' } }))[0]!;
  assert.equal(veg.key, 'mem0:a1b2');
  assert.equal(veg.createdAt.toISOString(), '2025-01-02T03:04:05.000Z');
  assert.equal(veg.eventAt?.toISOString(), '2025-01-02T03:04:05.000Z', "mem0's created_at is when the fact was stated");
  assert.deepEqual(veg.metadata, {
    source: 'mem0',
    mem0Id: 'a1b2',
    userId: 'alice',
    categories: ['food'],
    attributes: { origin: 'chat' },
    mem0UpdatedAt: '2025-01-03T00:00:00.000Z',
  });
  const before = exported(mem);
  assert.equal((await importHistory(mem, 'mem0', data.results, { namespace: 'alice' })).written, 0);
  assert.deepEqual(exported(mem), before);
  data.results[1]!.memory = 'Lives in Basel now and commutes by train';
  const r2 = await importHistory(mem, 'mem0', data, { namespace: 'alice' });
  assert.deepEqual({ updated: r2.updated, unchanged: r2.unchanged, written: r2.written }, { updated: 1, unchanged: 1, written: 1 });
  const after = exported(mem);
  assert.deepEqual(
    after.find((m) => m.key === 'mem0:a1b2'),
    before.find((m) => m.key === 'mem0:a1b2'),
  );
  assert.equal(after.find((m) => m.key === 'mem0:c3d4')!.content, 'Lives in Basel now and commutes by train');
  assert.equal(after.length, 2);
  await mem.close();
});

test('chat JSONL: interleaved conversations, epoch and ISO timestamps, name as speaker', async () => {
  const lines = [
    { conversation: 'x', role: 'user', name: 'Gina', content: 'I started a dance studio downtown last month', timestamp: 1736071200, title: 'Studio' },
    { conversation: 7, role: 'user', content: 'Remind me to renew the passport before June', timestamp: '2025-01-05T11:00:00Z' },
    { conversation: 'x', role: 'assistant', content: 'Congratulations on opening the dance studio downtown!', timestamp: 1736071260000 },
    { conversation: 'x', role: 'user', content: '', timestamp: 1736071300 },
    { conversation: 7, role: 'assistant', content: 'Noted: renew the passport before June 2025, مع السلامة', timestamp: '2025-01-05T11:01:00Z' },
  ];
  const mem = await open();
  const r = await importHistory(mem, 'chat-jsonl', lines.map((l) => JSON.stringify(l)).join('\r\n'), { file: 'chat.jsonl' });
  assert.deepEqual({ total: r.total, messages: r.messages, skipped: r.skipped }, { total: 2, messages: 4, skipped: 1 });
  const x = await mem.list({ sessionId: 'chat-jsonl:x', order: 'asc' });
  assert.deepEqual(
    x.map((m) => m.content),
    ['Gina: I started a dance studio downtown last month', 'assistant: Congratulations on opening the dance studio downtown!'],
  );
  assert.equal(x[0]!.createdAt.toISOString(), '2025-01-05T10:00:00.000Z');
  assert.equal(x[1]!.createdAt.toISOString(), '2025-01-05T10:01:00.000Z');
  assert.deepEqual(
    x.map((m) => m.eventAt?.toISOString()),
    ['2025-01-05T10:00:00.000Z', '2025-01-05T10:01:00.000Z'],
    'eventAt is the message time',
  );
  assert.equal(x[0]!.metadata.title, 'Studio');
  assert.equal((await mem.list({ sessionId: 'chat-jsonl:7' })).length, 2);
  assert.equal((await importHistory(mem, 'chat-jsonl', lines)).written, 0);
  await mem.close();
});

test('imports on worker threads write the same vectors as on one thread', async () => {
  const lines: Record<string, unknown>[] = [];
  for (let c = 0; c < 8; c++) {
    for (let t = 0; t < 12; t++) {
      lines.push({
        conversation: `conv-${c}`,
        role: t % 2 ? 'assistant' : 'user',
        content: `Conversation ${c} turn ${t}: we discussed ${['the garden', 'a trip', 'the budget', 'dinner plans'][(c + t) % 4]} and agreed on step ${t}`,
        timestamp: T0 + c * 1000 + t,
      });
    }
  }
  const data = lines.map((l) => JSON.stringify(l)).join('\n');
  const pooled = new LocalEmbedder({ workers: 2, workerThreshold: 40 });
  const vectors: Map<string, number[]>[] = [];
  for (const embedder of [new LocalEmbedder({ workers: 0 }), pooled]) {
    const path = tempDb();
    const mem = await openMemory({ path, embedder });
    assert.equal((await importHistory(mem, 'chat-jsonl', data)).written, 96);
    vectors.push(new Map([...mem.export({ vectors: true })].map((r) => [r.content, r.embedding!])));
    await mem.close();
  }
  assert.equal(
    pooled.workerStats().reduce((n, s) => n + s.texts, 0),
    96,
  );
  // The calling thread may take batches too; the worker threads did embed.
  assert.ok(pooled.workerStats().some((s) => s.thread === 'worker' && s.texts > 0));
  assert.equal(vectors[0]!.size, 96);
  for (const [content, v] of vectors[0]!) assert.deepEqual(vectors[1]!.get(content), v, content);
});

test('CLI: mnemolite import --from chatgpt, again, and a malformed file', () => {
  const dir = tempDir();
  const db = join(dir, 'm.db');
  const file = join(dir, 'conversations.json');
  writeFileSync(file, JSON.stringify(chatgptExport()));
  const first = cli(['--db', db, '--embedder', 'none', '--json', 'import', '--from', 'chatgpt', file]);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(JSON.parse(first.stdout).added, 2);
  const again = cli(['--db', db, '--embedder', 'none', 'import', '--from', 'chatgpt', file]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /2 conversations in chatgpt export: 0 new, 0 changed, 2 unchanged; wrote 0 memories, removed 0/);
  const bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, '{"conversation":"a","role":"user","content":"hello there friend"}\n{"conversation":"a","content":"no role"}\n');
  const refused = cli(['--db', db, '--embedder', 'none', 'import', '--from', 'chat-jsonl', '-n', 'other', bad]);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /bad\.jsonl:2: \$\.role is missing/);
  const count = cli(['--db', db, '--embedder', 'none', '--json', 'stats']);
  assert.equal(JSON.parse(count.stdout).memories, 8);
});
