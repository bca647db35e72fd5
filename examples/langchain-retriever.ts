// A LangChain.js retriever over mnemolite's hybrid recall, and the memory tools as LangChain tools.
//   npm install mnemolite @langchain/core
//   npx tsx examples/langchain-retriever.ts
import { openMemory } from 'mnemolite';
import { MnemoliteRetriever, langchainMemoryTools } from 'mnemolite/langchain';

const mem = await openMemory({ path: ':memory:' }); // or a file path; bundled local embedding model
await mem.add('We deploy the Rust service on a Raspberry Pi 4', { namespace: 'team', metadata: { source: 'standup' } });
await mem.add('The staging database is PostgreSQL 16', { namespace: 'team' });

const retriever = new MnemoliteRetriever({ memory: mem, recall: { namespace: 'team', limit: 1 } });
const [doc] = await retriever.invoke('which ARM board runs production?');
console.log(`retrieved: ${doc?.pageContent} (source: ${String(doc?.metadata.metadata.source)})`);

// Tools for model.bindTools(tools), ToolNode or createAgent; here called the way a model would.
const tools = langchainMemoryTools(mem, { namespace: 'team' });
const recall = tools.find((t) => t.name === 'memory_recall')!;
const msg = await recall.invoke({ type: 'tool_call', id: 'call-1', name: 'memory_recall', args: { query: 'staging database' } });
console.log(`tool says: ${String(msg.content).split('\n')[1]}`);

await mem.close();
