/**
 * What conversational context costs at write time and on disk: the LoCoMo dev half (2,820 real
 * chat turns, read where it lies) stored through addConversation with `contextWindow` 0 (off) and 2
 * (the default), vectors served from the eval cache so the model's time is left out.
 *   npx tsx eval/context-cost.ts [--locomo DIR] [--rounds 3]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../src/index.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { CachingEmbedder } from './embed-cache.js';
import { defaultLocomoDir, loadLocomo, storeConversation } from './locomo.js';

const arg = (n: string): string | undefined => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const convs = loadLocomo(arg('--locomo') ?? defaultLocomoDir());
const turns = convs.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
const embedder = new CachingEmbedder(new LocalEmbedder(), join(new URL('.', import.meta.url).pathname, '..', 'bench', '.cache', 'eval'));
const rounds = Number(arg('--rounds') ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'mnemolite-ctxcost-'));
const rows: string[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    for (const window of [0, 2]) {
      const path = join(dir, `w${window}-${r}.db`);
      const mem = await openMemory({ path, embedder });
      const t0 = performance.now();
      for (const c of convs) await storeConversation(mem, c, 'conversation', { contextWindow: window });
      const ms = performance.now() - t0;
      await mem.close();
      rows.push(`| ${r + 1} | ${window} | ${(turns / (ms / 1000)).toFixed(0)} | ${(statSync(path).size / 1e6).toFixed(2)} |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${turns} turns of ${convs.length} conversations, vectors from the cache (model calls: ${embedder.misses})\n`);
console.log('| round | contextWindow | turns/s (write, no model) | file MB |\n|--:|--:|--:|--:|');
console.log(rows.join('\n'));
