/** Rules for JSON that crosses a process boundary (HTTP bodies, MCP messages, tool answers). */

/**
 * Whether a JSON object key is one that poisons prototypes when a program merges the object:
 * `__proto__`, or `constructor` holding a `prototype`. Refused wherever JSON comes in, so the
 * surfaces agree (a JSON parser keeps `__proto__` as a key; zod and object spreads drop it).
 */
export function isPoisonKey(key: string, value: unknown): boolean {
  return key === '__proto__' || (key === 'constructor' && value !== null && typeof value === 'object' && 'prototype' in value);
}

/** The first poisoning key anywhere inside `v` (own keys only), or null. */
export function poisonKeyIn(v: unknown, depth = 0): string | null {
  if (v === null || typeof v !== 'object' || depth > 100) return null;
  if (Array.isArray(v)) {
    for (const x of v) {
      const k = poisonKeyIn(x, depth + 1);
      if (k) return k;
    }
    return null;
  }
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (isPoisonKey(k, x)) return k;
    const inner = poisonKeyIn(x, depth + 1);
    if (inner) return inner;
  }
  return null;
}

/**
 * The leading items whose JSON fits in `budget` bytes (at least one, so a caller always moves
 * forward): how list pages, recall answers and tool answers stay bounded however large each
 * memory is.
 */
export function capBytes<T>(items: T[], budget: number): T[] {
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    used += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (used > budget && i > 0) return items.slice(0, i);
  }
  return items;
}
