import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory, type RecallHit } from '../index.js';
import { clip } from './format.js';

/** The demo's memories: a small agent's notes about its user and project. */
export const DEMO_MEMORIES = [
  'My Raspberry Pi setup',
  'The user prefers dark mode in every editor',
  'Invoices are due on the 15th of each month',
  'The weekly sync with Alice is on Tuesday at 10:00',
  'Our CI runs on GitHub Actions',
  'The production database is PostgreSQL 15',
  'My cat is named Whiskers',
  'Use tabs, not spaces, in Go code',
];

/** Queries the demo runs, each chosen to show one leg's strength. */
export const DEMO_QUERIES = [
  'Deploying on ARM hardware', // no shared words: only the vector leg can find the Pi
  'When are invoices due?', // shared words: the keyword leg is exact
  'what colour theme does the user like', // paraphrase with one shared word
];

/** Run the demo: store the memories in a temp file (or `dbPath`) and print the three legs side by side. */
export async function runDemo(opts: { dbPath?: string; json: boolean; out: (s: string) => void }): Promise<void> {
  const dir = opts.dbPath ? null : mkdtempSync(join(tmpdir(), 'mnemolite-demo-'));
  const path = opts.dbPath ?? join(dir!, 'demo.db');
  const mem = await openMemory({ path });
  try {
    await mem.addMany(DEMO_MEMORIES.map((content) => ({ content, namespace: 'demo' })));
    const results: Record<string, Record<string, RecallHit[]>> = {};
    for (const q of DEMO_QUERIES) {
      results[q] = {};
      for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
        results[q]![mode] = await mem.recall(q, { namespace: 'demo', mode, limit: 3 });
      }
    }
    if (opts.json) {
      opts.out(JSON.stringify({ path, memories: DEMO_MEMORIES, results }, null, 2));
      return;
    }
    const w = 34;
    opts.out(`mnemolite demo: ${DEMO_MEMORIES.length} memories in ${path}, embedder ${mem.embedder?.id}\n`);
    for (const q of DEMO_QUERIES) {
      opts.out(`query: "${q}"`);
      opts.out(['keyword (FTS5 BM25)', 'vector (cosine)', 'hybrid (adaptive fusion)'].map((h) => h.padEnd(w)).join('  '));
      opts.out(['', '', ''].map(() => '─'.repeat(w)).join('  '));
      for (let i = 0; i < 3; i++) {
        const cell = (h: RecallHit | undefined): string => (h ? `${i + 1}. ${clip(h.content, w - 3)}` : i === 0 ? '(no match)' : '').padEnd(w);
        opts.out([cell(results[q]!.keyword![i]), cell(results[q]!.vector![i]), cell(results[q]!.hybrid![i])].join('  '));
      }
      opts.out('');
    }
    opts.out('The keyword leg needs shared words; the vector leg finds meaning ("ARM hardware" -> Raspberry Pi);');
    opts.out('hybrid recall runs both and fuses them. Try: npx mnemolite add "..." && npx mnemolite recall "..."');
  } finally {
    await mem.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
