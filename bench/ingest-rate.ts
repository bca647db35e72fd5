/**
 * Bulk ingest with vectors given, alone: `tsx bench/ingest-rate.ts [size = 50000] [dir]` writes the
 * synthetic corpus through `addMany` (1,000 a call, one namespace, precomputed vectors served by an
 * Embedder) into a fresh file and prints the rate and what `close()` costs. For before/after runs of a
 * write-path change (bench/user-path.ts ingests too, then also builds the recipe's file).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../src/index.js';
import { DIMS, syntheticCorpus } from './data.js';
import { PrecomputedEmbedder } from './precomputed.js';

const size = Number(process.argv[2] ?? 50_000);
const dir = process.argv[3] ?? join(tmpdir(), `mnemolite-ingest-rate-${size}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const c = syntheticCorpus(size);
const emb = new PrecomputedEmbedder('bench-512', DIMS);
emb.add(c.texts, c.docs);
const mem = await openMemory({ path: join(dir, 'mnemolite.db'), embedder: emb });
const t0 = performance.now();
for (let i = 0; i < c.texts.length; i += 1000) await mem.addMany(c.texts.slice(i, i + 1000).map((content) => ({ content })));
const ingestPerSec = c.texts.length / ((performance.now() - t0) / 1000);
const t1 = performance.now();
await mem.close();
const closeMs = performance.now() - t1;
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`RESULT ${JSON.stringify({ size, ingestPerSec: Math.round(ingestPerSec), closeMs: Math.round(closeMs) })}\n`);
