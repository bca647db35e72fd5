/**
 * `mnemolite/langchain`: a LangChain.js retriever over mnemolite recall, and the memory tools as
 * LangChain tools. Needs `@langchain/core`.
 * @packageDocumentation
 */
export { MnemoliteRetriever, hitToDocument } from './retriever.js';
export type { MnemoliteDocumentMetadata, MnemoliteRetrieverInput } from './retriever.js';
export { langchainMemoryTools } from './tools.js';
