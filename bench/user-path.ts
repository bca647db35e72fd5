/**
 * The recall a user makes, timed: `openMemory` with an Embedder object (precomputed vectors served
 * through the real Embedder interface and the query-vector cache path, so the model costs nothing),
 * questions this process has never seen, every default on; the straightforward recipe (FTS5 +
 * sqlite-vec exact + RRF k = 60, bench/systems.ts) alternated with it, question by question, in the
 * same process. Layouts: every memory in one namespace (`one`), or spread over 100 (`many`, each
 * question asked in its target's namespace). Stage breakdown from src/stage-timer.ts. Between two
 * questions the event loop turns once, as it does for any caller that awaits I/O between recalls;
 * the work queued for that turn (the query vectors' cache write) is timed apart (`betweenQuestions`).
 *
 * After the questions, a bulk write of 1,000 memories (`addMany`), then 20 new recalls: how far above
 * the steady state the first recalls after a write are, beside the same 20 questions asked just
 * before the write (`beforeWrite*`: the same machine noise, no write). The write is `template` (the
 * default: 1,000 notes of one template, each holding a question's words, so they crowd every
 * candidate pool as look-alikes) or `varied` (the next 1,000 memories of the corpus generator, with
 * their vectors: what an agent's own 1,000 new memories look like).
 *
 * `tsx bench/user-path.ts <size> <one|many> [all|ingest|query] [dir] [template|varied]`: ingests in
 * one child process, queries in a fresh one, prints one `RESULT {json}` line (bench/run.ts runs it as
 * the headline).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { openMemory } from '../src/index.js';
import { rrf } from '../src/recall/fusion.js';
import { toMatchExpression } from '../src/search/keyword.js';
import { SCAN_THREAD } from '../src/search/vector-index.js';
import { type RecallStage, stageTimer } from '../src/stage-timer.js';
import { generateMemories, syntheticVectors } from './corpus.js';
import { DIMS, pct, questionsOf, row, syntheticCorpus } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';
import { runRecipe } from './systems.js';

const [sizeArg, layout = 'one', phase = 'all', dirArg, writeArg = 'template'] = process.argv.slice(2);
if (writeArg !== 'template' && writeArg !== 'varied') throw new Error(`write must be template or varied, not ${writeArg}`);
const write: 'template' | 'varied' = writeArg;
const size = Number(sizeArg);
const dir = dirArg ?? join(tmpdir(), `mnemolite-user-path-${size}-${layout}`);
const path = join(dir, 'mnemolite.db');
const nsOf = (i: number): string => (layout === 'many' ? `ns${i % 100}` : 'default');
const rss = (): number => process.memoryUsage().rss;

/** A question never asked before, with the vector of question `i` (the k-th rewording). */
const reworded = (q: string, k: number): string => (k ? `${q} (${k})` : q);

async function ingest(): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const c = syntheticCorpus(size);
  const emb = new PrecomputedEmbedder('bench-512', DIMS);
  emb.add(c.texts, c.docs);
  const mem = await openMemory({ path, embedder: emb });
  const t0 = performance.now();
  for (let i = 0; i < c.texts.length; i += 1000) await mem.addMany(c.texts.slice(i, i + 1000).map((content, j) => ({ content, namespace: nsOf(i + j) })));
  const ingestPerSec = c.texts.length / ((performance.now() - t0) / 1000);
  // Closing writes what the next process reads at open (the kept keyword postings): timed apart.
  const t1 = performance.now();
  await mem.close();
  const closeMs = performance.now() - t1;
  await runRecipe(c, { dir, queries: 0, truth: [], phase: 'ingest' });
  writeFileSync(join(dir, 'ingest.json'), JSON.stringify({ ingestPerSec, closeMs }));
}

function dirBytes(d: string, f: (n: string) => boolean): number {
  return readdirSync(d)
    .filter(f)
    .reduce((n, x) => n + statSync(join(d, x)).size, 0);
}

async function query(): Promise<Record<string, unknown>> {
  const c = questionsOf(size, 'synthetic');
  const emb = new PrecomputedEmbedder('bench-512', DIMS);
  const n = c.queries.length;
  for (let k = 0; k < 8; k++)
    emb.add(
      c.queries.map((q) => reworded(q, k)),
      c.qvecs,
    );
  const stages = new Map<RecallStage, number[]>();
  let current = new Map<RecallStage, number>();
  const base = rss();
  const t0 = performance.now();
  const mem = await openMemory({ path, embedder: emb });
  await mem.recall(reworded(c.queries[0]!, 7), { namespace: nsOf(c.targets[0]!) });
  const openFirstMs = performance.now() - t0;
  const rssPerMemory = (rss() - base) / size;
  // The recipe, opened the same way.
  const sqliteVec = (await import('sqlite-vec')) as unknown as { load(db: Database.Database): void };
  const db = new Database(join(dir, 'recipe.db'));
  sqliteVec.load(db);
  const kwSt = db.prepare('SELECT rowid FROM docs_fts WHERE docs_fts MATCH ? ORDER BY rank LIMIT 50').pluck();
  const vecSt = db.prepare('SELECT rowid FROM docs_vec WHERE embedding MATCH ? AND k = 50').pluck();
  const rowsSt = db.prepare('SELECT id, content FROM docs WHERE id IN (SELECT value FROM json_each(?))');
  const recipe = (i: number): void => {
    const m = toMatchExpression(c.queries[i]!);
    const kw = m ? (kwSt.all(m) as number[]) : [];
    const v = row(c.qvecs, i);
    const vq = vecSt.all(Buffer.from(v.buffer, v.byteOffset, v.byteLength)) as number[];
    rowsSt.all(
      JSON.stringify(
        rrf(kw, vq)
          .slice(0, 10)
          .map((h) => h.seq),
      ),
    );
  };
  recipe(0);
  stageTimer.sink = (s, ms) => current.set(s, (current.get(s) ?? 0) + ms);
  const ours: number[] = [];
  const theirs: number[] = [];
  const seen: number[] = [];
  /** The turn of the event loop after each question: the work the library queued for it (timed apart). */
  const between: number[] = [];
  const betweenSpans: [number, number][] = [];
  /** The slowest new questions with their stages above 0.5 ms: where a tail comes from. */
  const slow: { at: number; ms: number; stages: Record<string, number>; gcMs?: number }[] = [];
  // Garbage collections, to tell a slow recall that a pause of the collector fell into from one slow by its own work.
  const gcs: { start: number; end: number }[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const spans: [number, number][] = [];
  for (let i = 1; i < n; i++) {
    current = new Map();
    let t = performance.now();
    await mem.recall(c.queries[i]!, { namespace: nsOf(c.targets[i]!) });
    spans.push([t, performance.now()]);
    ours.push(performance.now() - t);
    for (const [s, ms] of current) (stages.get(s) ?? stages.set(s, []).get(s)!).push(ms);
    slow.push({
      at: i,
      ms: ours[ours.length - 1]!,
      stages: Object.fromEntries([...current].filter(([, ms]) => ms >= 0.5).map(([s, ms]) => [s, Math.round(ms * 100) / 100])),
    });
    t = performance.now();
    recipe(i);
    theirs.push(performance.now() - t);
    t = performance.now();
    await mem.recall(c.queries[i]!, { namespace: nsOf(c.targets[i]!) });
    seen.push(performance.now() - t);
    // A caller waits for I/O between two recalls (the model's answer, the next message): the event
    // loop turns, and what the library queued for it runs there (the query vectors' cache write).
    t = performance.now();
    await new Promise((r) => setImmediate(r));
    betweenSpans.push([t, performance.now()]);
    between.push(performance.now() - t);
  }
  /** 20 new recalls (the k-th rewording of questions 1–20), each with its stages. */
  const twenty = async (k: number): Promise<{ ms: number[]; stages: Record<string, number>[] }> => {
    const out = { ms: [] as number[], stages: [] as Record<string, number>[] };
    for (let i = 0; i < 20; i++) {
      current = new Map();
      const t = performance.now();
      await mem.recall(reworded(c.queries[i + 1]!, k), { namespace: nsOf(c.targets[i + 1]!) });
      out.ms.push(performance.now() - t);
      await new Promise((r) => setImmediate(r));
      out.stages.push(Object.fromEntries([...current].map(([s, ms]) => [s, Math.round(ms * 100) / 100])));
    }
    return out;
  };
  // Let the observer deliver the last entries, then attribute collector time to each new-question recall.
  await new Promise((r) => setTimeout(r, 100)); // the observer is called after the entries, on a later turn
  gcObserver.disconnect();
  const gcIn = ([a, b]: [number, number]): number => gcs.reduce((sum, g) => sum + Math.max(0, Math.min(b, g.end) - Math.max(a, g.start)), 0);
  const gcPer = spans.map(gcIn);
  for (const h of slow) h.gcMs = Math.round(gcPer[h.at - 1]! * 100) / 100;
  const gcBetween = betweenSpans.map(gcIn);
  const beforeWrite = await twenty(3);
  // A bulk write, then new questions: how far above the steady state the first recalls are.
  const bulk = bulkWrite(write);
  emb.add(bulk.texts, bulk.vectors);
  await mem.addMany(bulk.texts.map((content, j) => ({ content, namespace: nsOf(bulk.first + j) })));
  const after = await twenty(1);
  stageTimer.sink = null;
  const afterWrite = after.ms;
  const afterStages: Record<string, number> = {};
  for (const st of after.stages) for (const [s, ms] of Object.entries(st)) afterStages[s] = (afterStages[s] ?? 0) + ms / after.stages.length;
  await mem.close();
  db.close();
  const o = pct(ours);
  const r = pct(theirs);
  const stage: Record<string, { p50: number; mean: number }> = {};
  for (const [s, v] of stages) stage[s] = { p50: pct(v).p50, mean: v.reduce((a, b) => a + b, 0) / v.length };
  const { ingestPerSec, closeMs } = JSON.parse(readFileSync(join(dir, 'ingest.json'), 'utf8')) as { ingestPerSec: number; closeMs?: number };
  return {
    size,
    layout,
    questions: ours.length,
    ingestPerSec,
    ...(closeMs === undefined ? {} : { ingestCloseMs: closeMs }),
    openFirstMs,
    rssBytesPerMemory: rssPerMemory,
    fileBytesPerMemory: dirBytes(dir, (x) => x.startsWith('mnemolite.db')) / size,
    newQuestion: o,
    /** The same without the process's first 10 recalls (compiling): how much of the tail is warm-up. */
    newQuestionAfter10: pct(ours.slice(10)),
    /** Garbage collection inside the new-question recalls: how many overlapped one, and their time. */
    gcDuringNewQuestions: { recalls: gcPer.filter((x) => x > 0).length, ms: Math.round(gcPer.reduce((a, b) => a + b, 0) * 100) / 100 },
    seenQuestion: pct(seen),
    /** The event loop's turn between two questions (the queued cache writes run there), the slowest, and the collector's time inside those turns. */
    betweenQuestions: {
      ...pct(between),
      max: Math.max(...between),
      maxAt: between.indexOf(Math.max(...between)) + 1,
      gcMs: Math.round(gcBetween.reduce((a, b) => a + b, 0) * 100) / 100,
    },
    recipe: r,
    speedup: r.p50 / o.p50,
    /** Vector searches whose scan the worker thread started, those run on the recall's thread alone, and of the first those the recall's thread scanned chunks of too (src/search/scan-worker.ts). */
    scanJobs: { ...SCAN_THREAD.counts },
    write,
    afterWriteMax: Math.max(...afterWrite),
    afterWriteFirst: afterWrite[0],
    afterWriteP50: pct(afterWrite).p50,
    beforeWriteMax: Math.max(...beforeWrite.ms),
    beforeWriteFirst: beforeWrite.ms[0],
    beforeWriteP50: pct(beforeWrite.ms).p50,
    /** Mean milliseconds per after-write recall, by stage. */
    afterWriteStages: Object.fromEntries(Object.entries(afterStages).map(([s, ms]) => [s, Math.round(ms * 100) / 100])),
    /** The slowest after-write recalls with their stages above 0.5 ms. */
    afterWriteSlowest: after.ms
      .map((ms, i) => ({ at: i, ms, stages: Object.fromEntries(Object.entries(after.stages[i]!).filter(([, v]) => v >= 0.5)) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3),
    stages: stage,
    slowest: slow.sort((a, b) => b.ms - a.ms).slice(0, 4),
  };
}

/**
 * The 1,000 memories of the bulk write, their vectors, and the index of the first (for `many`'s namespaces).
 * `template`: one note per question (vectors 13 fixed patterns). `varied`: memories `size` to
 * `size + 999` of the same generator as the corpus (it is prefix-stable, so they are new texts) with
 * vectors from the same directions.
 */
function bulkWrite(kind: 'template' | 'varied'): { texts: string[]; vectors: Float32Array; first: number } {
  if (kind === 'varied') {
    const all = generateMemories(size + 1000);
    const v = syntheticVectors(all, [], DIMS);
    return { texts: all.slice(size).map((m) => m.text), vectors: v.docs.slice(size * DIMS), first: size };
  }
  const qs = questionsOf(size, 'synthetic').queries;
  return {
    texts: Array.from({ length: 1000 }, (_, j) => `bulk note ${j} written after open about ${qs[j % qs.length]}`),
    vectors: new Float32Array(1000 * DIMS).map((_, k) => ((k * 7919) % 13) / 13 - 0.5),
    first: 0,
  };
}

if (phase === 'ingest') {
  await ingest();
  process.stdout.write('RESULT {}\n');
} else if (phase === 'query') {
  process.stdout.write(`RESULT ${JSON.stringify(await query())}\n`);
} else {
  const me = fileURLToPath(import.meta.url);
  const run = (p: string): string => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', me, String(size), layout, p, dir, write], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${p} failed: ${r.stderr.slice(-2000)}`);
    return r.stdout
      .split('\n')
      .find((l) => l.startsWith('RESULT '))!
      .slice(7);
  };
  run('ingest');
  const res = JSON.parse(run('query')) as Record<string, unknown>;
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`${JSON.stringify(res, null, 1)}\n`);
  process.stdout.write(`RESULT ${JSON.stringify(res)}\n`);
}
