import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, Runner, Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { MEMORY_TOOL_NAMES, openMemory } from '../src/index.js';
import { openAIAgentsMemoryTools } from '../src/integrations/openai-agents/index.js';
import { tempDb } from './helpers.js';

/** A Model with a fixed script: one response per turn, recording every request it gets. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly script: ModelResponse['output'][]) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.script[this.requests.length - 1];
    if (!output) throw new Error(`the script has no turn ${this.requests.length}`);
    return { usage: new Usage(), output };
  }
  // biome-ignore lint/correctness/useYield: the scripted model never streams; the interface asks for a generator
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not scripted');
  }
}

const callTool = (callId: string, name: string, args: unknown): ModelResponse['output'][number] => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
const answer = (text: string): ModelResponse['output'][number] => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

test("openAIAgentsMemoryTools: a real Runner executes a scripted model's tool calls against the memory", async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    await mem.add("Someone else's secret", { namespace: 'user-7' });
    const tools = openAIAgentsMemoryTools(mem, { namespace: 'user-42' });
    assert.deepEqual(
      tools.map((t) => t.name),
      [...MEMORY_TOOL_NAMES],
    );
    assert.ok(tools.every((t) => t.type === 'function' && t.strict === false));

    const model = new ScriptedModel([
      [callTool('c1', 'memory_store', { content: 'The user prefers window seats', key: 'seat' })],
      [callTool('c2', 'memory_recall', { query: 'window seats' }), callTool('c3', 'memory_recall', { query: 'secret' })],
      [callTool('c4', 'memory_forget', { id: 'does-not-exist' })],
      [answer('Noted: window seat.')],
    ]);
    const agent = new Agent({ name: 'assistant', instructions: 'Use memory.', model, tools });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'I like window seats.');
    assert.equal(result.finalOutput, 'Noted: window seat.');
    assert.equal(model.requests.length, 4);

    // The SDK offered our tools with their JSON Schemas.
    const offered = model.requests[0]!.tools;
    assert.deepEqual(offered.map((t) => t.name).sort(), [...MEMORY_TOOL_NAMES].sort());
    const recallDef = offered.find((t) => t.name === 'memory_recall') as { parameters?: { required?: string[] } };
    assert.deepEqual(recallDef.parameters?.required, ['query']);

    const [rec] = await mem.list({ namespace: 'user-42' });
    assert.equal(rec?.key, 'seat');
    const outputs = result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => String((i as { output: unknown }).output));
    assert.equal(outputs.length, 4);
    assert.match(outputs[0]!, /^Stored memory /);
    assert.match(outputs[1]!, /1 memory matches "window seats"[\s\S]*window seats/);
    assert.match(outputs[2]!, /^No relevant memory for "secret"/, 'the tools never reach another namespace');
    assert.match(outputs[3]!, /^Error \(NOT_FOUND\)/);
    // The model got each tool result back in its next request.
    assert.ok(JSON.stringify(model.requests[2]!.input).includes(rec!.id));
  } finally {
    await mem.close();
  }
});

test('openAIAgentsMemoryTools: invalid arguments come back as text, read-only hides the writers', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  try {
    const model = new ScriptedModel([[callTool('c1', 'memory_recall', { query: 'x', namespace: 'other' })], [answer('ok')]]);
    const tools = openAIAgentsMemoryTools(mem, { readOnly: true });
    assert.deepEqual(
      tools.map((t) => t.name),
      ['memory_recall', 'memory_get', 'memory_list', 'memory_history', 'memory_profile'],
    );
    const result = await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model, tools }), 'hi');
    const out = result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => String((i as { output: unknown }).output));
    assert.match(out[0]!, /does not take a namespace/);
  } finally {
    await mem.close();
  }
});
