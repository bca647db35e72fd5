import type { RowFilter } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { hasMetadataFilter } from '../store/filter.js';
import { VectorIndex, type IndexFilter, type VectorHit } from './vector-index.js';

/** Change-log entries kept in the file; a reader further behind than this rebuilds. */
export const CHANGES_KEPT = 50_000;

/**
 * The vector leg: an in-memory index derived from the memories table, kept in step with
 * this process's writes and with other processes' writes (via `PRAGMA data_version` and
 * the `changes` log), so recall never returns deleted memories or misses new ones.
 */
export class VectorLeg {
  private readonly store: Store;
  private readonly model: string;
  private readonly dims: number;
  private index: VectorIndex | null = null;
  private seenVersion = 0;
  private seenDataVersion = -1;
  private dirty = true;

  constructor(store: Store, model: string, dims: number) {
    this.store = store;
    this.model = model;
    this.dims = dims;
  }

  /** Note a write made through this connection (data_version does not change for those). */
  markDirty(): void {
    this.dirty = true;
  }

  /** Live vectors in the index (after syncing). */
  size(): number {
    return this.sync().count;
  }

  private rebuild(): VectorIndex {
    const idx = new VectorIndex(this.dims);
    this.store.read('load vectors', () => {
      // One read transaction so the change-log position matches the rows read.
      this.store.db.transaction(() => {
        this.seenVersion = this.store.changeVersion();
        for (const r of this.store.vectorRows(this.model)) idx.upsert(r);
      })();
    });
    this.index = idx;
    return idx;
  }

  /** Bring the index up to date with the file; cheap when nothing changed. */
  sync(): VectorIndex {
    const dv = this.store.read('check for changes', () => this.store.dataVersion());
    if (this.index && !this.dirty && dv === this.seenDataVersion) return this.index;
    this.seenDataVersion = dv;
    this.dirty = false;
    if (!this.index) return this.rebuild();
    const idx = this.index;
    const behind = this.store.read('read the change log', () => this.store.db.transaction(() => {
      const ch = this.store.changesSince(this.seenVersion);
      if (ch.oldest !== 0 && ch.oldest > this.seenVersion + 1) return null; // log pruned past us
      const rows = ch.seqs.length ? this.store.vectorRowsBySeqs(this.model, ch.seqs) : [];
      return { ch, rows };
    })());
    if (!behind) return this.rebuild();
    const present = new Set<number>();
    for (const r of behind.rows) { idx.upsert(r); present.add(r.seq); }
    for (const s of behind.ch.seqs) if (!present.has(s)) idx.remove(s);
    this.seenVersion = behind.ch.latest;
    return idx;
  }

  /** Top-k by cosine among memories passing the filter. */
  search(query: Float32Array, k: number, f: RowFilter): VectorHit[] {
    const idx = this.sync();
    const filter: IndexFilter = {};
    if (f.namespace !== undefined) filter.namespace = f.namespace;
    if (f.category !== undefined) filter.category = f.category;
    if (f.sessionId !== undefined) filter.sessionId = f.sessionId;
    if (f.since !== undefined) filter.sinceMs = Date.parse(f.since);
    if (f.until !== undefined) filter.untilMs = Date.parse(f.until);
    if (hasMetadataFilter(f)) filter.allowed = new Set(this.store.read('filter by metadata', () => this.store.seqsMatching(f)));
    return idx.search(query, k, filter);
  }
}
