/**
 * Crash-safety writer: writes batches until it is killed. Each batch is ONE addMany call:
 * 1-60 (sometimes 400-1600) new memories tagged { batch, n, j } plus an upsert of the key "latest" naming the batch,
 * so a half-applied batch is visible as a wrong count or a "latest" that points elsewhere.
 * Every few batches it also updates an older memory's content (printing its intent first).
 *
 * Lines: `opening`, `ready`, `ack` {batch, n} after addMany resolved, `intent` {id, content, from}
 * before an update and `updated` {id} after it. Usage: crash-writer.ts --db PATH --start N --seed N
 */
import { openMemory } from '../../src/index.js';
import { WorkerEmbedder, args, describe, emit, prng } from './common.js';

const a = args();
const r = prng(Number(a.seed));
emit({ op: 'opening' });
const mem = await openMemory({ path: a.db!, embedder: new WorkerEmbedder() });
emit({ op: 'ready' });
try {
  for (let b = Number(a.start); ; b++) {
    const n = r.next() < 0.25 ? 400 + r.int(1200) : 1 + r.int(60); // some batches big enough that a kill often lands inside the transaction
    const items: { content: string; key?: string; metadata: Record<string, unknown> }[] = Array.from({ length: n }, (_, j) => ({
      content: `batch ${b} item ${j} ${r.word()} ${r.word()}`,
      metadata: { batch: b, n, j },
    }));
    items.push({ content: `latest batch is ${b} ${r.word()}`, key: 'latest', metadata: { batch: b, n, latest: true } });
    await mem.addMany(items);
    emit({ op: 'ack', batch: b, n });
    if (b % 3 === 0 && b > 0) {
      const [victim] = await mem.list({ metadata: { batch: r.int(b) }, limit: 1 });
      if (victim && victim.key === null) {
        const content = `updated in batch ${b} ${r.word()} ${victim.metadata.batch as number}`;
        emit({ op: 'intent', id: victim.id, content, from: victim.content });
        await mem.update(victim.id, { content });
        emit({ op: 'updated', id: victim.id });
      }
    }
  }
} catch (e) {
  emit({ op: 'error', ...describe(e) });
  process.exit(1);
}
