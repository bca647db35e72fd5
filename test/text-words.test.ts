/** The word loops that compare candidates' words (current over stale, MMR) read ASCII text as the Unicode patterns do. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { tokenSet } from '../src/recall/mmr.js';
import { STOP_WORDS } from '../src/text/stopwords.js';
import { stem, stems } from '../src/text/stems.js';

/** The Unicode-pattern versions the ASCII loops replace (as they were written before). */
function stemsByPattern(text: string, max = 1000): Set<string> {
  const out = new Set<string>();
  for (const [w] of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    if (!STOP_WORDS.has(w) && w.length > 1) out.add(stemByPattern(w));
    if (out.size >= max) break;
  }
  return out;
}
function stemByPattern(w: string): string {
  let x = w.replace(/'s$/, '');
  if (x.length > 3 && x.endsWith('s') && !x.endsWith('ss')) x = x.slice(0, -1);
  if (x.length > 5) x = x.replace(/ing$/, '');
  if (x.length > 4) x = x.replace(/ed$/, '');
  if (x.length > 4) x = x.replace(/e$/, '');
  return x;
}
function tokenSetByPattern(text: string, max = 1000): Set<string> {
  const out = new Set<string>();
  for (const [w] of text.toLowerCase().matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    out.add(w);
    if (out.size >= max) break;
  }
  return out;
}

const pieces = [
  'moved',
  'Moving',
  'releases',
  'meeting',
  'class',
  'the',
  'I',
  "Anna's",
  'snake_case',
  'camelCase',
  'x2',
  '42',
  '_',
  ' ',
  '.',
  ',',
  "'",
  '-',
  '\n',
  'ed',
  'ing',
  'es',
  'café',
  'İstanbul',
  'naïve',
];
const text = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })), { maxLength: 30 }).map((a) => a.join(''));

test('stems and token sets: the same words as the Unicode patterns, ASCII or not, with the cap on distinct words', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 40 }), (t, max) => {
      assert.deepEqual([...stems(t, max)], [...stemsByPattern(t, max)]);
      assert.deepEqual([...tokenSet(t, max)], [...tokenSetByPattern(t, max)]);
    }),
    { numRuns: 20_000, seed: 20261203 },
  );
});

test('stem: the same as the pattern version on every word shape', () => {
  fc.assert(
    fc.property(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 })), (w) => assert.equal(stem(w), stemByPattern(w))),
    { numRuns: 20_000, seed: 20261204 },
  );
});
