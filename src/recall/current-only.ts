/**
 * `excludeSuperseded`: leave out candidates another memory explicitly replaced (`supersedes`,
 * `supersede: 'auto'`), before the cut to `limit`, so the limit is filled with current memories.
 * The agent surfaces turn it on: a model shown "lives in Lisbon" next to "moved to Porto" cannot
 * tell which holds.
 */
import type { RankSource } from '../backend/types.js';
import type { FusedHit } from './fusion.js';

/** `ranked` without the candidates that have a successor (`known`: the legs' supersession, when they returned it). */
export async function withoutSuperseded<H extends FusedHit>(
  src: Pick<RankSource, 'successors'>,
  ranked: H[],
  known?: ReadonlyMap<number, number>,
): Promise<H[]> {
  if (!ranked.length) return ranked;
  const succ = known ?? (await src.successors(ranked.map((h) => h.seq)));
  return succ.size ? ranked.filter((h) => !succ.has(h.seq)) : ranked;
}
