import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { openMemory } from '../src/index.js';
import { ADAPTIVE_DEFAULTS, type FuseOptions, FUSION_TRIAL, type LegHit, fuse } from '../src/recall/fusion.js';
import { FAMILIES, trialOf } from '../eval/fusion-rules.js';
import { HashEmbedder, tempDb } from './helpers.js';

const opts = (method: FuseOptions['method'], idf = 5): FuseOptions => ({
  method,
  weights: { keyword: 1, vector: 1 },
  rrfK: 60,
  adaptive: ADAPTIVE_DEFAULTS,
  signals: { keywordIdfMass: idf },
});
/** A leg, best first, with distinct seqs drawn from a small range so the legs overlap. */
const leg = (min: number, max: number): fc.Arbitrary<LegHit[]> =>
  fc
    .uniqueArray(fc.record({ seq: fc.integer({ min: 1, max: 40 }), score: fc.double({ min, max, noNaN: true }) }), { selector: (h) => h.seq, maxLength: 30 })
    .map((xs) => xs.sort((a, b) => b.score - a.score));

test('fusion trial seam: replaces only the adaptive method while set, and the shipped rule is back once unset', () => {
  const kw = [
    { seq: 1, score: 8 },
    { seq: 2, score: 4 },
  ];
  const vec = [
    { seq: 3, score: 0.7 },
    { seq: 1, score: 0.4 },
  ];
  const shipped = fuse(kw, vec, opts('adaptive')).map((h) => h.seq);
  const rrf = fuse(kw, vec, opts('rrf')).map((h) => h.seq);
  FUSION_TRIAL.adaptive = (_k, v) => v.map((h, i) => ({ seq: h.seq, score: h.score, vectorRank: i + 1 }));
  try {
    assert.deepEqual(
      fuse(kw, vec, opts('adaptive')).map((h) => h.seq),
      [3, 1],
      'the trial decides the adaptive order',
    );
    assert.deepEqual(
      fuse(kw, vec, opts('rrf')).map((h) => h.seq),
      rrf,
      'an explicit method is not swapped',
    );
  } finally {
    delete FUSION_TRIAL.adaptive;
  }
  assert.deepEqual(
    fuse(kw, vec, opts('adaptive')).map((h) => h.seq),
    shipped,
  );
});

test('fusion trial seam reaches recall: hybrid recall returns the order the trial gives', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  try {
    const added = await mem.addMany([
      { content: 'apple banana cherry' },
      { content: 'banana split dessert' },
      { content: 'cherry pie with banana' },
      { content: 'banana bread' },
    ]);
    const o = { limit: 4, preferCurrent: false, timePreference: false };
    const shipped = (await mem.recall('banana cherry', o)).map((h) => h.id);
    // The newest memory first: the order of the seqs, reversed (the shipped fusion ranks by the words).
    const newestFirst = added.map((r) => r.id).reverse();
    assert.notDeepEqual(shipped, newestFirst, 'the shipped fusion orders these otherwise, so the trial is what decides below');
    FUSION_TRIAL.adaptive = (k, v) => [...new Set([...k, ...v].map((h) => h.seq))].sort((a, b) => b - a).map((seq, i) => ({ seq, score: 1 - i / 10 }));
    let trial: string[];
    try {
      trial = (await mem.recall('banana cherry', o)).map((h) => h.id);
    } finally {
      delete FUSION_TRIAL.adaptive;
    }
    assert.deepEqual(trial, newestFirst);
    assert.deepEqual(
      (await mem.recall('banana cherry', o)).map((h) => h.id),
      shipped,
      'unset, the shipped order is back',
    );
  } finally {
    await mem.close();
  }
});

test('candidate rules: a point that changes nothing is the shipped adaptive fusion, and every family point runs', () => {
  const same = trialOf({ name: 'unchanged' });
  const all = Object.values(FAMILIES).flat();
  fc.assert(
    fc.property(leg(0.1, 30), leg(-0.2, 0.95), fc.double({ min: 0, max: 40, noNaN: true }), (k, v, idf) => {
      const o = opts('adaptive', idf);
      assert.deepEqual(same(k, v, o), fuse(k, v, o));
      for (const p of all) {
        const f = trialOf(p)(k, v, o);
        // Every candidate keeps each candidate of both legs exactly once.
        assert.deepEqual(
          f.map((h) => h.seq).sort((a, b) => a - b),
          [...new Set([...k, ...v].map((h) => h.seq))].sort((a, b) => a - b),
          p.name,
        );
      }
    }),
    { numRuns: 200 },
  );
});
