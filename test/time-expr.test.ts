// The time-expression parser (src/recall/time-expr.ts): a table of phrases with the window each
// must give relative to a fixed `now`, phrases that must not parse, spans, and bad input.
// Expected windows are written by hand from the grammar in docs/time.md, not copied from output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MnemoliteError } from '../src/errors.js';
import { parseTimeExpressions, type TimeExpression } from '../src/recall/time-expr.js';

/** Wednesday 15 May 2024, 14:30 UTC. Weeks start on Monday 13 May. */
const NOW = new Date('2024-05-15T14:30:00Z');

/** A UTC instant: '2024-05-14' is midnight, '2024-05-14T18' is 18:00. */
function t(s: string): string {
  return new Date(s.length === 10 ? `${s}T00:00:00Z` : `${s}:00:00Z`).toISOString();
}

/** [query, matched text, from, to]: the query's only time expression. */
const PARSES: [string, string, string, string][] = [
  // days and parts of days
  ['what did I do today', 'today', '2024-05-15', '2024-05-16'],
  ['what happened yesterday', 'yesterday', '2024-05-14', '2024-05-15'],
  ['Yesterday I met Anna', 'Yesterday', '2024-05-14', '2024-05-15'],
  ['what is planned for tomorrow', 'tomorrow', '2024-05-16', '2024-05-17'],
  ['plans for tonight', 'tonight', '2024-05-15T18', '2024-05-16T06'],
  ['what did I eat this morning', 'this morning', '2024-05-15T05', '2024-05-15T12'],
  ['calls this afternoon', 'this afternoon', '2024-05-15T12', '2024-05-15T18'],
  ['this evening', 'this evening', '2024-05-15T18', '2024-05-16'],
  ['what did we watch last night', 'last night', '2024-05-14T18', '2024-05-15T06'],
  ['the day before yesterday', 'the day before yesterday', '2024-05-13', '2024-05-14'],
  ['the day after tomorrow', 'the day after tomorrow', '2024-05-17', '2024-05-18'],
  ['yesterday morning', 'yesterday morning', '2024-05-14T05', '2024-05-14T12'],
  ['yesterday afternoon', 'yesterday afternoon', '2024-05-14T12', '2024-05-14T18'],
  ['tomorrow evening', 'tomorrow evening', '2024-05-16T18', '2024-05-17'],
  ['I saw her the other day', 'the other day', '2024-05-08', '2024-05-14'],
  ['earlier today', 'earlier today', '2024-05-15', '2024-05-16'],
  // N units ago: the calendar day, week, month or year
  ['2 days ago', '2 days ago', '2024-05-13', '2024-05-14'],
  ['two days ago', 'two days ago', '2024-05-13', '2024-05-14'],
  ['a day ago', 'a day ago', '2024-05-14', '2024-05-15'],
  ['ten days ago', 'ten days ago', '2024-05-05', '2024-05-06'],
  ['30 days ago', '30 days ago', '2024-04-15', '2024-04-16'],
  ['a week ago', 'a week ago', '2024-05-06', '2024-05-13'],
  ['one week ago', 'one week ago', '2024-05-06', '2024-05-13'],
  ['two weeks ago', 'two weeks ago', '2024-04-29', '2024-05-06'],
  ['3 weeks ago', '3 weeks ago', '2024-04-22', '2024-04-29'],
  ['a month ago', 'a month ago', '2024-04-01', '2024-05-01'],
  ['3 months ago', '3 months ago', '2024-02-01', '2024-03-01'],
  ['six months ago', 'six months ago', '2023-11-01', '2023-12-01'],
  ['twelve months ago', 'twelve months ago', '2023-05-01', '2023-06-01'],
  ['a year ago', 'a year ago', '2023-01-01', '2024-01-01'],
  ['an year ago', 'an year ago', '2023-01-01', '2024-01-01'],
  ['5 years ago', '5 years ago', '2019-01-01', '2020-01-01'],
  ['eleven years ago', 'eleven years ago', '2013-01-01', '2014-01-01'],
  ['a couple of days ago', 'a couple of days ago', '2024-05-13', '2024-05-14'],
  ['a couple weeks ago', 'a couple weeks ago', '2024-04-29', '2024-05-06'],
  ['a couple of months ago', 'a couple of months ago', '2024-03-01', '2024-04-01'],
  ['a few days ago', 'a few days ago', '2024-05-11', '2024-05-14'],
  ['a few weeks ago', 'a few weeks ago', '2024-04-15', '2024-05-06'],
  ['a few years ago', 'a few years ago', '2020-01-01', '2023-01-01'],
  ['several weeks ago', 'several weeks ago', '2024-03-25', '2024-04-29'],
  // calendar units relative to now
  ['last week', 'last week', '2024-05-06', '2024-05-13'],
  ["last week's meeting", "last week's", '2024-05-06', '2024-05-13'],
  ['this week', 'this week', '2024-05-13', '2024-05-20'],
  ['What did I plan for next week?', 'next week', '2024-05-20', '2024-05-27'],
  ['last month', 'last month', '2024-04-01', '2024-05-01'],
  ['this month', 'this month', '2024-05-01', '2024-06-01'],
  ['next month', 'next month', '2024-06-01', '2024-07-01'],
  ['last year', 'last year', '2023-01-01', '2024-01-01'],
  ['this year', 'this year', '2024-01-01', '2025-01-01'],
  ['next year', 'next year', '2025-01-01', '2026-01-01'],
  ['earlier this week', 'earlier this week', '2024-05-13', '2024-05-16'],
  ['earlier this month', 'earlier this month', '2024-05-01', '2024-05-16'],
  ['earlier this year', 'earlier this year', '2024-01-01', '2024-05-16'],
  ['the week before last', 'the week before last', '2024-04-29', '2024-05-06'],
  ['the month before last', 'the month before last', '2024-03-01', '2024-04-01'],
  ['the year before last', 'the year before last', '2022-01-01', '2023-01-01'],
  // weekends: Saturday 00:00 to Monday 00:00
  ['this weekend', 'this weekend', '2024-05-18', '2024-05-20'],
  ['last weekend', 'last weekend', '2024-05-11', '2024-05-13'],
  ['next weekend', 'next weekend', '2024-05-25', '2024-05-27'],
  ['this past weekend', 'this past weekend', '2024-05-11', '2024-05-13'],
  ['what did we do over the weekend', 'over the weekend', '2024-05-11', '2024-05-13'],
  ['at the weekend', 'at the weekend', '2024-05-11', '2024-05-13'],
  // weekdays (today is Wednesday 15 May)
  ['last Monday', 'last Monday', '2024-05-13', '2024-05-14'],
  ['last Wednesday', 'last Wednesday', '2024-05-08', '2024-05-09'],
  ['last Friday', 'last Friday', '2024-05-10', '2024-05-11'],
  ['this Monday', 'this Monday', '2024-05-13', '2024-05-14'],
  ['this Friday', 'this Friday', '2024-05-17', '2024-05-18'],
  ['this Sunday', 'this Sunday', '2024-05-19', '2024-05-20'],
  ['next Monday', 'next Monday', '2024-05-20', '2024-05-21'],
  ['next Friday', 'next Friday', '2024-05-17', '2024-05-18'],
  ['next Wednesday', 'next Wednesday', '2024-05-22', '2024-05-23'],
  ['what did Anna say on Tuesday', 'on Tuesday', '2024-05-14', '2024-05-15'],
  ['on Wednesday', 'on Wednesday', '2024-05-15', '2024-05-16'],
  ['on Thursday', 'on Thursday', '2024-05-09', '2024-05-10'],
  ['on saturday', 'on saturday', '2024-05-11', '2024-05-12'],
  ['Monday morning', 'Monday morning', '2024-05-13T05', '2024-05-13T12'],
  ['last Friday night', 'last Friday night', '2024-05-10T18', '2024-05-11T06'],
  ['since Monday', 'since Monday', '2024-05-13', '2024-05-16'],
  ['since Friday', 'since Friday', '2024-05-10', '2024-05-16'],
  // since: from the phrase's start to the end of today
  ['since yesterday', 'since yesterday', '2024-05-14', '2024-05-16'],
  ['since last week', 'since last week', '2024-05-06', '2024-05-16'],
  ['since March', 'since March', '2024-03-01', '2024-05-16'],
  ['since June', 'since June', '2023-06-01', '2024-05-16'],
  ['since March 3', 'since March 3', '2024-03-03', '2024-05-16'],
  ['since 2020', 'since 2020', '2020-01-01', '2024-05-16'],
  ['since 2024-01-01', 'since 2024-01-01', '2024-01-01', '2024-05-16'],
  ['since the summer', 'since the summer', '2023-06-01', '2024-05-16'],
  // months: without a year, the latest one begun
  ['what happened in March', 'in March', '2024-03-01', '2024-04-01'],
  ['in May I moved to Munich', 'in May', '2024-05-01', '2024-06-01'],
  ['in June', 'in June', '2023-06-01', '2023-07-01'],
  ['in december', 'in december', '2023-12-01', '2024-01-01'],
  ['during April', 'during April', '2024-04-01', '2024-05-01'],
  ['throughout March', 'throughout March', '2024-03-01', '2024-04-01'],
  ['in March 2023', 'in March 2023', '2023-03-01', '2023-04-01'],
  ['in June, 2021', 'in June, 2021', '2021-06-01', '2021-07-01'],
  ['May 2023', 'May 2023', '2023-05-01', '2023-06-01'],
  ['Dec 2023', 'Dec 2023', '2023-12-01', '2024-01-01'],
  ['last March', 'last March', '2024-03-01', '2024-04-01'],
  ['last April', 'last April', '2024-04-01', '2024-05-01'],
  ['this March', 'this March', '2024-03-01', '2024-04-01'],
  ['next March', 'next March', '2025-03-01', '2025-04-01'],
  ['next June', 'next June', '2024-06-01', '2024-07-01'],
  ['early March', 'early March', '2024-03-01', '2024-03-11'],
  ['mid-March', 'mid-March', '2024-03-11', '2024-03-21'],
  ['late May', 'late May', '2024-05-21', '2024-06-01'],
  ['in late February', 'in late February', '2024-02-21', '2024-03-01'],
  ['in early June 2022', 'in early June 2022', '2022-06-01', '2022-06-11'],
  // one day: without a year, the occurrence nearest to today
  ['May 5, 2023', 'May 5, 2023', '2023-05-05', '2023-05-06'],
  ['on March 3rd', 'on March 3rd', '2024-03-03', '2024-03-04'],
  ['December 30', 'December 30', '2023-12-30', '2023-12-31'],
  ['June 1', 'June 1', '2024-06-01', '2024-06-02'],
  ['November 20', 'November 20', '2023-11-20', '2023-11-21'],
  ['Jan 5th', 'Jan 5th', '2024-01-05', '2024-01-06'],
  ['on Sept. 5', 'on Sept. 5', '2024-09-05', '2024-09-06'],
  ['June the 5th', 'June the 5th', '2024-06-05', '2024-06-06'],
  ['5th of May', '5th of May', '2024-05-05', '2024-05-06'],
  ['the 21st of June 2022', 'the 21st of June 2022', '2022-06-21', '2022-06-22'],
  ['8 May 2023', '8 May 2023', '2023-05-08', '2023-05-09'],
  ['on 3 March', 'on 3 March', '2024-03-03', '2024-03-04'],
  ['February 29', 'February 29', '2024-02-29', '2024-03-01'],
  // ISO dates
  ['2023-05-08', '2023-05-08', '2023-05-08', '2023-05-09'],
  ['notes from 2024-02-29?', '2024-02-29', '2024-02-29', '2024-03-01'],
  ['on 2023-05-08', 'on 2023-05-08', '2023-05-08', '2023-05-09'],
  ['in 2023-11', 'in 2023-11', '2023-11-01', '2023-12-01'],
  // years and decades
  ['in 2023', 'in 2023', '2023-01-01', '2024-01-01'],
  ['in 2023 we moved', 'in 2023', '2023-01-01', '2024-01-01'],
  ['during 2021', 'during 2021', '2021-01-01', '2022-01-01'],
  ['the year 2019', 'the year 2019', '2019-01-01', '2020-01-01'],
  ['early 2022', 'early 2022', '2022-01-01', '2022-05-01'],
  ['in mid 2020', 'in mid 2020', '2020-05-01', '2020-09-01'],
  ['late 2023', 'late 2023', '2023-09-01', '2024-01-01'],
  ['in the 1990s', 'in the 1990s', '1990-01-01', '2000-01-01'],
  ['during the 2010s', 'during the 2010s', '2010-01-01', '2020-01-01'],
  // rolling windows: from N units before today's start to the end of today
  ['the past 3 days', 'the past 3 days', '2024-05-12', '2024-05-16'],
  ['the last two weeks', 'the last two weeks', '2024-05-01', '2024-05-16'],
  ['last 10 days', 'last 10 days', '2024-05-05', '2024-05-16'],
  ['past 2 months', 'past 2 months', '2024-03-15', '2024-05-16'],
  ['the past week', 'the past week', '2024-05-08', '2024-05-16'],
  ['in the last month', 'in the last month', '2024-04-15', '2024-05-16'],
  ['over the past year', 'over the past year', '2023-05-15', '2024-05-16'],
  ['within the past 24 days', 'within the past 24 days', '2024-04-21', '2024-05-16'],
  ['the past few days', 'the past few days', '2024-05-11', '2024-05-16'],
  ['the past couple of days', 'the past couple of days', '2024-05-13', '2024-05-16'],
  ['recently', 'recently', '2024-05-01', '2024-05-16'],
  ['what have I been reading lately', 'lately', '2024-05-01', '2024-05-16'],
  // seasons (northern meteorological): without a year, the latest one begun
  ['over the summer', 'over the summer', '2023-06-01', '2023-09-01'],
  ['last summer', 'last summer', '2023-06-01', '2023-09-01'],
  ['this summer', 'this summer', '2024-06-01', '2024-09-01'],
  ['next summer', 'next summer', '2024-06-01', '2024-09-01'],
  ['during the winter', 'during the winter', '2023-12-01', '2024-03-01'],
  ['last winter', 'last winter', '2023-12-01', '2024-03-01'],
  ['this spring', 'this spring', '2024-03-01', '2024-06-01'],
  ['in the fall', 'in the fall', '2023-09-01', '2023-12-01'],
  ['summer 2023', 'summer 2023', '2023-06-01', '2023-09-01'],
  ['the summer of 2021', 'the summer of 2021', '2021-06-01', '2021-09-01'],
  ['in autumn 2022', 'in autumn 2022', '2022-09-01', '2022-12-01'],
];

/** Phrases with no time expression, several only look like one. */
const NOT_PARSED: string[] = [
  'March Madness brackets',
  'tickets for March Madness',
  'May I ask what you think',
  'the 90s band',
  'a band from the 90s',
  "songs from the '90s",
  'in the 90s for a week', // temperatures, ages: two-digit decades never parse
  'I need a second opinion',
  'the last one',
  'next steps',
  'this one is better',
  'her Sunday best',
  'Good Friday service',
  'we shop on Black Friday',
  'Cyber Monday deals',
  'I go swimming on Mondays',
  'every Monday',
  'I watched In March We Rise',
  'tell me about USA Today',
  'we watched The Tonight Show',
  'Last Week Tonight episodes',
  'the Long March',
  'ask May about it',
  'we march 10 miles',
  '2 may be enough',
  'may 5 people come',
  'in 1000 ways',
  'in 2000 steps',
  'in 42 minutes',
  'February 30',
  'February 29, 2023',
  '2023-13-45',
  '2023-02-30',
  'where do I live now',
  'summer camp',
  'we might fall in love',
  'in fall we',
  'I spent two days in Rome',
  'done in two days',
  'in 3 weeks',
  'a day in the life',
  'since I moved',
  'since then',
  'the last time we spoke',
  'the last day of school',
  'the last week of June',
  'the next day',
  'last but not least',
  'in Jan we trust',
  'the Ides of March',
  "April's car",
  'one day I will',
  'a few days',
];

function one(query: string, now = NOW, weekStartsOn?: number): TimeExpression {
  const r = parseTimeExpressions(query, weekStartsOn === undefined ? { now } : { now, weekStartsOn });
  assert.ok(r, `${query}: no time expression found`);
  assert.equal(r.length, 1, `${query}: ${r.length} expressions`);
  return r[0]!;
}

test('table: at least 120 phrases parse to the expected window and span', () => {
  const rows = PARSES;
  assert.ok(rows.length >= 120, `only ${rows.length} rows`);
  for (const [query, text, from, to] of rows) {
    const e = one(query);
    assert.equal(e.text, text, query);
    assert.equal(e.start, query.indexOf(text), `${query}: start`);
    assert.equal(e.end, e.start + text.length, `${query}: end`);
    assert.equal(query.slice(e.start, e.end), e.text, `${query}: text is the span`);
    assert.deepEqual([e.from.toISOString(), e.to.toISOString()], [t(from), t(to)], query);
  }
});

test('table: phrases that must not parse give null', () => {
  assert.ok(NOT_PARSED.length >= 20);
  for (const query of NOT_PARSED) {
    const r = parseTimeExpressions(query, { now: NOW });
    assert.equal(r, null, `${query} parsed as ${JSON.stringify(r)}`);
  }
});

test('several expressions come back left to right, not overlapping', () => {
  const q = 'Did I call Anna yesterday or last week, and what about March 3, 2023?';
  const r = parseTimeExpressions(q, { now: NOW });
  assert.ok(r);
  assert.deepEqual(
    r.map((e) => e.text),
    ['yesterday', 'last week', 'March 3, 2023'],
  );
  for (const e of r) assert.equal(q.slice(e.start, e.end), e.text);
  assert.ok(r[0]!.end <= r[1]!.start && r[1]!.end <= r[2]!.start);
  // The caller can cut the phrases out of the keyword query.
  let rest = q;
  for (const e of [...r].reverse()) rest = rest.slice(0, e.start) + rest.slice(e.end);
  assert.equal(rest.replace(/\s+/g, ' '), 'Did I call Anna or , and what about ?');
});

test('weekStartsOn moves this/last/next week; weekdays and "ago" follow it', () => {
  // Sunday-start weeks: the week of Wednesday 15 May runs Sunday 12 to Sunday 19.
  const w = one('this week', NOW, 0);
  assert.deepEqual([w.from.toISOString(), w.to.toISOString()], [t('2024-05-12'), t('2024-05-19')]);
  const l = one('last week', NOW, 0);
  assert.deepEqual([l.from.toISOString(), l.to.toISOString()], [t('2024-05-05'), t('2024-05-12')]);
  const s = one('this Sunday', NOW, 0);
  assert.deepEqual([s.from.toISOString(), s.to.toISOString()], [t('2024-05-12'), t('2024-05-13')]);
  const a = one('a week ago', NOW, 0);
  assert.deepEqual([a.from.toISOString(), a.to.toISOString()], [t('2024-05-05'), t('2024-05-12')]);
});

test('on a weekend, "this weekend" is the current one and "last weekend" the one before', () => {
  const sunday = new Date('2024-05-19T10:00:00Z');
  const cases: [string, string, string][] = [
    ['this weekend', '2024-05-18', '2024-05-20'],
    ['last weekend', '2024-05-11', '2024-05-13'],
    ['over the weekend', '2024-05-18', '2024-05-20'],
    ['yesterday', '2024-05-18', '2024-05-19'],
    ['on Sunday', '2024-05-19', '2024-05-20'],
    ['last Sunday', '2024-05-12', '2024-05-13'],
  ];
  for (const [q, from, to] of cases) {
    const e = one(q, sunday);
    assert.deepEqual([e.from.toISOString(), e.to.toISOString()], [t(from), t(to)], q);
  }
});

test('month boundaries and year turns use UTC calendar arithmetic', () => {
  const jan = new Date('2025-01-02T00:30:00Z');
  const cases: [string, string, string][] = [
    ['yesterday', '2025-01-01', '2025-01-02'],
    ['last month', '2024-12-01', '2025-01-01'],
    ['in December', '2024-12-01', '2025-01-01'],
    ['December 30', '2024-12-30', '2024-12-31'],
    ['a month ago', '2024-12-01', '2025-01-01'],
    ['the past month', '2024-12-02', '2025-01-03'],
    ['this winter', '2024-12-01', '2025-03-01'],
    ['last year', '2024-01-01', '2025-01-01'],
  ];
  for (const [q, from, to] of cases) {
    const e = one(q, jan);
    assert.deepEqual([e.from.toISOString(), e.to.toISOString()], [t(from), t(to)], q);
  }
  // 31 March minus one month: the rolling window starts on the last day of February.
  const e = one('the past month', new Date('2024-03-31T12:00:00Z'));
  assert.equal(e.from.toISOString(), t('2024-02-29'));
});

test('windows are half-open, non-empty, and "since" never starts in the future', () => {
  for (const [query] of PARSES) {
    const e = one(query);
    assert.ok(e.from.getTime() < e.to.getTime(), query);
  }
  // "since" before a future phrase is ignored: the phrase alone is the window.
  assert.equal(one('since next week').text, 'next week');
  assert.equal(one('since tomorrow').from.toISOString(), t('2024-05-16'));
});

test('now defaults to the clock', () => {
  const before = Date.now();
  const e = parseTimeExpressions('today')![0]!;
  const after = Date.now();
  // Today's window contains the clock's instant, read before or after (midnight may pass between).
  const inside = (ms: number): boolean => e.from.getTime() <= ms && ms < e.to.getTime();
  assert.ok(inside(before) || inside(after));
});

test('bad input is a typed INVALID_INPUT error', () => {
  const bad: [unknown, unknown][] = [
    [42, {}],
    [null, {}],
    ['today', { now: new Date('nonsense') }],
    ['today', { now: '2024-05-15' }],
    ['today', { weekStartsOn: 7 }],
    ['today', { weekStartsOn: 1.5 }],
    ['today', { weekStartsOn: -1 }],
  ];
  for (const [query, options] of bad) {
    assert.throws(
      () => parseTimeExpressions(query as string, options as { now?: Date }),
      (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
      JSON.stringify([query, options]),
    );
  }
});

test('long and odd input parses without error', () => {
  // 800 tokens before it: within the first MAX_TIME_TOKENS the parser reads (test/linear-text.test.ts).
  const q = `${'the last one, '.repeat(200)}yesterday ${'é ✓ \u0000 '.repeat(100)}`;
  const r = parseTimeExpressions(q, { now: NOW });
  assert.ok(r);
  assert.deepEqual(
    r.map((e) => e.text),
    ['yesterday'],
  );
  assert.equal(parseTimeExpressions('', { now: NOW }), null);
});

test('the quick exit (no four-digit number, no anchor word) never drops a phrase the full parse finds', async () => {
  const fc = (await import('fast-check')).default;
  const { readFileSync } = await import('node:fs');
  const { mayNameTime, parseUnfiltered } = await import('../src/recall/time-expr.js');
  // Every word the grammar names, plus fillers, in every case the tokenizer sees.
  const literals = [
    ...new Set(
      readFileSync(new URL('../src/recall/time-expr.ts', import.meta.url), 'utf8')
        .match(/'[a-z]+'/g)!
        .map((w) => w.slice(1, -1)),
    ),
  ];
  const fillers = [
    'what',
    'did',
    'we',
    'do',
    'Anna',
    'team',
    'lunch',
    'I',
    'moved',
    'Mondays',
    'Jazz',
    'USA',
    'Today',
    'and',
    ',',
    '.',
    '?',
    "Anna's",
    'March’s',
    // Numbers of every shape the tokenizer reads: counts, days, ordinals, years, decades, ISO dates.
    '3',
    '(3)',
    '12',
    '5th',
    '21st',
    '31',
    '100',
    '999',
    '2023',
    '1990s',
    "'90s",
    '90s',
    '12345',
    '2023-05',
    '2023-05-08',
    'x2023-05-01',
    '12023-05',
    '3pm',
    '12/05',
    '8080',
  ];
  const word = fc.oneof(
    fc.constantFrom(...literals),
    fc.constantFrom(...literals).map((w) => w[0]!.toUpperCase() + w.slice(1)),
    fc.constantFrom(...literals).map((w) => `${w}'s`),
    fc.constantFrom(...fillers),
  );
  const now = new Date('2026-06-15T12:00:00Z');
  let found = 0;
  fc.assert(
    fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (ws) => {
      const q = ws.join(' ');
      const full = parseUnfiltered(q, now);
      if (full) found++;
      assert.ok(!full || mayNameTime(q), `the quick exit would drop ${JSON.stringify(full?.map((e) => e.text))} in ${JSON.stringify(q)}`);
      assert.deepEqual(parseTimeExpressions(q, { now }), full);
    }),
    { numRuns: 20_000, seed: 20261202 },
  );
  assert.ok(found > 1000, `the generated questions name times often enough to test the exit (${found})`);
});
