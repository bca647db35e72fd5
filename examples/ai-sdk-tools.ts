// The memory tools in the Vercel AI SDK. Offline, the SDK's own scripted test model plays the LLM;
// with a real one, pass e.g. `model: openai('gpt-4o-mini')` from @ai-sdk/openai instead.
//   npm install mnemolite ai
//   npx tsx examples/ai-sdk-tools.ts
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { openMemory } from 'mnemolite';
import { aiSDKMemoryTools } from 'mnemolite/ai-sdk';

const mem = await openMemory({ path: ':memory:', embedder: 'none' }); // keyword recall only, for speed

const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
const toolCall = (toolName: string, input: object) => ({
  content: [{ type: 'tool-call' as const, toolCallId: toolName, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage, warnings: [],
});
const model = new MockLanguageModelV3({
  doGenerate: [
    toolCall('memory_store', { content: 'The user prefers window seats', category: 'preference' }),
    toolCall('memory_recall', { query: 'seat preference' }),
    { content: [{ type: 'text', text: 'You like window seats.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
  ],
});

const result = await generateText({
  model,
  prompt: 'I prefer window seats. Where do I like to sit?',
  tools: aiSDKMemoryTools(mem, { namespace: 'user-42' }),
  stopWhen: stepCountIs(5),
});
for (const r of result.steps.flatMap((s) => s.toolResults)) console.log(`${r.toolName} -> ${JSON.stringify(r.output).slice(0, 60)}...`);
console.log(`answer: ${result.text}`);
console.log(`stored: ${(await mem.list({ namespace: 'user-42' }))[0]?.content}`);
await mem.close();
