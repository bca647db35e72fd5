/**
 * The import graph of src/: no cycles between files, and every import runs from a higher layer to the
 * same or a lower one (docs/ARCHITECTURE.md, "Layers"). Type-only imports count: a type that a lower
 * layer needs lives in that layer or below it.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

/** Lowest first. A folder entry ends in `/` and holds every file below it. */
export const LAYERS: readonly (readonly string[])[] = [
  ['src/errors.ts', 'src/ids.ts', 'src/version.ts', 'src/defaults.ts', 'src/namespaces.ts', 'src/zod-dates.ts', 'src/stage-timer.ts'],
  ['src/text/'],
  ['src/embed/'],
  ['src/types/'],
  ['src/options/', 'src/validate.ts'],
  ['src/lifecycle/'],
  ['src/store/'],
  ['src/search/'],
  ['src/backend/'],
  ['src/pg/'],
  ['src/recall/'],
  ['src/memory/'],
  ['src/ingest/'],
  ['src/tools.ts', 'src/integrations/'],
  ['src/mcp/'],
  ['src/index.ts'],
  ['src/http/'],
  ['src/cli/'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [relative(root, p)] : [];
  });
}

/** Relative imports of a file (static, dynamic and type-only), as repository paths of .ts files. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(root, resolve(root, dirname(file), s)).replace(/\.js$/, '.ts'));
}

function layerOf(file: string): number {
  return LAYERS.findIndex((l) => l.some((e) => (e.endsWith('/') ? file.startsWith(e) : file === e)));
}

/** The room a file stands in: its top folder under src/, or the file itself at src/'s top. */
function roomOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : file;
}

/** Every cycle's members (Tarjan's strongly connected components of size > 1, or a self-loop). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.has(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const files = sources(join(root, 'src'));
const edges = new Map(files.map((f) => [f, new Set(importsOf(f))]));

test('every file under src/ stands in a layer', () => {
  assert.deepEqual(
    files.filter((f) => layerOf(f) < 0),
    [],
    'add new files to a layer in test/architecture.test.ts and docs/ARCHITECTURE.md',
  );
});

test('every import resolves to a file of src/', () => {
  const missing = [...edges].flatMap(([f, to]) => [...to].filter((t) => !edges.has(t)).map((t) => `${f} -> ${t}`));
  assert.deepEqual(missing, []);
});

test('no file imports from a higher layer', () => {
  const up = [...edges].flatMap(([f, to]) => [...to].filter((t) => layerOf(t) > layerOf(f)).map((t) => `${f} -> ${t}`));
  assert.deepEqual(up, [], 'a lower layer reaches up: move the shared piece down, or the importer up');
});

test('no import cycles between files', () => {
  assert.deepEqual(cycles(edges), []);
});

test('no import cycles between folders', () => {
  const rooms = new Map<string, Set<string>>();
  for (const [f, to] of edges) {
    const r = roomOf(f);
    if (!rooms.has(r)) rooms.set(r, new Set());
    for (const t of to) if (roomOf(t) !== r) rooms.get(r)!.add(roomOf(t));
  }
  assert.deepEqual(cycles(rooms), []);
});

test('the checks see a cycle and an upward import', () => {
  const g = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set(['a'])],
    ['d', new Set<string>()],
  ]);
  assert.deepEqual(cycles(g), [['a', 'b', 'c']]);
  assert.ok(layerOf('src/errors.ts') < layerOf('src/memory/memory.ts'));
  assert.equal(layerOf('src/nowhere/x.ts'), -1);
});
