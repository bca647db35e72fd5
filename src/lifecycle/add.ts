/**
 * The add decision, written once for every store: key upsert, exact dedup, near-duplicate report
 * or merge, insert, and supersession with its checks. Each store implements {@link AddTarget} in
 * its own query language (src/store/write.ts for the SQLite file, src/pg/write.ts for PostgreSQL)
 * and runs {@link addDecision} inside its write transaction: the pattern of `RankSource`
 * (src/recall/rank.ts) for recall's re-ranking.
 *
 * The SQLite file answers synchronously (a better-sqlite3 transaction cannot await) and
 * PostgreSQL with promises, so the decision is a generator that yields each answer it needs:
 * {@link runSync} drives it for the file, {@link runAsync} for PostgreSQL.
 */
import { MnemoliteError, invalid } from '../errors.js';
import type { AddResult } from '../types/memory.js';
import { DEFAULT_DEDUP_THRESHOLD, expiryOnAdd, type ParsedLifecycleAdd } from '../options/lifecycle.js';

/** A value, or a promise of one: what a store's answer is. */
export type Answer<T> = T | Promise<T>;

/** A live memory (unexpired, not superseded) close to the added one. */
export interface NearMatch {
  seq: number;
  id: string;
  similarity: number;
  content: string;
}

/** The fields a near-duplicate merge reads from, and writes to, the memory it folds into. */
export interface MergeFields {
  metadata: string;
  category: string | null;
  session_id: string | null;
  expires_at: string | null;
  pinned: boolean;
  importance: number | null;
}

/**
 * What the add decision asks of a store about one item, inside the write transaction. The store
 * knows the item (content, columns, vector); the decision only says what to do with it.
 */
export interface AddTarget {
  /** Write the item under its key: replace the memory holding the key (current again), or insert one. */
  upsertByKey(): Answer<{ id: string; replaced: boolean }>;
  /** The live memory of the namespace with the same normalised content, if any. */
  exactDuplicate(): Answer<{ id: string } | undefined>;
  /** Live memories of the namespace near the item's vector (any similarity; the decision applies the threshold). */
  nearCandidates(threshold: number): Answer<NearMatch[]>;
  /** The merge fields of memory `id` (locked for the write where the store locks). */
  mergeFields(id: string): Answer<MergeFields>;
  /** Put the item's content (and vector) into memory `id`, with merged fields `m`; its old content goes to history. */
  mergeInto(id: string, m: MergeFields): Answer<void>;
  /** Insert the item as a new memory; returns its id. */
  insert(): Answer<string>;
  /** Namespace of memory `id` (locked for the write where the store locks), or undefined when it does not exist. */
  namespaceOf(id: string): Answer<string | undefined>;
  /** Whether `to` is reached from `from` by following `superseded_by` (not counting `from` itself). */
  supersededChainReaches(from: string, to: string): Answer<boolean>;
  setSupersededBy(targetId: string, successorId: string): Answer<void>;
}

/** Near-duplicate handling of one add, after the store-wide defaults. */
export interface NearPolicy {
  mode: 'report' | 'merge';
  threshold: number;
}

/**
 * Whether (and how) one add looks for near-duplicates: never with a key or `force`, nor without a
 * vector; else the add's mode and threshold, falling back to the store's defaults.
 */
export function nearPolicy(
  o: ParsedLifecycleAdd & { key?: string },
  defaults: { nearDuplicates?: 'off' | 'report' | 'merge'; dedupThreshold?: number },
  hasVector: boolean,
): NearPolicy | undefined {
  const mode = o.nearDuplicates ?? defaults.nearDuplicates ?? 'off';
  if (mode === 'off' || !hasVector || o.force || o.key !== undefined) return undefined;
  return { mode, threshold: o.dedupThreshold ?? defaults.dedupThreshold ?? DEFAULT_DEDUP_THRESHOLD };
}

/** One add, as the decision sees it. */
export interface AddPlan {
  opts: ParsedLifecycleAdd & { key?: string; createdAt?: string; eventAt?: string };
  namespace: string;
  /** The item's own fields a merge combines with the old ones. */
  fields: { metadata: string; category: string | null; session_id: string | null };
  nowIso: string;
  near: NearPolicy | undefined;
}

/** Ask the store one thing; `yield*` gives back its answer. */
function* ask<T>(answer: Answer<T>): Generator<Answer<unknown>, T, unknown> {
  return (yield answer) as T;
}

/** The steps of one add: yields the store's answers it waits for, returns the result. */
export type AddSteps = Generator<Answer<unknown>, AddResult, unknown>;

/** Decide and write one add through `t`. Drive it with {@link runSync} or {@link runAsync}. */
export function* addDecision(t: AddTarget, a: AddPlan): AddSteps {
  const { opts: o, namespace: ns } = a;
  if (o.key !== undefined) {
    // A key upsert is a fresh statement of that fact: it is current again.
    const r = yield* ask(t.upsertByKey());
    if (o.supersedes !== undefined) yield* supersede(t, o.supersedes, r.id, ns);
    return { id: r.id, replaced: r.replaced };
  }
  if (!o.force) {
    const dup = yield* ask(t.exactDuplicate());
    if (dup) {
      if (o.supersedes !== undefined && o.supersedes !== dup.id) yield* supersede(t, o.supersedes, dup.id, ns);
      return { id: dup.id, replaced: false, deduplicated: 'exact' };
    }
  }
  let near: AddResult['nearDuplicates'];
  if (!o.force && a.near) {
    const threshold = a.near.threshold;
    const matches = (yield* ask(t.nearCandidates(threshold)))
      .filter((m) => m.similarity >= threshold && m.id !== o.supersedes)
      .sort((x, y) => y.similarity - x.similarity || x.seq - y.seq);
    if (matches.length) {
      near = matches.map((m) => ({ id: m.id, similarity: m.similarity, content: m.content }));
      if (a.near.mode === 'merge') {
        const id = matches[0]!.id;
        const old = yield* ask(t.mergeFields(id));
        yield* ask(t.mergeInto(id, mergedFields(old, a.fields, o, expiryOnAdd(o, a.nowIso))));
        if (o.supersedes !== undefined) yield* supersede(t, o.supersedes, id, ns);
        return { id, replaced: false, deduplicated: 'merged', nearDuplicates: near };
      }
    }
  }
  const id = yield* ask(t.insert());
  if (o.supersedes !== undefined) yield* supersede(t, o.supersedes, id, ns);
  return near ? { id, replaced: false, nearDuplicates: near } : { id, replaced: false };
}

/** Mark `targetId` (which must be in namespace `ns`) as superseded by `successorId`, refusing cycles. */
function* supersede(t: AddTarget, targetId: string, successorId: string, ns: string): Generator<Answer<unknown>, void, unknown> {
  if (targetId === successorId) throw invalid(`A memory cannot supersede itself (${targetId}).`);
  const targetNs = yield* ask(t.namespaceOf(targetId));
  if (targetNs !== ns) {
    throw new MnemoliteError('NOT_FOUND', `supersedes: no memory with id ${targetId} in namespace "${ns}". Nothing was written.`, { id: targetId });
  }
  if (yield* ask(t.supersededChainReaches(successorId, targetId))) {
    throw invalid(`supersedes: ${successorId} is already (indirectly) superseded by ${targetId}; a cycle is not allowed.`);
  }
  yield* ask(t.setSupersededBy(targetId, successorId));
}

/**
 * The merge rules, for every store: metadata is merged (new keys win), category / session are kept
 * unless given, the memory stays pinned if either was, keeps the higher importance, and takes the
 * new expiry (`newExpiry`, from expiresAt or ttl) if one was given. The newer text wins; the old
 * one goes to history.
 */
export function mergedFields(
  old: MergeFields,
  add: { metadata: string; category: string | null; session_id: string | null },
  opts: ParsedLifecycleAdd,
  newExpiry: string | null,
): MergeFields {
  const given = opts.expiresAt !== undefined || opts.ttl !== undefined;
  const imp = [old.importance, opts.importance ?? null].filter((x): x is number => x !== null && x !== undefined);
  return {
    metadata: JSON.stringify({ ...(JSON.parse(old.metadata) as object), ...(JSON.parse(add.metadata) as object) }),
    category: add.category ?? old.category,
    session_id: add.session_id ?? old.session_id,
    expires_at: given ? newExpiry : old.expires_at,
    pinned: old.pinned || opts.pinned === true,
    importance: imp.length ? Math.max(...imp) : null,
  };
}

/** Drive steps whose every answer is a plain value (the SQLite file, inside its synchronous transaction). */
export function runSync<R>(steps: Generator<Answer<unknown>, R, unknown>): R {
  for (let r = steps.next(); ; ) {
    if (r.done) return r.value;
    if (r.value instanceof Promise) throw new Error('A synchronous store gave a promise to the add decision.');
    r = steps.next(r.value);
  }
}

/** Drive steps whose answers may be promises (PostgreSQL). */
export async function runAsync<R>(steps: Generator<Answer<unknown>, R, unknown>): Promise<R> {
  for (let r = steps.next(); ; ) {
    if (r.done) return r.value;
    r = steps.next(await r.value);
  }
}
