/**
 * The keyword index stops walking a common word's postings once that word cannot change the top k
 * (src/search/keyword-index.ts `run`): the results must be exactly those of scoring every posting,
 * on every kind of query (rare and common words, a filter, one namespace's statistics, postings of
 * memories re-added under a newer slot), and the work must fall where pruning applies (counted,
 * never timed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEYWORD_WORK, KeywordIndex } from '../src/search/keyword-index.js';
import { mulberry32 } from './rng.js';

/** 20,000 documents over a Zipf-like vocabulary: a few words in most documents, many in a handful. */
function corpus(seed: number): { docs: string[][]; vocab: string[] } {
  const r = mulberry32(seed);
  const vocab = Array.from({ length: 3000 }, (_, i) => `w${i}`);
  const docs = Array.from({ length: 20_000 }, () => {
    const n = 3 + Math.floor(r() * 12);
    return Array.from({ length: n }, () => vocab[Math.min(vocab.length - 1, Math.floor(1 / (r() * 0.999 + 0.001)) - 1)]!);
  });
  return { docs, vocab };
}

test('pruned keyword search returns exactly the top k of scoring every posting, and visits fewer postings', () => {
  const { docs, vocab } = corpus(11);
  const r = mulberry32(12);
  // Seq = index; 200 documents were re-added after an edit and hold a slot past the others (their old slot is dead).
  const moved = new Map<number, number>();
  while (moved.size < 200) {
    const seq = Math.floor(r() * docs.length);
    if (!moved.has(seq)) moved.set(seq, docs.length + moved.size);
  }
  // Documents added after the postings were read (seq = slot, past the others).
  const later = new Map<number, string[]>();
  const slotOf = (seq: number): number => moved.get(seq) ?? seq;
  const groupOf = (seq: number): number => seq % 3;
  const load = (t: string): string | null => {
    const out: number[] = [];
    docs.forEach((d, seq) => {
      for (const w of d) if (w === t) out.push(seq);
    });
    for (const [seq, d] of later) for (const w of d) if (w === t) out.push(seq);
    return out.length ? out.join(',') : null;
  };
  const make = (prune: boolean): KeywordIndex => {
    const kw = new KeywordIndex(undefined, undefined, prune);
    docs.forEach((d, seq) => kw.setLength(slotOf(seq), d.length, groupOf(seq)));
    return kw;
  };
  const pruned = make(true),
    full = make(false);
  let prunedWork = 0,
    fullWork = 0;
  for (let q = 0; q < 300; q++) {
    if (q === 150) {
      // Writes after the postings are cached: 500 new documents, 300 removed, 50 made shorter.
      for (let i = 0; i < 500; i++) {
        const seq = 30_000 + i;
        const d = docs[Math.floor(r() * docs.length)]!.slice(0, 2 + (i % 5));
        later.set(seq, d);
        for (const kw of [pruned, full]) kw.add(seq, d, groupOf(seq));
      }
      for (let i = 0; i < 300; i++) {
        const slot = Math.floor(r() * docs.length);
        for (const kw of [pruned, full]) kw.remove(slot);
      }
      for (let i = 0; i < 50; i++) {
        const seq = Math.floor(r() * docs.length);
        if (!moved.has(seq)) for (const kw of [pruned, full]) kw.setLength(seq, 1, groupOf(seq));
      }
    }
    // Two to six words: mostly common ones, some rare, sometimes a word twice.
    const terms = Array.from({ length: 2 + Math.floor(r() * 5) }, () => vocab[r() < 0.5 ? Math.floor(r() * 8) : Math.floor(r() * vocab.length)]!);
    if (q % 7 === 0) terms.push(terms[0]!);
    const k = [1, 5, 10, 50][q % 4]!;
    const group = q % 5 === 0 ? q % 3 : undefined;
    const eligible = group !== undefined ? (s: number) => s < docs.length + 200 : q % 3 === 0 ? (s: number) => s % 2 === 0 : undefined;
    const run = (kw: KeywordIndex) => {
      const before = KEYWORD_WORK.visited;
      const stats = { idfMass: 0, matched: true };
      const hits = kw.search(terms, k, load, slotOf, eligible, stats, group);
      return { hits, mass: stats.idfMass, work: KEYWORD_WORK.visited - before };
    };
    const a = run(pruned),
      b = run(full);
    assert.deepEqual(a.hits, b.hits, `query ${q}: ${terms.join(' ')} (k ${k}, group ${group})`);
    assert.equal(a.mass, b.mass);
    prunedWork += a.work;
    fullWork += b.work;
  }
  assert.ok(prunedWork < fullWork * 0.7, `postings visited: pruned ${prunedWork}, every posting ${fullWork}`);
});
