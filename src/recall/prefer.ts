/**
 * The query-time preferences, applied to the fused candidates before the lifecycle re-ranking:
 * time windows named in the query (src/recall/time-preference.ts), the speaker the query names
 * (src/recall/speaker-preference.ts), then current over stale (src/recall/current.ts), which is
 * skipped when the query names a time window. Reads the candidates' rows once.
 */
import type { Backend } from '../backend/types.js';
import { CALIBRATED_MODEL, currentPoolSize, preferCurrent, type CurrentMeta } from './current.js';
import { dot } from '../lifecycle/dedup.js';
import { statedAt } from '../lifecycle/update-cues.js';
import type { FusedHit } from './fusion.js';
import { storedMetadata } from '../backend/records.js';
import { preferSpeaker, speakersOf } from './speaker-preference.js';
import { hasTopic, preferWindows, queryWindows } from './time-preference.js';
import type { TimeExpression } from './time-expr.js';

/**
 * The speaker preference looks at the best 100 candidates (the rows read are those); the rest keep
 * their place below them. Ample for the recall limits the evaluations use (50).
 */
const SPEAKER_POOL = 100;
/**
 * The speaker preference runs only when one of the best 20 candidates has a speaker, so a store of
 * facts (no chats) reads 20 rows, not 100. A memory without a speaker keeps its score, so a
 * preference over lower ranks alone could only reorder speakers' turns below 20.
 */
const SPEAKER_PROBE = 20;

/** The windows `query` names relative to the recall's `now` (none with `timePreference: false`). */
export function timeWindows(query: string, o: PreferOptions): TimeExpression[] {
  return o.timePreference === false ? [] : queryWindows(query, o.now ? new Date(o.now) : new Date());
}

/** A row's time as the time preference compares it (`eventAt ?? createdAt`, or `createdAt` with `timeField: 'created'`). */
export function windowTime(r: { created_at: string; event_at: string | null }, o: PreferOptions): number {
  return o.timeField === 'created' ? Date.parse(r.created_at) : statedAt(r);
}

/** Options the preferences read (validated). */
export interface PreferOptions {
  now?: string;
  timePreference?: boolean;
  preferCurrent?: boolean;
  preferSpeaker?: boolean;
  /** The time the windows compare: `event` (default, `event_at` else `created_at`) or `created`. */
  timeField?: 'event' | 'created';
}

/**
 * Apply the time-window, speaker and current-over-stale preferences. `legs` are the keyword leg's
 * hits, the vector leg's hits and the query vector (null for a leg that did not run). Returns a new
 * list (or `fused` when none applies).
 */
export async function applyPreferences(
  src: Pick<Backend, 'rowsBySeqs' | 'vectorsOf'>,
  fused: FusedHit[],
  query: string,
  o: PreferOptions,
  model: string | null,
  legs: {
    keyword: readonly { seq: number; bm25: number }[] | null;
    vector: readonly { seq: number; score: number }[] | null;
    qvec: Float32Array | null;
  },
  /** The windows the query names (see {@link timeWindows}), when the caller has them already. */
  named?: readonly TimeExpression[],
): Promise<FusedHit[]> {
  const keyword = legs.keyword;
  if (fused.length < 2) return fused;
  const now = o.now ? new Date(o.now) : new Date();
  const windows = named ?? timeWindows(query, o);
  // A question about a past time ("in March", "last week") asks for what held then, not for the
  // current value; a window that holds now ("today", "this week") still asks about the present.
  const current = o.preferCurrent !== false && !windows.some((w) => w.to.getTime() <= now.getTime());
  let speaker = o.preferSpeaker !== false;
  if (!windows.length && !current && !speaker) return fused;
  // Current over stale looks at the best 20 candidates (100 when the query asks for the present): only those rows and vectors are read.
  const pool = currentPoolSize(query);
  const need = windows.length ? fused : fused.slice(0, Math.max(current ? pool : 0, speaker ? SPEAKER_PROBE : 0));
  let rows = await src.rowsBySeqs(need.map((h) => h.seq));
  const spoken = new Map<number, string[]>();
  const speakersAt = (seq: number): string[] => {
    let s = spoken.get(seq);
    if (!s) {
      const r = rows.get(seq);
      s = r ? speakersOf({ metadata: storedMetadata(r), content: r.content, sessionId: r.session_id }) : [];
      spoken.set(seq, s);
    }
    return s;
  };
  if (speaker) {
    speaker = fused.slice(0, SPEAKER_PROBE).some((h) => speakersAt(h.seq).length > 0);
    if (speaker && need.length < Math.min(SPEAKER_POOL, fused.length)) rows = await src.rowsBySeqs(fused.slice(0, SPEAKER_POOL).map((h) => h.seq));
  }
  let list = fused;
  if (windows.length) {
    // Windows compare the same time as since / until; current over stale always orders by when a statement was made.
    const times = new Map([...rows].map(([seq, r]) => [seq, windowTime(r, o)]));
    list = preferWindows(list, windows, times, hasTopic(query, windows));
  }
  if (speaker) {
    const head = list.slice(0, SPEAKER_POOL);
    const who = new Map(head.map((h) => [h.seq, speakersAt(h.seq)]));
    const re = preferSpeaker(head, who, query);
    if (re !== head) list = [...re, ...list.slice(SPEAKER_POOL)];
  }
  if (current) {
    const top = list.slice(0, pool).map((h) => h.seq);
    // Cosine says "the same thing" only on the scale it was measured on; other models compare token overlap.
    const vecs = model === CALIBRATED_MODEL ? await src.vectorsOf(top, model) : new Map<number, Float32Array>();
    const meta = new Map<number, CurrentMeta>();
    for (const seq of top) {
      const r = rows.get(seq);
      if (!r) continue;
      const m: CurrentMeta = { namespace: r.namespace, category: r.category, content: r.content, time: statedAt(r) };
      const who = speakersAt(seq);
      if (who.length) m.speaker = who.join(', ');
      const v = vecs.get(seq);
      if (v) m.vector = v;
      meta.set(seq, m);
    }
    // Each candidate's cosine to the query (the look-alike guard): the vector leg's score, else its stored vector.
    let cosine: Map<number, number> | undefined;
    if (legs.qvec && legs.vector && model !== null) {
      cosine = new Map<number, number>();
      const inLeg = new Map<number, number>();
      for (const h of legs.vector) inLeg.set(h.seq, h.score);
      const missing = top.filter((s) => !inLeg.has(s) && !vecs.has(s));
      const more = missing.length ? await src.vectorsOf(missing, model) : new Map<number, Float32Array>();
      for (const seq of top) {
        const x = inLeg.get(seq);
        const v = vecs.get(seq) ?? more.get(seq);
        if (x !== undefined) cosine.set(seq, x);
        else if (v && v.length === legs.qvec.length) cosine.set(seq, dot(v, legs.qvec));
      }
    }
    let bm25: Map<number, number> | undefined;
    if (keyword) {
      // A loop, not `new Map(pairs)`: one array per candidate less, on every recall.
      bm25 = new Map();
      for (const h of keyword) bm25.set(h.seq, h.bm25);
    }
    list = preferCurrent(list, meta, query, bm25, cosine);
  }
  return list;
}
