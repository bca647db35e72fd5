/**
 * Current over stale and `supersede: 'auto'` (issue 15, item 1): the evidence each rule reads.
 * Store behaviour runs on every store of test/store-matrix.ts; the pure parts of the rules
 * (stems, naming words, occasions, the change-word evidence) are checked directly.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openMemory, type Memory } from '../src/index.js';
import { namingTerms, preferCurrent, type CurrentMeta } from '../src/recall/current.js';
import { stems } from '../src/text/stems.js';
import { occasionDay, occasionPassed } from '../src/lifecycle/occasion.js';
import { saysUpdate, statedAt } from '../src/lifecycle/update-cues.js';
import type { FusedHit } from '../src/recall/fusion.js';
import { HashEmbedder, tempDb } from './helpers.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

for (const T of targets) {
  describe(T.name, () => {
    const open = (): Promise<Memory> => openMemory({ ...T.fresh(), embedder: T.vectors ? new HashEmbedder() : 'none' });

    test("supersede: 'auto' does not link a note about an occasion that has passed; it does link one before it", async () => {
      const mem = await open();
      try {
        // Stated on Monday 2024-11-04: the Friday is 2024-11-08.
        const a = await mem.add('Dentist appointment moved to Friday at 8:00.', { category: 'event', createdAt: '2024-11-04T09:00:00Z' });
        // Two weeks later that Friday is over: another appointment, not an update.
        const later = await mem.add('Dentist appointment moved to Friday at 13:00.', {
          category: 'event',
          supersede: 'auto',
          createdAt: '2024-11-20T09:00:00Z',
        });
        assert.equal(later.autoSuperseded, undefined);
        assert.ok(!(await mem.get(a.id))!.supersededBy);
        // Two days later (Wednesday 2024-11-22) that Friday (2024-11-22) has not passed: the same appointment moved again.
        const again = await mem.add('Dentist appointment moved to Friday at 15:00.', {
          category: 'event',
          supersede: 'auto',
          createdAt: '2024-11-21T09:00:00Z',
        });
        assert.equal(again.autoSuperseded, later.id);
      } finally {
        await mem.close();
      }
    });

    test("supersede: 'auto' does not link notes that each name a subject the other does not", async () => {
      const mem = await open();
      try {
        await mem.add('Postgres for Magpie bumped to 15.', { category: 'project', createdAt: '2025-03-13T09:00:00Z' });
        const heron = await mem.add('Postgres for Heron bumped to 15.', { category: 'project', supersede: 'auto', createdAt: '2025-05-19T09:00:00Z' });
        assert.equal(heron.autoSuperseded, undefined);
        const old = await mem.add('Amara Eze is the owner of Lantern.', { category: 'project', createdAt: '2025-01-27T09:00:00Z' });
        const upd = await mem.add('New owner of Lantern: Tom Becker (was Amara Eze).', {
          category: 'project',
          supersede: 'auto',
          createdAt: '2025-04-14T09:00:00Z',
        });
        assert.equal(upd.autoSuperseded, old.id, 'all names of the old note occur in the new one');
        assert.equal(await mem.count(), 4, 'nothing deleted');
      } finally {
        await mem.close();
      }
    });

    test("supersede: 'auto': a 'Label:' prefix on one side only is not a speaker, so its names count", async () => {
      const mem = await open();
      try {
        await mem.add('Met Diego Alvarez today: staff engineer on Developer Experience.', { category: 'person', createdAt: '2024-11-03T09:00:00Z' });
        const r = await mem.add('Ben Carter moved to the Developer Experience team.', {
          category: 'person',
          supersede: 'auto',
          createdAt: '2025-03-21T09:00:00Z',
        });
        assert.equal(r.autoSuperseded, undefined);
      } finally {
        await mem.close();
      }
    });
  });
}

describe('the evidence the rules read', () => {
  test('stems fold plural, verb ending and final e', () => {
    for (const [a, b] of [
      ['released', 'release'],
      ['meetings', 'meeting'],
      ['moved', 'moving'],
      ['moves', 'move'],
    ])
      assert.deepEqual([...stems(a!)], [...stems(b!)], `${a} / ${b}`);
    assert.notDeepEqual([...stems('port')], [...stems('post')]);
  });

  test('short acronyms are not subject names; names and identifiers are', () => {
    assert.deepEqual([...namingTerms('Which port is the Falcon API on now?')], ['falcon']);
    assert.ok(namingTerms('Where is FALCONRY hosted?').has('falconry'));
    assert.ok(namingTerms('what reads WILLOW_JWT_SECRET').has('willow_jwt_secret'));
  });

  test('change words: an update says so; "new" counts only where it opens the note', () => {
    for (const t of [
      'Standup moved to 9:30 CET.',
      'No-meeting day is now Thursday.',
      'New phone: iPhone 15 Pro.',
      'Shell changed from bash to zsh.',
      'Manager is Grace (was Tom).',
    ])
      assert.ok(saysUpdate(t), t);
    for (const t of ['Released Nimbus v4.4.1 with a new onboarding flow.', 'Demo day: Sofia showed the new admin console.', 'Standup is at 9:15 CET.'])
      assert.ok(!saysUpdate(t), t);
  });

  test('occasions: one weekday or a dated note; recurring days never pass', () => {
    const mon = Date.parse('2024-11-04T09:00:00Z');
    assert.equal(occasionDay('moved to Friday at 8:00', mon), Date.parse('2024-11-08T00:00:00Z'));
    assert.equal(occasionDay('moved to Monday', mon), Date.parse('2024-11-04T00:00:00Z'), 'the same day counts');
    assert.equal(occasionDay('Standup 2025-02-17: the cost reduction', mon), Date.parse('2025-02-17T00:00:00Z'));
    assert.equal(occasionDay('User trains on Tuesdays and Thursdays', mon), undefined);
    assert.equal(occasionDay('Friday deploys are banned', mon), undefined, 'a weekday not after on/to/for/until/by');
    assert.equal(occasionPassed('moved to Friday', mon, Date.parse('2024-11-08T20:00:00Z')), false);
    assert.equal(occasionPassed('moved to Friday', mon, Date.parse('2024-11-09T00:00:00Z')), true);
  });

  test('newer means the statement time: eventAt when present, else createdAt', () => {
    const c = new Date('2025-01-01T00:00:00Z'),
      e = new Date('2024-06-01T00:00:00Z');
    assert.equal(statedAt({ createdAt: c }), c.getTime());
    assert.equal(statedAt({ createdAt: c, eventAt: e }), e.getTime());
    // A stored row (what recall reads) means the same.
    assert.equal(statedAt({ created_at: c.toISOString(), event_at: null }), c.getTime());
    assert.equal(statedAt({ created_at: c.toISOString(), event_at: e.toISOString() }), e.getTime());
  });

  test('current over stale: a change word in the newer memory is evidence; without it the pair stays', () => {
    const v = new Float32Array([1, 0]);
    const meta = (content: string, day: number): CurrentMeta => ({ namespace: 'default', category: 'preference', content, time: day * 86_400_000, vector: v });
    const fused: FusedHit[] = [
      { seq: 1, score: 1 },
      { seq: 2, score: 0.9 },
    ] as FusedHit[];
    const q = 'What is the no-meeting day?';
    const withCue = new Map([
      [1, meta('User keeps Tuesday free of meetings.', 1)],
      [2, meta('No-meeting day is now Thursday.', 100)],
    ]);
    assert.deepEqual(
      preferCurrent(fused, withCue, q).map((h) => h.seq),
      [2, 1],
    );
    const noCue = new Map([
      [1, meta('User keeps Tuesday free of meetings.', 1)],
      [2, meta('No-meeting day is Thursday.', 100)],
    ]);
    assert.deepEqual(
      preferCurrent(fused, noCue, q).map((h) => h.seq),
      [1, 2],
    );
    // Between two chat turns the word "now" is no evidence.
    const chat = new Map([
      [1, meta('Mel: I keep Tuesday free of meetings.', 1)],
      [2, meta('Mel: No-meeting day is now Thursday.', 100)],
    ]);
    assert.deepEqual(
      preferCurrent(fused, chat, q).map((h) => h.seq),
      [1, 2],
    );
  });

  test('current over stale: two turns of the user in a chat with an assistant are compared as notes; two turns of a named person are not', () => {
    const v = new Float32Array([1, 0]);
    const turn = (speaker: string, content: string, day: number): CurrentMeta => ({
      namespace: 'default',
      category: null,
      content,
      time: day * 86_400_000,
      vector: v,
      speaker,
    });
    const fused: FusedHit[] = [
      { seq: 1, score: 1 },
      { seq: 2, score: 0.9 },
    ] as FusedHit[];
    const q = 'How many autographed baseballs are in my collection?';
    const pair = (speaker: string): Map<number, CurrentMeta> =>
      new Map([
        [1, turn(speaker, 'I have 10 autographed baseballs in my collection.', 1)],
        [2, turn(speaker, 'I have 15 autographed baseballs in my collection after the flea market.', 100)],
      ]);
    assert.deepEqual(
      preferCurrent(fused, pair('user'), q).map((h) => h.seq),
      [2, 1],
      "the user's later statement of the same thing is the current one",
    );
    assert.deepEqual(
      preferCurrent(fused, pair('Mel'), q).map((h) => h.seq),
      [1, 2],
      'between named people a later turn repeating a statement updates nothing without a question about the present',
    );
    assert.deepEqual(
      preferCurrent(fused, pair('assistant'), q).map((h) => h.seq),
      [1, 2],
      "the assistant's turns restate, they do not update",
    );
  });
});

test('current over stale: a later amount stated in passing in a long user turn is current, though the turns are far apart in meaning', () => {
  // The whole turns are about other things (a tripod, a trip), so their vectors are far apart and the
  // newer one is far from the question; the sentences holding the amounts match the question.
  const older =
    "I'm considering the Really Right Stuff tripod. Is it compatible with my Canon EOS 80D camera? By the way, I've taken my camera on three trips, to Yellowstone, Yosemite and the Grand Canyon.";
  const newer =
    "I'm planning a trip to Zion National Park. Any tips for shooting in bright sunlight? By the way, I've had my Canon EOS 80D with me on five trips now, and it's been a beast!";
  const meta = (content: string, day: number, vector: number[], speaker = 'user'): CurrentMeta => ({
    namespace: 'default',
    category: null,
    content,
    time: day * 86_400_000,
    vector: new Float32Array(vector),
    speaker,
  });
  const fused = [
    { seq: 1, score: 1 },
    { seq: 2, score: 0.8 },
  ] as FusedHit[];
  const run = (q: string, a: string, b: string, speaker = 'user'): number[] =>
    preferCurrent(
      fused,
      new Map([
        [1, meta(a, 1, [1, 0], speaker)],
        [2, meta(b, 60, [0.2, Math.sqrt(1 - 0.04)], speaker)],
      ]),
      q,
      new Map([
        [1, -20],
        [2, -17],
      ]),
      new Map([
        [1, 0.7],
        [2, 0.3],
      ]),
    ).map((h) => h.seq);
  const q = 'How many trips have I taken my Canon EOS 80D camera on?';
  assert.deepEqual(run(q, older, newer), [2, 1], 'five trips, stated later, is the current amount');
  assert.deepEqual(
    run('Which tripod did I consider for my Canon EOS 80D camera?', older, newer),
    [1, 2],
    'not asking for an amount: the turns are too far apart',
  );
  assert.deepEqual(run(q, older, newer.replace('five', 'three')), [1, 2], 'the same amount restated is no update');
  assert.deepEqual(run(q, older, newer, 'Mel'), [1, 2], 'between turns of a named person a repeated statement updates nothing');
  assert.deepEqual(
    run(q, "I've taken my Canon EOS 80D camera on three trips.", "I've had my Canon EOS 80D on five trips."),
    [1, 2],
    'two statements that are the whole turn keep the vector tests: far apart in meaning, no update',
  );
});

test('current over stale: cosine counts only for the model it was calibrated on; another embedder compares token overlap', async () => {
  // An embedder whose cosines are all 1 (the extreme of a model with a higher cosine scale than the bundled one).
  const flat = {
    provider: 'test',
    id: 'flat-test@1',
    dims: 8,
    embed: async (texts: string[]) => texts.map(() => [1, 0, 0, 0, 0, 0, 0, 0]),
  };
  const mem = await openMemory({ path: tempDb(), embedder: flat });
  try {
    await mem.add('Port 5432 serves the staging database', { createdAt: '2026-01-01T00:00:00Z' });
    await mem.add('Nightly backups of the staging database finish at 3am', { createdAt: '2026-03-01T00:00:00Z' });
    // Before the gate, the newer note about another attribute (cosine 1 to everything) jumped above the answer.
    const hits = await mem.recall('what port serves the staging database now', { limit: 2, minRelevance: 0 });
    assert.equal(hits[0]!.content, 'Port 5432 serves the staging database');
  } finally {
    await mem.close();
  }
});
