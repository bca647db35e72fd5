/**
 * The text a LangGraph item is searched by: the values at its `index` field paths.
 *
 * Path syntax as in LangGraph's stores: `$` (the whole value as JSON), `a.b` (nested field),
 * `list[*].text` (every element), `list[0]`, `list[-1]` (from the end).
 */

type Json = unknown;

/** Split `a.b[*].c` into `["a", "b", "[*]", "c"]`. */
function tokens(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[[^\]]*\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    // Sticky: the groups follow each other from the start, so each match begins where the last ended.
    for (const ix of m[2]!.match(/\[[^\]]*\]/gy) ?? []) out.push(ix);
  }
  return out.filter((t) => t !== '');
}

function leafText(v: Json): string[] {
  if (typeof v === 'string') return [v];
  if (typeof v === 'number' || typeof v === 'boolean') return [String(v)];
  if (v !== null && typeof v === 'object') return [JSON.stringify(v)];
  return [];
}

function walk(v: Json, toks: string[], i: number): string[] {
  if (i === toks.length) return leafText(v);
  const t = toks[i]!;
  if (t.startsWith('[') && t.endsWith(']')) {
    if (!Array.isArray(v)) return [];
    const ix = t.slice(1, -1).trim();
    if (ix === '*') return v.flatMap((e) => walk(e, toks, i + 1));
    let n = Number(ix);
    if (!Number.isInteger(n)) return [];
    if (n < 0) n += v.length;
    return n >= 0 && n < v.length ? walk(v[n], toks, i + 1) : [];
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, t)) return [];
  return walk((v as Record<string, Json>)[t], toks, i + 1);
}

/** Texts found at `path` in `value` (none when the path does not exist). */
export function textsAt(value: Record<string, unknown>, path: string): string[] {
  if (path === '$' || path === '') return [JSON.stringify(value)];
  return walk(value, tokens(path), 0);
}

/** The searchable text of a value for the given paths, or `null` when none of them yields text. */
export function searchText(value: Record<string, unknown>, paths: readonly string[]): string | null {
  const texts = paths.flatMap((p) => textsAt(value, p)).filter((t) => t.trim() !== '');
  return texts.length ? texts.join('\n\n') : null;
}
