/**
 * One benchmark cell in its own process (clean RSS, no cross-talk between systems):
 * `tsx bench/worker.ts <system> <size> <synthetic|real> <queries> <scratch dir>`; prints one JSON line.
 */
import { groundTruth, realCorpus, syntheticCorpus, type Corpus } from './data.js';
import { runLance, runMnemolite, runOrama, runRecipe, scratch, type Result, type RunOptions } from './systems.js';

const [system, sizeArg, kind, queriesArg, dir] = process.argv.slice(2);
const size = Number(sizeArg), queries = Number(queriesArg);
const c = kind === 'real' ? realCorpus(size) : syntheticCorpus(size);
if (!c) throw new Error(`no ${kind} corpus of ${size}`);
const truth = groundTruth(c, Math.min(queries, c.queries.length));
const o = { dir: scratch(dir!), queries, truth };
const runners: Record<string, (c: Corpus, o: RunOptions) => Promise<Result>> = {
  mnemolite: runMnemolite, recipe: runRecipe, orama: runOrama, lancedb: runLance,
};
const run = runners[system!];
if (!run) throw new Error(`unknown system ${system}`);
const r = await run(c, o);
scratch(dir!);
process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
