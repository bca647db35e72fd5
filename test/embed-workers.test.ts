/**
 * Bulk embedding on worker threads (src/embed/pool.ts): the real bundled model in real worker
 * threads gives bit-identical vectors to the single-thread path, the calling thread never loads
 * the model for bulk work, and small calls stay on the calling thread.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LocalEmbedder, importMarkdown, openMemory, type ExportRecord } from '../src/index.js';
import { tempDb, tempDir } from './helpers.js';

const PEOPLE = ['Caroline', 'Melanie', 'Jon', 'Gina', 'Ayşe', '李雷'];
const TOPICS = ['the pottery class', 'a trip to Lisbon', 'the new job at the bakery', 'adopting a second dog', 'the marathon in May', 'moving to Kraków'];
const FEEL = [
  'I loved it',
  'it was harder than I thought',
  'we should plan it together',
  'honestly I am still nervous',
  'the kids could not stop talking about it',
];

/** Chat-like turns of varied length, deterministic. */
function turns(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const extra = i % 3 === 0 ? ` Also, ${TOPICS[(i * 7) % TOPICS.length]} came up again and ${FEEL[(i * 3) % FEEL.length]}.` : '';
    return `${PEOPLE[i % PEOPLE.length]}: Turn ${i} about ${TOPICS[i % TOPICS.length]}; ${FEEL[i % FEEL.length]}.${extra}`;
  });
}

function vectorsById(records: ExportRecord[]): Map<string, number[]> {
  return new Map(records.map((r) => [r.content, r.embedding!]));
}

async function exportAll(path: string, embedder: LocalEmbedder): Promise<ExportRecord[]> {
  const mem = await openMemory({ path, embedder });
  try {
    return [...mem.export({ vectors: true })];
  } finally {
    await mem.close();
  }
}

test('addMany on worker threads gives the same vectors, bit for bit, as on one thread', async () => {
  const texts = turns(100);
  const single = new LocalEmbedder({ workers: 0 });
  const pooled = new LocalEmbedder({ workers: 2, workerThreshold: 40 });
  const a = tempDb();
  const b = tempDb();
  const ma = await openMemory({ path: a, embedder: single });
  await ma.addMany(texts.map((content) => ({ content })));
  await ma.close();
  const mb = await openMemory({ path: b, embedder: pooled });
  await mb.addMany(texts.map((content) => ({ content })));
  await mb.close();

  // Four batches: each worker takes two ahead, so both workers embedded.
  const stats = pooled.workerStats();
  assert.equal(
    stats.reduce((n, s) => n + s.texts, 0),
    100,
  );
  assert.equal(stats.filter((s) => s.thread === 'worker' && s.batches >= 1).length, 2, JSON.stringify(stats));
  assert.equal(single.workerStats().length, 0);

  const va = vectorsById(await exportAll(a, new LocalEmbedder({ workers: 0 })));
  const vb = vectorsById(await exportAll(b, new LocalEmbedder({ workers: 0 })));
  assert.equal(va.size, 100);
  for (const [content, v] of va) assert.deepEqual(vb.get(content), v, content);
});

test('one worker and the calling thread share the batches, same vectors; the workers stay up across calls until close', async () => {
  const texts = turns(200);
  const single = new LocalEmbedder({ workers: 0 });
  const shared = new LocalEmbedder({ workers: 1, workerThreshold: 40 });
  const a = tempDb();
  const b = tempDb();
  // The same two calls on one thread (a call's texts are batched by length, so the split matters).
  const ma = await openMemory({ path: a, embedder: single });
  await ma.addMany(texts.slice(0, 128).map((content) => ({ content })));
  await ma.addMany(texts.slice(128).map((content) => ({ content })));
  await ma.close();
  const mb = await openMemory({ path: b, embedder: shared });
  await mb.addMany(texts.slice(0, 128).map((content) => ({ content })));
  // Seven batches, two sent ahead to the worker: the calling thread took the next ones meanwhile.
  const first = shared.workerStats();
  assert.equal(first.filter((s) => s.thread === 'worker').length, 1, JSON.stringify(first));
  assert.ok(first.find((s) => s.thread === 'calling')!.batches >= 1, JSON.stringify(first));
  // A second bulk call (below the threshold) goes to the same worker: no new one started.
  await mb.addMany(texts.slice(128).map((content) => ({ content })));
  const second = shared.workerStats();
  assert.equal(second.filter((s) => s.thread === 'worker').length, 1, JSON.stringify(second));
  assert.equal(
    second.reduce((n, s) => n + s.texts, 0),
    200,
  );
  await mb.close();
  assert.deepEqual(shared.workerStats(), second);

  const va = vectorsById(await exportAll(a, new LocalEmbedder({ workers: 0 })));
  const vb = vectorsById(await exportAll(b, new LocalEmbedder({ workers: 0 })));
  assert.equal(vb.size, 200);
  for (const [content, v] of va) assert.deepEqual(vb.get(content), v, content);
});

/** A real LocalEmbedder that records when the calling thread starts a bulk batch. */
class Recording extends LocalEmbedder {
  readonly events: string[] = [];
  onBatch: (() => void) | null = null;
  override async embed(texts: string[]): Promise<number[][]> {
    if (texts.length > 1) {
      this.events.push('batch');
      this.onBatch?.();
    }
    return super.embed(texts);
  }
}

/** Count event-loop turns (a setImmediate that re-arms itself) into `events` until stopped. */
function ticker(events: string[]): () => void {
  let on = true;
  const tick = (): void => {
    events.push('tick');
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    on = false;
  };
}

test('the event loop turns between the batches the calling thread embeds', async () => {
  for (const workers of [0, 1]) {
    const e = new Recording({ workers, workerThreshold: 40 });
    const mem = await openMemory({ path: tempDb(), embedder: e });
    await mem.recall('load the model here first');
    const stop = ticker(e.events);
    await mem.addMany(turns(160).map((content) => ({ content })));
    stop();
    await mem.close();
    const seq = e.events.filter((x, i) => x === 'batch' || e.events[i - 1] !== 'tick').join(' ');
    const batches = e.events.filter((x) => x === 'batch').length;
    // workers 0: all 5 batches here; workers 1: at least the 3 not sent ahead to the worker... or fewer
    // if the worker finished first, but never none while it was still loading its model.
    assert.ok(batches >= (workers ? 1 : 5), seq);
    assert.doesNotMatch(seq, /batch batch/, `two batches with no event-loop turn between them: ${seq}`);
  }
});

test('with callingThreadEmbeds false the calling thread never loads the model for bulk work', async () => {
  const e = new Recording({ workers: 2, workerThreshold: 40, callingThreadEmbeds: false });
  const mem = await openMemory({ path: tempDb(), embedder: e });
  const stop = ticker(e.events);
  await mem.addMany(turns(160).map((content) => ({ content })));
  stop();
  await mem.close();
  assert.equal(e.events.filter((x) => x === 'batch').length, 0);
  assert.equal(e.loadedHere, false);
  assert.ok(e.events.length > 0);
  assert.equal(
    e.workerStats().reduce((n, s) => n + s.texts, 0),
    160,
  );
});

test('a worker thread that dies mid-import: its batches are finished by the other threads, with a warning, same vectors', async () => {
  const texts = turns(192);
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => {
    if ((w as Error & { code?: string }).code === 'MNEMOLITE_EMBED_WORKER_FAILED') warnings.push(w);
  };
  process.on('warning', onWarning);
  try {
    for (const workers of [1, 2]) {
      const e = new Recording({ workers, workerThreshold: 40 });
      // When the calling thread takes its first batch, each worker already holds two: kill one for real.
      let killed = false;
      e.onBatch = () => {
        if (!killed) killed = e.killWorker();
      };
      const before = warnings.length;
      const path = tempDb();
      const mem = await openMemory({ path, embedder: e });
      await mem.addMany(texts.map((content) => ({ content })));
      assert.ok(killed);
      // The warning is emitted on the next tick (process.emitWarning).
      await new Promise((r) => setImmediate(r));
      assert.equal(warnings.length, before + 1, warnings.map((w) => w.message).join('\n'));
      assert.match(warnings.at(-1)!.message, /embedding worker thread failed .*remaining threads/);
      assert.equal(await mem.count(), 192);
      const stats = e.workerStats();
      assert.equal(stats.filter((s) => s.thread === 'worker').length, workers, JSON.stringify(stats));
      assert.equal(
        stats.reduce((n, s) => n + s.texts, 0),
        192,
      );
      // Later bulk calls go on without starting a new worker (and without another warning).
      await mem.addMany(turns(64).map((content) => ({ content: `${content} (later)` })));
      assert.equal(e.workerStats().filter((s) => s.thread === 'worker').length, workers);
      await mem.close();

      const ref = tempDb();
      const mr = await openMemory({ path: ref, embedder: new LocalEmbedder({ workers: 0 }) });
      await mr.addMany(texts.map((content) => ({ content })));
      await mr.close();
      const va = vectorsById(await exportAll(ref, new LocalEmbedder({ workers: 0 })));
      const vb = vectorsById(await exportAll(path, new LocalEmbedder({ workers: 0 })));
      for (const [content, v] of va) assert.deepEqual(vb.get(content), v, content);
    }
    assert.equal(warnings.length, 2);
  } finally {
    process.off('warning', onWarning);
  }
});

test('reindex on worker threads matches reindex on one thread', async () => {
  const texts = turns(90).map((t) => `${t} (reindexed)`);
  const paths = [tempDb(), tempDb()];
  for (const path of paths) {
    const mem = await openMemory({ path, embedder: 'none' });
    await mem.addMany(texts.map((content) => ({ content, force: true })));
    await mem.close();
  }
  const pooled = new LocalEmbedder({ workers: 2, workerThreshold: 40 });
  const embedders = [new LocalEmbedder({ workers: 0 }), pooled];
  for (let i = 0; i < 2; i++) {
    const mem = await openMemory({ path: paths[i]!, embedder: embedders[i]! });
    const r = await mem.reindex();
    assert.deepEqual(r, { embedded: 90, total: 90 });
    await mem.close();
  }
  // reindex asks for 64 at a time; prepareBulk(90) started the workers before the first batch.
  assert.equal(
    pooled.workerStats().reduce((n, s) => n + s.texts, 0),
    90,
  );
  const va = vectorsById(await exportAll(paths[0]!, new LocalEmbedder({ workers: 0 })));
  const vb = vectorsById(await exportAll(paths[1]!, new LocalEmbedder({ workers: 0 })));
  for (const [content, v] of va) assert.deepEqual(vb.get(content), v, content);
});

test('small calls stay on the calling thread (no workers started)', async () => {
  const e = new LocalEmbedder({ workers: 2, workerThreshold: 40 });
  const mem = await openMemory({ path: tempDb(), embedder: e });
  await mem.addMany(turns(12).map((content) => ({ content })));
  await mem.recall('pottery class');
  await mem.close();
  assert.deepEqual(e.workerStats(), []);
  assert.equal(e.loadedHere, true);
});

test('worker options are checked', () => {
  assert.throws(() => new LocalEmbedder({ workers: -1 }), { code: 'INVALID_INPUT' });
  assert.throws(() => new LocalEmbedder({ workers: 1.5 }), { code: 'INVALID_INPUT' });
  assert.throws(() => new LocalEmbedder({ workerThreshold: 0 }), { code: 'INVALID_INPUT' });
  assert.throws(() => new LocalEmbedder({ workers: 'all' as unknown as number }), { code: 'INVALID_INPUT' });
  assert.throws(() => new LocalEmbedder({ callingThreadEmbeds: 'yes' as unknown as boolean }), { code: 'INVALID_INPUT' });
  assert.equal(new LocalEmbedder({ workers: 1 }).workers, 1);
  assert.equal(new LocalEmbedder({ workers: 3 }).workers, 3);
  // 'auto': the cores besides the calling thread's, at most 3.
  const cores = availableParallelism();
  const saved = process.env.MNEMOLITE_EMBED_WORKERS;
  delete process.env.MNEMOLITE_EMBED_WORKERS;
  try {
    assert.equal(new LocalEmbedder({ workers: 'auto' }).workers, Math.max(0, Math.min(3, cores - 1)));
    assert.equal(new LocalEmbedder().workers, Math.max(0, Math.min(3, cores - 1)));
    process.env.MNEMOLITE_EMBED_WORKERS = '2';
    assert.equal(new LocalEmbedder().workers, 2);
    process.env.MNEMOLITE_EMBED_WORKERS = 'many';
    assert.throws(() => new LocalEmbedder(), { code: 'INVALID_INPUT' });
  } finally {
    if (saved === undefined) delete process.env.MNEMOLITE_EMBED_WORKERS;
    else process.env.MNEMOLITE_EMBED_WORKERS = saved;
  }
});

test("openMemory embedWorkers sets the bundled model's workers, and is refused where it cannot apply", async () => {
  const mem = await openMemory({ path: tempDb(), embedWorkers: 1 });
  assert.ok(mem.embedder instanceof LocalEmbedder);
  assert.equal(mem.embedder.workers, 1);
  await mem.close();
  const none = await openMemory({ path: tempDb(), embedder: 'local', embedWorkers: 0 });
  assert.equal((none.embedder as LocalEmbedder).workers, 0);
  await none.close();
  for (const embedWorkers of [-1, 2.5, 'all', null]) {
    await assert.rejects(openMemory({ path: tempDb(), embedWorkers: embedWorkers as unknown as number }), {
      code: 'INVALID_INPUT',
      message: /embedWorkers must be/,
    });
  }
  await assert.rejects(openMemory({ path: tempDb(), embedder: new LocalEmbedder({ workers: 0 }), embedWorkers: 2 }), {
    code: 'INVALID_INPUT',
    message: /embedWorkers applies to the bundled model/,
  });
  await assert.rejects(openMemory({ path: tempDb(), embedder: 'none', embedWorkers: 2 }), { code: 'INVALID_INPUT' });
});

test('workerIdleMs stops idle workers; the next bulk call starts new ones', async () => {
  const e = new LocalEmbedder({ workers: 1, workerThreshold: 40, workerIdleMs: 0 });
  const mem = await openMemory({ path: tempDb(), embedder: e });
  await mem.addMany(turns(64).map((content) => ({ content })));
  // The idle timer (0 ms) was armed when the last batch came back; a later timer runs after it.
  await new Promise((r) => setTimeout(r, 1));
  await mem.addMany(turns(64).map((content) => ({ content: `${content} again` })));
  await mem.close();
  const workers = e.workerStats().filter((s) => s.thread === 'worker');
  assert.equal(workers.length, 2, JSON.stringify(e.workerStats()));
  assert.equal(
    e.workerStats().reduce((n, s) => n + s.texts, 0),
    128,
  );
});

test('importMarkdown announces its chunks: many small files are embedded on the workers, same vectors', async () => {
  const dir = tempDir();
  // Eight files of five short sections each: every file alone is below the threshold.
  const t = turns(40);
  for (let f = 0; f < 8; f++) {
    const body = Array.from({ length: 5 }, (_, i) => `## Part ${i}\n\n${t[f * 5 + i]}\n`).join('\n');
    writeFileSync(join(dir, `note-${f}.md`), `# Note ${f}\n\n${body}`);
  }
  const pooled = new LocalEmbedder({ workers: 1, workerThreshold: 30 });
  const paths = [tempDb(), tempDb()];
  const embedders = [new LocalEmbedder({ workers: 0 }), pooled];
  for (let i = 0; i < 2; i++) {
    const mem = await openMemory({ path: paths[i]!, embedder: embedders[i]! });
    const r = await importMarkdown(mem, dir, { maxTokens: 40, overlapTokens: 0 });
    assert.equal(r.files.length, 8);
    await mem.close();
  }
  const stats = pooled.workerStats();
  assert.ok(
    stats.some((s) => s.thread === 'worker' && s.texts > 0),
    `prepareBulk started the workers and they took batches: ${JSON.stringify(stats)}`,
  );
  const va = vectorsById(await exportAll(paths[0]!, new LocalEmbedder({ workers: 0 })));
  const vb = vectorsById(await exportAll(paths[1]!, new LocalEmbedder({ workers: 0 })));
  assert.ok(va.size >= 16, `chunks: ${va.size}`);
  assert.equal(vb.size, va.size);
  for (const [content, v] of va) assert.deepEqual(vb.get(content), v, content);
});
