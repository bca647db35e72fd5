import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateText, jsonSchema, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { memoryTools, openMemory } from '../src/index.js';
import { aiSDKMemoryTools } from '../src/integrations/ai-sdk/index.js';
import { tempDb } from './helpers.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const call = (id: string, toolName: string, input: unknown) => ({
  content: [{ type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] });

/** The AI SDK's own scripted model: store, recall, then a mistake, then answer. */
function scriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      call('c1', 'memory_store', { content: 'The user prefers window seats on long flights', category: 'preference' }),
      call('c2', 'memory_recall', { query: 'seat preference flights' }),
      call('c3', 'memory_get', { id: 'no-such-id' }),
      say('You prefer window seats.'),
    ],
  });
}

for (const [name, makeTools] of [
  ['aiSDKMemoryTools (mnemolite/ai-sdk)', (mem: Parameters<typeof aiSDKMemoryTools>[0]) => aiSDKMemoryTools(mem, { namespace: 'user-42' })],
  [
    'memoryTools().toAISDKTools(jsonSchema) (root)',
    (mem: Parameters<typeof aiSDKMemoryTools>[0]) => memoryTools(mem, { namespace: 'user-42' }).toAISDKTools(jsonSchema),
  ],
] as const) {
  test(`${name}: generateText runs a scripted model's tool calls against the memory`, async () => {
    const mem = await openMemory({ path: tempDb(), embedder: 'none' });
    try {
      const model = scriptedModel();
      const result = await generateText({ model, prompt: 'Where do I like to sit?', tools: makeTools(mem), stopWhen: stepCountIs(6) });
      assert.equal(result.text, 'You prefer window seats.');
      assert.equal(result.steps.length, 4);

      // The tools the SDK offered the model: our names, descriptions and JSON Schemas.
      const offered = model.doGenerateCalls[0]!.tools ?? [];
      assert.deepEqual(offered.map((t) => t.name).sort(), [
        'memory_forget',
        'memory_get',
        'memory_history',
        'memory_list',
        'memory_profile',
        'memory_profile_update',
        'memory_recall',
        'memory_store',
      ]);
      const store = offered.find((t) => t.name === 'memory_store') as { inputSchema?: { properties?: Record<string, unknown> } };
      assert.ok(store.inputSchema?.properties?.content, 'the JSON Schema reached the model');

      // The write really happened, in the host's namespace.
      const [rec] = await mem.list({ namespace: 'user-42' });
      assert.equal(rec?.content, 'The user prefers window seats on long flights');
      assert.equal(rec?.category, 'preference');

      const results = result.steps.flatMap((s) => s.toolResults);
      assert.deepEqual(
        results.map((r) => r.toolName),
        ['memory_store', 'memory_recall', 'memory_get'],
      );
      const recalled = results[1]!.output as { hits: { id: string }[] };
      assert.equal(recalled.hits[0]?.id, rec?.id);
      assert.deepEqual((results[2]!.output as { error: { code: string } }).error.code, 'NOT_FOUND', 'a mistake comes back to the model as data');

      // And the model saw each result in its next prompt.
      const third = JSON.stringify(model.doGenerateCalls[2]!.prompt);
      assert.ok(third.includes(rec!.id), 'the recall result was sent back to the model');
    } finally {
      await mem.close();
    }
  });
}

test('aiSDKMemoryTools: read-only offers only the reading tools', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    assert.deepEqual(Object.keys(aiSDKMemoryTools(mem, { readOnly: true })).sort(), [
      'memory_get',
      'memory_history',
      'memory_list',
      'memory_profile',
      'memory_recall',
    ]);
  } finally {
    await mem.close();
  }
});
