/**
 * Opens (creating) a file the moment the parent writes "go", adds one memory, reports.
 * Usage: opener.ts --db PATH --tag N
 */
import { openMemory } from '../../src/index.js';
import { WorkerEmbedder, args, describe, emit } from './common.js';

const a = args();
emit({ op: 'loaded' });
await new Promise<void>((res) =>
  process.stdin.on('data', (d) => {
    if (String(d).includes('go')) res();
  }),
);
try {
  const mem = await openMemory({ path: a.db!, embedder: new WorkerEmbedder() });
  await mem.add(`opened by process ${a.tag}`);
  await mem.close();
  emit({ op: 'ok' });
} catch (e) {
  emit({ op: 'error', ...describe(e) });
}
process.exit(0);
