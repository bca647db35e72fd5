import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MnemoliteError, openMemory, type Embedder } from '../src/index.js';
import { HashEmbedder, tempDb } from './helpers.js';

const code = (c: string) => (err: unknown) => err instanceof MnemoliteError && err.code === c;

test('add, get, list, update, forget, stats', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  const { id, replaced } = await mem.add('We deploy the Rust service on a Raspberry Pi 4', {
    namespace: 'agent-1',
    key: 'deploy-target',
    category: 'core',
    sessionId: 's1',
    metadata: { source: 'chat', n: 2 },
    createdAt: new Date('2026-03-01'),
  });
  assert.equal(replaced, false);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const got = await mem.get(id);
  assert.ok(got);
  assert.deepEqual(
    { ...got, updatedAt: undefined },
    {
      id,
      content: 'We deploy the Rust service on a Raspberry Pi 4',
      key: 'deploy-target',
      namespace: 'agent-1',
      category: 'core',
      sessionId: 's1',
      metadata: { source: 'chat', n: 2 },
      createdAt: new Date('2026-03-01'),
      updatedAt: undefined,
      eventAt: null,
    },
  );
  assert.equal(await mem.get(id, { namespace: 'other' }), null, 'scoped get hides other namespaces');
  assert.equal(await mem.get('no-such-id'), null);

  await mem.add('Second memory', { namespace: 'agent-1' });
  await mem.add('In the default namespace');
  assert.equal((await mem.list({ namespace: 'agent-1' })).length, 2);
  assert.equal((await mem.list()).length, 1, 'list defaults to the default namespace');
  assert.equal((await mem.list({ namespace: '*' })).length, 3);
  assert.deepEqual(
    (await mem.list({ namespace: 'agent-1', order: 'asc' })).map((m) => m.content),
    ['We deploy the Rust service on a Raspberry Pi 4', 'Second memory'],
  );
  assert.equal((await mem.list({ namespace: '*', limit: 1, offset: 1 })).length, 1);

  const upd = await mem.update(id, { content: 'We deploy on a Raspberry Pi 5', metadata: { source: 'edit' } });
  assert.equal(upd.content, 'We deploy on a Raspberry Pi 5');
  assert.deepEqual(upd.metadata, { source: 'edit' });
  assert.equal(upd.category, 'core');
  assert.deepEqual(upd.createdAt, new Date('2026-03-01'));
  assert.ok(upd.updatedAt > upd.createdAt);
  await assert.rejects(mem.update('missing', { content: 'x' }), code('NOT_FOUND'));
  await assert.rejects(mem.update(id, { content: 'x' }, { namespace: 'default' }), code('NOT_FOUND'));

  const s = await mem.stats();
  assert.equal(s.memories, 3);
  assert.deepEqual(s.namespaces, { 'agent-1': 2, default: 1 });
  assert.equal(s.embedded, 3);
  assert.equal(s.semantic, true);
  assert.deepEqual(s.embedding, { provider: 'test', model: 'hash-64', dims: 64 });
  assert.ok(s.fileBytes > 0);
  assert.equal((await mem.stats({ namespace: 'agent-1' })).memories, 2);

  assert.equal(await mem.forget(id, { namespace: 'default' }), false, 'scoped forget cannot delete another namespace');
  assert.equal(await mem.forget(id), true);
  assert.equal(await mem.forget(id), false);
  assert.equal(await mem.get(id), null);
  assert.equal(await mem.count({ namespace: '*' }), 2);
  await mem.close();
});

test('add with an existing key replaces the memory, keeping id and createdAt', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  const a = await mem.add('deploy target: Raspberry Pi 4', { key: 'deploy', namespace: 'a', createdAt: '2026-01-01T00:00:00Z' });
  const b = await mem.add('deploy target: Raspberry Pi 5', { key: 'deploy', namespace: 'a' });
  const c = await mem.add('another namespace, same key', { key: 'deploy', namespace: 'b' });
  assert.equal(b.id, a.id);
  assert.equal(b.replaced, true);
  assert.notEqual(c.id, a.id);
  const m = (await mem.get(a.id))!;
  assert.equal(m.content, 'deploy target: Raspberry Pi 5');
  assert.equal(m.createdAt.toISOString(), '2026-01-01T00:00:00.000Z');
  assert.equal(await mem.count({ namespace: 'a' }), 1);
  const hits = await mem.recall('raspberry', { namespace: 'a', mode: 'keyword' });
  assert.deepEqual(
    hits.map((h) => h.content),
    ['deploy target: Raspberry Pi 5'],
    'the old text is gone from the FTS index',
  );
  // Within one batch, the later item with the same key wins.
  const [x, y] = await mem.addMany([
    { content: 'v1', key: 'k' },
    { content: 'v2', key: 'k' },
  ]);
  assert.equal(x!.id, y!.id);
  assert.equal((await mem.get(x!.id))!.content, 'v2');
  // Update cannot steal a key.
  const z = await mem.add('unkeyed');
  await assert.rejects(mem.update(z.id, { key: 'k' }), code('INVALID_INPUT'));
  await mem.update(c.id, { key: 'k' }); // other namespace: no clash
  await mem.close();
});

test('addMany is one transaction with batched embeddings; the cache avoids re-embedding', async () => {
  const emb = new HashEmbedder();
  const mem = await openMemory({ path: tempDb(), embedder: emb });
  const items = Array.from({ length: 70 }, (_, i) => ({ content: `memory number ${i}`, namespace: 'bulk' }));
  const res = await mem.addMany(items);
  assert.equal(res.length, 70);
  assert.equal(emb.calls, 3, '70 texts in batches of 32');
  assert.equal(emb.texts, 70);
  // Same content in another namespace: embedded again (the cache never answers across
  // namespaces: its speed would tell a namespace-limited caller what another namespace holds).
  await mem.addMany(items.slice(0, 10).map((i) => ({ ...i, namespace: 'copy' })));
  assert.equal(emb.texts, 80);
  // Same namespace: served from the cache (a key upsert with the same text embeds nothing).
  await mem.addMany(items.slice(0, 10).map((i, j) => ({ ...i, namespace: 'copy', key: `k${j}` })));
  assert.equal(emb.texts, 80);
  // Duplicate texts within one batch are embedded once.
  await mem.addMany([{ content: 'twin' }, { content: 'twin' }]);
  assert.equal(emb.texts, 81);
  // One bad item: nothing written.
  const before = await mem.count({ namespace: '*' });
  await assert.rejects(mem.addMany([{ content: 'fine' }, { content: '   ' }]), code('INVALID_INPUT'));
  assert.equal(await mem.count({ namespace: '*' }), before);
  await mem.close();
});

test('a failing or lying embedder is a typed error and writes nothing', async () => {
  const path = tempDb();
  const bad = (vec: () => number[][], id = 'bad'): Embedder => ({ provider: 'test', id, dims: 4, embed: async () => vec() });
  for (const [name, e] of [
    ['wrong dims', bad(() => [[1, 2, 3]])],
    ['NaN', bad(() => [[1, NaN, 0, 0]])],
    ['Infinity', bad(() => [[1, Infinity, 0, 0]])],
    ['too few vectors', bad(() => [])],
    [
      'throws',
      {
        provider: 'test',
        id: 'bad',
        dims: 4,
        embed: async () => {
          throw new Error('model crashed');
        },
      } as Embedder,
    ],
  ] as const) {
    const mem = await openMemory({ path, embedder: e });
    await assert.rejects(mem.add('hello'), code('EMBEDDER_FAILED'), name);
    assert.equal(await mem.count({ namespace: '*' }), 0, name);
    await mem.close();
  }
});

test('invalid input is a typed INVALID_INPUT error that says what to do, and writes nothing', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: new HashEmbedder() });
  const cases: [string, () => Promise<unknown>][] = [
    ['empty content', () => mem.add('')],
    ['whitespace content', () => mem.add(' \n\t ')],
    ['huge content', () => mem.add('x'.repeat(100_001))],
    ['NUL', () => mem.add('a\u0000b')],
    ['lone surrogate', () => mem.add('bad \ud800 text')],
    ['non-string content', () => mem.add(42 as unknown as string)],
    ['metadata with function', () => mem.add('x', { metadata: { f: () => 1 } as unknown as Record<string, unknown> })],
    ['metadata with NaN', () => mem.add('x', { metadata: { n: NaN } })],
    ['metadata with BigInt', () => mem.add('x', { metadata: { n: 1n } as unknown as Record<string, unknown> })],
    [
      'metadata cycle',
      () => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return mem.add('x', { metadata: o });
      },
    ],
    ['metadata array', () => mem.add('x', { metadata: [] as unknown as Record<string, unknown> })],
    ['metadata Date', () => mem.add('x', { metadata: { d: new Date() } })],
    ['bad date', () => mem.add('x', { createdAt: 'yesterday-ish' })],
    ['invalid Date', () => mem.add('x', { createdAt: new Date(NaN) })],
    ['empty namespace', () => mem.add('x', { namespace: '' })],
    ['control char in key', () => mem.add('x', { key: 'a\nb' })],
    ['unknown option', () => mem.add('x', { nampsace: 'a' } as unknown as Record<string, string>)],
    ['limit 0', () => mem.recall('x', { limit: 0 })],
    ['limit 1.5', () => mem.recall('x', { limit: 1.5 })],
    ['limit huge', () => mem.recall('x', { limit: 1e9 })],
    ['unknown mode', () => mem.recall('x', { mode: 'fuzzy' as 'hybrid' })],
    ['rrfK negative', () => mem.recall('x', { rrfK: -1 })],
    ['rrfK NaN', () => mem.recall('x', { rrfK: NaN })],
    ['empty query', () => mem.recall('  ')],
    ['since after until', () => mem.recall('x', { since: '2026-02-01', until: '2026-01-01' })],
    ['bad metadata filter key', () => mem.recall('x', { metadata: { 'a"); DROP TABLE memories; --': 1 } })],
    ['list offset negative', () => mem.list({ offset: -1 })],
    ['empty id', () => mem.get('')],
  ];
  for (const [name, fn] of cases) {
    await assert.rejects(
      fn(),
      (err: unknown) => {
        assert.ok(err instanceof MnemoliteError, `${name}: ${String(err)}`);
        assert.equal(err.code, 'INVALID_INPUT', name);
        assert.ok(err.message.length > 10, name);
        return true;
      },
      name,
    );
  }
  assert.equal(await mem.count({ namespace: '*' }), 0);
  await mem.close();
});

test('embedder "none": keyword recall works, vector modes say why they cannot run', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  await mem.add('Alice prefers tea over coffee');
  const hits = await mem.recall('what does Alice drink? tea');
  assert.equal(hits.length, 1);
  assert.equal(hits[0]!.keywordRank, 1);
  assert.equal(hits[0]!.vectorRank, undefined);
  await assert.rejects(mem.recall('tea', { mode: 'vector' }), code('SEMANTIC_DISABLED'));
  await assert.rejects(mem.recall('tea', { mode: 'hybrid' }), code('SEMANTIC_DISABLED'));
  const s = await mem.stats();
  assert.equal(s.semantic, false);
  assert.match(s.semanticReason!, /none/);
  await assert.rejects(mem.reindex(), code('SEMANTIC_DISABLED'));
  await mem.close();
});

test('a different embedding model is a typed error naming reindex; reindex switches the file over', async () => {
  const path = tempDb();
  const a = await openMemory({ path, embedder: new HashEmbedder('model-a', 64) });
  await a.addMany([{ content: 'alpha memory' }, { content: 'beta memory' }, { content: 'gamma memory' }]);
  await a.close();
  await assert.rejects(
    openMemory({ path, embedder: new HashEmbedder('model-b', 32) }),
    (err: unknown) => code('EMBEDDING_MISMATCH')(err) && /mnemolite reindex/.test((err as Error).message) && /model-a/.test((err as Error).message),
  );
  // Keyword-only access stays possible.
  const none = await openMemory({ path, embedder: 'none' });
  assert.equal((await none.recall('alpha')).length, 1);
  await none.close();
  const b = await openMemory({ path, embedder: new HashEmbedder('model-b', 32), allowModelChange: true });
  // Before reindex, no vector of model-a is used by model-b.
  assert.equal((await b.recall('alpha', { mode: 'vector' })).length, 0);
  assert.equal((await b.stats()).unembedded, 3);
  const progress: number[] = [];
  const r = await b.reindex({ batchSize: 2, onProgress: (d) => progress.push(d) });
  assert.deepEqual(r, { embedded: 3, total: 3 });
  assert.deepEqual(progress, [0, 2, 3]);
  assert.equal((await b.recall('alpha', { mode: 'vector', limit: 3 })).length, 3);
  assert.deepEqual((await b.stats()).embedding, { provider: 'test', model: 'model-b', dims: 32 });
  assert.equal((await b.reindex()).embedded, 0, 'nothing left to do: resumable and idempotent');
  await b.close();
  // Now model-b is the file's model.
  await assert.rejects(openMemory({ path, embedder: new HashEmbedder('model-a', 64) }), code('EMBEDDING_MISMATCH'));
});

test('memories added without an embedder are embedded by reindex later', async () => {
  const path = tempDb();
  const a = await openMemory({ path, embedder: 'none' });
  await a.add('written while semantic recall was off');
  await a.close();
  const b = await openMemory({ path, embedder: new HashEmbedder() });
  assert.equal((await b.stats()).unembedded, 1);
  await b.reindex();
  assert.equal((await b.stats()).unembedded, 0);
  await b.close();
});
