/**
 * mnemolite: long-term memory for AI agents in one SQLite file (or, for many app servers, PostgreSQL).
 * @packageDocumentation
 */
export { Memory } from './memory/memory.js';
export type { ReindexOptions } from './memory/memory.js';
export { openMemory } from './memory/open.js';
export { migrateMemories } from './memory/migrate.js';
export type { MigrateOptions, MigrateResult } from './memory/migrate.js';
export type { ExportOptions, ImportOptions, ImportResult, MemoryExport } from './memory/transfer.js';
export type {
  AddInput,
  AddOptions,
  AddResult,
  Filter,
  ListOptions,
  MemoryRecord,
  Metadata,
  OpenOptions,
  PostgresOptions,
  RecallHit,
  RecallMode,
  RecallOptions,
  Stats,
  UpdateInput,
  ExportRecord,
} from './types/memory.js';
export type { Embedder } from './embed/provider.js';
export type {
  DedupInfo,
  Duration,
  LifecycleAddOptions,
  LifecycleFields,
  LifecycleRecallOptions,
  LifecycleUpdateInput,
  EraseOptions,
  EraseResult,
  HistoryOptions,
  MemoryVersion,
  MmrOptions,
  NearDuplicate,
  NearDuplicateMode,
  PruneOptions,
  PruneResult,
  RecencyOptions,
} from './types/lifecycle.js';
export { PROFILE_MAX_BYTES, PROFILE_VERSIONS_KEPT } from './types/profile.js';
export type { Profile, ProfileExportRecord, ProfileHistory, ProfileHistoryOptions, ProfileSetOptions, ProfileVersion } from './types/profile.js';
export { LocalEmbedder, LOCAL_MODEL_ID } from './embed/local.js';
export type { LocalEmbedderOptions } from './embed/local.js';
export type { WorkerStats } from './embed/pool.js';
export { OpenAIEmbedder, ollamaEmbedder } from './embed/openai.js';
export type { OpenAIEmbedderOptions } from './embed/openai.js';
// Loads @huggingface/transformers (an optional dependency) only when a model is first used.
export { TransformersEmbedder, transformersEmbedder } from './embed/transformers.js';
export type { TransformersEmbedderOptions } from './embed/transformers.js';
export { DEFAULT_MIN_RELEVANCE, relevanceOf } from './recall/relevance.js';
export { DEFAULT_CONTEXT_TOKENS, type ContextOptions, type ContextResult, type ContextItem } from './recall/context-block.js';
export type { RelevanceEvidence, RelevanceRecallOptions, RerankCandidate, RerankFunction } from './types/recall.js';
export { MnemoliteError } from './errors.js';
export type { ErrorCode } from './errors.js';
export { MAX_CONTENT_BYTES, MAX_METADATA_BYTES, MAX_QUERY_CHARS, DEFAULT_NAMESPACE, ALL_NAMESPACES } from './validate.js';
export { memoryTools, MEMORY_TOOL_NAMES } from './tools.js';
export type {
  AISDKTool,
  JsonSchema,
  MemoryToolName,
  MemoryTools,
  MemoryToolsOptions,
  OpenAIChatTool,
  OpenAIResponsesTool,
  ToolDefinition,
  ToolHit,
  ToolMemory,
  ToolResult,
} from './tools.js';
export { createMcpServer, serveMcpStdio } from './mcp/index.js';
export type { McpServerOptions } from './mcp/server.js';
export type { ConversationMemory, ConversationOptions, ConversationTurn } from './memory/conversation.js';
export type { ChatMessageInput, ChatMessageOptions } from './memory/chat-messages.js';
export { chunkMarkdown, importMarkdown } from './ingest/markdown.js';
export type { ChunkOptions, MarkdownChunk, MarkdownFileResult, MarkdownImportOptions, MarkdownImportResult } from './ingest/markdown.js';
export { importHistory } from './ingest/history.js';
export type { HistoryImportOptions, HistoryImportResult, HistorySource } from './ingest/history.js';
