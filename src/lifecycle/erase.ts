/**
 * Forget erases: what a forgotten memory (or an erased namespace) leaves behind, for every store.
 * The store deletes the rows (history goes with them, by trigger); these rules say which other
 * copies of the text it must remove too:
 *
 * - its current content and every earlier version (history rows, deleted with it);
 * - the conversational context of the memories after it in its session, which holds copies of
 *   its text (src/lifecycle/context.ts): those contexts lose the erased texts, and their context
 *   vector becomes the mean of what is left (or none when a vector is not known);
 * - the embedding cache: the vectors of those texts, under their hash and under the namespace's
 *   scoped key (a recall whose query was the text).
 *
 * Memories it superseded stay: they are memories of their own (their link to it is cleared).
 */
import { contentHash, scopedKey } from '../embed/cache.js';
import { meanVector } from './context.js';

/** Every text a forgotten memory leaves: its content and its earlier versions. */
export function erasedTexts(content: string, versions: readonly string[]): Set<string> {
  return new Set([content, ...versions]);
}

/** A context list without the erased texts, or null when nothing is left of it. */
export function contextWithout(context: readonly string[], erased: ReadonlySet<string>): string[] | null {
  const left = context.filter((t) => !erased.has(t));
  return left.length ? left : null;
}

/**
 * The context vector of what is left: the mean of the remaining texts' vectors, as at write time,
 * when every one is known (`vectorOf`, by text), else null (the memory is then found by its own
 * vector only).
 */
export function contextVectorOf(left: readonly string[], vectorOf: ReadonlyMap<string, Float32Array>): Float32Array | null {
  const vs = left.map((t) => vectorOf.get(t));
  return vs.every((v) => v !== undefined) ? meanVector(vs as Float32Array[]) : null;
}

/** The embedding-cache keys under which the texts' vectors may be kept: their hashes, and their hashes scoped to `namespace`. */
export function erasedCacheKeys(texts: Iterable<string>, namespace: string): string[] {
  const out: string[] = [];
  for (const t of texts) {
    const h = contentHash(t);
    out.push(h, scopedKey(namespace, h));
  }
  return out;
}
