/**
 * Large keyword searches walk their postings document at a time with MaxScore skipping
 * (src/search/keyword-index.ts `runByDocument`): the top k and its scores must be those of BM25
 * over every memory, computed here from the formula itself, on correlated words (a template most
 * memories share, where skipping pays) and independent ones, under a filter and within one group;
 * and the skipping must visit fewer postings than walking them all (counted, never timed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEYWORD_WORK, KeywordIndex } from '../src/search/keyword-index.js';
import { mulberry32 } from './rng.js';

const N = 60_000;
const K1 = 1.2;
const B = 0.75;

/** Documents of 4–20 words: a third hold the phrase "deploy service window", the rest skewed words (none in half the documents: FTS5 clamps those). */
function corpus(seed: number): string[][] {
  const r = mulberry32(seed);
  return Array.from({ length: N }, (_, i) => {
    const n = 4 + Math.floor(r() * 17);
    const d = Array.from({ length: n }, () => `w${Math.floor(r() ** 2 * 2000)}`);
    if (i % 3 === 0) d.splice(0, 3, 'deploy', 'service', 'window');
    if (i % 7 === 0) d.push('deploy');
    return d;
  });
}

/** BM25 as FTS5 computes it, over the documents that `keep` lets through (their statistics when `stats` says so). */
function bruteForce(
  docs: string[][],
  terms: string[],
  k: number,
  keep: (i: number) => boolean,
  stats: (i: number) => boolean,
): { slot: number; score: number }[] {
  let n = 0,
    total = 0;
  docs.forEach((d, i) => {
    if (stats(i)) {
      n++;
      total += d.length;
    }
  });
  const avg = total / n;
  const times = new Map<string, number>();
  for (const t of terms) times.set(t, (times.get(t) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const t of times.keys()) {
    let df = 0;
    docs.forEach((d, i) => {
      if (stats(i) && d.includes(t)) df++;
    });
    let v = Math.log((n - df + 0.5) / (df + 0.5));
    if (v <= 0) v = 1e-6;
    idf.set(t, v);
  }
  const out: { slot: number; score: number }[] = [];
  docs.forEach((d, i) => {
    if (!keep(i)) return;
    let s = 0,
      any = false;
    for (const [t, m] of times) {
      const tf = d.filter((w) => w === t).length;
      if (!tf) continue;
      any = true;
      s += (idf.get(t)! * m * (K1 + 1) * tf) / (tf + K1 * (1 - B + (B * d.length) / avg));
    }
    if (any) out.push({ slot: i, score: s });
  });
  return out.sort((a, b) => b.score - a.score || a.slot - b.slot).slice(0, k);
}

test('document-at-a-time keyword search returns the BM25 top k of every memory, and skips postings', () => {
  const docs = corpus(5);
  const byTerm = new Map<string, number[]>();
  docs.forEach((d, seq) => {
    for (const w of d) {
      const l = byTerm.get(w);
      if (l) l.push(seq);
      else byTerm.set(w, [seq]);
    }
  });
  const load = (t: string): string | null => byTerm.get(t)?.join(',') ?? null;
  const groupOf = (i: number): number => i % 2;
  const make = (prune: boolean): KeywordIndex => {
    const kw = new KeywordIndex(undefined, undefined, prune);
    docs.forEach((d, i) => kw.setLength(i, d.length, groupOf(i)));
    return kw;
  };
  const pruned = make(true),
    full = make(false);
  const r = mulberry32(6);
  const common = ['deploy', 'service', 'window', 'deploy', 'service', 'window', 'w0', 'w1', 'w2', 'w5'];
  let prunedWork = 0,
    fullWork = 0,
    walked = 0;
  for (let q = 0; q < 40; q++) {
    const terms = Array.from({ length: 2 + Math.floor(r() * 4) }, () =>
      r() < 0.85 ? common[Math.floor(r() * common.length)]! : `w${10 + Math.floor(r() * 200)}`,
    );
    const k = [1, 10, 50][q % 3]!;
    const group = q % 5 === 4 ? 1 : undefined;
    // Within a group, `eligible` passes only the group's slots (the index's contract).
    const eligible =
      group !== undefined
        ? (s: number): boolean => groupOf(s) === group && (q % 2 === 0 || s % 3 !== 1)
        : q % 4 === 1
          ? (s: number): boolean => s % 3 !== 1
          : undefined;
    const run = (kw: KeywordIndex) => {
      const before = KEYWORD_WORK.visited,
        daat = KEYWORD_WORK.byDocument;
      const hits = kw.search(terms, k, load, (seq) => seq, eligible, undefined, group);
      return { hits, work: KEYWORD_WORK.visited - before, daat: KEYWORD_WORK.byDocument - daat };
    };
    const a = run(pruned),
      b = run(full);
    const label = `query ${q}: ${terms.join(' ')} (k ${k}, group ${group})`;
    // The same scores to the bit; of memories tied at the k-th score, either may be kept.
    assert.deepEqual(
      a.hits.map((h) => h.score),
      b.hits.map((h) => h.score),
      label,
    );
    const kth = b.hits[b.hits.length - 1]?.score;
    a.hits.forEach((h, i) => {
      if (h.score !== kth) assert.equal(h.slot, b.hits[i]!.slot, `${label}: slot ${i}`);
    });
    const want = bruteForce(
      docs,
      terms,
      k,
      (i) => !eligible || eligible(i),
      (i) => group === undefined || groupOf(i) === group,
    );
    assert.equal(a.hits.length, want.length, label);
    a.hits.forEach((h, i) => {
      assert.ok(Math.abs(h.score - want[i]!.score) <= 1e-9 * Math.abs(want[i]!.score), `${label}: score ${i}`);
      // Of memories tied at a score, the lower slot comes first: the same memory unless the tie crosses the k-th place.
      const tiedAtK = Math.abs(want[i]!.score - want[want.length - 1]!.score) <= 1e-9 * Math.abs(want[i]!.score);
      if (!tiedAtK) assert.equal(h.slot, want[i]!.slot, `${label}: slot ${i}`);
    });
    walked += a.daat;
    prunedWork += a.work;
    fullWork += b.work;
  }
  assert.ok(walked >= 20, `searches walked document at a time: ${walked}`);
  assert.ok(prunedWork < fullWork * 0.6, `postings visited: pruned ${prunedWork}, every posting ${fullWork}`);
});

test('new memories add to the cached document counts: the next search recounts nothing and ranks as BM25 over every live memory', () => {
  const docs = corpus(7);
  const base = N / 2;
  const byTerm = new Map<string, number[]>();
  const index = (seq: number): void => {
    for (const w of docs[seq]!) {
      const l = byTerm.get(w);
      if (l) l.push(seq);
      else byTerm.set(w, [seq]);
    }
  };
  for (let i = 0; i < base; i++) index(i);
  const load = (t: string): string | null => byTerm.get(t)?.join(',') ?? null;
  const groupOf = (i: number): number => i % 2;
  const kw = new KeywordIndex();
  for (let i = 0; i < base; i++) kw.setLength(i, docs[i]!.length, groupOf(i));
  const gone = new Set<number>();
  let upTo = base;
  const queries = [
    ['deploy', 'service', 'w3'],
    ['window', 'w0', 'w1', 'w40'],
    ['deploy', 'w2', 'w7', 'w120'],
  ];
  const check = (label: string): { first: number; again: number } => {
    let first = 0,
      again = 0;
    for (const [q, terms] of queries.entries()) {
      const group = q === 2 ? 1 : undefined;
      const eligible = group === undefined ? undefined : (s: number): boolean => groupOf(s) === group;
      const run = (): { slot: number; score: number }[] => kw.search(terms, 20, load, (seq) => seq, eligible, undefined, group);
      const before = KEYWORD_WORK.visited;
      const hits = run();
      const mid = KEYWORD_WORK.visited;
      assert.deepEqual(run(), hits, `${label}, query ${q}: the same search again`);
      first += mid - before;
      again += KEYWORD_WORK.visited - mid;
      const live = (i: number): boolean => i < upTo && !gone.has(i) && (group === undefined || groupOf(i) === group);
      const want = bruteForce(docs, terms, 20, live, live);
      assert.equal(hits.length, want.length, `${label}, query ${q}`);
      hits.forEach((h, i) => {
        assert.ok(Math.abs(h.score - want[i]!.score) <= 1e-9 * Math.abs(want[i]!.score), `${label}, query ${q}: score ${i}`);
      });
    }
    return { first, again };
  };
  check('loaded');
  // 2,000 new memories, in both groups: appended to the cached lists, counted as they are added.
  for (; upTo < base + 2000; upTo++) {
    index(upTo);
    kw.add(upTo, docs[upTo]!, groupOf(upTo));
  }
  const added = check('after adds');
  assert.equal(
    added.first,
    added.again,
    `postings visited by the first searches after the adds (${added.first}) and by the same searches again (${added.again})`,
  );
  // A removal leaves every count unknown: they are recounted, and the ranking follows.
  for (let i = 0; i < 300; i++) {
    gone.add(i * 7);
    kw.remove(i * 7);
  }
  const removed = check('after removals');
  assert.ok(removed.first > removed.again, `the first searches after removals recount (${removed.first} against ${removed.again})`);
});
