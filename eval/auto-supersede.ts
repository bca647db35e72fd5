/**
 * Precision of `supersede: 'auto'` (issue 15, EVAL.md "Current over stale").
 *
 *   npx tsx eval/auto-supersede.ts [--batch 20] [--curve] [--show [--held]]
 *
 * Stores the facts set in time order with `supersede: 'auto'` on every memory (batches of 20 by
 * default: an item does not see the others of its batch), then compares the links the library made
 * with the set's labelled `supersedes` (81). A link counts as correct when it points at the labelled
 * predecessor, or at a restatement of it (near-duplicates are one fact).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../src/index.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { CachingEmbedder } from './embed-cache.js';
import type { Dataset } from './gen-util.js';
import { factRoots, halfOf, type Half } from './split.js';

const here = new URL('.', import.meta.url).pathname;
const bi = process.argv.indexOf('--batch');
const BATCH = bi >= 0 ? Number(process.argv[bi + 1]) : 20;
const ds = JSON.parse(readFileSync(join(here, 'data', 'facts.json'), 'utf8')) as Dataset;
const embedder = new CachingEmbedder(new LocalEmbedder(), join(here, '..', 'bench', '.cache', 'eval'));
const dir = mkdtempSync(join(tmpdir(), 'mnemolite-auto-'));
const mem = await openMemory({ path: join(dir, 'auto.db'), embedder });
const byTime = [...ds.memories].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
const toEval = new Map<string, string[]>();
const links: [string, string][] = []; // [new data id, linked library id]
for (let i = 0; i < byTime.length; i += BATCH) {
  const chunk = byTime.slice(i, i + BATCH);
  const res = await mem.addMany(
    chunk.map((m) => ({ content: m.content, createdAt: m.createdAt, supersede: 'auto' as const, ...(m.category ? { category: m.category } : {}) })),
  );
  res.forEach((r, j) => {
    toEval.set(r.id, [...(toEval.get(r.id) ?? []), chunk[j]!.id]);
    if (r.autoSuperseded) links.push([chunk[j]!.id, r.autoSuperseded]);
  });
}
const byId = new Map(ds.memories.map((m) => [m.id, m]));
const root = (id: string): string => {
  let g = id;
  for (let n = 0; n < 5 && byId.get(g)?.duplicateOf; n++) g = byId.get(g)!.duplicateOf!;
  return g;
};
/** Fact group of a memory (eval/split.ts); an unlabelled new memory is its own group. */
const rootOf = factRoots(ds);
const halfOfNew = (id: string): Half => halfOf(rootOf(id));
const dot = (x: Float32Array, y: Float32Array): number => x.reduce((acc, v, i) => acc + v * y[i]!, 0);
interface Link {
  ok: boolean;
  half: Half;
  cos: number;
  text: string;
}
const judged: Link[] = [];
for (const [newId, libId] of links) {
  // Any earlier version of the same fact counts (a chain a → b → c: linking c to a is right too).
  const chain = new Set<string>();
  for (let t = byId.get(newId)!.supersedes, n = 0; t && n < 10; t = byId.get(t)?.supersedes, n++) chain.add(root(t));
  const targets = (toEval.get(libId) ?? []).map(root);
  const n = byId.get(newId)!,
    o = byId.get((toEval.get(libId) ?? [''])[0]!)!;
  const [vn, vo] = await embedder.embed([n.content, o.content]);
  judged.push({
    ok: targets.some((t) => chain.has(t)),
    half: halfOfNew(newId),
    cos: dot(vn!, vo!),
    text: `  [${n.category}] ${n.createdAt.slice(0, 10)} "${n.content}" → ${o.createdAt.slice(0, 10)} "${o.content}"`,
  });
}
const labelledIds = ds.memories.filter((m) => m.supersedes).map((m) => m.id);
const pr = (xs: Link[], half?: Half): string => {
  const lab = labelledIds.filter((id) => !half || halfOfNew(id) === half).length;
  const ok = xs.filter((x) => x.ok).length;
  return `${xs.length} links, ${ok} correct: precision ${(ok / Math.max(1, xs.length)).toFixed(3)}, recall ${(ok / lab).toFixed(3)} of ${lab}`;
};
console.log(`supersede: 'auto' on facts (batches of ${BATCH}), links judged against the labelled \`supersedes\`:`);
console.log(`  whole: ${pr(judged)}`);
for (const h of ['tune', 'held'] as const) console.log(`  ${h}:  ${pr(judged.filter((x) => x.half === h), h)}`);
if (process.argv.includes('--curve')) {
  // The pick is the candidate with the highest cosine, so a higher floor only drops links below it.
  console.log('  trade-off by cosine floor (precision / recall, whole · tune · held):');
  for (const t of [0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
    const keep = judged.filter((x) => x.cos >= t);
    const cell = (half?: Half): string => {
      const xs = keep.filter((x) => !half || x.half === half);
      const lab = labelledIds.filter((id) => !half || halfOfNew(id) === half).length;
      const ok = xs.filter((x) => x.ok).length;
      return `${(ok / Math.max(1, xs.length)).toFixed(2)} / ${(ok / lab).toFixed(2)} (${xs.length})`;
    };
    console.log(`    ≥ ${t.toFixed(2)}: ${cell()} · ${cell('tune')} · ${cell('held')}`);
  }
}
if (process.argv.includes('--show')) {
  const which = process.argv.includes('--held') ? 'held' : 'tune';
  console.log(`  wrong links in the ${which} half:`);
  console.log(judged.filter((x) => !x.ok && x.half === which).map((x) => `${x.text} cos ${x.cos.toFixed(2)}`).join('\n'));
}
await mem.close();
rmSync(dir, { recursive: true, force: true });
