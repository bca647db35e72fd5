/**
 * Profiles (working memory) wherever data moves: export writes each namespace's profile with its
 * kept versions after the memories, import restores them (skip or replace), migrate copies them
 * between every pair of stores, older files (memories only) still import, and a bad profile record
 * is INVALID_INPUT with nothing written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrateMemories, openMemory, type ExportRecord, type Memory, type ProfileExportRecord } from '../src/index.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

async function seed(mem: Memory): Promise<void> {
  await mem.add('Alice likes green tea', { namespace: 'alice' });
  await mem.add('Bob plays chess', { namespace: 'bob' });
  await mem.profile.set('Name: Alice\nCity: Lisbon', { namespace: 'alice' });
  await mem.profile.set('Name: Alice\nCity: Porto', { namespace: 'alice' });
  await mem.profile.set('Name: Bob', { namespace: 'bob' });
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const history = async (mem: Memory, namespace: string) =>
  (await mem.profile.history({ namespace })).versions.map((v) => ({ version: v.version, content: v.content, savedAt: v.savedAt.toISOString() }));

for (const from of targets) {
  test(`export from ${from.name}: profiles after the memories, with every kept version; only with profiles: true; the namespace filter applies`, async () => {
    const mem = await openMemory({ ...from.fresh(), embedder: 'none' });
    try {
      await seed(mem);
      const plain = await all(mem.export());
      assert.ok(
        plain.every((r) => !('kind' in r)),
        'no profile records unless asked',
      );
      const recs = await all(mem.export({ profiles: true }));
      const kinds = recs.map((r) => ('kind' in r ? r.kind : 'memory'));
      assert.deepEqual(kinds, ['memory', 'memory', 'profile', 'profile'], 'profiles come after the memories');
      const alice = recs.find((r): r is ProfileExportRecord => 'kind' in r && r.namespace === 'alice')!;
      assert.deepEqual(
        alice.versions.map((v) => [v.version, v.content]),
        [
          [1, 'Name: Alice\nCity: Lisbon'],
          [2, 'Name: Alice\nCity: Porto'],
        ],
      );
      assert.match(alice.versions[0]!.savedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const one = await all(mem.export({ namespace: 'bob', profiles: true }));
      assert.deepEqual(
        one.map((r) => ('kind' in r ? `profile ${r.namespace}` : `memory ${r.namespace}`)),
        ['memory bob', 'profile bob'],
      );
      if (from.name === 'SQLite file') {
        // The file's export also iterates synchronously, profiles included.
        assert.equal([...mem.export({ profiles: true })].length, 4);
      }
    } finally {
      await mem.close();
    }
  });

  // Two schemas of one PostgreSQL server count as one store for migrate (it compares the server).
  for (const to of targets.filter((t) => t === targets[0] || t !== from)) {
    test(`migrate ${from.name} -> ${to.name}: profiles come along with their versions and times; a second run skips them; replace restores them`, async () => {
      const src = await openMemory({ ...from.fresh(), embedder: 'none' });
      const dst = await openMemory({ ...to.fresh(), embedder: 'none' });
      try {
        await seed(src);
        const r = await migrateMemories(src, dst);
        assert.equal(r.imported, 2);
        assert.deepEqual(r.profiles, { imported: 2, replaced: 0, skipped: 0 });
        assert.deepEqual(await history(dst, 'alice'), await history(src, 'alice'));
        assert.deepEqual(await history(dst, 'bob'), await history(src, 'bob'));
        const cur = await dst.profile.get({ namespace: 'alice' });
        assert.equal(cur.version, 2);
        assert.equal(cur.content, 'Name: Alice\nCity: Porto');
        // The next write continues the numbering.
        assert.equal((await dst.profile.set('Name: Alice\nCity: Braga', { namespace: 'alice', expectedVersion: 2 })).version, 3);
        // Resuming skips a namespace that has a profile; replace puts the source's back.
        assert.deepEqual((await migrateMemories(src, dst)).profiles, { imported: 0, replaced: 0, skipped: 2 });
        assert.equal((await dst.profile.get({ namespace: 'alice' })).content, 'Name: Alice\nCity: Braga');
        assert.deepEqual((await migrateMemories(src, dst, { onConflict: 'replace' })).profiles, { imported: 0, replaced: 2, skipped: 0 });
        assert.deepEqual(await history(dst, 'alice'), await history(src, 'alice'));
      } finally {
        await dst.close();
        await src.close();
      }
    });
  }

  test(`import on ${from.name}: a file without profiles imports as before; bad profile records are INVALID_INPUT and nothing is written`, async () => {
    const mem = await openMemory({ ...from.fresh(), embedder: 'none' });
    try {
      const old: ExportRecord[] = [
        {
          id: '01970000-0000-7000-8000-000000000001',
          content: 'An old export line',
          key: null,
          namespace: 'alice',
          category: null,
          sessionId: null,
          metadata: {},
          createdAt: '2025-01-01T00:00:00.000Z',
          updatedAt: '2025-01-01T00:00:00.000Z',
        },
      ];
      const r = await mem.import(old);
      assert.deepEqual(r, { imported: 1, replaced: 0, skipped: 0 }, 'no profiles field when the file has none');
      const good = { kind: 'profile', namespace: 'alice', versions: [{ version: 3, content: 'Name: Alice', savedAt: '2025-02-01T00:00:00Z' }] };
      const memory = { ...old[0]!, id: '01970000-0000-7000-8000-000000000002', content: 'Must not be written' };
      const bad: [unknown, RegExp][] = [
        [{ ...good, kind: 'profiles' }, /kind "profiles"/],
        [{ ...good, extra: 1 }, /unknown field/],
        [{ ...good, namespace: '*' }, /not "\*"/],
        [{ ...good, namespace: 'user-1/*' }, /pattern/],
        [{ ...good, versions: [] }, /1 to 50 versions/],
        [{ ...good, versions: Array.from({ length: 51 }, (_, i) => ({ version: i + 1, content: 'x', savedAt: '2025-02-01T00:00:00Z' })) }, /1 to 50/],
        [
          {
            ...good,
            versions: [
              { version: 2, content: 'a', savedAt: '2025-02-01T00:00:00Z' },
              { version: 2, content: 'b', savedAt: '2025-02-01T00:00:00Z' },
            ],
          },
          /above 2/,
        ],
        [{ ...good, versions: [{ version: 0, content: 'a', savedAt: '2025-02-01T00:00:00Z' }] }, /above 0/],
        [{ ...good, versions: [{ version: 1, content: 'x'.repeat(9000), savedAt: '2025-02-01T00:00:00Z' }] }, /limit is 8192/],
        [{ ...good, versions: [{ version: 1, content: 'a', savedAt: 'yesterday' }] }, /savedAt/],
        [{ ...good, versions: [{ version: 1, content: 'a', savedAt: '2025-02-01T00:00:00Z', by: 'me' }] }, /unknown field/],
      ];
      for (const [rec, re] of bad) {
        await assert.rejects(
          mem.import([memory, rec]),
          (e: Error & { code?: string }) => e.code === 'INVALID_INPUT' && re.test(e.message) && /record 2/.test(e.message),
          JSON.stringify(rec).slice(0, 80),
        );
      }
      await assert.rejects(mem.import([good, good]), /a second profile of namespace "alice"/);
      assert.equal(await mem.count({ namespace: '*' }), 1, 'nothing written');
      assert.equal((await mem.profile.get({ namespace: 'alice' })).version, 0);
      const ok = await mem.import([good]);
      assert.deepEqual(ok.profiles, { imported: 1, replaced: 0, skipped: 0 });
      assert.deepEqual(await mem.profile.get({ namespace: 'alice' }), {
        namespace: 'alice',
        content: 'Name: Alice',
        version: 3,
        updatedAt: new Date('2025-02-01T00:00:00Z'),
      });
      // Erase still takes an imported profile with its versions.
      await mem.erase({ namespace: 'alice' });
      assert.equal((await mem.profile.history({ namespace: 'alice' })).total, 0);
    } finally {
      await mem.close();
    }
  });
}
