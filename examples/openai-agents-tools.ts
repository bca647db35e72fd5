// The memory tools in the OpenAI Agents SDK. Offline, a scripted Model plays the LLM; with
// OPENAI_API_KEY set, the agent uses a real OpenAI model instead.
//   npm install mnemolite @openai/agents
//   npx tsx examples/openai-agents-tools.ts
import { Agent, Runner, Usage, type Model, type ModelResponse, type StreamEvent } from '@openai/agents';
import { openMemory } from 'mnemolite';
import { openAIAgentsMemoryTools } from 'mnemolite/openai-agents';

const mem = await openMemory({ path: ':memory:', embedder: 'none' }); // keyword recall only, for speed

/** A model that follows a fixed script (one output per turn). */
class ScriptedModel implements Model {
  private turn = 0;
  constructor(private readonly script: ModelResponse['output'][]) {}
  async getResponse(): Promise<ModelResponse> {
    return { usage: new Usage(), output: this.script[this.turn++] ?? [] };
  }
  // biome-ignore lint/correctness/useYield: the scripted model never streams; the interface asks for a generator
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('streaming is not scripted');
  }
}
const scripted = new ScriptedModel([
  [{ type: 'function_call', callId: 'c1', name: 'memory_store', arguments: JSON.stringify({ content: 'The user is allergic to peanuts' }) }],
  [{ type: 'function_call', callId: 'c2', name: 'memory_recall', arguments: JSON.stringify({ query: 'peanut allergy' }) }],
  [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'No peanuts for you.' }] }],
]);

const agent = new Agent({
  name: 'assistant',
  instructions: 'Save durable facts about the user with memory_store; check memory_recall before answering.',
  // minRelevance 0: a one-memory demo store is too small for the idf-based relevance threshold.
  tools: openAIAgentsMemoryTools(mem, { namespace: 'user-42', minRelevance: 0 }),
  ...(process.env.OPENAI_API_KEY ? { model: 'gpt-4.1-mini' } : { model: scripted }),
});
const result = await new Runner({ tracingDisabled: !process.env.OPENAI_API_KEY }).run(agent, 'I am allergic to peanuts. What snacks should I avoid?');
for (const item of result.newItems) if (item.type === 'tool_call_output_item') console.log(`tool -> ${String((item as { output: unknown }).output).split('\n')[0]}`);
console.log(`answer: ${result.finalOutput}`);
await mem.close();
