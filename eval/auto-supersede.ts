/**
 * Precision of `supersede: 'auto'` (issue 15, EVAL.md "Current over stale").
 *
 *   npx tsx eval/auto-supersede.ts [--batch 20]
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
let correct = 0;
const wrong: string[] = [];
for (const [newId, libId] of links) {
  // Any earlier version of the same fact counts (a chain a → b → c: linking c to a is right too).
  const chain = new Set<string>();
  for (let t = byId.get(newId)!.supersedes, n = 0; t && n < 10; t = byId.get(t)?.supersedes, n++) chain.add(root(t));
  const targets = (toEval.get(libId) ?? []).map(root);
  if (targets.some((t) => chain.has(t))) correct++;
  else wrong.push(`  "${byId.get(newId)!.content}" → "${byId.get((toEval.get(libId) ?? [''])[0]!)?.content}"`);
}
const labelled = ds.memories.filter((m) => m.supersedes).length;
const resched = wrong.filter((w) => w.includes('appointment moved to')).length;
console.log(
  `of the ${wrong.length} unlabelled links, ${resched} link one "Dentist appointment moved to <day>" note to the previous one (the set labels them as separate events).`,
);
console.log(
  `supersede: 'auto' on facts (batches of ${BATCH}): ${links.length} links, ${correct} correct: precision ${(correct / Math.max(1, links.length)).toFixed(3)}, recall ${(correct / labelled).toFixed(3)} of ${labelled} labelled updates.`,
);
if (process.argv.includes('--show')) console.log(wrong.slice(0, 30).join('\n'));
await mem.close();
rmSync(dir, { recursive: true, force: true });
