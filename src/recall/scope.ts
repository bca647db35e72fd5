/**
 * Scopes beyond one namespace (mem0's user + agent + run, Mastra's resource + thread): recall,
 * list and count over a list of namespaces or a prefix (`"user-1/*"`).
 *
 * Isolation stays exactly as it is: recall runs once per namespace, each with its own keyword
 * statistics and caches, and the hits are merged by their calibrated relevance (each namespace's
 * own order kept), never by raw scores that are only comparable inside one namespace.
 */
import type { Backend } from '../backend/types.js';
import { invalid } from '../errors.js';
import { ALL_NAMESPACES } from '../namespaces.js';
import type { RecallHit } from '../types/memory.js';
import { parseScope } from '../validate.js';

/** Most namespaces one call may cover (a list, or what a prefix matches). */
export const MAX_SCOPE_NAMESPACES = 100;

/** Whether `ns` asks for several namespaces: a list, or a pattern ending in `*` (not `"*"` alone). */
export function isMultiScope(ns: unknown): ns is readonly string[] | `${string}*` {
  return Array.isArray(ns) || (typeof ns === 'string' && ns.length > 1 && ns.endsWith('*'));
}

/**
 * The namespaces a multi-namespace scope covers, sorted and without repeats (those a prefix
 * matches among the namespaces holding memories). INVALID_INPUT beyond {@link MAX_SCOPE_NAMESPACES}.
 */
export async function resolveScope(backend: Backend, ns: readonly string[] | string): Promise<string[]> {
  if (Array.isArray(ns)) {
    if (!ns.length) throw invalid('namespace: the list of namespaces is empty. Name at least one.', { field: 'namespace' });
    if (ns.length > MAX_SCOPE_NAMESPACES)
      throw invalid(`namespace: a list covers at most ${MAX_SCOPE_NAMESPACES} namespaces, got ${ns.length}.`, {
        field: 'namespace',
        limit: MAX_SCOPE_NAMESPACES,
      });
    for (const n of ns) {
      parseScope({ namespace: n });
      if (n === ALL_NAMESPACES || n.endsWith('*'))
        throw invalid(`namespace: a list names namespaces, not patterns ("${n}"). Pass the prefix alone, e.g. "user-1/*".`, { field: 'namespace' });
    }
    return [...new Set(ns as string[])].sort();
  }
  parseScope({ namespace: ns });
  const prefix = (ns as string).slice(0, -1);
  if (prefix.includes('*')) throw invalid(`namespace: "*" may only end a prefix pattern, e.g. "user-1/*" (got "${ns}").`, { field: 'namespace' });
  const found = await backend.namespacesWithPrefix(prefix, MAX_SCOPE_NAMESPACES + 1);
  if (found.length > MAX_SCOPE_NAMESPACES)
    throw invalid(`namespace: "${ns}" matches more than ${MAX_SCOPE_NAMESPACES} namespaces; use a longer prefix or a list.`, {
      field: 'namespace',
      limit: MAX_SCOPE_NAMESPACES,
    });
  return found;
}

/**
 * Merge per-namespace recalls: repeatedly take the head with the highest relevance (ties: higher
 * score, then the namespace's name), so each namespace's own order is kept. Below-threshold best
 * matches (`lowConfidence`) only stand when no namespace has a hit that passes: then the best one.
 */
export function mergeHits(lists: readonly RecallHit[][], limit: number): RecallHit[] {
  const confident = lists.map((l) => l.filter((h) => !h.lowConfidence));
  if (confident.every((l) => !l.length)) {
    const low = lists.flat().sort((a, b) => b.relevance - a.relevance || b.score - a.score);
    return low.slice(0, 1);
  }
  const at = confident.map(() => 0);
  const out: RecallHit[] = [];
  while (out.length < limit) {
    let best = -1;
    for (let i = 0; i < confident.length; i++) {
      const h = confident[i]![at[i]!];
      if (!h) continue;
      const b = best >= 0 ? confident[best]![at[best]!]! : null;
      if (!b || h.relevance > b.relevance || (h.relevance === b.relevance && h.score > b.score)) best = i;
    }
    if (best < 0) break;
    out.push(confident[best]![at[best]!]!);
    at[best]!++;
  }
  return out;
}
