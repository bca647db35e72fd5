/**
 * One benchmark cell phase in its own process (clean RSS, no cross-talk between systems):
 * `tsx bench/worker.ts <system> <size> <synthetic|real> <queries> <dir> <ingest|query|all>`;
 * prints one `RESULT {json}` line. The query phase loads only the questions, so its RSS delta
 * is the store's own memory.
 */
import { rmSync } from 'node:fs';
import { groundTruth, questionsOf, realCorpus, syntheticCorpus, type Corpus } from './data.js';
import { runLance, runMnemolite, runMnemolitePg, runOrama, runRecipe, scratch, type Result, type RunOptions } from './systems.js';

const [system, sizeArg, kind, queriesArg, dir, phaseArg] = process.argv.slice(2);
const size = Number(sizeArg),
  queries = Number(queriesArg);
const phase = (phaseArg ?? 'all') as RunOptions['phase'];
const full = (): Corpus => {
  const c = kind === 'real' ? realCorpus(size) : syntheticCorpus(size);
  if (!c) throw new Error(`no ${kind} corpus of ${size}`);
  return c;
};
const c = phase === 'query' ? questionsOf(size, kind as Corpus['kind']) : full();
// Ground truth needs the full corpus: the ingest phase computes and caches it for the query phase.
const truth = groundTruth(c, Math.min(queries, c.queries.length));
const o: RunOptions = { dir: phase === 'query' ? dir! : scratch(dir!), queries, truth, phase };
const runners: Record<string, (c: Corpus, o: RunOptions) => Promise<Result>> = {
  mnemolite: runMnemolite,
  recipe: runRecipe,
  orama: runOrama,
  lancedb: runLance,
  'mnemolite-pg': (c, o) => runMnemolitePg('mnemolite-pg', c, o),
  'mnemolite-pglite': (c, o) => runMnemolitePg('mnemolite-pglite', c, o),
};
const run = runners[system!];
if (!run) throw new Error(`unknown system ${system}`);
const r = await run(c, o);
if (phase !== 'ingest') {
  scratch(dir!);
  rmSync(`${dir}-meta.json`, { force: true });
}
process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
