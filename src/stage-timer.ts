/**
 * Optional timing of the recall's stages, for benchmarks (bench/user-path.ts): internal, not part
 * of the public API. Off (no sink) it costs one null check per stage; nothing is measured.
 */

/**
 * The stages, in recall order. `legs` is the store's whole leg call; on the file, `sync` (bringing
 * the in-memory index up to date), `keyword`, `context-leg`, `vector` and `sessions` are its parts.
 */
export type RecallStage =
  | 'cache'
  | 'model'
  | 'cache-write'
  | 'sync'
  | 'keyword'
  | 'context-leg'
  | 'vector'
  | 'sessions'
  | 'legs'
  | 'evidence'
  | 'fusion'
  | 'preferences'
  | 'rerank'
  | 'relevance'
  | 'rows';

/** Where stage times go, or null (the default: timing off). */
export const stageTimer: { sink: ((stage: RecallStage, ms: number) => void) | null } = { sink: null };

/** A start time for {@link lap}, or 0 when timing is off. */
export function tick(): number {
  return stageTimer.sink ? performance.now() : 0;
}

/** Report the time since `t` as `stage`; returns the new start. No-op when timing is off. */
export function lap(stage: RecallStage, t: number): number {
  const sink = stageTimer.sink;
  if (!sink) return 0;
  const now = performance.now();
  sink(stage, now - t);
  return now;
}
