/**
 * `mnemolite/langgraph`: LangGraph.js long-term memory in one mnemolite file.
 * Needs `@langchain/langgraph-checkpoint` (installed with `@langchain/langgraph`).
 * @packageDocumentation
 */
export { MnemoliteStore, INDEXED_CATEGORY, UNINDEXED_CATEGORY } from './store.js';
export type { MnemoliteStoreOptions } from './store.js';
export { encodeNamespace, decodeNamespace, encodeKey, decodeKey, MAX_NAMESPACE_CHARS, MAX_KEY_CHARS } from './namespace.js';
