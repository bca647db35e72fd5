/**
 * A LangGraph `BaseStore` whose items live in a mnemolite memory (one SQLite file, or PostgreSQL),
 * searched by mnemolite's hybrid recall.
 *
 * One item is one memory:
 * - namespace tuple → mnemolite namespace (`["users", "42"]` → `users/42`, reversible: namespace.ts);
 * - item key → the memory's `key` (so `put` is mnemolite's upsert: same id, `createdAt` kept) and
 *   also its `sessionId`, because mnemolite filters by session id but not by key, and `get` must be
 *   one indexed lookup, not a scan;
 * - value → the memory's metadata, as JSON (so scalar equality filters run inside recall);
 * - the text of the `index` fields → the memory's content (what keyword and vector recall search);
 * - category `langgraph`, or `langgraph-unindexed` for items put with `index: false` (or whose
 *   fields hold no text): they are found by filters and listings but never ranked by a query.
 */
import {
  BaseStore,
  InvalidNamespaceError,
  validateNamespace,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from '@langchain/langgraph-checkpoint';
import { MnemoliteError } from '../../errors.js';
import type { Memory } from '../../memory/memory.js';
import type { AddInput, MemoryRecord, RecallMode } from '../../types/memory.js';
import { ALL_NAMESPACES } from '../../validate.js';
import { searchText } from './fields.js';
import { checkFilter, matches, pushDown } from './filter.js';
import { decodeKey, decodeNamespace, encodeKey, encodeNamespace } from './namespace.js';

/** Category of items that queries rank. */
export const INDEXED_CATEGORY = 'langgraph';
/** Category of items stored with `index: false` (or no text in their index fields). */
export const UNINDEXED_CATEGORY = 'langgraph-unindexed';

/** Most results one recall call returns (mnemolite's limit). */
const MAX_RECALL = 1000;
/** Page size when scanning a namespace. */
const PAGE = 500;

/** Options for {@link MnemoliteStore}. */
export interface MnemoliteStoreOptions {
  /** Index settings. */
  index?: {
    /**
     * Value fields whose text is searched by `query` (LangGraph path syntax: `"text"`,
     * `"meta.title"`, `"chunks[*].text"`, `"items[-1]"`). Default `["$"]`: the whole value as JSON.
     * A `put` with an `index` list overrides this for that item; `index: false` makes it unsearchable by query.
     */
    fields?: string[];
  };
  /** Recall mode for `query` (default: `hybrid` with an embedder, `keyword` without). */
  mode?: RecallMode;
}

interface Target {
  enc: string;
  keyEnc: string;
}

/**
 * LangGraph long-term memory store backed by mnemolite: `put`/`get`/`search`/`delete`/
 * `listNamespaces`/`batch` with hierarchical namespaces, and natural-language `query` through
 * hybrid (keyword + vector) recall.
 *
 * The store does not own the memory: close it yourself when done.
 *
 * @example
 * const mem = await openMemory({ path: 'memory.db' });
 * const store = new MnemoliteStore(mem, { index: { fields: ['text'] } });
 * const graph = builder.compile({ store });
 */
export class MnemoliteStore extends BaseStore {
  private readonly fields: string[];
  private readonly mode: RecallMode | undefined;

  constructor(
    private readonly memory: Memory,
    options: MnemoliteStoreOptions = {},
  ) {
    super();
    if (!memory || typeof (memory as Partial<Memory>).recall !== 'function')
      throw new MnemoliteError('INVALID_INPUT', 'MnemoliteStore expects a Memory from openMemory().');
    const fields = options.index?.fields ?? ['$'];
    if (!Array.isArray(fields) || !fields.length || !fields.every((f) => typeof f === 'string')) {
      throw new MnemoliteError('INVALID_INPUT', 'MnemoliteStore: index.fields must be a non-empty list of field paths such as ["text"].');
    }
    this.fields = [...fields];
    this.mode = options.mode;
  }

  /**
   * Runs operations. Everything is validated first (bad input throws and writes nothing); reads
   * see the store as it was before this batch's writes; puts to the same item keep the last one,
   * and all puts are written in one transaction.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    if (!Array.isArray(operations)) throw new MnemoliteError('INVALID_INPUT', 'batch expects an array of operations.');
    const writes = new Map<string, { op: PutOperation; target: Target }>();
    for (const op of operations) {
      if ('namespace' in op) validateNamespace(op.namespace, { allowReservedRoot: true });
      if ('namespacePrefix' in op) {
        if (op.namespacePrefix.length) validateNamespace(op.namespacePrefix, { allowReservedRoot: true });
        checkFilter(op.filter);
      }
      if ('value' in op) {
        const target = { enc: encodeNamespace(op.namespace), keyEnc: encodeKey(op.key) };
        if (op.value !== null && (typeof op.value !== 'object' || Array.isArray(op.value))) {
          throw new MnemoliteError('INVALID_INPUT', `put: the value of "${op.key}" must be a JSON object (or null to delete).`);
        }
        writes.set(JSON.stringify([target.enc, target.keyEnc]), { op, target });
      } else if ('key' in op) {
        encodeNamespace(op.namespace);
        encodeKey(op.key);
      }
    }
    const puts: AddInput[] = [];
    for (const { op, target } of writes.values()) if (op.value !== null) puts.push(this.toInput(op, target));

    const results: unknown[] = [];
    for (const op of operations) {
      if ('value' in op) results.push(undefined);
      else if ('namespacePrefix' in op) results.push(await this.searchOp(op));
      else if ('key' in op) results.push(await this.getOp(op));
      else if ('matchConditions' in op || 'maxDepth' in op || 'limit' in op) results.push(await this.listNamespacesOp(op as ListNamespacesOperation));
      else throw new MnemoliteError('INVALID_INPUT', 'batch: unknown operation (expected get, search, put or listNamespaces).');
    }

    if (puts.length) await this.memory.addMany(puts);
    for (const { op, target } of writes.values()) {
      if (op.value !== null) continue;
      const rec = await this.find(target);
      if (rec) await this.memory.forget(rec.id, { namespace: target.enc });
    }
    return results as OperationResults<Op>;
  }

  /** The memory input for a put. */
  private toInput(op: PutOperation, target: Target): AddInput {
    const value = op.value as Record<string, unknown>;
    const paths = op.index === false ? [] : (op.index ?? this.fields);
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) {
      throw new MnemoliteError('INVALID_INPUT', `put: index must be false or a list of field paths (item "${op.key}").`);
    }
    const text = paths.length ? searchText(value, paths) : null;
    return {
      // An unindexed item still needs content; its JSON keeps it readable in other mnemolite tools.
      content: text ?? JSON.stringify(value),
      namespace: target.enc,
      key: target.keyEnc,
      sessionId: target.keyEnc,
      // The session id is the key (for get): an item is a standalone value, never another's context.
      contextWindow: 0,
      category: text === null ? UNINDEXED_CATEGORY : INDEXED_CATEGORY,
      metadata: value,
    };
  }

  private async find(target: Target): Promise<MemoryRecord | undefined> {
    const rows = await this.memory.list({ namespace: target.enc, sessionId: target.keyEnc, limit: 10 });
    return rows.find((r) => r.key === target.keyEnc && isItem(r));
  }

  private async getOp(op: GetOperation): Promise<Item | null> {
    const rec = await this.find({ enc: encodeNamespace(op.namespace), keyEnc: encodeKey(op.key) });
    return rec ? toItem(rec, [...op.namespace]) : null;
  }

  /** mnemolite namespaces of LangGraph items under a prefix, decoded. */
  private async namespacesUnder(prefix: readonly string[]): Promise<Map<string, string[]>> {
    const { namespaces } = await this.memory.stats();
    const out = new Map<string, string[]>();
    for (const enc of Object.keys(namespaces).sort()) {
      const labels = decodeNamespace(enc);
      if (!labels || labels.length < prefix.length || !prefix.every((p, i) => labels[i] === p)) continue;
      out.set(enc, labels);
    }
    return out;
  }

  /** Every item under the namespaces, oldest first per namespace, passing the filter. */
  private async *scan(namespaces: Map<string, string[]>, filter: Record<string, unknown> | undefined): AsyncGenerator<SearchItem> {
    const metadata = pushDown(filter);
    for (const [enc, labels] of namespaces) {
      for (let offset = 0; ; offset += PAGE) {
        const rows = await this.memory.list({ namespace: enc, order: 'asc', limit: PAGE, offset, ...(metadata ? { metadata } : {}) });
        for (const r of rows) if (isItem(r) && matches(r.metadata, filter)) yield toItem(r, labels);
        if (rows.length < PAGE) break;
      }
    }
  }

  private async searchOp(op: SearchOperation): Promise<SearchItem[]> {
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 0 || !Number.isInteger(offset) || offset < 0) {
      throw new MnemoliteError('INVALID_INPUT', `search: limit and offset must be whole numbers ≥ 0 (got ${limit}, ${offset}).`);
    }
    const filter = checkFilter(op.filter);
    const namespaces = await this.namespacesUnder(op.namespacePrefix);
    const want = offset + limit;
    const out: SearchItem[] = [];
    const seen = new Set<string>();
    if (op.query !== undefined && op.query !== null && String(op.query).trim() !== '' && namespaces.size && limit > 0) {
      for (const item of await this.ranked(String(op.query), namespaces, filter, want)) {
        seen.add(JSON.stringify([item.namespace, item.key]));
        out.push(item);
      }
    }
    // Without a query, and after the ranked hits, items come unranked in storage order (LangGraph's
    // stores return every match too: unindexed items last, without a score).
    if (out.length < want) {
      for await (const item of this.scan(namespaces, filter)) {
        if (seen.has(JSON.stringify([item.namespace, item.key]))) continue;
        out.push(item);
        if (out.length >= want) break;
      }
    }
    return out.slice(offset, want);
  }

  /** Hybrid recall over the namespaces, filtered, best first; asks for more when filters drop hits. */
  private async ranked(query: string, namespaces: Map<string, string[]>, filter: Record<string, unknown> | undefined, want: number): Promise<SearchItem[]> {
    const metadata = pushDown(filter);
    const single = namespaces.size === 1 ? [...namespaces.keys()][0]! : ALL_NAMESPACES;
    for (let ask = Math.min(MAX_RECALL, Math.max(want, 10)); ; ask = Math.min(MAX_RECALL, ask * 4)) {
      const hits = await this.memory.recall(query, {
        namespace: single,
        category: INDEXED_CATEGORY,
        limit: ask,
        ...(metadata ? { metadata } : {}),
        ...(this.mode ? { mode: this.mode } : {}),
      });
      const kept: SearchItem[] = [];
      for (const h of hits) {
        const labels = namespaces.get(h.namespace);
        if (!labels || !matches(h.metadata, filter)) continue;
        kept.push({ ...toItem(h, labels), score: h.score });
      }
      if (kept.length >= want || hits.length < ask || ask >= MAX_RECALL) return kept;
    }
  }

  private async listNamespacesOp(op: ListNamespacesOperation): Promise<string[][]> {
    const limit = op.limit ?? 100;
    const offset = op.offset ?? 0;
    const all = await this.namespacesUnder([]);
    let found: string[][] = [];
    for (const [enc, labels] of all) {
      if (!(op.matchConditions ?? []).every((c) => matchesCondition(c, labels))) continue;
      const n =
        (await this.memory.count({ namespace: enc, category: INDEXED_CATEGORY })) + (await this.memory.count({ namespace: enc, category: UNINDEXED_CATEGORY }));
      if (n > 0) found.push(labels);
    }
    if (op.maxDepth !== undefined) {
      const byKey = new Map(
        found.map((l) => {
          const t = l.slice(0, op.maxDepth);
          return [JSON.stringify(t), t] as const;
        }),
      );
      found = [...byKey.values()];
    }
    found.sort(compareTuples);
    return found.slice(offset, offset + limit);
  }
}

function isItem(r: MemoryRecord): boolean {
  return (r.category === INDEXED_CATEGORY || r.category === UNINDEXED_CATEGORY) && r.key !== null;
}

function toItem(r: MemoryRecord, namespace: string[]): SearchItem {
  return { namespace: [...namespace], key: decodeKey(r.key!), value: r.metadata, createdAt: r.createdAt, updatedAt: r.updatedAt };
}

function matchesCondition(c: MatchCondition, labels: string[]): boolean {
  const path = c.path;
  if (path.length > labels.length) return false;
  const at = c.matchType === 'suffix' ? labels.length - path.length : 0;
  if (c.matchType !== 'prefix' && c.matchType !== 'suffix') throw new InvalidNamespaceError(`Unsupported match type: ${String(c.matchType)}`);
  return path.every((p, i) => p === '*' || labels[at + i] === p);
}

function compareTuples(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}
