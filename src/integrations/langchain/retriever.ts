/**
 * A LangChain retriever over a mnemolite memory: `invoke(query)` runs hybrid recall and returns
 * one `Document` per hit.
 */
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { MnemoliteError } from '../../errors.js';
import type { Memory } from '../../memory/memory.js';
import type { Metadata, RecallHit, RecallOptions } from '../../types/memory.js';

/** What each returned `Document`'s `metadata` holds. */
export interface MnemoliteDocumentMetadata {
  /** The memory id (also the Document's `id`). */
  id: string;
  namespace: string;
  key: string | null;
  category: string | null;
  sessionId: string | null;
  /** The memory's own metadata, unchanged (kept apart so no field can shadow the ones above). */
  metadata: Metadata;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  /** When it happened (ISO 8601), or null when not given. */
  eventAt: string | null;
  /** Fused recall score, higher is better. */
  score: number;
  keywordRank?: number;
  vectorRank?: number;
}

/** Options for {@link MnemoliteRetriever}. */
export interface MnemoliteRetrieverInput extends BaseRetrieverInput {
  /** The memory to search (the retriever does not close it). */
  memory: Memory;
  /** Recall options for every query: namespace, limit (default 4), mode, filters, fusion... */
  recall?: RecallOptions;
}

/** The Document for one recall hit. */
export function hitToDocument(h: RecallHit): Document<MnemoliteDocumentMetadata> {
  const metadata: MnemoliteDocumentMetadata = {
    id: h.id,
    namespace: h.namespace,
    key: h.key,
    category: h.category,
    sessionId: h.sessionId,
    metadata: h.metadata,
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
    eventAt: h.eventAt ? h.eventAt.toISOString() : null,
    score: h.score,
  };
  if (h.keywordRank !== undefined) metadata.keywordRank = h.keywordRank;
  if (h.vectorRank !== undefined) metadata.vectorRank = h.vectorRank;
  return new Document({ pageContent: h.content, metadata, id: h.id });
}

/**
 * LangChain `BaseRetriever` backed by mnemolite's hybrid recall.
 *
 * @example
 * const retriever = new MnemoliteRetriever({ memory: mem, recall: { namespace: 'user-42', limit: 5 } });
 * const docs = await retriever.invoke('what does the user eat?');
 */
export class MnemoliteRetriever extends BaseRetriever<MnemoliteDocumentMetadata> {
  static lc_name(): string {
    return 'MnemoliteRetriever';
  }

  lc_namespace = ['mnemolite', 'retrievers'];

  private readonly memory: Memory;
  private readonly recall: RecallOptions;

  constructor(fields: MnemoliteRetrieverInput) {
    super(fields);
    if (!fields?.memory || typeof (fields.memory as Partial<Memory>).recall !== 'function') {
      throw new MnemoliteError('INVALID_INPUT', 'MnemoliteRetriever expects { memory } with a Memory from openMemory().');
    }
    this.memory = fields.memory;
    this.recall = { limit: 4, ...(fields.recall ?? {}) };
  }

  async _getRelevantDocuments(query: string): Promise<Document<MnemoliteDocumentMetadata>[]> {
    return (await this.memory.recall(query, this.recall)).map(hitToDocument);
  }
}
