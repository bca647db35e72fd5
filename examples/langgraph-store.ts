// LangGraph.js long-term memory in one mnemolite file: one thread writes, another recalls.
//   npm install mnemolite @langchain/langgraph @langchain/core
//   npx tsx examples/langgraph-store.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotation, END, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { openMemory } from 'mnemolite';
import { MnemoliteStore } from 'mnemolite/langgraph';

const dir = mkdtempSync(join(tmpdir(), 'mnemolite-langgraph-'));
const mem = await openMemory({ path: join(dir, 'memory.db') }); // bundled local embedding model
const store = new MnemoliteStore(mem, { index: { fields: ['text'] } }); // search the "text" field

const State = Annotation.Root({ userId: Annotation<string>(), input: Annotation<string>(), answer: Annotation<string>() });

// A stand-in for an LLM node: "remember: ..." stores a memory, anything else searches them.
async function agent(state: typeof State.State, config: LangGraphRunnableConfig) {
  const namespace = ['memories', state.userId];
  if (state.input.startsWith('remember: ')) {
    await config.store!.put(namespace, crypto.randomUUID(), { text: state.input.slice(10) });
    return { answer: 'noted' };
  }
  const [best] = await config.store!.search(namespace, { query: state.input, limit: 1 });
  return { answer: best ? String(best.value.text) : 'nothing remembered' };
}

const graph = new StateGraph(State).addNode('agent', agent).addEdge(START, 'agent').addEdge('agent', END)
  .compile({ checkpointer: new MemorySaver(), store });

const thread = (id: string) => ({ configurable: { thread_id: id } });
await graph.invoke({ userId: 'ada', input: 'remember: I am vegetarian' }, thread('monday'));
await graph.invoke({ userId: 'ada', input: 'remember: my cat is called Pixel' }, thread('monday'));
const { answer } = await graph.invoke({ userId: 'ada', input: 'what should I cook for dinner?' }, thread('friday'));
console.log(`friday thread recalls: ${answer}`);
console.log('namespaces:', JSON.stringify(await store.listNamespaces()));

await mem.close();
rmSync(dir, { recursive: true, force: true });
