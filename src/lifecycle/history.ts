/**
 * History: previous contents of a memory (kept by the `memories_history_update` trigger on every
 * content change) and, through `superseded_by`, the memories it replaced.
 */
import type { MemoryVersion } from '../types/lifecycle.js';

/** A memory as history reads it. */
export interface HistoryRow {
  id: string;
  namespace: string;
  content: string;
  category: string | null;
  metadata: string;
  created_at: string;
}
type Row = HistoryRow;

/** Where history reads from. */
export interface HistorySource {
  historyRow(id: string): Promise<HistoryRow | undefined>;
  /** Memories directly superseded by `id`, oldest first. */
  predecessors(id: string): Promise<HistoryRow[]>;
  /** Previous contents of `id`, oldest first. */
  versions(id: string): Promise<{ content: string; category: string | null; metadata: string; replaced_at: string }[]>;
}

/**
 * Versions of memory `id`, oldest first; the last one is its current content. Memories it
 * superseded (directly or through a chain) contribute their versions too, each ending when its
 * successor was created. Empty when the memory does not exist.
 */
export async function memoryHistory(src: HistorySource, id: string): Promise<MemoryVersion[]> {
  const root = await src.historyRow(id);
  if (!root) return [];

  const out: MemoryVersion[] = [];
  /** Versions of one memory; its last content ends at `endedAt` (null = current). */
  const add = async (m: Row, endedAt: string | null): Promise<void> => {
    let from = m.created_at;
    for (const v of await src.versions(m.id)) {
      out.push({
        id: m.id,
        content: v.content,
        category: v.category,
        metadata: JSON.parse(v.metadata) as Record<string, unknown>,
        validFrom: new Date(from),
        validUntil: new Date(v.replaced_at),
        current: false,
        endedBy: 'updated',
      });
      from = v.replaced_at;
    }
    const last: MemoryVersion = {
      id: m.id,
      content: m.content,
      category: m.category,
      metadata: JSON.parse(m.metadata) as Record<string, unknown>,
      validFrom: new Date(from),
      validUntil: endedAt === null ? null : new Date(endedAt),
      current: endedAt === null,
    };
    if (endedAt !== null) last.endedBy = 'superseded';
    out.push(last);
  };

  await add(root, null);
  const seen = new Set([root.id]);
  const queue: Row[] = [root];
  while (queue.length && seen.size < 10_000) {
    const succ = queue.shift()!;
    for (const p of await src.predecessors(succ.id)) {
      // A link from another namespace (imported before such links were refused) must not show
      // that namespace's text to a reader of this one.
      if (seen.has(p.id) || p.namespace !== root.namespace) continue;
      seen.add(p.id);
      await add(p, succ.created_at);
      queue.push(p);
    }
  }
  // Oldest first; the current version last.
  return out.sort((a, b) => Number(a.current) - Number(b.current) || a.validFrom.getTime() - b.validFrom.getTime());
}
