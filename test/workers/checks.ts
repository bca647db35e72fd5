/**
 * Visibility checks of the concurrency scenario, used by the reader workers and by the parent
 * test on its own long-lived Memory. Each check reads the truth from the file's tables (list /
 * count / get run SQL) before and after a recall, and only makes a claim when the truth did not
 * change in between.
 */
import type { Memory, MemoryRecord, RecallMode } from '../../src/index.js';
import { dContent } from './common.js';

export type Outcome = { kind: 'visible' | 'deleted' | 'pairPresent' | 'skipped' } | { kind: 'violation'; what: string; detail: Record<string, unknown> };

const MODES: readonly RecallMode[] = ['vector', 'hybrid', 'keyword'];
export { MODES };

const same = (x: MemoryRecord | null, y: MemoryRecord | null): boolean =>
  !!x && !!y && x.content === y.content && x.updatedAt.getTime() === y.updatedAt.getTime();

/** A note that exists unchanged before and after the recall is found, with its current text and vector. */
export async function checkNote(mem: Memory, m: MemoryRecord, mode: RecallMode): Promise<Outcome> {
  const hits = await mem.recall(m.content, { mode, namespace: m.namespace, sessionId: m.sessionId!, limit: 1 });
  const after = await mem.get(m.id);
  if (!same(m, after)) return { kind: 'skipped' };
  const h = hits[0];
  const got = hits.map((x) => [x.id, x.content, x.score]);
  if (hits.length !== 1 || h!.id !== m.id || h!.content !== m.content)
    return { kind: 'violation', what: 'note not visible', detail: { mode, id: m.id, content: m.content, got } };
  if (mode === 'vector' && !(h!.score > 0.9999)) return { kind: 'violation', what: 'stale vector', detail: { id: m.id, got } };
  if (mode === 'hybrid' && (h!.vectorRank !== 1 || h!.keywordRank !== 1))
    return { kind: 'violation', what: 'hybrid ranks', detail: { id: m.id, vectorRank: h!.vectorRank, keywordRank: h!.keywordRank } };
  return { kind: 'visible' };
}

/**
 * Pair (D, E) in one category. With one candidate per leg, a recall for D's exact text returns D
 * while D exists and E once D is forgotten; an index still holding a forgotten D ranks it first,
 * and the result comes back empty.
 */
export async function checkPair(mem: Memory, e: MemoryRecord, mode: RecallMode, byCategory = false): Promise<Outcome> {
  // The pair has its own namespace; narrowing by category as well moves part of the filter to SQL.
  const scope = byCategory ? { namespace: e.namespace, category: e.category! } : { namespace: e.namespace };
  const pair = e.metadata.pair as string;
  const n0 = await mem.count(scope);
  const hits = await mem.recall(dContent(pair), { ...scope, mode, limit: 1, candidates: 1 });
  const n1 = await mem.count(scope);
  const e1 = await mem.get(e.id);
  const got = hits.map((x) => [x.id, x.content]);
  if (n0 === 1 && n1 === 1 && e1) {
    if (hits.length !== 1 || hits[0]!.id !== e.id)
      return { kind: 'violation', what: 'forgotten memory still in the index', detail: { mode, byCategory, pair, got } };
    return { kind: 'deleted' };
  }
  if (n0 === 2 && n1 === 2) {
    if (hits.length !== 1 || hits[0]!.content !== dContent(pair))
      return { kind: 'violation', what: 'new memory missing from the index', detail: { mode, byCategory, pair, got } };
    return { kind: 'pairPresent' };
  }
  return { kind: 'skipped' };
}

/** Memories with metadata role `role`, oldest first, every `stride`-th one (paged, so any number works). */
async function* everyNth(mem: Memory, role: string, stride: number): AsyncGenerator<MemoryRecord> {
  let i = 0;
  for (let offset = 0; ; offset += 5000) {
    const page = await mem.list({ namespace: '*', metadata: { role }, limit: 5000, offset, order: 'asc' });
    for (const m of page) if (i++ % stride === 0) yield m;
    if (page.length < 5000) return;
  }
}

/** How many memories {@link sweep} checks out of `n` with `stride`. */
export const swept = (n: number, stride: number): number => Math.ceil(n / stride);

/**
 * Every `stride`-th note and pair of the file: in every mode (pairs with and without the
 * category filter) when `full`, else one rotating mode per memory.
 */
export async function sweep(mem: Memory, tally: (o: Outcome) => void, full = true, stride = 1): Promise<void> {
  let i = 0;
  for await (const m of everyNth(mem, 'note', stride)) {
    for (const mode of full ? MODES : [MODES[i++ % 3]!]) tally(await checkNote(mem, m, mode));
  }
  for await (const e of everyNth(mem, 'e', stride)) {
    if (full) for (const mode of MODES) for (const byCategory of [false, true]) tally(await checkPair(mem, e, mode, byCategory));
    else {
      tally(await checkPair(mem, e, MODES[i % 3]!, i % 2 === 0));
      i++;
    }
  }
}
