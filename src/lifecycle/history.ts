/**
 * History: previous contents of a memory (kept by the `memories_history_update` trigger on every
 * content change) and, through `superseded_by`, the memories it replaced.
 *
 * Read in two steps so a page costs only its own texts: first every version's dates (no text),
 * ordered; then the texts of the versions on the asked page. A memory updated 1,000 times with
 * 100 kB each no longer loads 100 MB to show 20 versions.
 */
import type { MemoryVersion } from '../types/lifecycle.js';

/** A memory as history orders it (no text). */
export interface HistoryRow {
  id: string;
  namespace: string;
  created_at: string;
}

/** The text of a version, or of a memory's current content. */
export interface HistoryText {
  content: string;
  category: string | null;
  metadata: string;
}

/** Where history reads from. */
export interface HistorySource {
  historyRow(id: string): Promise<HistoryRow | undefined>;
  /** Memories directly superseded by `id`, oldest first. */
  predecessors(id: string): Promise<HistoryRow[]>;
  /** Previous contents of `id`, oldest first: their version numbers and when each was replaced. */
  versions(id: string): Promise<{ version: number; replaced_at: string }[]>;
  /** The texts of some previous contents, by version number. */
  versionTexts(versions: number[]): Promise<Map<number, HistoryText>>;
  /** The current texts of some memories, by id. */
  memoryTexts(ids: string[]): Promise<Map<string, HistoryText>>;
}

/** Which versions to return: `offset` skips the oldest, `limit` caps how many (default all). */
export interface HistoryPage {
  offset?: number;
  limit?: number;
}

/** A version before its text is read: a history row (`version`) or a memory's current content. */
interface Slot {
  id: string;
  version?: number;
  validFrom: string;
  validUntil: string | null;
  endedBy?: 'updated' | 'superseded';
}

/**
 * Versions of memory `id`, oldest first; the last one is its current content. Memories it
 * superseded (directly or through a chain) contribute their versions too, each ending when its
 * successor was created. Empty when the memory does not exist.
 */
export async function memoryHistory(src: HistorySource, id: string, page: HistoryPage = {}): Promise<MemoryVersion[]> {
  const root = await src.historyRow(id);
  if (!root) return [];

  const slots: Slot[] = [];
  /** Versions of one memory; its last content ends at `endedAt` (null = current). */
  const add = async (m: HistoryRow, endedAt: string | null): Promise<void> => {
    let from = m.created_at;
    for (const v of await src.versions(m.id)) {
      slots.push({ id: m.id, version: v.version, validFrom: from, validUntil: v.replaced_at, endedBy: 'updated' });
      from = v.replaced_at;
    }
    slots.push({ id: m.id, validFrom: from, validUntil: endedAt, ...(endedAt !== null ? { endedBy: 'superseded' as const } : {}) });
  };

  await add(root, null);
  const seen = new Set([root.id]);
  const queue: HistoryRow[] = [root];
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
  const time = (s: string): number => new Date(s).getTime();
  slots.sort((a, b) => Number(a.validUntil === null) - Number(b.validUntil === null) || time(a.validFrom) - time(b.validFrom));
  const offset = page.offset ?? 0;
  const wanted = slots.slice(offset, page.limit === undefined ? undefined : offset + page.limit);

  const versionTexts = await src.versionTexts(wanted.flatMap((s) => (s.version !== undefined ? [s.version] : [])));
  const memoryTexts = await src.memoryTexts([...new Set(wanted.flatMap((s) => (s.version === undefined ? [s.id] : [])))]);
  const out: MemoryVersion[] = [];
  for (const s of wanted) {
    const t = s.version !== undefined ? versionTexts.get(s.version) : memoryTexts.get(s.id);
    if (!t) continue; // forgotten between the two reads
    const v: MemoryVersion = {
      id: s.id,
      content: t.content,
      category: t.category,
      metadata: JSON.parse(t.metadata) as Record<string, unknown>,
      validFrom: new Date(s.validFrom),
      validUntil: s.validUntil === null ? null : new Date(s.validUntil),
      current: s.validUntil === null,
    };
    if (s.endedBy) v.endedBy = s.endedBy;
    out.push(v);
  }
  return out;
}
