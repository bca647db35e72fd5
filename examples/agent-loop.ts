/**
 * An agent loop with OpenAI-style function calling and mnemolite's memory tools.
 *
 *   npx tsx examples/agent-loop.ts
 *     Offline: a small scripted stand-in plays the model, so the loop runs anywhere.
 *   OPENAI_API_KEY=sk-... npx tsx examples/agent-loop.ts
 *     A real model through any OpenAI-compatible server (OPENAI_BASE_URL, MODEL; e.g. Ollama at
 *     http://127.0.0.1:11434/v1 with MODEL=llama3.1 and OPENAI_API_KEY=ollama).
 *
 * Two sessions share one memory file: the first tells the agent some facts, the second
 * (a fresh conversation, nothing in context) asks about them.
 *
 * With the Vercel AI SDK instead of a hand-written loop:
 *   import { generateText, jsonSchema, stepCountIs } from 'ai';
 *   const { text } = await generateText({
 *     model, prompt, stopWhen: stepCountIs(5),
 *     tools: memoryTools(mem, { namespace: 'user-42' }).toAISDKTools(jsonSchema),
 *   });
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryTools, openMemory, type MemoryTools, type OpenAIChatTool } from 'mnemolite';

interface ToolCall { id: string; type: 'function'; function: { name: string; arguments: string } }
type Message =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };
type Model = (messages: Message[], tools: OpenAIChatTool[]) => Promise<Extract<Message, { role: 'assistant' }>>;

/** A real model behind an OpenAI-compatible /chat/completions endpoint. */
function openAIModel(apiKey: string): Model {
  const base = (process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/$/, '');
  const model = process.env.MODEL ?? 'gpt-4o-mini';
  return async (messages, tools) => {
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model, messages, tools }),
    });
    if (!res.ok) throw new Error(`${base}/chat/completions: HTTP ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { choices: { message: Extract<Message, { role: 'assistant' }> }[] };
    return body.choices[0]!.message;
  };
}

/** A scripted stand-in for a model: stores "remember ..." requests, recalls for questions, answers from the results. */
const scriptedModel: Model = async (messages) => {
  const last = messages[messages.length - 1]!;
  let n = 0;
  const call = (name: string, args: unknown): ToolCall => ({ id: `call_${messages.length}_${n++}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  if (last.role === 'user') {
    const remember = /^(?:please\s+)?(?:also\s+)?remember(?: that|:)?\s+(.+)$/i.exec(last.content);
    if (remember) return { role: 'assistant', content: null, tool_calls: [call('memory_store', { content: `The user said: ${remember[1]!.trim()}`, category: 'fact' })] };
    return { role: 'assistant', content: null, tool_calls: [call('memory_recall', { query: last.content, limit: 3 })] };
  }
  if (last.role === 'tool') {
    if (last.content.startsWith('Stored') || last.content.startsWith('Replaced')) return { role: 'assistant', content: 'Noted, I will remember that.' };
    const best = /^1\. (.+)$/m.exec(last.content);
    return { role: 'assistant', content: best ? `From memory: ${best[1]}` : 'I do not remember anything about that.' };
  }
  return { role: 'assistant', content: 'How can I help?' };
};

/** One user turn: call the model, run the tool calls it makes, repeat until it answers. */
async function turn(model: Model, tools: MemoryTools, messages: Message[], user: string): Promise<string> {
  messages.push({ role: 'user', content: user });
  console.log(`user:      ${user}`);
  for (let step = 0; step < 5; step++) {
    const reply = await model(messages, tools.toOpenAITools());
    messages.push(reply);
    if (!reply.tool_calls?.length) {
      console.log(`assistant: ${reply.content ?? ''}`);
      return reply.content ?? '';
    }
    for (const c of reply.tool_calls) {
      const r = await tools.execute(c.function.name, c.function.arguments);
      console.log(`  tool ${c.function.name}(${c.function.arguments}) -> ${r.ok ? 'ok' : 'error'}: ${r.text.split('\n')[0]}`);
      messages.push({ role: 'tool', tool_call_id: c.id, content: r.text });
    }
  }
  return '';
}

const dir = process.argv[2] ? undefined : mkdtempSync(join(tmpdir(), 'mnemolite-example-'));
const path = process.argv[2] ?? join(dir!, 'agent-memory.db');
const mem = await openMemory({ path, embedder: process.env.MNEMOLITE_EMBEDDER === 'none' ? 'none' : 'local' });
try {
  // minRelevance 0: this demo store holds two memories, too few for the idf-based relevance
  // (src/recall/relevance.ts) to mean much; real stores keep the default threshold.
  const tools = memoryTools(mem, { namespace: 'user-42', sessionId: 'example', minRelevance: 0 });
  const model = process.env.OPENAI_API_KEY ? openAIModel(process.env.OPENAI_API_KEY) : scriptedModel;
  const system = 'You are a helpful assistant with long-term memory. Store durable facts the user tells you with memory_store; use memory_recall before answering questions about the user.';

  console.log('--- session 1');
  const s1: Message[] = [{ role: 'system', content: system }];
  await turn(model, tools, s1, 'Remember that I deploy the Rust service on a Raspberry Pi 4.');
  await turn(model, tools, s1, 'Also remember: my cat is called Whiskers.');

  console.log('--- session 2 (new conversation, same memory file)');
  const s2: Message[] = [{ role: 'system', content: system }];
  await turn(model, tools, s2, 'What hardware do I deploy my service on?');
  await turn(model, tools, s2, "What is my cat's name?");
} finally {
  await mem.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
