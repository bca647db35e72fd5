/**
 * End-to-end recall with the bundled model embedding each question (no vector given), every default
 * on: `tsx bench/e2e.ts <scratch dir> [size = 10000]`. Needs the cached model vectors of the corpus
 * (`tsx bench/embed-real.ts <size>`). Paired per question: the model alone on the question's text
 * (a fresh call, no cache), then `recall` of the same text, which the Memory has never seen, so it
 * runs the model again inside. The overhead is recall − model, question by question: what mnemolite
 * adds to the model's own time (issue 23: ≤ 1 ms).
 */
import { join } from 'node:path';
import { openMemory } from '../src/index.js';
import { LOCAL_MODEL_ID, LocalEmbedder } from '../src/embed/local.js';
import { DIMS, pct, realCorpus } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';
import { type RecallStage, stageTimer } from '../src/stage-timer.js';
import { scratch } from './systems.js';

const dir = scratch(process.argv[2]!);
const size = Number(process.argv[3] ?? 10_000);
const c = realCorpus(size);
if (!c) throw new Error(`run bench/embed-real.ts ${size} first`);
const path = join(dir, 'e2e.db');
const pre = new PrecomputedEmbedder(LOCAL_MODEL_ID, DIMS, 'local');
pre.add(c.texts, c.docs);
let mem = await openMemory({ path, embedder: pre });
for (let i = 0; i < c.texts.length; i += 1000) await mem.addMany(c.texts.slice(i, i + 1000).map((content) => ({ content })));
await mem.close();
const local = new LocalEmbedder();
mem = await openMemory({ path, embedder: local });
await mem.recall('warm up the model and the index', { limit: 10 });
await local.embed(['warm up the model once more']);
const n = Math.min(120, c.queries.length);
const recallMs: number[] = [];
const modelMs: number[] = [];
const overhead: number[] = [];
const stages = new Map<RecallStage, number[]>();
let current = new Map<RecallStage, number>();
stageTimer.sink = (st, ms) => current.set(st, (current.get(st) ?? 0) + ms);
for (let i = 0; i < n; i++) {
  current = new Map();
  const q = c.queries[i]!;
  let t = performance.now();
  await local.embed([q]);
  const m = performance.now() - t;
  t = performance.now();
  await mem.recall(q, { limit: 10 });
  const r = performance.now() - t;
  modelMs.push(m);
  recallMs.push(r);
  overhead.push(r - m);
  for (const [st, ms] of current) (stages.get(st) ?? stages.set(st, []).get(st)!).push(ms);
}
stageTimer.sink = null;
const stage: Record<string, number> = {};
for (const [st, v] of stages) stage[st] = Math.round(pct(v).p50 * 1000) / 1000;
await mem.close();
scratch(dir);
process.stdout.write(
  `RESULT ${JSON.stringify({ size, ...pct(recallMs), embedP50: pct(modelMs).p50, model: pct(modelMs), overhead: pct(overhead), stages: stage, queries: n })}\n`,
);
