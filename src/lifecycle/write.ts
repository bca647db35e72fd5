/**
 * Writing a memory with its lifecycle: key upserts, exact and near dedup, merge, expiry,
 * pinning, importance and supersession. Runs inside the caller's write transaction.
 */
import { MnemoliteError, invalid } from '../errors.js';
import type { MemoryRow, NewRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { stmt } from './sql.js';
import type { AddResult } from '../types.js';
import { NearDuplicates, dedupHash, findExactDuplicate, type NearCandidate } from './dedup.js';
import { expiryOnAdd, expiryOnUpdate, type ParsedLifecycleAdd, type ParsedLifecycleUpdate } from './options.js';

/** Lifecycle columns that can be set on a row. */
export interface LifecycleColumns {
  expires_at?: string | null;
  pinned?: number;
  importance?: number | null;
  superseded_by?: string | null;
  dedup_hash?: string | null;
}

const SETTABLE = ['expires_at', 'pinned', 'importance', 'superseded_by', 'dedup_hash'] as const;

/** Set some lifecycle columns of a row (only the keys present in `cols`). */
export function setLifecycle(store: Store, seq: number, cols: LifecycleColumns): void {
  const keys = SETTABLE.filter((k) => cols[k] !== undefined);
  if (!keys.length) return;
  stmt(store, `UPDATE memories SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE seq = @seq`)
    .run({ ...Object.fromEntries(keys.map((k) => [k, cols[k]])), seq });
}

/** Mark `targetId` (which must be in `namespace`) as superseded by `successorId`, refusing cycles. */
export function supersede(store: Store, targetId: string, successorId: string, namespace: string): void {
  if (targetId === successorId) throw invalid(`A memory cannot supersede itself (${targetId}).`);
  const target = store.getById(targetId);
  if (!target || target.namespace !== namespace) {
    throw new MnemoliteError('NOT_FOUND', `supersedes: no memory with id ${targetId} in namespace "${namespace}". Nothing was written.`, { id: targetId });
  }
  const next = stmt(store, 'SELECT superseded_by FROM memories WHERE id = ?').pluck();
  let cur: string | null = successorId;
  for (let i = 0; cur !== null && i < 10_000; i++) {
    cur = (next.get(cur) as string | null | undefined) ?? null;
    if (cur === targetId) throw invalid(`supersedes: ${successorId} is already (indirectly) superseded by ${targetId}; a cycle is not allowed.`);
  }
  setLifecycle(store, target.seq, { superseded_by: successorId });
}

/** Near-duplicate checking for one item of a batch. */
export interface NearContext {
  finder: NearDuplicates;
  candidates: NearCandidate[];
  vec: Float32Array;
  mode: 'report' | 'merge';
  threshold: number;
}

/** Everything {@link writeMemory} needs about one add. */
export interface WriteInput {
  /** The base columns (as the plain add would write them). */
  row: Omit<NewRow, 'id' | 'created_at'>;
  opts: ParsedLifecycleAdd & { key?: string; createdAt?: string };
  /** The memory with the same key, for upserts. */
  existing: MemoryRow | undefined;
  nowIso: string;
  near?: NearContext | undefined;
  newId: () => string;
}

/** Write one memory (upsert, dedup, merge or insert) with its lifecycle columns. */
export function writeMemory(store: Store, w: WriteInput): AddResult {
  const { row, opts, nowIso } = w;
  const ns = row.namespace;
  const life: LifecycleColumns = {
    expires_at: expiryOnAdd(opts, nowIso),
    pinned: opts.pinned ? 1 : 0,
    importance: opts.importance ?? null,
    dedup_hash: dedupHash(row.content),
  };
  if (w.existing) {
    // A key upsert is a fresh statement of that fact: it is current again.
    store.replace(w.existing.seq, row);
    setLifecycle(store, w.existing.seq, { ...life, superseded_by: null });
    if (opts.supersedes !== undefined) supersede(store, opts.supersedes, w.existing.id, ns);
    return { id: w.existing.id, replaced: true };
  }
  const dedup = opts.key === undefined && !opts.force;
  if (dedup) {
    const dup = findExactDuplicate(store, ns, life.dedup_hash!, nowIso);
    if (dup) {
      if (opts.supersedes !== undefined && opts.supersedes !== dup.id) supersede(store, opts.supersedes, dup.id, ns);
      return { id: dup.id, replaced: false, deduplicated: 'exact' };
    }
  }
  let near: AddResult['nearDuplicates'];
  if (dedup && w.near) {
    const matches = w.near.finder.resolve(w.near.candidates, ns, w.near.vec, w.near.threshold, nowIso)
      .filter((m) => m.id !== opts.supersedes);
    if (matches.length) {
      near = matches.map((m) => ({ id: m.id, similarity: m.similarity, content: m.content }));
      if (w.near.mode === 'merge') {
        const id = merge(store, matches[0]!.id, row, opts, life);
        if (opts.supersedes !== undefined) supersede(store, opts.supersedes, id, ns);
        return { id, replaced: false, deduplicated: 'merged', nearDuplicates: near };
      }
    }
  }
  const id = w.newId();
  const seq = store.insert({ ...row, ...life, id, created_at: opts.createdAt ?? nowIso });
  if (opts.supersedes !== undefined) supersede(store, opts.supersedes, id, ns);
  if (w.near) w.near.finder.record(ns, w.near.vec, seq, id, row.content);
  return near ? { id, replaced: false, nearDuplicates: near } : { id, replaced: false };
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
 * The merge rules, for every store: metadata is merged (new keys win), category / session are kept
 * unless given, the memory stays pinned if either was, keeps the higher importance, and takes the
 * new expiry (`newExpiry`, from expiresAt or ttl) if one was given. The newer text wins; the old
 * one goes to history.
 */
export function mergedFields(old: MergeFields, add: { metadata: string; category: string | null; session_id: string | null }, opts: ParsedLifecycleAdd, newExpiry: string | null): MergeFields {
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

/** Fold a new add into an existing near-duplicate ({@link mergedFields}). */
function merge(store: Store, id: string, row: Omit<NewRow, 'id' | 'created_at'>, opts: ParsedLifecycleAdd, life: LifecycleColumns): string {
  const old = store.getById(id)!;
  const m = mergedFields({ ...old, pinned: old.pinned === 1 }, row, opts, life.expires_at ?? null);
  store.replace(old.seq, { ...row, key: old.key, category: m.category, session_id: m.session_id, metadata: m.metadata });
  setLifecycle(store, old.seq, { expires_at: m.expires_at, pinned: m.pinned ? 1 : 0, importance: m.importance, dedup_hash: life.dedup_hash! });
  return old.id;
}

/** Apply the lifecycle fields of an update (only those given). */
export function updateLifecycle(store: Store, seq: number, u: ParsedLifecycleUpdate, nowIso: string): void {
  const cols: LifecycleColumns = {};
  const exp = expiryOnUpdate(u, nowIso);
  if (exp !== undefined) cols.expires_at = exp;
  if (u.pinned !== undefined) cols.pinned = u.pinned ? 1 : 0;
  if (u.importance !== undefined) cols.importance = u.importance;
  setLifecycle(store, seq, cols);
}
