import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Document } from '@langchain/core/documents';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { BaseRetriever } from '@langchain/core/retrievers';
import { StructuredTool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { MEMORY_TOOL_NAMES, MnemoliteError, openMemory, type Memory } from '../src/index.js';
import { MnemoliteRetriever, langchainMemoryTools } from '../src/integrations/langchain/index.js';
import { HashEmbedder, tempDb } from './helpers.js';

async function withMem<T>(fn: (mem: Memory) => Promise<T>): Promise<T> {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  try {
    return await fn(mem);
  } finally {
    await mem.close();
  }
}

test('MnemoliteRetriever returns Documents with the memory, its metadata and why it ranked', async () => {
  await withMem(async (mem) => {
    const { id } = await mem.add('We deploy the Rust service on a Raspberry Pi 4', {
      namespace: 'agent-1',
      key: 'deploy',
      category: 'core',
      sessionId: 's1',
      metadata: { source: 'chat', id: 'not-the-memory-id' },
      createdAt: '2026-03-01T00:00:00Z',
    });
    await mem.add('The user likes green tea', { namespace: 'agent-1' });
    await mem.add('Raspberry Pi in another namespace', { namespace: 'agent-2' });
    const retriever = new MnemoliteRetriever({ memory: mem, recall: { namespace: 'agent-1', limit: 1 } });
    assert.ok(retriever instanceof BaseRetriever);
    const docs = await retriever.invoke('Raspberry Pi deployment');
    assert.equal(docs.length, 1);
    const [doc] = docs;
    assert.ok(doc instanceof Document);
    assert.equal(doc.pageContent, 'We deploy the Rust service on a Raspberry Pi 4');
    assert.equal(doc.id, id);
    const { score, keywordRank, vectorRank, updatedAt, ...rest } = doc.metadata;
    assert.deepEqual(rest, {
      id,
      namespace: 'agent-1',
      key: 'deploy',
      category: 'core',
      sessionId: 's1',
      metadata: { source: 'chat', id: 'not-the-memory-id' },
      createdAt: '2026-03-01T00:00:00.000Z',
      eventAt: null,
    });
    assert.equal(typeof score, 'number');
    assert.equal(keywordRank, 1);
    assert.equal(vectorRank, 1);
    assert.ok(!Number.isNaN(Date.parse(updatedAt)));
    // Filters apply: another category finds nothing.
    assert.deepEqual(await new MnemoliteRetriever({ memory: mem, recall: { namespace: 'agent-1', category: 'nope' } }).invoke('Raspberry'), []);
    // Bad recall options are mnemolite's typed errors.
    await assert.rejects(
      new MnemoliteRetriever({ memory: mem, recall: { limit: 0 } }).invoke('x'),
      (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
    );
    assert.throws(() => new MnemoliteRetriever({ memory: {} as Memory }), MnemoliteError);
  });
});

test('langchainMemoryTools: structured tools with text for the model and the data as artifact', async () => {
  await withMem(async (mem) => {
    const tools = langchainMemoryTools(mem, { namespace: 'user-42', sessionId: 'chat-7' });
    assert.deepEqual(
      tools.map((t) => t.name),
      [...MEMORY_TOOL_NAMES],
    );
    assert.ok(tools.every((t) => t instanceof StructuredTool));
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));

    const stored = await byName.memory_store!.invoke({
      type: 'tool_call',
      id: 'c1',
      name: 'memory_store',
      args: { content: 'The user is allergic to peanuts', category: 'health' },
    });
    assert.ok(stored instanceof ToolMessage);
    assert.match(String(stored.content), /^Stored memory /);
    const storedId = (stored.artifact as { id: string }).id;
    const rec = await mem.get(storedId, { namespace: 'user-42' });
    assert.equal(rec?.sessionId, 'chat-7');

    const missing = await byName.memory_get!.invoke({ type: 'tool_call', id: 'c2', name: 'memory_get', args: { id: 'nope' } });
    assert.match(String(missing.content), /^Error \(NOT_FOUND\)/);
    assert.deepEqual((missing.artifact as { error: { code: string } }).error.code, 'NOT_FOUND');

    // LangChain validates against the JSON Schema before our code runs: a namespace argument cannot get through.
    await assert.rejects(byName.memory_recall!.invoke({ query: 'x', namespace: 'someone-else' }));
  });
});

test("langchainMemoryTools run in LangGraph's ToolNode from a model's tool calls", async () => {
  await withMem(async (mem) => {
    const node = new ToolNode(langchainMemoryTools(mem, { namespace: 'u' }));
    const first = await node.invoke({
      messages: [new AIMessage({ content: '', tool_calls: [{ id: 'a', name: 'memory_store', args: { content: 'Lives in Lisbon' } }] })],
    });
    assert.match(String(first.messages[0].content), /^Stored memory/);
    const second = await node.invoke({
      messages: [new AIMessage({ content: '', tool_calls: [{ id: 'b', name: 'memory_recall', args: { query: 'Lisbon' } }] })],
    });
    const msg = second.messages[0] as ToolMessage;
    assert.equal(msg.tool_call_id, 'b');
    assert.match(String(msg.content), /1 memory matches "Lisbon"[\s\S]*Lives in Lisbon/);
    assert.equal((msg.artifact as { hits: { content: string }[] }).hits[0]?.content, 'Lives in Lisbon');
  });
});
