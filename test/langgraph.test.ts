import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { Annotation, END, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { InvalidNamespaceError } from '@langchain/langgraph-checkpoint';
import { MnemoliteError, openMemory, type Memory, type OpenOptions } from '../src/index.js';
import { MnemoliteStore, decodeKey, decodeNamespace, encodeKey, encodeNamespace, type MnemoliteStoreOptions } from '../src/integrations/langgraph/index.js';
import { HashEmbedder, tempDb } from './helpers.js';
import { freshSchema, startPglite } from './pg-servers.js';

// The store runs on both mnemolite backends: the SQLite file and PostgreSQL (PGlite, with pgvector).
const pglite = await startPglite();
after(() => pglite.stop());
const TARGETS: Array<{ name: string; fresh(): Pick<OpenOptions, 'path' | 'url' | 'postgres'> }> = [
  { name: 'SQLite file', fresh: () => ({ path: tempDb() }) },
  { name: pglite.label, fresh: () => ({ url: pglite.url, postgres: { schema: freshSchema(), poolSize: 1 } }) },
];

const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();
const keys = (items: { key: string }[]): string[] => items.map((i) => i.key);

for (const target of TARGETS)
  describe(target.name, () => {
    async function withStore<T>(
      fn: (store: MnemoliteStore, mem: Memory) => Promise<T>,
      options: MnemoliteStoreOptions = {},
      embedder: 'none' | 'local' | HashEmbedder = new HashEmbedder(),
    ): Promise<T> {
      const mem = await openMemory({ ...target.fresh(), embedder });
      try {
        return await fn(new MnemoliteStore(mem, options), mem);
      } finally {
        await mem.close();
      }
    }

    test('put / get / delete: values round-trip as JSON, put on an existing key keeps createdAt', async () => {
      await withStore(async (store) => {
        const value = { text: 'Ünïcode ✓ 東京', n: 1.5, ok: true, none: null, list: [1, 'two', { three: 3 }], nested: { a: { b: 'c' } } };
        await store.put(['test'], '123', value);
        const got = await store.get(['test'], '123');
        assert.ok(got);
        assert.deepEqual(got.value, value);
        assert.equal(got.key, '123');
        assert.deepEqual(got.namespace, ['test']);
        assert.ok(got.createdAt instanceof Date && got.updatedAt instanceof Date);
        assert.equal(await store.get(['test'], '124'), null);
        assert.equal(await store.get(['other'], '123'), null);

        await new Promise((r) => setImmediate(r));
        await store.put(['test'], '123', { text: 'changed' });
        const again = await store.get(['test'], '123');
        assert.deepEqual(again?.value, { text: 'changed' }, 'put replaces the whole value');
        assert.equal(again?.createdAt.getTime(), got.createdAt.getTime());
        assert.ok(again!.updatedAt.getTime() >= got.updatedAt.getTime());

        await store.delete(['test'], '123');
        assert.equal(await store.get(['test'], '123'), null);
        await store.delete(['test'], '123'); // deleting a missing item is fine
        assert.deepEqual(await store.search(['test']), []);
      });
    });

    test('search without a query: every item under the prefix, in insertion order, with limit and offset', async () => {
      await withStore(async (store) => {
        await store.put(['test'], '123', { value: 1 });
        await store.put(['test'], '456', { value: 2 });
        await store.put(['test', 'sub'], '789', { value: 3 });
        await store.put(['testing'], 'x', { value: 4 }); // a sibling, not under ["test"]
        const all = await store.search(['test']);
        assert.deepEqual(keys(all), ['123', '456', '789']);
        assert.equal(all[0]!.score, undefined);
        assert.deepEqual(all[2]!.namespace, ['test', 'sub']);
        assert.deepEqual(all[0], { value: { value: 1 }, key: '123', namespace: ['test'], createdAt: all[0]!.createdAt, updatedAt: all[0]!.updatedAt });
        assert.deepEqual(keys(await store.search(['test'], { limit: 2 })), ['123', '456']);
        assert.deepEqual(keys(await store.search(['test'], { limit: 2, offset: 1 })), ['456', '789']);
        assert.deepEqual(keys(await store.search(['test'], { offset: 3 })), []);
        assert.deepEqual(keys(await store.search([])).sort(), ['123', '456', '789', 'x']);
        assert.deepEqual(keys(await store.search(['test', 'sub'])), ['789']);
        assert.deepEqual(await store.search(['nothing']), []);
      });
    });

    test('filters on value fields: equality, operators, nested values; SQL narrowing never changes the answer', async () => {
      await withStore(async (store) => {
        await store.put(['f'], 'a', { color: 'red', score: 4.5, flag: true, tags: ['x'], meta: { k: 1 } });
        await store.put(['f'], 'b', { color: 'red', score: 3.0, flag: 1 });
        await store.put(['f'], 'c', { color: 'green', score: 4.0, flag: false, note: null });
        await store.put(['f'], 'd', { color: 'blue', score: 3.5 });
        const f = async (filter: Record<string, unknown>): Promise<string[]> => keys(await store.search(['f'], { filter })).sort();
        assert.deepEqual(await f({ color: 'red' }), ['a', 'b']);
        assert.deepEqual(await f({ score: { $gt: 3.2 } }), ['a', 'c', 'd']);
        assert.deepEqual(await f({ score: { $gte: 4.0 }, color: 'green' }), ['c']);
        assert.deepEqual(await f({ score: { $lt: 3.5 } }), ['b']);
        assert.deepEqual(await f({ score: { $lte: 3.5 } }), ['b', 'd']);
        assert.deepEqual(await f({ color: { $ne: 'red' } }), ['c', 'd']);
        assert.deepEqual(await f({ color: { $in: ['green', 'blue'] } }), ['c', 'd']);
        assert.deepEqual(await f({ color: { $nin: ['green', 'blue'] } }), ['a', 'b']);
        assert.deepEqual(await f({ color: { $eq: 'blue' } }), ['d']);
        // SQLite reads JSON true as 1: the SQL narrowing would let b through for flag: true, the check does not.
        assert.deepEqual(await f({ flag: true }), ['a']);
        assert.deepEqual(await f({ flag: 1 }), ['b']);
        assert.deepEqual(await f({ note: null }), ['c'], 'null matches a stored null, not a missing field');
        assert.deepEqual(await f({ tags: ['x'] }), ['a']);
        assert.deepEqual(await f({ meta: { k: 1 } }), ['a']);
        assert.deepEqual(await f({ 'odd field': 1 }), []);
        assert.deepEqual(await f({ color: 'purple' }), []);
        await assert.rejects(
          store.search(['f'], { filter: 'red' as unknown as Record<string, unknown> }),
          (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
        );
      });
    });

    test('search with a query ranks by hybrid recall, combines with filters, limit and offset', async () => {
      await withStore(
        async (store) => {
          await store.put(['docs'], 'doc1', { text: 'red apple', color: 'red', score: 4.5 });
          await store.put(['docs'], 'doc2', { text: 'red car', color: 'red', score: 3.0 });
          await store.put(['docs'], 'doc3', { text: 'green apple', color: 'green', score: 4.0 });
          await store.put(['docs'], 'doc4', { text: 'blue car', color: 'blue', score: 3.5 });
          let r = await store.search(['docs'], { query: 'apple', filter: { color: 'red' } });
          assert.deepEqual(keys(r), ['doc1', 'doc2']);
          assert.equal(typeof r[0]!.score, 'number');
          r = await store.search(['docs'], { query: 'car', filter: { color: 'red' } });
          assert.equal(r[0]!.key, 'doc2');
          r = await store.search(['docs'], { query: 'blue', filter: { score: { $gt: 3.2 } } });
          assert.equal(r.length, 3);
          assert.equal(r[0]!.key, 'doc4');
          r = await store.search(['docs'], { query: 'apple', filter: { score: { $gte: 4.0 }, color: 'green' } });
          assert.deepEqual(keys(r), ['doc3']);
          const full = await store.search(['docs'], { query: 'green apple' });
          assert.equal(full[0]!.key, 'doc3');
          assert.equal(full.length, 4, 'every item comes back, the query only orders them');
          assert.deepEqual(keys(await store.search(['docs'], { query: 'green apple', limit: 2, offset: 1 })), keys(full).slice(1, 3));
        },
        { index: { fields: ['text'] } },
      );
    });

    test('natural-language query with the bundled model finds a paraphrase', async () => {
      await withStore(
        async (store) => {
          await store.put(['users', 'u1', 'memories'], 'm1', { text: 'The user is vegetarian and avoids meat.' });
          await store.put(['users', 'u1', 'memories'], 'm2', { text: 'The user works as a nurse at night.' });
          await store.put(['users', 'u1', 'memories'], 'm3', { text: 'The user has a cat named Pixel.' });
          const r = await store.search(['users', 'u1'], { query: 'What food should I cook for them?', limit: 1 });
          assert.equal(r[0]?.key, 'm1');
          const pets = await store.search(['users', 'u1'], { query: 'pet animal at home', limit: 1 });
          assert.equal(pets[0]?.key, 'm3');
        },
        { index: { fields: ['text'] } },
        'local',
      );
    });

    test('index field selection: store default, per-put override, index: false', async () => {
      await withStore(
        async (store) => {
          await store.put(['t'], 'doc1', { key1: 'xxx', key2: 'yyy' });
          await store.put(['t'], 'doc2', { key0: 'uuu', key2: 'www' });
          await store.put(['t'], 'doc3', { key0: 'zzz', key1: 'www' }, ['key1']);
          await store.put(['t'], 'doc4', { key1: 'www' }, false);
          const q = async (query: string) => (await store.search(['t'], { query })).map((i) => [i.key, i.score === undefined ? 'unranked' : 'ranked']);
          assert.deepEqual((await q('xxx'))[0], ['doc1', 'ranked']);
          assert.deepEqual((await q('uuu'))[0], ['doc2', 'ranked']);
          // key2 is not indexed: "yyy" ranks nothing, yet every item still comes back unranked.
          assert.deepEqual(
            (await q('yyy')).filter(([, s]) => s === 'ranked'),
            [],
          );
          assert.deepEqual((await q('yyy')).map(([k]) => k).sort(), ['doc1', 'doc2', 'doc3', 'doc4']);
          // doc3's own index list picks key1; doc4 (index: false) is never ranked, but listed last.
          const www = await q('www');
          assert.deepEqual(www[0], ['doc3', 'ranked']);
          assert.deepEqual(
            www.find(([k]) => k === 'doc4'),
            ['doc4', 'unranked'],
          );
          assert.deepEqual(
            (await q('zzz')).filter(([, s]) => s === 'ranked'),
            [],
          );
          assert.deepEqual((await store.get(['t'], 'doc4'))?.value, { key1: 'www' });
        },
        { index: { fields: ['key0', 'key1'] }, mode: 'keyword' },
        'none',
      );
    });

    test('index paths: nested fields, every array element, negative indices', async () => {
      await withStore(
        async (store) => {
          await store.put(['p'], 'a', { meta: { title: 'quasar' }, chunks: [{ text: 'pulsar' }, { text: 'nebula' }], authors: ['ada', 'grace'] }, [
            'meta.title',
            'chunks[*].text',
            'authors[-1]',
          ]);
          for (const word of ['quasar', 'pulsar', 'nebula', 'grace']) {
            assert.equal((await store.search(['p'], { query: word }))[0]?.score !== undefined, true, word);
          }
          assert.equal((await store.search(['p'], { query: 'ada' }))[0]?.score, undefined);
        },
        {},
        'none',
      );
    });

    test('listNamespaces: prefix, suffix, wildcards, maxDepth, limit and offset (LangGraph semantics)', async () => {
      await withStore(async (store, mem) => {
        assert.deepEqual(await store.listNamespaces(), []);
        const namespaces = [
          ['a', 'b', 'c'],
          ['a', 'b', 'd', 'e'],
          ['a', 'b', 'd', 'i'],
          ['a', 'b', 'f'],
          ['a', 'c', 'f'],
          ['b', 'a', 'f'],
          ['users', '123'],
          ['users', '456', 'settings'],
          ['admin', 'users', '789'],
        ];
        for (const [i, ns] of namespaces.entries()) await store.put(ns, `id_${i}`, { data: `value_${i}` });
        await mem.add('a plain memory, not a LangGraph item', { namespace: 'default' });
        assert.deepEqual(await store.listNamespaces({ prefix: ['a', 'b'] }), [
          ['a', 'b', 'c'],
          ['a', 'b', 'd', 'e'],
          ['a', 'b', 'd', 'i'],
          ['a', 'b', 'f'],
        ]);
        assert.deepEqual(await store.listNamespaces({ suffix: ['f'] }), [
          ['a', 'b', 'f'],
          ['a', 'c', 'f'],
          ['b', 'a', 'f'],
        ]);
        assert.deepEqual(await store.listNamespaces({ prefix: ['a'], suffix: ['f'] }), [
          ['a', 'b', 'f'],
          ['a', 'c', 'f'],
        ]);
        assert.deepEqual(await store.listNamespaces({ prefix: ['a', 'b'], maxDepth: 3 }), [
          ['a', 'b', 'c'],
          ['a', 'b', 'd'],
          ['a', 'b', 'f'],
        ]);
        assert.deepEqual(await store.listNamespaces({ prefix: ['a', 'b'], limit: 2 }), [
          ['a', 'b', 'c'],
          ['a', 'b', 'd', 'e'],
        ]);
        assert.deepEqual(await store.listNamespaces({ prefix: ['a', 'b'], offset: 2 }), [
          ['a', 'b', 'd', 'i'],
          ['a', 'b', 'f'],
        ]);
        assert.deepEqual(await store.listNamespaces({ prefix: ['users', '*'] }), [
          ['users', '123'],
          ['users', '456', 'settings'],
        ]);
        assert.deepEqual(await store.listNamespaces({ suffix: ['*', 'settings'] }), [['users', '456', 'settings']]);
        assert.deepEqual(await store.listNamespaces({ prefix: ['*', 'users'], suffix: ['*', '789'] }), [['admin', 'users', '789']]);
        assert.deepEqual(await store.listNamespaces({ maxDepth: 1 }), [['a'], ['admin'], ['b'], ['users']], "the plain memory's namespace is not listed");
        assert.deepEqual(await store.listNamespaces({ prefix: ['non', 'existent'] }), []);
        await store.delete(['users', '123'], 'id_6');
        assert.deepEqual(await store.listNamespaces({ prefix: ['users'] }), [['users', '456', 'settings']], 'an emptied namespace disappears');
      });
    });

    test('listNamespaces paginates 20 namespaces', async () => {
      await withStore(
        async (store) => {
          const pad = (i: number) => i.toString().padStart(2, '0');
          await store.batch(Array.from({ length: 20 }, (_, i) => ({ namespace: ['namespace', `sub_${pad(i)}`], key: `id_${pad(i)}`, value: { data: i } })));
          for (const offset of [0, 5, 15]) {
            assert.deepEqual(
              await store.listNamespaces({ prefix: ['namespace'], limit: 5, offset }),
              Array.from({ length: 5 }, (_, i) => ['namespace', `sub_${pad(i + offset)}`]),
            );
          }
        },
        {},
        'none',
      );
    });

    test('invalid namespaces are refused as LangGraph refuses them; "langgraph" as root only through batch', async () => {
      await withStore(
        async (store) => {
          const doc = { foo: 'bar' };
          for (const ns of [[], ['the', 'thing.about'], ['some', 'fun', ''], ['langgraph', 'foo'], ['a:b']]) {
            await assert.rejects(store.put(ns, 'foo', doc), InvalidNamespaceError, JSON.stringify(ns));
          }
          await store.put(['foo', 'langgraph', 'foo'], 'bar', doc);
          assert.deepEqual((await store.get(['foo', 'langgraph', 'foo'], 'bar'))?.value, doc);
          await store.batch([{ namespace: ['langgraph', 'foo'], key: 'bar', value: doc }]);
          assert.deepEqual((await store.get(['langgraph', 'foo'], 'bar'))?.value, doc);
          assert.deepEqual((await store.search(['langgraph', 'foo']))[0]?.value, doc);
          await store.delete(['langgraph', 'foo'], 'bar');
          assert.equal(await store.get(['langgraph', 'foo'], 'bar'), null);
          // mnemolite's own limits come back as typed errors, and write nothing.
          await assert.rejects(
            store.put(['x'.repeat(129)], 'k', doc),
            (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT' && /limit is 128/.test(e.message),
          );
          await assert.rejects(store.put(['x'], '', doc), (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT');
          await assert.rejects(
            store.put(['x'], 'k', [1, 2] as unknown as Record<string, unknown>),
            (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
          );
          await assert.rejects(store.put(['x'], 'k', { when: new Date() }), (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT');
          assert.deepEqual(await store.listNamespaces(), [['foo', 'langgraph', 'foo']]);
        },
        {},
        'none',
      );
    });

    test('namespace encoding is reversible and collision-free, in the store and for any labels', async () => {
      const tricky = [['a/b'], ['a', 'b'], ['a%2Fb'], ['%'], ['*'], [' '], ['\t'], ['x', ' '], ['tab\tnew\nline'], ['東京', 'ü'], ['a b', 'c']];
      const encoded = tricky.map(encodeNamespace);
      assert.equal(new Set(encoded).size, tricky.length, encoded.join(' | '));
      assert.equal(encodeNamespace(['users', '42']), 'users/42', 'plain labels stay readable');
      for (const [i, ns] of tricky.entries()) assert.deepEqual(decodeNamespace(encoded[i]!), ns);
      assert.equal(decodeNamespace('a%41'), null, 'a string the encoder cannot produce is not a LangGraph namespace');
      const label = fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).filter((s) => !/[.:\0]/.test(s) && wellFormed(s));
      fc.assert(
        fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), fc.array(label, { minLength: 1, maxLength: 4 }), (a, b) => {
          const ea = encodeNamespace(a);
          assert.deepEqual(decodeNamespace(ea), a);
          assert.equal(ea === encodeNamespace(b), JSON.stringify(a) === JSON.stringify(b));
        }),
        { numRuns: 2000 },
      );
      fc.assert(
        fc.property(
          fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).filter((s) => wellFormed(s)),
          (k) => assert.equal(decodeKey(encodeKey(k)), k),
        ),
        { numRuns: 500 },
      );

      await withStore(
        async (store) => {
          for (const [i, ns] of tricky.entries()) await store.put(ns, `k/${i}%`, { i });
          for (const [i, ns] of tricky.entries()) assert.deepEqual((await store.get(ns, `k/${i}%`))?.value, { i });
          const listed = await store.listNamespaces({ limit: 100 });
          assert.deepEqual(listed.map((l) => JSON.stringify(l)).sort(), tricky.map((l) => JSON.stringify(l)).sort());
          assert.deepEqual(keys(await store.search(['a'])), ['k/1%'], '["a/b"] is not under ["a"]');
          const underX = await store.search(['x']);
          assert.deepEqual(
            underX.map((i) => [i.namespace, i.key]),
            [[['x', ' '], 'k/7%']],
          );
        },
        {},
        'none',
      );
    });

    test('batch: results in order, reads see the state before the batch, last put wins, bad input writes nothing', async () => {
      await withStore(
        async (store) => {
          await store.put(['b'], 'old', { v: 0 });
          const [put1, get1, search1, put2, list1, put3] = await store.batch([
            { namespace: ['b'], key: 'k', value: { v: 1 } },
            { namespace: ['b'], key: 'old' },
            { namespacePrefix: ['b'], limit: 10, offset: 0 },
            { namespace: ['b'], key: 'k', value: { v: 2 } },
            { limit: 10, offset: 0 },
            { namespace: ['b'], key: 'old', value: null },
          ] as const);
          assert.equal(put1, undefined);
          assert.equal(put2, undefined);
          assert.equal(put3, undefined);
          assert.deepEqual(get1?.value, { v: 0 });
          assert.deepEqual(keys(search1), ['old']);
          assert.deepEqual(list1, [['b']]);
          assert.deepEqual((await store.get(['b'], 'k'))?.value, { v: 2 });
          assert.equal(await store.get(['b'], 'old'), null);

          await assert.rejects(
            store.batch([
              { namespace: ['b'], key: 'new', value: { v: 3 } },
              { namespace: ['b'], key: 'k', value: null },
              { namespace: ['b'], key: 'bad', value: { big: 'x'.repeat(70_000) } },
            ]),
            (e: unknown) => e instanceof MnemoliteError && e.code === 'INVALID_INPUT',
          );
          assert.equal(await store.get(['b'], 'new'), null);
          assert.deepEqual((await store.get(['b'], 'k'))?.value, { v: 2 }, 'the delete in the failed batch did not run');
          await assert.rejects(
            store.batch([
              { namespace: ['b'], key: 'new', value: { v: 3 } },
              { namespace: ['b', 'x.y'], key: 'k' },
            ]),
            InvalidNamespaceError,
          );
          assert.equal(await store.get(['b'], 'new'), null);
        },
        {},
        'none',
      );
    });

    test('a compiled graph writes memories in one thread and finds them from another', async () => {
      await withStore(
        async (store) => {
          const State = Annotation.Root({
            userId: Annotation<string>(),
            input: Annotation<string>(),
            found: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }),
          });
          const remember = async (state: typeof State.State, config: LangGraphRunnableConfig) => {
            const ns = ['memories', state.userId];
            if (state.input.startsWith('remember: ')) {
              const text = state.input.slice('remember: '.length);
              await config.store!.put(ns, `m${(await config.store!.search(ns, { limit: 100 })).length}`, { text });
              return { found: [] };
            }
            const hits = await config.store!.search(ns, { query: state.input, limit: 2 });
            return { found: hits.map((h) => String(h.value.text)) };
          };
          const graph = new StateGraph(State)
            .addNode('memory', remember)
            .addEdge(START, 'memory')
            .addEdge('memory', END)
            .compile({ checkpointer: new MemorySaver(), store });
          const t1 = { configurable: { thread_id: 'thread-1' } };
          await graph.invoke({ userId: 'u1', input: 'remember: my favourite editor is Helix' }, t1);
          await graph.invoke({ userId: 'u1', input: 'remember: I live in Lisbon' }, t1);
          await graph.invoke({ userId: 'u2', input: 'remember: my favourite editor is Emacs' }, t1);
          const out = await graph.invoke({ userId: 'u1', input: 'which editor do I like?' }, { configurable: { thread_id: 'thread-2' } });
          assert.equal(out.found[0], 'my favourite editor is Helix');
          assert.ok(!out.found.includes('my favourite editor is Emacs'), "another user's namespace is not searched");
          assert.deepEqual(await store.listNamespaces(), [
            ['memories', 'u1'],
            ['memories', 'u2'],
          ]);
        },
        { index: { fields: ['text'] } },
        'local',
      ); // ranking by meaning: the bundled model, not hashed words
    });
  });

test('items persist in the file and are plain mnemolite memories', async () => {
  const path = tempDb();
  let mem = await openMemory({ path, embedder: 'none' });
  await new MnemoliteStore(mem).put(['users', '42'], 'prefs', { text: 'likes green tea', theme: 'dark' });
  await mem.close();
  mem = await openMemory({ path, embedder: 'none' });
  try {
    const store = new MnemoliteStore(mem);
    assert.deepEqual((await store.get(['users', '42'], 'prefs'))?.value, { text: 'likes green tea', theme: 'dark' });
    const [rec] = await mem.list({ namespace: 'users/42' });
    assert.equal(rec?.key, 'prefs');
    assert.deepEqual(rec?.metadata, { text: 'likes green tea', theme: 'dark' });
    assert.equal(rec?.category, 'langgraph');
    assert.deepEqual(
      (await mem.recall('green tea', { namespace: 'users/42' })).map((h) => h.key),
      ['prefs'],
    );
  } finally {
    await mem.close();
  }
});
