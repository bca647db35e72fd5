/**
 * Amounts a memory states about what a question asks (src/recall/stated-value.ts), the evidence
 * current over stale takes for an update stated in passing in a long chat turn.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { amountQuestion, inPassing, otherAmount, statedAmount } from '../src/recall/stated-value.js';
import { stems } from '../src/text/stems.js';

const amountIn = (content: string, q: string) => statedAmount(content, amountQuestion(q, stems(q))!);

test('questions that ask for an amount, and questions that do not', () => {
  for (const q of ['How many trips have I taken my camera on?', 'How often do I see Dr. Smith?', 'how long have I lived here', 'What page am I on?'])
    assert.ok(amountQuestion(q, stems(q)), q);
  for (const q of ['Where do I live now?', 'Who is my manager?', 'What camera do I have?']) assert.equal(amountQuestion(q, stems(q)), null, q);
  assert.deepEqual([...amountQuestion('How often do I see Dr. Smith?', stems('How often do I see Dr. Smith?'))!.stems].sort(), ['dr', 'see', 'smith']);
});

test('the amount of the sentence that matches the question, not of the rest of the turn', () => {
  const q = 'How many sessions of the bereavement support group did I attend?';
  const turn =
    'I think I\'ll start with "Wild" by Cheryl Strayed; I have 2 more books on my list. By the way, I was thinking about the bereavement ' +
    'support group I attended last year. I remember attending five sessions and finding it really helpful.';
  const a = amountIn(turn, q);
  assert.ok(a);
  assert.deepEqual([...a.values], ['five'], 'the "2 more books" sentence holds no word of the question');
  assert.deepEqual([...a.terms].sort(), ['attend', 'session']);
  assert.equal(amountIn('I loved the support group, it helped me process my emotions.', q), null, 'no amount: no stated amount');
});

test("a number that is a word of the question is not an amount; a title's full stop does not end the sentence", () => {
  assert.equal(amountIn('Is the tripod compatible with my Canon EOS 80D camera?', 'How many trips has my Canon EOS 80D been on?'), null);
  const a = amountIn('Therapy is going well. I see Dr. Smith every two weeks.', 'How often do I see Dr. Smith?');
  assert.ok(a);
  assert.deepEqual([...a.values].sort(), ['every', 'two']);
});

test('an amount far from the words of the question, or a year, is not an amount of what it asks', () => {
  const q = 'How many projects have I completed since starting painting classes?';
  assert.equal(
    amountIn("I've been taking English classes since November 2020, and I'm currently at level 5.", q),
    null,
    '"level 5" is not next to a word of the question and 2020 is a year',
  );
  assert.deepEqual([...amountIn('By the way, I just finished my 5th project since starting painting classes!', q)!.values], ['5th']);
});

test('two amounts of one attribute differ; the same amount, or no shared word of the question, is no update', () => {
  const q = "How many of Emma's recipes have I tried?";
  const older = amountIn("I've been loving Emma's recipes, I've already tried out two of them.", q)!;
  const newer = amountIn("By the way, I've tried out 3 of Emma's recipes so far!", q)!;
  assert.ok(otherAmount(older, newer));
  assert.ok(!otherAmount(older, amountIn("Also I've tried two of Emma's recipes.", q)!), 'the same amount restated');
  const elsewhere = { values: new Set(['4']), terms: new Set(['unrelated']), share: 0.2 };
  assert.ok(!otherAmount(older, elsewhere), 'no word of the question in common');
});

test('an amount said in passing (the memory says something else too), and a note that is its statement', () => {
  const q = 'How many engineers are on our team?';
  const note = amountIn('Our team has 6 engineers.', q)!;
  assert.ok(note.share > 0.9);
  assert.ok(!inPassing(note));
  const turn = amountIn(
    'Can you recommend a laptop for photo editing under 1000 euros? I mostly edit raw files from trips. By the way, our team has 9 engineers now.',
    q,
  )!;
  assert.ok(turn.share < 0.5);
  assert.ok(inPassing(turn));
});
