/**
 * History: previous contents of a memory (kept by the `memories_history_update` trigger on every
 * content change) and, through `superseded_by`, the memories it replaced.
 */
import type { Store } from '../store/store.js';
import type { MemoryVersion } from './types.js';

interface Row { id: string; content: string; category: string | null; metadata: string; created_at: string }

/**
 * Versions of memory `id`, oldest first; the last one is its current content. Memories it
 * superseded (directly or through a chain) contribute their versions too, each ending when its
 * successor was created. Empty when the memory does not exist.
 */
export function memoryHistory(store: Store, id: string): MemoryVersion[] {
  const getRow = store.db.prepare('SELECT id, content, category, metadata, created_at FROM memories WHERE id = ?');
  const predecessors = store.db.prepare('SELECT id, content, category, metadata, created_at FROM memories WHERE superseded_by = ? ORDER BY seq');
  const versions = store.db.prepare('SELECT content, category, metadata, replaced_at FROM memory_history WHERE memory_id = ? ORDER BY version');
  const root = getRow.get(id) as Row | undefined;
  if (!root) return [];

  const out: MemoryVersion[] = [];
  /** Versions of one memory; its last content ends at `endedAt` (null = current). */
  const add = (m: Row, endedAt: string | null): void => {
    let from = m.created_at;
    for (const v of versions.all(m.id) as { content: string; category: string | null; metadata: string; replaced_at: string }[]) {
      out.push({ id: m.id, content: v.content, category: v.category, metadata: JSON.parse(v.metadata) as Record<string, unknown>, validFrom: new Date(from), validUntil: new Date(v.replaced_at), current: false, endedBy: 'updated' });
      from = v.replaced_at;
    }
    const last: MemoryVersion = {
      id: m.id, content: m.content, category: m.category, metadata: JSON.parse(m.metadata) as Record<string, unknown>,
      validFrom: new Date(from), validUntil: endedAt === null ? null : new Date(endedAt), current: endedAt === null,
    };
    if (endedAt !== null) last.endedBy = 'superseded';
    out.push(last);
  };

  add(root, null);
  const seen = new Set([root.id]);
  const queue: Row[] = [root];
  while (queue.length && seen.size < 10_000) {
    const succ = queue.shift()!;
    for (const p of predecessors.all(succ.id) as Row[]) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      add(p, succ.created_at);
      queue.push(p);
    }
  }
  // Oldest first; the current version last.
  return out.sort((a, b) => Number(a.current) - Number(b.current) || a.validFrom.getTime() - b.validFrom.getTime());
}
