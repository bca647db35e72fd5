/**
 * Which namespace each verb of the library works in when the caller names none: the one table
 * validation reads (src/validate.ts), and docs/ARCHITECTURE.md shows.
 *
 * Writes land in `"default"`; searching and listing stay in `"default"` too, so an agent that never
 * names a namespace sees what it wrote. Calls by id (a memory id is unique across namespaces) and
 * whole-store operations cover every namespace.
 */

/** Namespace used when none is given. */
export const DEFAULT_NAMESPACE = 'default';
/** Namespace wildcard accepted by list, count, recall, export, stats and prune: every namespace. */
export const ALL_NAMESPACES = '*';

/** The namespace each verb uses when none is given: {@link DEFAULT_NAMESPACE} or {@link ALL_NAMESPACES}. */
export const NAMESPACE_DEFAULTS = {
  add: DEFAULT_NAMESPACE,
  addMany: DEFAULT_NAMESPACE,
  addConversation: DEFAULT_NAMESPACE,
  import: DEFAULT_NAMESPACE,
  recall: DEFAULT_NAMESPACE,
  list: DEFAULT_NAMESPACE,
  count: DEFAULT_NAMESPACE,
  get: ALL_NAMESPACES,
  update: ALL_NAMESPACES,
  forget: ALL_NAMESPACES,
  history: ALL_NAMESPACES,
  stats: ALL_NAMESPACES,
  export: ALL_NAMESPACES,
  prune: ALL_NAMESPACES,
} as const satisfies Record<string, typeof DEFAULT_NAMESPACE | typeof ALL_NAMESPACES>;

/** A verb of {@link NAMESPACE_DEFAULTS}. */
export type NamespacedVerb = keyof typeof NAMESPACE_DEFAULTS;

/** The namespace `verb` works in: the one given, else the verb's default. */
export function namespaceFor(verb: NamespacedVerb, given: string | undefined): string {
  return given ?? NAMESPACE_DEFAULTS[verb];
}
