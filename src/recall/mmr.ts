/**
 * Maximal Marginal Relevance (Carbonell & Goldstein, 1998): pick, one at a time, the candidate
 * maximising `λ · relevance − (1 − λ) · max similarity to the already picked`, so near-copies of
 * a picked result fall back. Relevance is the candidate's score divided by the best score.
 */

import { MAX_COMPARED_WORDS, asciiWords, isAscii } from '../text/stems.js';

/** Order (indices into `scores`) of the first `k` picks. */
export function mmrOrder(scores: readonly number[], sim: (a: number, b: number) => number, lambda: number, k: number): number[] {
  const n = scores.length;
  if (n === 0) return [];
  // Relevance relative to the best candidate (scale-free for RRF, BM25 and cosine scores alike).
  const top = Math.max(...scores.map(Math.abs));
  const rel = scores.map((s) => (top > 0 ? s / top : 1));
  const maxSim = new Array<number>(n).fill(-Infinity);
  const picked: number[] = [];
  const free = new Set(scores.map((_, i) => i));
  while (picked.length < Math.min(k, n)) {
    let best = -1,
      bestVal = -Infinity;
    for (const i of free) {
      const penalty = picked.length ? maxSim[i]! : 0;
      const v = lambda * rel[i]! - (1 - lambda) * penalty;
      if (v > bestVal) {
        bestVal = v;
        best = i;
      } // ties: the earlier (more relevant) candidate
    }
    picked.push(best);
    free.delete(best);
    for (const i of free) maxSim[i] = Math.max(maxSim[i]!, sim(i, best));
  }
  return picked;
}

/** Jaccard similarity of two token sets (the fallback when a candidate has no vector). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size && !b.size) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * The token sets of several texts as sorted arrays of small integers (one numbering for all of
 * them), for {@link jaccardSorted}: MMR compares up to 30,000 pairs per recall.
 */
export function numberedTokenSets(sets: readonly (ReadonlySet<string> | undefined)[]): (Int32Array | undefined)[] {
  const ids = new Map<string, number>();
  return sets.map((set) => {
    if (!set) return undefined;
    const out = Int32Array.from(set, (t) => {
      let id = ids.get(t);
      if (id === undefined) {
        id = ids.size;
        ids.set(t, id);
      }
      return id;
    });
    return out.sort();
  });
}

/** {@link jaccard} of two sets from {@link numberedTokenSets}, by one merge. */
export function jaccardSorted(a: Int32Array, b: Int32Array): number {
  if (!a.length && !b.length) return 1;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/** Lower-cased word tokens of a text: the first `max` distinct ones (see MAX_COMPARED_WORDS). */
export function tokenSet(text: string, max = MAX_COMPARED_WORDS): Set<string> {
  const out = new Set<string>();
  if (isAscii(text)) {
    asciiWords(text.toLowerCase(), false, (w) => {
      out.add(w);
      return out.size < max;
    });
    return out;
  }
  for (const [w] of text.toLowerCase().matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    out.add(w);
    if (out.size >= max) break;
  }
  return out;
}
