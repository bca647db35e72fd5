/**
 * `recall` searches one namespace ("default" unless -n), while `list` shows all of them. When a
 * recall finds nothing, look across every namespace and say where matches are.
 */
import { ALL_NAMESPACES, type Memory, type RecallOptions } from '../index.js';

const LOOK = 100;

/** A one-line hint naming the namespaces that do match `query`, or `undefined` when none do. */
export async function elsewhereHint(m: Memory, query: string, options: RecallOptions): Promise<string | undefined> {
  if (options.namespace === ALL_NAMESPACES) return undefined;
  const searched = options.namespace ?? 'default';
  const inside = (ns: string): boolean =>
    typeof searched !== 'string'
      ? searched.includes(ns)
      : searched.length > 1 && searched.endsWith('*')
        ? ns.startsWith(searched.slice(0, -1))
        : ns === searched;
  const { neighbours: _none, ...rest } = options;
  const hits = await m.recall(query, { ...rest, namespace: ALL_NAMESPACES, limit: LOOK });
  const counts = new Map<string, number>();
  for (const h of hits) if (!inside(h.namespace)) counts.set(h.namespace, (counts.get(h.namespace) ?? 0) + 1);
  if (!counts.size) return undefined;
  const where = [...counts].map(([ns, n]) => `${ns} (${n})`).join(', ') + (hits.length === LOOK ? ` among the first ${LOOK} matches` : '');
  const first = counts.keys().next().value as string;
  const name = typeof searched === 'string' ? `namespace "${searched}"` : `namespaces ${searched.map((n) => JSON.stringify(n)).join(', ')}`;
  return `note: nothing in ${name}; matches exist in: ${where}. Search one with -n ${JSON.stringify(first)}.`;
}
