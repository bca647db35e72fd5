/**
 * Backups taken while another process keeps writing batches (test/workers/crash-writer.ts).
 * Each backup must be a consistent snapshot: sound, every batch whole, every batch acknowledged
 * before the backup started present, FTS and vectors in agreement with the memories.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openMemory } from '../../../src/index.js';
import { tempDb, tempDir } from '../../helpers.js';
import { WorkerEmbedder } from '../../workers/common.js';
import { checkFile } from './filecheck.js';
import { startWorker } from './procs.js';

export interface BackupOptions {
  backups: number;
  /** Memories of ~1 KB written first, so the file spans many pages (SQLite copies 100 per step). */
  prefill: number;
  seed: number;
  log?: (msg: string) => void;
}

export async function runBackupWhileWriting(o: BackupOptions): Promise<void> {
  const path = tempDb();
  const dir = tempDir();
  const mem = await openMemory({ path, embedder: new WorkerEmbedder() });
  await mem.addMany(
    Array.from({ length: o.prefill }, (_, i) => ({ content: `prefill ${i} ${'lorem ipsum dolor sit amet '.repeat(40)}`, metadata: { prefill: true } })),
  );
  const writer = await startWorker('crash-writer.ts', { db: path, start: 0, seed: o.seed });
  const sizes: number[] = [];
  try {
    for (let k = 0; k < o.backups; k++) {
      // Start each backup right after a fresh acknowledgement, while the writer keeps going.
      const ackedBefore = new Map(writer.lines.filter((l) => l.op === 'ack').map((l) => [l.batch as number, l.n as number]));
      const last = ackedBefore.size ? Math.max(...ackedBefore.keys()) : -1;
      await writer.waitFor((l) => l.op === 'ack' && (l.batch as number) > last);
      for (const l of writer.lines) if (l.op === 'ack') ackedBefore.set(l.batch as number, l.n as number);
      const dest = join(dir, `backup-${k}.db`);
      await mem.backup(dest);
      const stillWriting = writer.proc.exitCode === null;
      assert.ok(stillWriting, `the writer was still running during backup ${k}: ${writer.stderr()}`);

      const rows = checkFile(dest, { model: 'hash-64', ftsSample: 100 });
      sizes.push(rows.length);
      assert.equal(rows.filter((r) => r.metadata.prefill).length, o.prefill);
      const groups = new Map<number, number>();
      for (const r of rows)
        if (r.key !== 'latest' && typeof r.metadata.batch === 'number') groups.set(r.metadata.batch, (groups.get(r.metadata.batch) ?? 0) + 1);
      for (const [b, n] of groups) assert.equal(n, rows.find((r) => r.key !== 'latest' && r.metadata.batch === b)!.metadata.n, `backup ${k}: batch ${b} whole`);
      for (const [b, n] of ackedBefore) assert.equal(groups.get(b), n, `backup ${k}: batch ${b}, acknowledged before the backup began, is in it`);
      const latest = rows.filter((r) => r.key === 'latest');
      assert.equal(latest.length, 1);
      assert.equal(latest[0]!.metadata.batch, Math.max(...groups.keys()), `backup ${k}: "latest" matches the newest batch`);
      // The copy is a working mnemolite file.
      const copy = await openMemory({ path: dest, embedder: new WorkerEmbedder(), readonly: true });
      assert.equal((await copy.stats()).memories, rows.length);
      const probe = rows[rows.length - 1]!;
      assert.equal((await copy.recall(probe.content, { mode: 'vector', limit: 1 }))[0]?.id, probe.id);
      await copy.close();
    }
  } finally {
    writer.proc.kill('SIGKILL');
    await writer.exited;
    await mem.close();
  }
  assert.ok(
    sizes.every((n, i) => i === 0 || n >= sizes[i - 1]!),
    'later backups hold more',
  );
  o.log?.(`${o.backups} backups while writing; memories per backup: ${sizes.join(', ')}`);
}
