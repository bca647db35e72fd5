/**
 * Isolation: a property test over random (and confusable) namespaces. Whatever one namespace
 * does, recall, list, count, get, update, forget, history, export and stats never touch or
 * reveal another namespace's memories; dedup and key upserts stay inside their namespace.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MnemoliteError, openMemory, type Memory } from '../src/index.js';
import { HashEmbedder, tempDb } from './helpers.js';
import { property, runs } from './stress/lib/prop.js';

/** Namespaces that look alike, or look like patterns, or are plain random labels. */
const namespace = fc.oneof(
  fc.constantFrom(
    'a',
    'A',
    'a ',
    ' a',
    'a\u200b',
    '\u00e9',
    'e\u0301',
    'default',
    'DEFAULT',
    '%',
    '_',
    'a%',
    'a_',
    'ns_1',
    'ns%1',
    "o'brien",
    'x"y',
    'agent-1',
    'agent-10',
    '東京',
    '🚀',
  ),
  // A name ending in "*" reads as a prefix scope (recall, list, count: test/scopes.test.ts), not as one namespace.
  fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim().length > 0 && !/[\u0000-\u001f\u007f]/.test(s) && !s.endsWith('*')),
);
const WORDS = ['tea', 'coffee', 'deploy', 'raspberry', 'rust', 'alice', 'secret', 'password', 'garden', 'server'];

const spec = fc.record({
  ns: fc.nat(),
  words: fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  key: fc.option(fc.constantFrom('k1', 'k2', 'profile'), { nil: null }),
  category: fc.constantFrom('c1', 'c2'),
  session: fc.constantFrom('s1', 's2'),
});

interface Row {
  id: string;
  ns: string;
  content: string;
  key: string | null;
  category: string;
  session: string;
}

const ids = (xs: { id: string }[]): string[] => xs.map((x) => x.id).sort();

async function expectNotFound(what: string, fn: () => Promise<unknown>): Promise<void> {
  await assert.rejects(fn(), (e: unknown) => e instanceof MnemoliteError && e.code === 'NOT_FOUND', what);
}

/** A fingerprint of one namespace's memories as the API shows them (with vectors). */
const snapshot = async (mem: Memory, ns: string): Promise<string> => JSON.stringify([...mem.export({ namespace: ns, vectors: true })]);

test('isolation: operations scoped to one namespace never read, change or reveal another namespace', { timeout: 180_000 }, async () => {
  await property(
    fc.asyncProperty(
      fc.uniqueArray(namespace, { minLength: 2, maxLength: 4 }),
      fc.array(spec, { minLength: 3, maxLength: 18 }),
      fc.constantFrom(...WORDS),
      async (namespaces, specs, query) => {
        const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
        // Build the model: the same texts and keys appear in several namespaces on purpose.
        const rows: Row[] = [];
        for (const s of specs) {
          const ns = namespaces[s.ns % namespaces.length]!;
          const content = s.words.join(' ');
          if (rows.some((r) => r.ns === ns && r.content === content)) continue; // exact duplicates within a namespace merge (tested elsewhere)
          // contextWindow 0: the oracle below matches a memory's own words (context is tested in context.test.ts, sessions never cross namespaces).
          const res = await mem.add(content, { namespace: ns, category: s.category, sessionId: s.session, contextWindow: 0, ...(s.key ? { key: s.key } : {}) });
          const prior = s.key ? rows.find((r) => r.ns === ns && r.key === s.key) : undefined;
          if (prior) {
            assert.equal(res.id, prior.id, 'a key upsert replaces the memory of the same namespace');
            Object.assign(prior, { content, category: s.category, session: s.session });
          } else {
            assert.ok(!rows.some((r) => r.id === res.id), 'neither dedup nor a key upsert reaches into another namespace');
            rows.push({ id: res.id, ns, content, key: s.key, category: s.category, session: s.session });
          }
        }
        for (const ns of namespaces) {
          const mine = rows.filter((r) => r.ns === ns);
          const others = rows.filter((r) => r.ns !== ns);
          const scope = { namespace: ns };
          // Reads see exactly this namespace.
          assert.deepEqual(ids(await mem.list({ namespace: ns, limit: 1000 })), ids(mine), 'list');
          assert.equal(await mem.count(scope), mine.length, 'count');
          assert.deepEqual(ids([...mem.export(scope)]), ids(mine), 'export');
          const st = await mem.stats(scope);
          assert.equal(st.memories, mine.length, 'stats count');
          assert.deepEqual(Object.keys(st.namespaces), mine.length ? [ns] : [], 'stats names no other namespace');
          for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
            const hits = await mem.recall(query, { namespace: ns, mode, limit: 100 });
            assert.ok(
              hits.every((h) => h.namespace === ns && mine.some((m) => m.id === h.id)),
              `${mode} recall stays in "${ns}"`,
            );
            if (mode === 'keyword')
              assert.deepEqual(
                ids(hits),
                ids(mine.filter((m) => m.content.split(' ').includes(query))),
                'keyword recall finds every match of the namespace, and only those',
              );
            if (mode === 'vector') assert.equal(hits.length, mine.length, 'vector recall ranks every memory of the namespace, and only those');
          }
          // Scoped calls with another namespace's id see nothing and change nothing.
          const before = new Map<string, string>();
          for (const o of namespaces.filter((x) => x !== ns)) before.set(o, await snapshot(mem, o));
          for (const o of others) {
            assert.equal(await mem.get(o.id, scope), null, 'get');
            await expectNotFound('update', () => mem.update(o.id, { content: 'hijacked', category: 'stolen' }, scope));
            assert.equal(await mem.forget(o.id, scope), false, 'forget');
            assert.deepEqual(await mem.history(o.id, scope), [], 'history');
          }
          // Forgetting and updating inside the namespace leaves the others byte-for-byte alone.
          const victim = mine[0];
          if (victim) {
            await mem.update(victim.id, { content: `${victim.content} updated`, category: 'c9' }, scope);
            assert.equal(await mem.forget(victim.id, scope), true);
            rows.splice(rows.indexOf(victim), 1);
          }
          for (const [o, snap] of before) assert.equal(await snapshot(mem, o), snap, `namespace "${o}" untouched by work in "${ns}"`);
        }
        assert.deepEqual(ids([...mem.export()]), ids(rows), 'nothing else was lost or created');
        await mem.close();
      },
    ),
    { numRuns: runs(30) },
  );
});

test('isolation: "*" is a read wildcard only; it cannot be stored into', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  await mem.add('private to agent a', { namespace: 'a' });
  await assert.rejects(mem.add('trying to live in every namespace', { namespace: '*' }), (e: unknown) => (e as MnemoliteError).code === 'INVALID_INPUT');
  await assert.rejects(
    mem.import([{ content: 'imported into every namespace', namespace: '*' }]),
    (e: unknown) => (e as MnemoliteError).code === 'INVALID_INPUT',
  );
  await assert.rejects(
    mem.addConversation([{ speaker: 'x', content: 'a conversation in every namespace at once' }], { namespace: '*' }),
    (e: unknown) => (e as MnemoliteError).code === 'INVALID_INPUT',
  );
  assert.equal(await mem.count({ namespace: '*' }), 1);
  assert.deepEqual(await mem.list({ namespace: 'b' }), []);
  await mem.close();
});
