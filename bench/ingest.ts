/**
 * End-to-end ingest and recall with the bundled model, single thread vs worker threads:
 * `tsx bench/ingest.ts [locomo-dir] [turns]`. Reads real chat turns from the LoCoMo dev half
 * (never copied into the repository), adds them with addMany into a fresh file per run, then
 * times recall of 50 of the questions (query embedding included). Prints one RESULT line per setup.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEmbedder, openMemory, type Embedder } from '../src/index.js';
import { pct } from './data.js';
import { scratch } from './systems.js';

const dir = process.argv[2] ?? '/work/shared/locomo-dev';
const n = Number(process.argv[3] ?? 400);
const turns: string[] = [];
const questions: string[] = [];
for (const f of readdirSync(dir)
  .filter((x) => x.endsWith('.json'))
  .sort()) {
  const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
  for (const k of Object.keys(d).filter((x) => /^session_\d+$/.test(x))) {
    for (const t of d[k] as { speaker: string; text: string }[]) turns.push(`${t.speaker}: ${t.text}`);
  }
  for (const q of d.qa as { question: string }[]) questions.push(q.question);
}
const sample = turns.slice(0, n);
const work = scratch(join(tmpdir(), 'mnemolite-bench-ingest'));

async function run(name: string, embedder: Embedder | 'none'): Promise<void> {
  const path = join(work, `${name}.db`);
  const mem = await openMemory({ path, embedder });
  await mem.recall('warm up the model', { limit: 10 }).catch(() => undefined);
  const t0 = performance.now();
  await mem.addMany(sample.map((content) => ({ content, force: true })));
  const ingestMs = performance.now() - t0;
  const ms: number[] = [];
  for (const q of questions.slice(0, 50)) {
    const t = performance.now();
    await mem.recall(q, { limit: 10 });
    ms.push(performance.now() - t);
  }
  const stats = embedder instanceof LocalEmbedder ? embedder.workerStats() : [];
  await mem.close();
  process.stdout.write(
    `RESULT ${JSON.stringify({ name, turns: sample.length, ingestMs: Math.round(ingestMs), turnsPerS: +((sample.length / ingestMs) * 1000).toFixed(1), recall: pct(ms), workers: stats })}\n`,
  );
}

await run('none', 'none');
await run('local-1thread', new LocalEmbedder({ workers: 0 }));
await run('local-2workers', new LocalEmbedder({ workers: 2 }));
scratch(work);
