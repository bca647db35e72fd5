// The vector leg's sign-code scan on a worker thread (src/search/scan-worker.ts): the same hits as
// the scan on the calling thread, through VectorIndex and through openMemory's recall; changes
// and new searches wait for a scan in flight; a started thread never keeps a process alive.
// Real worker threads, real SQLite files, a real child process; no timing.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openMemory } from '../src/index.js';
import { SCAN_THREAD, VectorIndex } from '../src/search/vector-index.js';
import { HashEmbedder, ROOT, runTs, tempDb, tempDir } from './helpers.js';
import { gauss, mulberry32 } from './rng.js';

const DIMS = 128;

function unitRows(n: number, r: () => number): Float32Array {
  const out = new Float32Array(n * DIMS);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < DIMS; j++) {
      const x = gauss(r) + 0.5 * Math.sin(j); // a shared direction, like sentence embeddings
      out[i * DIMS + j] = x;
      s += x * x;
    }
    for (let j = 0; j < DIMS; j++) out[i * DIMS + j]! /= Math.sqrt(s);
  }
  return out;
}

const bytes = (v: Float32Array): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** An index with the scan thread from its first slot and one without, holding the same `n` rows. */
function twoIndexes(n: number, r: () => number): { threaded: VectorIndex; serial: VectorIndex } {
  const threaded = new VectorIndex(DIMS, { parallelFrom: 0 });
  const serial = new VectorIndex(DIMS, { parallelFrom: Infinity });
  const rows = bytes(unitRows(n, r));
  threaded.setRange(0, rows, n);
  serial.setRange(0, rows, n);
  return { threaded, serial };
}

/** The thread starts in the background; until it runs, jobs are taken back. Wait for its first. */
async function untilWorkerRan(idx: VectorIndex, r: () => number): Promise<void> {
  for (let i = 0; i < 1000 && !idx.scanCounts?.worker; i++) {
    const finish = idx.start(unitRows(1, r), 5);
    await new Promise((res) => setTimeout(res, 10));
    finish();
  }
  assert.ok(idx.scanCounts!.worker > 0, 'the worker thread ran a scan');
}

test('a scan on the worker thread gives the hits of the scan on this thread, filtered or not, as the index changes', async () => {
  const r = mulberry32(7);
  const threaded = new VectorIndex(DIMS, { parallelFrom: 0 });
  const serial = new VectorIndex(DIMS, { parallelFrom: Infinity });
  try {
    let n = 0;
    const grow = (m: number): void => {
      const rows = bytes(unitRows(m, r));
      threaded.setRange(n, rows, m);
      serial.setRange(n, rows, m);
      n += m;
    };
    grow(3000);
    await untilWorkerRan(threaded, r);
    let compared = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 15; i++) {
        const q = unitRows(1, r);
        // Work on this thread between start and finish, as the keyword leg does.
        const finish = threaded.start(q, 20);
        await new Promise((res) => setTimeout(res, 1));
        assert.deepEqual(finish(), serial.search(q, 20));
        compared++;
      }
      // A filtered search: every third slot switched off.
      for (const idx of [threaded, serial]) {
        const m = idx.filterMask();
        for (let s = 0; s < m.length; s += 3) m[s] = 0;
      }
      const q = unitRows(1, r);
      const a = threaded.search(q, 20, { filtered: true });
      const b = serial.search(q, 20, { filtered: true });
      assert.deepEqual(a, b);
      assert.ok(a.every((h) => h.slot % 3 !== 0));
      // Changes between rounds: slots cleared, the index grown past its capacity (regions move).
      for (let s = round; s < n; s += 97) {
        threaded.clear(s);
        serial.clear(s);
      }
      grow(2500);
    }
    assert.equal(compared, 90);
    // How many of the 90 the worker took depends on the machine's load; every one gave the same hits.
    assert.ok(threaded.scanCounts!.worker > 0, JSON.stringify(threaded.scanCounts));
  } finally {
    threaded.dispose();
    serial.dispose();
  }
});

test('a job both threads scan, chunk by chunk, gives the same hits: the caller first, the worker after, either doing the tail', async () => {
  const r = mulberry32(13);
  const was = { chunkSlots: SCAN_THREAD.chunkSlots, callerChunks: SCAN_THREAD.callerChunks };
  const { threaded, serial } = twoIndexes(9000, r);
  try {
    for (const idx of [threaded, serial]) {
      const m = idx.filterMask();
      for (let s = 1; s < m.length; s += 4) m[s] = 0;
    }
    // Ten chunks: the caller scans a varying share of them before the worker is told (all ten: the
    // caller also ends the job, and the worker finds nothing left).
    SCAN_THREAD.chunkSlots = 900;
    await untilWorkerRan(threaded, r);
    const before = { ...threaded.scanCounts! };
    for (let i = 0; i < 44; i++) {
      SCAN_THREAD.callerChunks = [1, 3, 9, 10][i % 4]!;
      const q = unitRows(1, r);
      const filtered = i % 2 === 1;
      const finish = threaded.start(q, 20, { filtered });
      if (i % 3 === 0) await new Promise((res) => setTimeout(res, 1));
      assert.deepEqual(finish(), serial.search(q, 20, { filtered }), `search ${i}`);
    }
    const after = threaded.scanCounts!;
    // A job the worker started was shared; one taken back ran here alone. Either way every job counts once.
    assert.equal(after.worker + after.here - before.worker - before.here, 44);
    assert.equal(after.helped - before.helped, after.worker - before.worker);
  } finally {
    Object.assign(SCAN_THREAD, was);
    threaded.dispose();
    serial.dispose();
  }
});

test('a worker that fails a job it shares: the job runs again here with the same hits, the thread stops, the index goes on serially', async () => {
  const r = mulberry32(17);
  const was = { chunkSlots: SCAN_THREAD.chunkSlots, failWorker: SCAN_THREAD.failWorker };
  const { stageWorkersAlive } = await import('../src/search/scan-worker.js');
  const { threaded, serial } = twoIndexes(6000, r);
  try {
    SCAN_THREAD.chunkSlots = 1000;
    await untilWorkerRan(threaded, r);
    const alive = stageWorkersAlive();
    SCAN_THREAD.failWorker = true;
    // The worker fails the first job it takes (a job taken back before it starts runs here, unfailed).
    let tries = 0;
    while (stageWorkersAlive() === alive && tries++ < 200) {
      const q = unitRows(1, r);
      const finish = threaded.start(q, 20);
      await new Promise((res) => setTimeout(res, 5));
      assert.deepEqual(finish(), serial.search(q, 20), `try ${tries}`);
    }
    assert.equal(stageWorkersAlive(), alive - 1, 'the failed worker stopped');
    SCAN_THREAD.failWorker = false;
    const here = threaded.scanCounts!.here;
    for (let i = 0; i < 5; i++) {
      const q = unitRows(1, r);
      assert.deepEqual(threaded.search(q, 20, { filtered: false }), serial.search(q, 20));
    }
    assert.equal(threaded.scanCounts!.here, here + 5, 'later searches run on this thread');
  } finally {
    Object.assign(SCAN_THREAD, was);
    threaded.dispose();
    serial.dispose();
  }
});

test('a change, or another search, waits for the scan in flight and makes the old finisher throw', () => {
  const r = mulberry32(11);
  const idx = new VectorIndex(DIMS, { parallelFrom: 0 });
  const copy = new VectorIndex(DIMS, { parallelFrom: Infinity });
  try {
    const rows = bytes(unitRows(4000, r));
    idx.setRange(0, rows, 4000);
    copy.setRange(0, rows, 4000);
    const q = unitRows(1, r);
    const stale = idx.start(q, 10);
    idx.clear(5); // waits for the scan, then changes a slot
    copy.clear(5);
    assert.throws(() => stale(), /finished after the index changed or searched again/);
    const first = idx.start(q, 10);
    const second = idx.start(unitRows(1, r), 10);
    assert.throws(() => first(), /finished after the index changed or searched again/);
    assert.equal(second().length, 10);
    // Stopped, the index still answers, on this thread.
    idx.dispose();
    assert.deepEqual(idx.search(q, 10), copy.search(q, 10));
  } finally {
    idx.dispose();
    copy.dispose();
  }
});

test('recall through openMemory is the same with the scan on a worker thread', async () => {
  const path = tempDb();
  const emb = new HashEmbedder('hash-64', 64);
  const topics = ['garden', 'invoice', 'flight', 'piano', 'recipe', 'marathon', 'server', 'budget'];
  const rows = Array.from({ length: 600 }, (_, i) => ({
    content: `Note ${i} about the ${topics[i % 8]} and the ${topics[(i * 3) % 8]} ${i % 5 === 0 ? 'again' : ''}`,
    namespace: i % 2 ? 'a' : 'b',
  }));
  const questions = ['What about the garden?', 'flight and budget', 'piano recipe notes', 'server invoice again', 'marathon'];
  const was = SCAN_THREAD.minSlots;
  const run = async (minSlots: number): Promise<unknown[]> => {
    SCAN_THREAD.minSlots = minSlots;
    const mem = await openMemory({ path, embedder: emb });
    try {
      const out: unknown[] = [];
      for (const q of questions)
        for (const mode of ['hybrid', 'vector'] as const)
          for (const namespace of ['a', undefined]) {
            const hits = await mem.recall(q, { mode, limit: 10, ...(namespace ? { namespace } : {}) });
            out.push(hits.map((h) => [h.id, h.score]));
          }
      return out;
    } finally {
      await mem.close();
    }
  };
  try {
    const mem = await openMemory({ path, embedder: emb });
    await mem.addMany(rows);
    await mem.close();
    const serial = await run(Infinity);
    const threaded = await run(0);
    assert.deepEqual(threaded, serial);
    assert.ok(serial.filter((h) => (h as unknown[]).length === 10).length >= serial.length / 2, 'most recalls have ten hits');
  } finally {
    SCAN_THREAD.minSlots = was;
  }
});

test('a process whose index started a scan thread exits on its own, without close()', { timeout: 60_000 }, async () => {
  const file = join(tempDir(), 'exits.ts');
  writeFileSync(
    file,
    `import { VectorIndex } from ${JSON.stringify(join(ROOT, 'src', 'search', 'vector-index.ts'))};
const idx = new VectorIndex(16, { parallelFrom: 0 });
const v = new Float32Array(16 * 100);
for (let i = 0; i < v.length; i++) v[i] = ((i * 7919) % 13) / 13 - 0.4;
for (let i = 0; i < 100; i++) { let s = 0; for (let j = 0; j < 16; j++) s += v[i * 16 + j] ** 2; for (let j = 0; j < 16; j++) v[i * 16 + j] /= Math.sqrt(s); }
idx.setRange(0, new Uint8Array(v.buffer), 100);
// Let the thread start and take jobs before the process runs out of work.
setTimeout(() => { for (let i = 0; i < 5; i++) idx.search(v.subarray(i * 16, i * 16 + 16), 3); console.log('searched'); }, 300);
`,
  );
  const r = await runTs(file);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /searched/);
});

test('scan threads are capped per process, and one frees its place when its index is disposed', async () => {
  const { MAX_STAGE_WORKERS, stageWorkersAlive } = await import('../src/search/scan-worker.js');
  const r = mulberry32(5);
  const rows = bytes(unitRows(500, r));
  const before = stageWorkersAlive();
  const indexes = Array.from({ length: MAX_STAGE_WORKERS + 1 }, () => new VectorIndex(DIMS, { parallelFrom: 0 }));
  try {
    for (const idx of indexes) {
      idx.setRange(0, rows, 500);
      idx.search(unitRows(1, r), 5);
    }
    const started = indexes.filter((idx) => idx.scanCounts !== null);
    assert.equal(stageWorkersAlive(), before + started.length);
    assert.equal(started.length, MAX_STAGE_WORKERS - before);
    const waiting = indexes.find((idx) => idx.scanCounts === null)!;
    // Capped, the index still answers (on this thread); once a place is free it takes it.
    assert.equal(waiting.search(unitRows(1, r), 5).length, 5);
    started[0]!.dispose();
    waiting.search(unitRows(1, r), 5);
    assert.notEqual(waiting.scanCounts, null);
  } finally {
    for (const idx of indexes) idx.dispose();
  }
  assert.equal(stageWorkersAlive(), before);
});

test('an index dropped without dispose() stops its thread when it is collected', { timeout: 60_000 }, async () => {
  const file = join(tempDir(), 'orphan.mts');
  writeFileSync(
    file,
    `import { VectorIndex } from ${JSON.stringify(join(ROOT, 'src', 'search', 'vector-index.ts'))};
import { stageWorkersAlive } from ${JSON.stringify(join(ROOT, 'src', 'search', 'scan-worker.ts'))};
const gc = (globalThis as unknown as { gc: () => void }).gc;
function use(): void {
  const idx = new VectorIndex(16, { parallelFrom: 0 });
  const v = new Float32Array(16 * 50).fill(0.25);
  idx.setRange(0, new Uint8Array(v.buffer), 50);
  idx.search(v.subarray(0, 16), 3);
}
use();
const started = stageWorkersAlive();
for (let i = 0; i < 250 && stageWorkersAlive() > 0; i++) {
  gc();
  await new Promise((r) => setTimeout(r, 20));
}
console.log(JSON.stringify({ started, after: stageWorkersAlive() }));
`,
  );
  const r = await runTs(file, [], ['--expose-gc']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim()), { started: 1, after: 0 });
});

test('openMemory({ searchThread: false }) never starts a thread; a wrong value is a typed error', async () => {
  const { stageWorkersAlive } = await import('../src/search/scan-worker.js');
  const path = tempDb();
  const emb = new HashEmbedder('hash-64', 64);
  await assert.rejects(openMemory({ path, embedder: emb, searchThread: 'yes' as unknown as boolean }), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'INVALID_INPUT');
    assert.match(e.message, /searchThread must be true or false/);
    return true;
  });
  const was = SCAN_THREAD.minSlots;
  SCAN_THREAD.minSlots = 0;
  try {
    const before = stageWorkersAlive();
    for (const [searchThread, started] of [
      [false, 0],
      [true, 1],
    ] as const) {
      const mem = await openMemory({ path, embedder: emb, searchThread });
      await mem.addMany(Array.from({ length: 50 }, (_, i) => ({ content: `fact ${i} about topic ${i % 7}` })));
      assert.ok((await mem.recall('topic 3', { mode: 'vector', limit: 5 })).length > 0);
      assert.equal(stageWorkersAlive(), before + started);
      await mem.close();
      assert.equal(stageWorkersAlive(), before);
    }
  } finally {
    SCAN_THREAD.minSlots = was;
  }
});
