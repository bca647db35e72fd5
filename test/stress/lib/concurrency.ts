/**
 * N writer processes and M reader processes on one file (test/workers/writer.ts, reader.ts),
 * plus this process holding a Memory opened before any of them wrote.
 */
import assert from 'node:assert/strict';
import { openMemory } from '../../../src/index.js';
import { tempDb } from '../../helpers.js';
import { swept, sweep, type Outcome } from '../../workers/checks.js';
import { SHARED_KEYS, WorkerEmbedder } from '../../workers/common.js';
import { checkFile } from './filecheck.js';
import { linesOf, startWorker, type Line, type Worker } from './procs.js';

export interface ConcurrencyOptions {
  writers: number;
  readers: number;
  /** Operations per writer (a bounded loop). */
  ops: number;
  seed: number;
  /** Final sweeps check every `stride`-th memory (1: all). */
  stride?: number;
  log?: (msg: string) => void;
}

const problems = (ws: Worker[], op: string): Line[] => ws.flatMap((w) => linesOf(w, op));

export async function runConcurrency(o: ConcurrencyOptions): Promise<void> {
  const path = tempDb();
  // This process's own long-lived Memory: opened (and its index built) before anyone writes.
  const mem0 = await openMemory({ path, embedder: new WorkerEmbedder() });
  await mem0.recall('warm up', { namespace: '*' });

  const writers = await Promise.all(
    Array.from({ length: o.writers }, (_, w) => startWorker('writer.ts', { db: path, w, ops: o.ops, seed: o.seed * 1000 + w })),
  );
  const stride = o.stride ?? 1;
  const readers = await Promise.all(Array.from({ length: o.readers }, (_, i) => startWorker('reader.ts', { db: path, seed: o.seed * 1000 + 100 + i, stride })));
  await Promise.all([...writers, ...readers].map((w) => w.waitFor((l) => l.op === 'ready')));
  const t0 = Date.now();
  for (const w of writers) w.send('go');
  const wExit = await Promise.all(writers.map((w) => w.exited));
  const t1 = Date.now();
  for (const r of readers) r.send('stop');
  const rExit = await Promise.all(readers.map((r) => r.exited));
  const t2 = Date.now();
  const all = [...writers, ...readers];

  // 1. No error of any kind reached any caller (no SQLITE_BUSY, no constraint error, nothing raw).
  assert.deepEqual(problems(all, 'error'), [], 'errors reported by workers');
  assert.deepEqual(problems(all, 'garbage'), [], 'unexpected worker output');
  [...wExit, ...rExit].forEach((x, i) => assert.equal(x.code, 0, `worker ${i} exit: ${JSON.stringify(x)}\n${all[i]!.stderr()}`));
  for (const w of all) assert.equal(linesOf(w, 'done').length, 1, 'every worker finished its loop');

  // 2. Readers (long-lived indexes in other processes) never saw stale state.
  assert.deepEqual(problems(readers, 'violation'), [], 'stale reads');
  const sum = (k: string, phase: 'live' | 'final'): number =>
    readers.reduce((n, r) => n + ((linesOf(r, 'done')[0]![phase] as Record<string, number>)[k] ?? 0), 0);

  // 3. Replay every acknowledged operation: the file must hold exactly that.
  const notes = new Map<string, string>();
  const pairs = new Map<string, { d: string; e: string; dAlive: boolean }>();
  const upserts = new Map<string, { ids: Set<string>; contents: Set<string> }>();
  for (const w of writers) {
    for (const l of w.lines) {
      if (l.op === 'add' || l.op === 'update') notes.set(l.id as string, l.content as string);
      else if (l.op === 'forget' && l.pair) pairs.get(l.pair as string)!.dAlive = false;
      else if (l.op === 'forget') {
        assert.equal(l.gone, true);
        notes.delete(l.id as string);
      } else if (l.op === 'pair') pairs.set(l.pair as string, { d: l.d as string, e: l.e as string, dAlive: true });
      else if (l.op === 'upsert') {
        const u = upserts.get(l.key as string) ?? { ids: new Set(), contents: new Set() };
        u.ids.add(l.id as string);
        u.contents.add(l.content as string);
        upserts.set(l.key as string, u);
      }
    }
  }
  const rows = checkFile(path, { model: 'hash-64' });
  const byRole = (role: string) => rows.filter((r) => r.metadata.role === role);
  assert.deepEqual(
    new Map(byRole('note').map((r) => [r.id, r.content])),
    notes,
    'notes: every acknowledged add/update present, every acknowledged forget gone',
  );
  assert.deepEqual(new Set(byRole('e').map((r) => r.id)), new Set([...pairs.values()].map((p) => p.e)));
  assert.deepEqual(new Set(byRole('d').map((r) => r.id)), new Set([...pairs.values()].filter((p) => p.dAlive).map((p) => p.d)));
  const shared = byRole('shared');
  assert.ok(upserts.size <= SHARED_KEYS);
  assert.equal(shared.length, upserts.size, 'one row per shared key');
  for (const [key, u] of upserts) {
    assert.equal(u.ids.size, 1, `every process upserting key ${key} got the same id`);
    const row = shared.find((r) => r.key === key)!;
    assert.ok(u.ids.has(row.id) && u.contents.has(row.content), `key ${key} holds one of the acknowledged contents`);
  }
  assert.equal(rows.length, notes.size + pairs.size * 1 + [...pairs.values()].filter((p) => p.dAlive).length + upserts.size, 'nothing else in the file');

  // 4. This process's Memory, opened before all of it, sees the final state exactly.
  const mine: Record<string, number> = {};
  const violations: unknown[] = [];
  await sweep(
    mem0,
    (x: Outcome) => {
      if (x.kind === 'violation') violations.push(x);
      else mine[x.kind] = (mine[x.kind] ?? 0) + 1;
    },
    true,
    stride,
  );
  assert.deepEqual(violations, [], "the parent's long-lived index is stale");
  assert.equal(mine.skipped ?? 0, 0, 'nothing changes during the final sweep');
  assert.equal(mine.visible, swept(notes.size, stride) * 3);
  assert.equal((mine.deleted ?? 0) + (mine.pairPresent ?? 0), swept(pairs.size, stride) * 6);
  assert.equal((await mem0.stats()).memories, rows.length);
  await mem0.close();

  const deletedPairs = [...pairs.values()].filter((p) => !p.dAlive).length;
  assert.equal(sum('skipped', 'final'), 0);
  assert.equal(sum('visible', 'final'), swept(notes.size, stride) * o.readers, 'every reader swept the notes');
  assert.equal(sum('deleted', 'final') + sum('pairPresent', 'final'), swept(pairs.size, stride) * o.readers, 'every reader swept the pairs');
  if (stride === 1) {
    assert.equal(sum('deleted', 'final'), deletedPairs * o.readers);
    assert.equal(mine.deleted ?? 0, deletedPairs * 6);
  }
  o.log?.(
    `writers: ${writers.map((w) => w.lines.length).join('/')} acks; rows ${rows.length}; ` +
      `reader checks while writing: visible ${sum('visible', 'live')}, deleted ${sum('deleted', 'live')}, new ${sum('pairPresent', 'live')}, skipped ${sum('skipped', 'live')}; ` +
      `final sweep: ${sum('visible', 'final')} + ${sum('deleted', 'final')}; writing ${t1 - t0} ms, final sweeps ${t2 - t1} ms`,
  );
}
