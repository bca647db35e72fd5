/**
 * Relevance's baseline (src/recall/baseline.ts): the median, over fixed probe questions, of the best
 * cosine each gets in the recalled namespace, on every store; kept per namespace until its size
 * moves by more than 10%; never moved by another namespace; the bundled model's shipped probe
 * vectors are the model's own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LocalEmbedder, openMemory, relevanceOf, type Embedder } from '../src/index.js';
import { BASELINE_REFRESH } from '../src/recall/baseline.js';
import { PROBES } from '../src/recall/probes.js';
import { PROBE_VECTORS_DIMS, PROBE_VECTORS_INT16 } from '../src/recall/probe-vectors.js';
import { HashEmbedder } from './helpers.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

const unit = (v: ArrayLike<number>): number[] => {
  const n = Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
  return Array.from(v, (x) => x / n);
};
const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** The baseline worked out by hand: each probe's best cosine among `texts`, their median. */
async function expected(e: Embedder, texts: string[]): Promise<number> {
  const mems = (await e.embed(texts)).map(unit);
  const probes = (await e.embed([...PROBES])).map(unit);
  const best = probes.map((p) => Math.max(...mems.map((m) => dot(p, m)))).sort((a, b) => a - b);
  const mid = best.length >> 1;
  return best.length % 2 ? best[mid]! : (best[mid - 1]! + best[mid]!) / 2;
}

const NOTES = Array.from(
  { length: 30 },
  (_, i) => `note ${i}: the ${['deploy', 'garden', 'recipe', 'flight', 'invoice'][i % 5]} for week ${i} went ${i % 2 ? 'well' : 'badly'}`,
);

for (const T of targets.filter((t) => t.vectors)) {
  describe(T.name, () => {
    test('each hit carries the namespace baseline: the median over the probes of their best cosine there; relevance counts the cosine above it', async () => {
      const e = new HashEmbedder();
      const mem = await openMemory({ ...T.fresh(), embedder: e });
      try {
        await mem.addMany(NOTES.map((content) => ({ content, namespace: 'a' })));
        const want = await expected(e, NOTES);
        const hits = await mem.recall('how did the deploy go', { namespace: 'a', limit: 5 });
        assert.ok(hits.length > 0);
        for (const h of hits) {
          // Within the in-memory int8 scores of the file (the vector leg's own scale), exactly on PostgreSQL.
          assert.ok(Math.abs(h.evidence.baseline! - want) < 0.005, `${h.evidence.baseline} against ${want}`);
          assert.equal(h.relevance, relevanceOf(h.evidence));
        }
        const vec = await mem.recall('how did the deploy go', { namespace: 'a', mode: 'vector', limit: 3 });
        assert.ok(Math.abs(vec[0]!.evidence.baseline! - want) < 0.005);
        // Keyword-only recall has no cosine, so no baseline.
        const kw = await mem.recall('deploy', { namespace: 'a', mode: 'keyword' });
        assert.equal(kw[0]!.evidence.baseline, undefined);
        // The same cosine above a higher baseline is less relevant.
        const ev = { ...hits[0]!.evidence };
        assert.ok(relevanceOf({ ...ev, baseline: ev.baseline! + 0.1 }) < relevanceOf(ev));
      } finally {
        await mem.close();
      }
    });

    test('another embedder embeds the probes once per store, not once per Memory', async () => {
      const e = new HashEmbedder();
      const loc = T.fresh();
      const first = await openMemory({ ...loc, embedder: e });
      await first.addMany(NOTES.map((content) => ({ content, namespace: 'a' })));
      await first.recall('how did the deploy go', { namespace: 'a' });
      assert.equal(e.embedded.filter((t) => PROBES.includes(t)).length, PROBES.length);
      await first.close();
      const second = await openMemory({ ...loc, embedder: e });
      try {
        const before = e.embedded.length;
        const hits = await second.recall('how did the deploy go', { namespace: 'a' });
        assert.equal(typeof hits[0]!.evidence.baseline, 'number');
        assert.deepEqual(
          e.embedded.slice(before).filter((t) => PROBES.includes(t)),
          [],
          'read from the store',
        );
        // Erasing a namespace leaves them: they belong to none.
        await second.erase({ namespace: 'a' });
        await second.add('the garden went well', { namespace: 'b' });
      } finally {
        await second.close();
      }
      const third = await openMemory({ ...loc, embedder: e });
      try {
        const n = e.embedded.length;
        await third.recall('how is the garden', { namespace: 'b' });
        assert.deepEqual(
          e.embedded.slice(n).filter((t) => PROBES.includes(t)),
          [],
        );
      } finally {
        await third.close();
      }
    });

    test("another namespace's memories never move a namespace's baseline", async () => {
      const e = new HashEmbedder();
      const mem = await openMemory({ ...T.fresh(), embedder: e });
      try {
        await mem.addMany(NOTES.map((content) => ({ content, namespace: 'a' })));
        const before = (await mem.recall('how did the deploy go', { namespace: 'a' }))[0]!.evidence.baseline;
        // Memories that would be every probe's best match, in another namespace.
        await mem.addMany(PROBES.map((content) => ({ content, namespace: 'b' })));
        assert.equal((await mem.recall('how did the deploy go', { namespace: 'a' }))[0]!.evidence.baseline, before);
        // In b itself each probe finds itself: baseline 1.
        const inB = (await mem.recall('How far is the Moon from the Earth?', { namespace: 'b' }))[0]!.evidence.baseline!;
        assert.ok(Math.abs(inB - 1) < 0.005, String(inB));
      } finally {
        await mem.close();
      }
    });
  });
}

test('a small namespace among many memories (scored row by row on the file) gets the same baseline as alone', async () => {
  const e = new HashEmbedder();
  const big = Array.from({ length: 400 }, (_, i) => `filler ${i} about the ${['harbour', 'orchard', 'choir', 'bakery'][i % 4]} and week ${i % 13}`);
  const mem = await openMemory({ ...targets[0]!.fresh(), embedder: e });
  try {
    await mem.addMany(big.map((content) => ({ content, namespace: 'big' })));
    await mem.addMany(NOTES.map((content) => ({ content, namespace: 'a' })));
    const got = (await mem.recall('how did the deploy go', { namespace: 'a' }))[0]!.evidence.baseline!;
    assert.ok(Math.abs(got - (await expected(e, NOTES))) < 0.005, String(got));
    // The large namespace (a search per probe) against the same done by hand.
    const inBig = (await mem.recall('the choir in week 3', { namespace: 'big' }))[0]!.evidence.baseline!;
    assert.ok(Math.abs(inBig - (await expected(e, big))) < 0.005, String(inBig));
  } finally {
    await mem.close();
  }
});

test('the baseline is kept until the namespace grows or shrinks by more than 10%, then worked out again', async () => {
  const e = new HashEmbedder();
  const loc = targets[0]!.fresh();
  const mem = await openMemory({ ...loc, embedder: e });
  try {
    await mem.addMany(NOTES.map((content) => ({ content, namespace: 'a' })));
    const q = 'how did the deploy go';
    const first = (await mem.recall(q, { namespace: 'a' }))[0]!.evidence.baseline!;
    // Within 10% (3 of 30): three probe texts stored raise the true value, the kept one stays.
    const few = PROBES.slice(0, Math.floor(NOTES.length * BASELINE_REFRESH));
    await mem.addMany(few.map((content) => ({ content, namespace: 'a' })));
    const truth = await expected(e, [...NOTES, ...few]);
    assert.ok(truth - (await expected(e, NOTES)) > 0.02, 'the stored probes move the true baseline');
    assert.equal((await mem.recall(q, { namespace: 'a' }))[0]!.evidence.baseline, first);
    // A new Memory on the same store works it out afresh.
    const other = await openMemory({ ...loc, embedder: e });
    assert.ok(Math.abs((await other.recall(q, { namespace: 'a' }))[0]!.evidence.baseline! - truth) < 0.005);
    await other.close();
    // One more beyond 10%: worked out again.
    const more = PROBES.slice(few.length, few.length + 1);
    await mem.addMany(more.map((content) => ({ content, namespace: 'a' })));
    const again = (await mem.recall(q, { namespace: 'a' }))[0]!.evidence.baseline!;
    assert.ok(Math.abs(again - (await expected(e, [...NOTES, ...few, ...more]))) < 0.005);
  } finally {
    await mem.close();
  }
});

test('an embedder that fails on the probes fails the recall with EMBEDDER_FAILED; the next recall tries again', async () => {
  let fail = true;
  const inner = new HashEmbedder();
  const e: Embedder = {
    provider: 'test',
    id: inner.id,
    dims: inner.dims,
    embed: async (texts) => {
      if (fail && texts.includes(PROBES[0]!)) throw new Error('rate limited');
      return inner.embed(texts);
    },
  };
  const mem = await openMemory({ ...targets[0]!.fresh(), embedder: e });
  try {
    await mem.add('the deploy went well');
    await assert.rejects(mem.recall('how did the deploy go'), { code: 'EMBEDDER_FAILED' });
    fail = false;
    const hits = await mem.recall('how did the deploy go');
    assert.equal(typeof hits[0]!.evidence.baseline, 'number');
  } finally {
    await mem.close();
  }
});

test("the shipped probe vectors are the bundled model's own", async () => {
  const local = new LocalEmbedder({ workers: 0 });
  const got = (await Promise.all(PROBES.map(async (p) => (await local.embed([p]))[0]!))).map(unit);
  const bytes = Buffer.from(PROBE_VECTORS_INT16, 'base64');
  const q = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  assert.equal(q.length, PROBES.length * PROBE_VECTORS_DIMS);
  got.forEach((v, i) => {
    const shipped = unit(q.subarray(i * PROBE_VECTORS_DIMS, (i + 1) * PROBE_VECTORS_DIMS));
    assert.ok(dot(v, shipped) > 0.99999, `probe ${i}: cosine ${dot(v, shipped)}`);
  });
});
