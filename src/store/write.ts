/**
 * Writes of the SQLite file with their lifecycle: the file's answers to the add decision
 * (src/lifecycle/add.ts), and the lifecycle columns of an add, update or import. Runs inside the
 * caller's write transaction.
 */
import { addDecision, runSync, type AddPlan, type AddTarget, type MergeFields, type NearMatch, type NearPolicy } from '../lifecycle/add.js';
import { dedupHash } from '../lifecycle/dedup.js';
import { expiryOnAdd, expiryOnUpdate, type ParsedLifecycleUpdate } from '../options/lifecycle.js';
import type { AddResult } from '../types/memory.js';
import { type NearDuplicates, findExactDuplicate, type NearCandidate } from './dedup.js';
import type { MemoryRow, NewRow } from '../types/rows.js';
import type { Store } from './store.js';

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
  store
    .stmt(`UPDATE memories SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE seq = @seq`)
    .run({ ...Object.fromEntries(keys.map((k) => [k, cols[k]])), seq });
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

/** Near-duplicate search for one item of a batch: index candidates found before the write transaction. */
export interface NearContext {
  finder: NearDuplicates;
  candidates: NearCandidate[];
  vec: Float32Array;
  policy: NearPolicy;
}

/** Everything {@link writeMemory} needs about one add. */
export interface WriteInput {
  /** The base columns (as the plain add would write them). */
  row: Omit<NewRow, 'id' | 'created_at'>;
  opts: AddPlan['opts'];
  /** The memory with the same key, for upserts. */
  existing: MemoryRow | undefined;
  nowIso: string;
  near?: NearContext | undefined;
  newId: () => string;
}

/** Write one memory (upsert, dedup, merge or insert) with its lifecycle columns: the add decision over the file. */
export function writeMemory(store: Store, w: WriteInput): AddResult {
  const { row, opts, nowIso } = w;
  const ns = row.namespace;
  const life: LifecycleColumns = {
    expires_at: expiryOnAdd(opts, nowIso),
    pinned: opts.pinned ? 1 : 0,
    importance: opts.importance ?? null,
    dedup_hash: dedupHash(row.content),
  };
  const insert = (key: string | null): string => {
    const id = w.newId();
    const seq = store.insert({ ...row, ...life, key, id, created_at: opts.createdAt ?? nowIso });
    if (w.near) w.near.finder.record(ns, w.near.vec, seq, id, row.content);
    return id;
  };
  const target: AddTarget = {
    upsertByKey: () => {
      if (!w.existing) return { id: insert(row.key), replaced: false };
      store.replace(w.existing.seq, row);
      setLifecycle(store, w.existing.seq, { ...life, superseded_by: null });
      return { id: w.existing.id, replaced: true };
    },
    exactDuplicate: () => findExactDuplicate(store, ns, life.dedup_hash!, nowIso),
    nearCandidates: (threshold): NearMatch[] => (w.near ? w.near.finder.resolve(w.near.candidates, ns, w.near.vec, threshold, nowIso) : []),
    mergeFields: (id): MergeFields => {
      const old = store.getById(id)!;
      return {
        metadata: old.metadata,
        category: old.category,
        session_id: old.session_id,
        expires_at: old.expires_at,
        pinned: old.pinned === 1,
        importance: old.importance,
      };
    },
    mergeInto: (id, m) => {
      const old = store.getById(id)!;
      // The event time is the old memory's unless this add gives one (as category and session).
      store.replace(old.seq, { ...row, key: old.key, category: m.category, session_id: m.session_id, metadata: m.metadata, event_at: opts.eventAt });
      setLifecycle(store, old.seq, { expires_at: m.expires_at, pinned: m.pinned ? 1 : 0, importance: m.importance, dedup_hash: life.dedup_hash! });
    },
    insert: () => insert(row.key),
    namespaceOf: (id) => store.getById(id)?.namespace,
    supersededChainReaches: (from, to) => {
      const next = store.stmt('SELECT superseded_by FROM memories WHERE id = ?').pluck();
      let cur: string | null = from;
      // Bounded: a cycle made by hand in the file cannot loop forever.
      for (let i = 0; cur !== null && i < 10_000; i++) {
        cur = (next.get(cur) as string | null | undefined) ?? null;
        if (cur === to) return true;
      }
      return false;
    },
    setSupersededBy: (targetId, successorId) => {
      setLifecycle(store, store.getById(targetId)!.seq, { superseded_by: successorId });
    },
  };
  return runSync(
    addDecision(target, {
      opts,
      namespace: ns,
      nowIso,
      near: w.near?.policy,
      fields: { metadata: row.metadata, category: row.category, session_id: row.session_id },
    }),
  );
}
