/**
 * The speaker preference (src/recall/speaker-preference.ts): a query naming one person of a
 * conversation ranks that person's turns higher, on every store (SQLite file, PGlite, and a real
 * PostgreSQL server when one is available); a query naming both people is left as it was.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MnemoliteError, openMemory, type Memory } from '../src/index.js';
import { namedSpeakers, preferSpeaker, speakersOf } from '../src/recall/speaker-preference.js';
import { existsSync } from 'node:fs';
import { CLI, HashEmbedder, cli, tempDb } from './helpers.js';
import { storeTargets } from './store-matrix.js';

describe('naming a speaker', () => {
  const two = ['Caroline', 'Melanie'];
  test('matches whole words, case-insensitively, possessives included', () => {
    assert.deepEqual(namedSpeakers('What did Caroline research?', two), ['Caroline']);
    assert.deepEqual(namedSpeakers("what is caroline's identity", two), ['Caroline']);
    assert.deepEqual(namedSpeakers('What is Caroline’s identity?', two), ['Caroline']);
    assert.deepEqual(namedSpeakers('How did Caroline and Melanie meet?', two).sort(), two);
    assert.deepEqual(namedSpeakers('What did Carolines friend say?', two), [], 'a longer word is another word');
    assert.deepEqual(namedSpeakers('What did Jonathan say?', ['Jon', 'Gina']), []);
    assert.deepEqual(namedSpeakers('What did they say?', two), []);
  });
  test('role names of imported chats are never named: "add a user to the team" is not about the user’s turns', () => {
    assert.deepEqual(namedSpeakers('How do I add a user to the team?', ['user', 'assistant']), []);
    assert.deepEqual(namedSpeakers('What did the assistant recommend?', ['User', 'Assistant']), []);
    assert.deepEqual(namedSpeakers('What did Human Resources say?', ['human', 'assistant']), []);
    assert.deepEqual(namedSpeakers('What did Ann say to the user?', ['Ann', 'user']), ['Ann']);
  });
  test('a several-word name: the whole name, or its first word when no other speaker shares it', () => {
    assert.deepEqual(namedSpeakers('What did Ann Lee buy?', ['Ann Lee', 'Bo Chen']), ['Ann Lee']);
    assert.deepEqual(namedSpeakers('What did Ann buy?', ['Ann Lee', 'Bo Chen']), ['Ann Lee']);
    assert.deepEqual(namedSpeakers('What did Ann buy?', ['Ann Lee', 'Ann Smith']), []);
    assert.deepEqual(namedSpeakers('What did Lee buy?', ['Ann Lee', 'Bo Chen']), []);
  });
  test('a memory is its speaker’s by metadata, or by a "Name: " prefix only inside a session', () => {
    assert.deepEqual(speakersOf({ metadata: { speaker: 'Ann', speakers: ['Ann', 'Bo'] }, content: 'x', sessionId: null }), ['Ann', 'Bo']);
    assert.deepEqual(speakersOf({ metadata: { speaker: 'Ann' }, content: 'Bo: hi', sessionId: 's' }), ['Ann']);
    assert.deepEqual(speakersOf({ metadata: {}, content: 'Bo: hi there', sessionId: 's' }), ['Bo']);
    assert.deepEqual(speakersOf({ metadata: {}, content: 'TODO: buy milk', sessionId: null }), [], 'a label outside a session');
  });
  test('others are scaled down, not removed; one name among the candidates gives no preference', () => {
    const fused = [
      { seq: 1, score: 1 },
      { seq: 2, score: 0.8 },
      { seq: 3, score: 0.3 },
    ];
    const who = new Map([
      [1, ['Melanie']],
      [2, ['Caroline']],
      [3, ['Melanie']],
    ]);
    assert.deepEqual(
      preferSpeaker(fused, who, 'What did Caroline paint?', 0.5).map((h) => h.seq),
      [2, 1, 3],
    );
    assert.equal(preferSpeaker(fused, who, 'What did Caroline and Melanie paint?', 0.5), fused);
    assert.equal(preferSpeaker(fused, new Map([[1, ['Melanie']]]), 'What did Melanie paint?', 0.5), fused);
  });
  test('a memory without a speaker (a fact beside the chats) keeps its score', () => {
    const fused = [
      { seq: 1, score: 1 },
      { seq: 2, score: 0.9 },
      { seq: 3, score: 0.8 },
    ];
    const who = new Map([
      [2, ['Bo']],
      [3, ['Ann']],
    ]);
    const out = preferSpeaker(fused, who, "What is Ann's favourite colour?", 0.5);
    assert.deepEqual(
      out.map((h) => [h.seq, h.score]),
      [
        [1, 1],
        [3, 0.8],
        [2, 0.45],
      ],
    );
  });
});

const targets = await storeTargets();

// Melanie's turn repeats the query's words, so it out-scores Caroline's own turn on the words alone.
const CHAT = [
  { speaker: 'Melanie', content: 'Caroline, your painting is lovely! Is the painting for the show?' },
  { speaker: 'Caroline', content: 'Thanks! It took weeks of evenings after my shifts, and I finished the painting of the horses on Sunday.' },
  { speaker: 'Melanie', content: 'The kids and I went camping by the river last weekend.' },
  { speaker: 'Caroline', content: 'I went to a support group meeting on Tuesday evening.' },
  { speaker: 'Melanie', content: 'We baked bread and cookies with the kids yesterday.' },
  { speaker: 'Caroline', content: 'My mentor gave me good advice about school applications.' },
];

for (const T of targets) {
  describe(T.name, () => {
    const open = (): Promise<Memory> => openMemory({ ...T.fresh(), embedder: T.vectors ? new HashEmbedder() : 'none' });
    const ids = async (mem: Memory, q: string, o: Parameters<Memory['recall']>[1] = {}): Promise<string[]> =>
      (await mem.recall(q, { namespace: 'chat', limit: 3, ...o })).map((h) => h.id);

    for (const mode of T.vectors ? (['keyword', 'hybrid'] as const) : (['keyword'] as const)) {
      test(`${mode}: a query naming one speaker ranks that speaker's turn first; naming both changes nothing`, async () => {
        const mem = await open();
        try {
          const [mel, car] = await mem.addConversation(CHAT, { namespace: 'chat', sessionId: 's1' });
          const q = "Caroline's painting";
          const off = await ids(mem, q, { mode, preferSpeaker: false });
          assert.equal(off[0], mel!.id, 'without the preference the turn repeating the words leads');
          assert.equal((await ids(mem, q, { mode }))[0], car!.id, 'the named speaker’s turn leads');
          const both = 'Caroline and Melanie painting';
          assert.deepEqual(await ids(mem, both, { mode }), await ids(mem, both, { mode, preferSpeaker: false }));
        } finally {
          await mem.close();
        }
      });
    }

    test('turns stored one by one in a session count by their "Name: " prefix; the same text outside a session does not', async () => {
      const mem = await open();
      try {
        const inSession = await mem.addMany(CHAT.map((t) => ({ content: `${t.speaker}: ${t.content}`, namespace: 'chat', sessionId: 's1', force: true })));
        const q = "Caroline's painting";
        assert.equal((await ids(mem, q, { mode: 'keyword', preferSpeaker: false }))[0], inSession[0]!.id);
        assert.equal((await ids(mem, q, { mode: 'keyword' }))[0], inSession[1]!.id);
        const loose = await mem.addMany(CHAT.map((t) => ({ content: `${t.speaker}: ${t.content}`, namespace: 'notes', force: true })));
        const notes = (o: { preferSpeaker?: boolean }): Promise<string[]> =>
          mem.recall(q, { namespace: 'notes', mode: 'keyword', ...o }).then((hs) => hs.map((h) => h.id));
        assert.equal((await notes({}))[0], loose[0]!.id, 'no session: a prefix is not taken for a speaker');
        assert.deepEqual(await notes({}), await notes({ preferSpeaker: false }));
      } finally {
        await mem.close();
      }
    });

    test('speakers of another namespace do not count', async () => {
      const mem = await open();
      try {
        await mem.addConversation(CHAT, { namespace: 'chat', sessionId: 's1' });
        // "Gina" speaks only in another namespace: naming her with Caroline is still naming one speaker here.
        await mem.addConversation(
          [
            { speaker: 'Gina', content: 'Caroline told me about her painting of horses.' },
            { speaker: 'Jon', content: 'Painting is fun.' },
          ],
          { namespace: 'other', sessionId: 's1' },
        );
        const q = 'Did Gina see Caroline painting?';
        const on = await ids(mem, q, { mode: 'keyword' });
        const off = await ids(mem, q, { mode: 'keyword', preferSpeaker: false });
        assert.notDeepEqual(on, off, 'Caroline is the one speaker of this namespace the query names');
        const rows = await mem.recall(q, { namespace: 'chat', mode: 'keyword' });
        assert.ok(rows.every((h) => h.namespace === 'chat'));
      } finally {
        await mem.close();
      }
    });

    test('a bad preferSpeaker is refused', async () => {
      const mem = await open();
      try {
        await assert.rejects(
          mem.recall('x', { preferSpeaker: 'yes' as unknown as boolean }),
          (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
        );
      } finally {
        await mem.close();
      }
    });
  });
}

test('CLI: recall --no-prefer-speaker', () => {
  assert.ok(existsSync(CLI), 'run npm run build first');
  const db = tempDb();
  const run = (...args: string[]) => cli(['--db', db, '--embedder', 'none', ...args]);
  for (const t of CHAT) assert.equal(run('add', `${t.speaker}: ${t.content}`, '--session', 's1').code, 0);
  const first = (...flags: string[]) => (JSON.parse(run('--json', 'recall', "Caroline's painting", ...flags).stdout) as { content: string }[])[0]!.content;
  assert.match(first(), /^Caroline:/);
  assert.match(first('--no-prefer-speaker'), /^Melanie:/);
});
