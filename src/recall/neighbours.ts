/**
 * Neighbouring turns (the `neighbours` recall option): each hit in a session gets the turns just
 * before and after it, read through {@link Backend.sessionAround} and the rows the recall shares.
 * A turn that is a hit itself, or was shown around a better hit, is not repeated.
 */
import type { Backend } from '../backend/types.js';
import { toRecord } from '../backend/records.js';
import type { MemoryRecord } from '../types/memory.js';
import type { RecallReads } from './read-once.js';

/** Turns around each hit (by seq), best hit first; hits outside a session get none. */
export async function neighboursOf(
  backend: Pick<Backend, 'sessionAround'>,
  reads: RecallReads,
  hits: readonly { seq: number }[],
  want: { before?: number; after?: number },
  now: string,
): Promise<Map<number, { before: MemoryRecord[]; after: MemoryRecord[] }>> {
  const out = new Map<number, { before: MemoryRecord[]; after: MemoryRecord[] }>();
  const before = want.before ?? 0;
  const after = want.after ?? 0;
  if (!hits.length || (!before && !after)) return out;
  const rows = await reads.rowsBySeqs(hits.map((h) => h.seq));
  const shown = new Set(hits.map((h) => h.seq));
  const around = new Map<number, number[]>();
  for (const h of hits) {
    const r = rows.get(h.seq);
    if (!r?.session_id) continue;
    const seqs = (await backend.sessionAround(r.namespace, r.session_id, h.seq, before, after, now)).filter((s) => !shown.has(s));
    for (const s of seqs) shown.add(s);
    around.set(h.seq, seqs);
  }
  const turns = await reads.rowsBySeqs([...around.values()].flat());
  for (const [seq, seqs] of around) {
    const records = seqs.flatMap((s) => {
      const t = turns.get(s);
      return t ? [{ seq: s, record: toRecord(t) }] : [];
    });
    out.set(seq, { before: records.filter((x) => x.seq < seq).map((x) => x.record), after: records.filter((x) => x.seq > seq).map((x) => x.record) });
  }
  return out;
}
