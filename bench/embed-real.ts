/**
 * Embed a corpus with the bundled model (USE-lite, ~110 texts/s here) and cache the vectors in
 * bench/.cache/real-<size>/ so later runs reuse them: `tsx bench/embed-real.ts 10000`.
 */
import { LocalEmbedder } from '../src/embed/local.js';
import { normalise } from '../src/embed/cache.js';
import { DIMS, saveReal, syntheticCorpus } from './data.js';

const size = Number(process.argv[2] ?? 10_000);
const c = syntheticCorpus(size);
const model = new LocalEmbedder();
async function embedAll(texts: string[]): Promise<Float32Array> {
  const out = new Float32Array(texts.length * DIMS);
  // Similar lengths together: less padding work in the model (same vectors).
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const t0 = performance.now();
  for (let i = 0; i < order.length; i += 64) {
    const idx = order.slice(i, i + 64);
    const vecs = await model.embed(idx.map((j) => texts[j]!));
    idx.forEach((j, k) => out.set(normalise(vecs[k]!, DIMS, model.id), j * DIMS));
    if (i % 2048 === 0) process.stderr.write(`  embedded ${i}/${texts.length} (${(i / ((performance.now() - t0) / 1000)).toFixed(0)}/s)\n`);
  }
  return out;
}
const docs = await embedAll(c.texts);
const qvecs = await embedAll(c.queries);
saveReal(size, docs, qvecs);
process.stdout.write(`RESULT ${JSON.stringify({ size, texts: c.texts.length })}\n`);
