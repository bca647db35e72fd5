/**
 * addConversation takes chat messages as the SDKs give them (issue 26 item 1): OpenAI Chat
 * Completions, Responses API / Agents SDK items, Anthropic Messages, the AI SDK's ModelMessage and
 * UIMessage. Typed with the SDKs' own types where they are installed (`ai`, `@openai/agents`); the
 * Chat Completions and Anthropic shapes are their documented wire format. Every store of
 * test/store-matrix.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentInputItem } from '@openai/agents';
import type { ModelMessage, UIMessage } from 'ai';
import { openMemory, type Memory } from '../src/index.js';
import { chatTurns } from '../src/memory/chat-messages.js';
import { storeTargets } from './store-matrix.js';

const modelMessages: ModelMessage[] = [
  { role: 'system', content: 'You are a helpful assistant.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Here is my new flat in Porto, I moved in last week.' },
      { type: 'image', image: new URL('https://example.com/flat.jpg') },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'The user moved; note the city.' },
      { type: 'text', text: 'Congratulations on the move to Porto, the flat looks bright.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Porto' } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: 'sunny, 24 °C' } }] },
  { role: 'user', content: [{ type: 'file', data: 'aGVsbG8=', mediaType: 'application/pdf', filename: 'lease.pdf' }] },
];

const uiMessages: UIMessage[] = [
  { id: 'm1', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
  { id: 'm2', role: 'user', parts: [{ type: 'text', text: 'My daughter Lena starts school in September.' }] },
  {
    id: 'm3',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: 'That is a big step for Lena, good luck to both of you.' },
      { type: 'file', mediaType: 'image/png', url: 'https://example.com/x.png', filename: 'school.png' },
    ],
  },
];

const agentItems: AgentInputItem[] = [
  { role: 'system', content: 'Instructions.' },
  { role: 'user', content: 'I switched from coffee to green tea in the mornings.' },
  { type: 'function_call', callId: 'f1', name: 'save_pref', arguments: '{"drink":"tea"}', status: 'completed' },
  { type: 'function_call_result', callId: 'f1', name: 'save_pref', status: 'completed', output: { type: 'text', text: 'saved' } },
  { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Green tea it is; I will remember your mornings.' }] },
];

// OpenAI Chat Completions (ChatCompletionMessageParam) and Responses API input items, as sent on the wire.
const chatCompletions = [
  { role: 'developer', content: 'Answer in English.' },
  {
    role: 'user',
    name: 'Caroline',
    content: [
      { type: 'text', text: 'I went to a support group yesterday, it helped a lot.' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
    ],
  },
  { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'lookup', arguments: '{"q":"groups"}' } }] },
  { role: 'tool', tool_call_id: 't1', content: 'three groups nearby' },
  { role: 'assistant', content: 'I am glad the support group helped you, Caroline.' },
];
const responsesItems = [
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'Book the dentist for Friday morning please.' },
      { type: 'input_file', filename: 'insurance.pdf', file_id: 'f' },
    ],
  },
  { type: 'reasoning', id: 'r1', summary: [] },
  {
    type: 'message',
    id: 'o1',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Booked the dentist for Friday at nine.', annotations: [] }],
  },
  { type: 'function_call_output', call_id: 'x', output: '{"ok":true}' },
];
// Anthropic Messages (MessageParam): content blocks; tool results come back as a user message.
const anthropic = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'My partner Sam is vegetarian, plan dinner for us.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AA' } },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'plan', signature: 's' },
      { type: 'text', text: 'A mushroom risotto works well for a vegetarian dinner with Sam.' },
      { type: 'tool_use', id: 'tu1', name: 'recipes', input: { diet: 'vegetarian' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: '12 recipes' }] }] },
  { role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' }, title: 'menu.txt' }] },
];

test('each SDK shape becomes user/assistant turns; system, tools and reasoning skipped; images and files as placeholders', () => {
  const turns = (m: readonly object[], o = {}) => chatTurns(m, o).filter((t) => t !== null);
  assert.deepEqual(turns(modelMessages), [
    { speaker: 'user', content: 'Here is my new flat in Porto, I moved in last week.\n[image]' },
    { speaker: 'assistant', content: 'Congratulations on the move to Porto, the flat looks bright.' },
    { speaker: 'user', content: '[file: lease.pdf]' },
  ]);
  assert.deepEqual(turns(uiMessages), [
    { speaker: 'user', content: 'My daughter Lena starts school in September.' },
    { speaker: 'assistant', content: 'That is a big step for Lena, good luck to both of you.\n[file: school.png]' },
  ]);
  assert.deepEqual(turns(agentItems), [
    { speaker: 'user', content: 'I switched from coffee to green tea in the mornings.' },
    { speaker: 'assistant', content: 'Green tea it is; I will remember your mornings.' },
  ]);
  assert.deepEqual(turns(chatCompletions), [
    { speaker: 'Caroline', content: 'I went to a support group yesterday, it helped a lot.\n[image]' },
    { speaker: 'assistant', content: 'I am glad the support group helped you, Caroline.' },
  ]);
  assert.deepEqual(turns(responsesItems), [
    { speaker: 'user', content: 'Book the dentist for Friday morning please.\n[file: insurance.pdf]' },
    { speaker: 'assistant', content: 'Booked the dentist for Friday at nine.' },
  ]);
  assert.deepEqual(turns(anthropic), [
    { speaker: 'user', content: 'My partner Sam is vegetarian, plan dinner for us.\n[image]' },
    { speaker: 'assistant', content: 'A mushroom risotto works well for a vegetarian dinner with Sam.' },
    { speaker: 'user', content: '[file: menu.txt]' },
  ]);
  // Kept on request.
  const kept = turns(chatCompletions, { keepSystem: true, keepTools: true, speakers: { assistant: 'Ada' } });
  assert.deepEqual(
    kept.map((t) => t.speaker),
    ['system', 'Caroline', 'tool', 'tool', 'Ada'],
  );
  assert.equal(kept[2]!.content, '[tool call: lookup {"q":"groups"}]');
  assert.equal(kept[3]!.content, '[tool result: three groups nearby]');
  assert.deepEqual(
    turns(agentItems, { keepTools: true }).map((t) => t.content),
    [
      'I switched from coffee to green tea in the mornings.',
      '[tool call: save_pref {"drink":"tea"}]',
      '[tool result: saved]',
      'Green tea it is; I will remember your mornings.',
    ],
  );
  assert.equal(turns(anthropic, { keepTools: true })[2]!.content, '[tool result: 12 recipes]');
});

test('unknown shapes are INVALID_INPUT naming the path', () => {
  assert.throws(
    () =>
      chatTurns([
        { role: 'user', content: 'ok' },
        { role: 'wizard', content: 'x' },
      ]),
    { code: 'INVALID_INPUT', message: /messages\[1\]\.role "wizard"/ },
  );
  assert.throws(() => chatTurns([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'hologram' }] }]), {
    code: 'INVALID_INPUT',
    message: /messages\[0\]\.content\[1\]\.type "hologram"/,
  });
  assert.throws(() => chatTurns([{ text: 'hello' }]), { code: 'INVALID_INPUT', message: /messages\[0\] has neither "role" nor "speaker"/ });
  assert.throws(() => chatTurns([{ role: 'user', content: 42 }]), { code: 'INVALID_INPUT', message: /messages\[0\]\.content must be a string or an array/ });
  assert.throws(() => chatTurns([{ role: 'user', parts: [{ type: 'text', text: 1 }] }]), { code: 'INVALID_INPUT', message: /messages\[0\]\.parts\[0\]\.text/ });
});

const targets = await storeTargets();
for (const T of targets) {
  describe(T.name, () => {
    const open = (): Promise<Memory> => openMemory({ ...T.fresh(), embedder: 'none' });

    test('addConversation stores each SDK shape as it comes, one line per turn, and refuses unknown shapes writing nothing', async () => {
      const mem = await open();
      try {
        // The chat loop: store each turn as it happens.
        await mem.addConversation(modelMessages, { sessionId: 'ai-sdk', minWords: 0 });
        await mem.addConversation(uiMessages, { sessionId: 'ui', minWords: 0 });
        await mem.addConversation(agentItems, { sessionId: 'agents', minWords: 0 });
        await mem.addConversation(chatCompletions, { sessionId: 'chat', minWords: 0, keepTools: true });
        await mem.addConversation(responsesItems, { sessionId: 'responses', minWords: 0 });
        await mem.addConversation(anthropic, { sessionId: 'anthropic', minWords: 0, speakers: { user: 'Dana' } });
        const inSession = async (s: string) => (await mem.list({ sessionId: s, order: 'asc' })).map((m) => m.content);
        assert.deepEqual(await inSession('ai-sdk'), [
          'user: Here is my new flat in Porto, I moved in last week.\n[image]',
          'assistant: Congratulations on the move to Porto, the flat looks bright.',
          'user: [file: lease.pdf]',
        ]);
        assert.deepEqual(await inSession('chat'), [
          'Caroline: I went to a support group yesterday, it helped a lot.\n[image]',
          'tool: [tool call: lookup {"q":"groups"}]',
          'tool: [tool result: three groups nearby]',
          'assistant: I am glad the support group helped you, Caroline.',
        ]);
        assert.equal((await inSession('anthropic'))[0], 'Dana: My partner Sam is vegetarian, plan dinner for us.\n[image]');
        assert.equal((await inSession('ui')).length, 2);
        assert.equal((await inSession('agents')).length, 2);
        assert.equal((await inSession('responses')).length, 2);
        const hits = await mem.recall('vegetarian dinner', { mode: 'keyword' });
        assert.ok(hits[0]!.content.includes('vegetarian'));
        const before = await mem.count({});
        await assert.rejects(
          mem.addConversation([
            { role: 'user', content: 'fine words here' },
            { role: 'user', content: [{ type: 'video' }] },
          ]),
          {
            code: 'INVALID_INPUT',
            message: /messages\[1\]\.content\[0\]\.type "video"/,
          },
        );
        await assert.rejects(mem.addConversation([{ role: 'user', content: 'x' }], { keepTools: 'yes' as unknown as boolean }), {
          code: 'INVALID_INPUT',
          message: /keepTools/,
        });
        assert.equal(await mem.count({}), before);
        // The old shape still works.
        await mem.addConversation([{ speaker: 'Caroline', content: 'Still the turn shape we always took.' }], { sessionId: 'old' });
        assert.deepEqual(await inSession('old'), ['Caroline: Still the turn shape we always took.']);
      } finally {
        await mem.close();
      }
    });
  });
}
