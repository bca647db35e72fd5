/**
 * Crash safety: test/workers/crash-writer.ts is killed with SIGKILL at random moments, again
 * and again, on the same file; after every kill the file is checked.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { openMemory } from '../../../src/index.js';
import { tempDb } from '../../helpers.js';
import { WorkerEmbedder, prng } from '../../workers/common.js';
import { checkFile, type FileRow } from './filecheck.js';
import { startWorker } from './procs.js';

export interface CrashOptions {
  kills: number;
  seed: number;
  log?: (msg: string) => void;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Frames at the end of the -wal after its last commit frame: pages of a transaction the kill
 * interrupted (SQLite ignores them on recovery). Evidence that a kill landed mid-commit.
 */
export function uncommittedFrames(walPath: string): number {
  if (!existsSync(walPath)) return 0;
  const wal = readFileSync(walPath);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16),
    salt2 = wal.readUInt32BE(20);
  let trailing = 0;
  for (let off = 32; off + 24 + pageSize <= wal.length; off += 24 + pageSize) {
    if (wal.readUInt32BE(off + 8) !== salt1 || wal.readUInt32BE(off + 12) !== salt2) break; // stale frames of an older generation
    trailing = wal.readUInt32BE(off + 4) !== 0 ? 0 : trailing + 1; // non-zero "db size" marks a commit frame
  }
  return trailing;
}

export async function runCrashLoop(o: CrashOptions): Promise<void> {
  const path = tempDb();
  const r = prng(o.seed);
  const acked = new Map<number, number>(); // batch -> size, acknowledged before a kill
  let prev = new Map<string, string>(); // id -> content at the previous check
  let next = 0; // first batch number of the next writer
  const stats = { duringOpen: 0, unackedCommitted: 0, lostInFlight: 0, updates: 0, midCommit: 0 };

  for (let k = 0; k < o.kills; k++) {
    const w = await startWorker('crash-writer.ts', { db: path, start: next, seed: o.seed * 1000 + k });
    // Pick the moment: while opening (a fresh file: during creation and migration), or after
    // a random number of acknowledged batches plus a random few milliseconds.
    if (r.int(5) === 0) {
      await w.waitFor((l) => l.op === 'opening');
      await pause(r.int(4));
      stats.duringOpen++;
    } else {
      const acks = r.int(6);
      await w.waitFor((l) => l.op === 'ack' && (l.batch as number) >= next + acks);
      await pause(r.int(25));
    }
    w.proc.kill('SIGKILL');
    const exit = await w.exited;
    assert.equal(exit.signal, 'SIGKILL', `writer ended on its own: ${w.stderr()}\n${JSON.stringify(w.lines.filter((l) => l.op === 'error'))}`);

    if (uncommittedFrames(`${path}-wal`) > 0) stats.midCommit++;

    // Contents an updated memory may have: the last acknowledged one, or a pending intent.
    const allowed = new Map<string, Set<string>>();
    for (const l of w.lines) {
      if (l.op === 'ack') acked.set(l.batch as number, l.n as number);
      if (l.op === 'intent') {
        const id = l.id as string;
        const s = allowed.get(id) ?? new Set([l.from as string]);
        s.add(l.content as string);
        allowed.set(id, s);
      }
      if (l.op === 'updated') {
        const intent = w.lines
          .slice(0, w.lines.indexOf(l))
          .reverse()
          .find((x) => x.op === 'intent' && x.id === l.id)!;
        allowed.set(l.id as string, new Set([intent.content as string]));
        stats.updates++;
      }
    }

    let rows: FileRow[];
    try {
      rows = checkFile(path, { model: 'hash-64' });
    } catch (err) {
      // A kill before the first migration committed leaves no tables: that is a fresh file.
      if (acked.size === 0 && /no such table/.test(String(err))) continue;
      throw err;
    }
    const groups = new Map<number, number>();
    const latest = rows.filter((x) => x.key === 'latest');
    for (const x of rows) if (x.key !== 'latest') groups.set(x.metadata.batch as number, (groups.get(x.metadata.batch as number) ?? 0) + 1);
    for (const [b, n] of groups) {
      const want = rows.find((x) => x.key !== 'latest' && x.metadata.batch === b)!.metadata.n;
      assert.equal(n, want, `batch ${b} is complete (${n} of ${want} rows): no half batch`);
    }
    for (const [b, n] of acked) assert.equal(groups.get(b), n, `acknowledged batch ${b} survived kill ${k}`);
    const maxPresent = groups.size ? Math.max(...groups.keys()) : -1;
    if (groups.size) {
      assert.equal(latest.length, 1);
      assert.equal(latest[0]!.metadata.batch, maxPresent, 'the "latest" upsert committed with its batch');
    } else assert.equal(latest.length, 0);
    const maxAcked = acked.size ? Math.max(...acked.keys()) : -1;
    assert.ok(
      maxPresent === maxAcked || maxPresent === maxAcked + 1,
      `at most the one batch in flight committed unacknowledged (${maxPresent} vs ${maxAcked})`,
    );
    if (maxPresent === maxAcked + 1) {
      stats.unackedCommitted++;
      acked.set(maxPresent, groups.get(maxPresent)!);
    } else stats.lostInFlight++;
    const now = new Map(rows.map((x) => [x.id, x.content]));
    for (const [id, s] of allowed) {
      assert.ok(
        s.has(now.get(id)!),
        `kill ${k}: memory ${id} holds an acknowledged or in-flight content, got ${JSON.stringify(now.get(id))}; ` +
          `allowed ${JSON.stringify([...s])}; before ${JSON.stringify(prev.get(id))}; lines ${JSON.stringify(w.lines.filter((l) => l.id === id))}`,
      );
    }
    prev = now;
    next = maxPresent + 1;
  }

  // The file still works through mnemolite: every memory is recallable by its own text.
  const mem = await openMemory({ path, embedder: new WorkerEmbedder() });
  const rows = checkFile(path, { model: 'hash-64' });
  assert.equal((await mem.stats()).memories, rows.length);
  for (const x of rows.filter((_, i) => i % Math.max(1, Math.floor(rows.length / 50)) === 0)) {
    const hit = await mem.recall(x.content, { mode: 'vector', limit: 1 });
    // Scores come from the int8 vectors in memory (src/search/vector-index.ts): within ~1e-3 of the float cosine.
    assert.ok(hit[0] && Math.abs(hit[0].score - 1) < 1e-2, `vector recall finds ${x.id} (score ${hit[0]?.score})`);
  }
  await mem.close();
  o.log?.(
    `${o.kills} kills, ${acked.size} batches, ${rows.length} memories; killed while opening ${stats.duringOpen}, ` +
      `committed-but-unacknowledged ${stats.unackedCommitted}, nothing in flight committed ${stats.lostInFlight}, killed mid-commit (torn WAL tail) ${stats.midCommit}, acknowledged updates ${stats.updates}`,
  );
}
