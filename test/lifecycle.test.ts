import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { MnemoliteError, openMemory, type Embedder } from '../src/index.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from '../src/store/schema.js';
import { normaliseContent } from '../src/lifecycle/dedup.js';
import { durationMs } from '../src/options/lifecycle.js';
import { HashEmbedder, cli, tempDb } from './helpers.js';

const code = (c: string) => (err: unknown) => err instanceof MnemoliteError && err.code === c;
const PAST = '2020-01-01T00:00:00.000Z';
const hash = () => new HashEmbedder();
/** Unrelated memories, so that query words are not "common" (df >= N/2) in tiny test corpora. */
const FILLER = [
  'lunch is at noon',
  'the cat sleeps on the sofa',
  'rain expected tomorrow',
  'buy more coffee beans',
  'the printer is broken again',
  'gym on thursdays',
  'read the release notes',
  'water the plants',
].map((content) => ({ content }));

// ---- dedup -----------------------------------------------------------------------------

test('exact dedup: the same normalised content in a namespace is stored once', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: hash() });
  const a = await mem.add('Alice prefers green tea.');
  assert.deepEqual(a, { id: a.id, replaced: false }, 'a first add carries no dedup fields');
  const b = await mem.add('  alice   PREFERS green tea ');
  assert.deepEqual(b, { id: a.id, replaced: false, deduplicated: 'exact' });
  assert.equal(await mem.count(), 1);
  assert.equal((await mem.get(a.id))!.content, 'Alice prefers green tea.', 'the stored memory is untouched');

  assert.notEqual((await mem.add('Alice prefers green tea', { namespace: 'other' })).id, a.id, 'namespaces are separate');
  const forced = await mem.add('Alice prefers green tea', { force: true });
  assert.notEqual(forced.id, a.id);
  assert.equal(forced.deduplicated, undefined);
  assert.equal(await mem.count(), 2, 'force stores anyway');
  // Keyed adds are upserts of their key and skip dedup.
  const k = await mem.add('Alice prefers green tea', { key: 'drink' });
  assert.notEqual(k.id, a.id);
  // Within one batch, the second copy dedups to the first.
  const [x, y, z] = await mem.addMany([{ content: 'Build with pnpm' }, { content: 'build with PNPM!' }, { content: 'Build with npm' }]);
  assert.equal(y!.id, x!.id);
  assert.equal(y!.deduplicated, 'exact');
  assert.notEqual(z!.id, x!.id);
  // Unicode normalisation: full-width letters and NBSP fold to the same text.
  assert.equal(normaliseContent('ＡＢＣ\u00a0def.'), 'abc def');
  await mem.close();
});

test('exact dedup ignores expired and superseded memories, and sees content changed by update', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: hash() });
  const old = await mem.add('The office is in Leeds', { createdAt: PAST, ttl: '1d' });
  const fresh = await mem.add('The office is in Leeds');
  assert.notEqual(fresh.id, old.id, 'an expired copy does not count');
  const b = await mem.add('The office is in York', { supersedes: fresh.id });
  const again = await mem.add('The office is in Leeds');
  assert.notEqual(again.id, fresh.id, 're-stating a superseded fact stores it as a new, current memory');
  await mem.update(b.id, { content: 'The office is in Hull' });
  assert.equal((await mem.add('the office is in hull')).id, b.id, 'the dedup hash follows content updates');
  assert.notEqual((await mem.add('The office is in York')).id, b.id, 'old content is history, not a duplicate');
  await mem.close();
});

test('near duplicates: reported above the threshold, merged on request, never across namespaces', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: hash() });
  const base = await mem.add('we deploy the rust service on a raspberry pi four', { metadata: { source: 'chat' }, category: 'infra' });
  await mem.add('completely unrelated note about lunch plans');
  const sim = 'we deploy the rust service on a raspberry pi five'; // one word differs: cosine ~0.9 with HashEmbedder

  const off = await mem.add(sim, { namespace: 'n2' });
  assert.equal(off.nearDuplicates, undefined, 'off by default');
  const rep = await mem.add(sim, { nearDuplicates: 'report', dedupThreshold: 0.8 });
  assert.notEqual(rep.id, base.id, 'report stores the new memory');
  assert.equal(rep.nearDuplicates?.length, 1);
  assert.equal(rep.nearDuplicates![0]!.id, base.id);
  assert.ok(rep.nearDuplicates![0]!.similarity >= 0.8 && rep.nearDuplicates![0]!.similarity < 1);
  assert.equal((await mem.add('something else entirely, about cats', { nearDuplicates: 'report', dedupThreshold: 0.8 })).nearDuplicates, undefined);
  const strict = await mem.add(`${sim} now`, { nearDuplicates: 'report', dedupThreshold: 0.999 });
  assert.equal(strict.nearDuplicates, undefined, 'the threshold is honoured');
  await mem.forget(rep.id);
  await mem.forget(strict.id);

  const merged = await mem.add(sim, { nearDuplicates: 'merge', dedupThreshold: 0.8, metadata: { edited: true }, importance: 0.9 });
  assert.equal(merged.id, base.id);
  assert.equal(merged.deduplicated, 'merged');
  const m = (await mem.get(base.id))!;
  assert.equal(m.content, sim, 'the newer text wins');
  assert.deepEqual(m.metadata, { source: 'chat', edited: true }, 'metadata is merged');
  assert.equal(m.category, 'infra', 'category kept when not given');
  assert.equal(m.importance, 0.9);
  assert.deepEqual(
    (await mem.history(base.id)).map((v) => v.content),
    ['we deploy the rust service on a raspberry pi four', sim],
    'the old text is in history',
  );
  assert.equal(await mem.count(), 3, 'base (merged), the lunch note, the cats note');

  // Open-level default, and near-duplicates within one batch.
  const mem2 = await openMemory({ path: tempDb(), embedder: hash(), nearDuplicates: 'report', dedupThreshold: 0.8 });
  const [p, q] = await mem2.addMany([{ content: 'alpha beta gamma delta epsilon' }, { content: 'alpha beta gamma delta zeta' }]);
  assert.equal(q!.nearDuplicates?.[0]?.id, p!.id);
  await assert.rejects(openMemory({ path: tempDb(), embedder: hash(), dedupThreshold: 2 }), code('INVALID_INPUT'));
  await assert.rejects(mem2.add('x', { nearDuplicates: 'maybe' as 'off' }), code('INVALID_INPUT'));
  await mem2.close();
  await mem.close();
});

// ---- expiry and prune ------------------------------------------------------------------------

test('expired memories never appear in recall, nor in get / list / count unless asked', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: hash() });
  await mem.addMany(FILLER);
  const gone = await mem.add('the wifi password is hunter2', { createdAt: PAST, ttl: '7d' });
  const dated = await mem.add('the wifi password was hunter1', { expiresAt: '2021-06-01T00:00:00Z' });
  const future = await mem.add('the wifi password is correct-horse', { ttl: '365d' });
  const pinned = await mem.add('the wifi password is pinned-one', { expiresAt: PAST, pinned: true });
  assert.equal((await mem.get(gone.id, { includeExpired: true }))!.expiresAt!.toISOString(), '2020-01-08T00:00:00.000Z', 'ttl counts from createdAt');
  assert.ok((await mem.get(future.id))!.expiresAt! > new Date());

  for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
    const ids = (await mem.recall('wifi password hunter2', { mode, limit: 20 })).map((h) => h.id);
    if (mode === 'keyword') assert.deepEqual(ids.sort(), [future.id, pinned.id].sort(), mode);
    else assert.equal(ids.length, 10, mode);
    assert.ok(!ids.includes(gone.id) && !ids.includes(dated.id), mode);
  }
  assert.equal(await mem.get(gone.id), null);
  assert.equal(await mem.get(dated.id), null);
  assert.ok(await mem.get(pinned.id), 'pinned memories never expire');
  assert.equal(await mem.count(), 10);
  assert.equal(await mem.count({ includeExpired: true }), 12);
  assert.equal((await mem.list()).length, 10);
  assert.equal((await mem.list({ includeExpired: true })).length, 12);
  assert.equal((await mem.stats()).expired, 2);
  await assert.rejects(mem.recall('wifi', { includeExpired: true } as never), code('INVALID_INPUT'), 'recall has no way to see expired memories');

  // Reviving and expiring by update.
  await mem.update(gone.id, { expiresAt: null });
  assert.ok(await mem.get(gone.id));
  await mem.update(future.id, { expiresAt: PAST });
  assert.equal(await mem.get(future.id), null);
  await mem.update(pinned.id, { pinned: false });
  assert.equal(await mem.get(pinned.id), null, 'unpinning lets the old expiry apply');

  await assert.rejects(mem.add('x', { ttl: '7d', expiresAt: '2030-01-01' }), code('INVALID_INPUT'));
  await assert.rejects(mem.add('x', { ttl: 'a week' }), code('INVALID_INPUT'));
  await assert.rejects(mem.add('x', { ttl: -5 }), code('INVALID_INPUT'));
  await assert.rejects(mem.add('x', { importance: 1.5 }), code('INVALID_INPUT'));
  assert.equal(durationMs('90s'), 90_000);
  assert.equal(durationMs('2w'), 14 * 86_400_000);
  assert.equal(durationMs(250), 250);
  await mem.close();
});

test('expiry is applied inside both legs before ranking: limit is filled when enough live memories match', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: hash() });
  const items = [];
  // 300 strong expired matches, 8 weaker live ones.
  for (let i = 0; i < 300; i++) items.push({ content: `deploy deploy deploy server ${i}`, createdAt: PAST, ttl: '1h', metadata: { src: 'x' } });
  for (let i = 0; i < 8; i++) items.push({ content: `notes about the deploy ${i} and other things entirely`, metadata: { src: 'x' } });
  await mem.addMany(items);
  for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
    const hits = await mem.recall('deploy server', { mode, limit: 5 });
    assert.equal(hits.length, 5, mode);
    assert.ok(
      hits.every((h) => h.content.startsWith('notes')),
      mode,
    );
    const meta = await mem.recall('deploy server', { mode, limit: 5, metadata: { src: 'x' } });
    assert.equal(meta.length, 5, mode);
    assert.ok(
      meta.every((h) => h.content.startsWith('notes')),
      `${mode}: SQL-side filters also see expiry`,
    );
  }
  await mem.close();
});

test('prune deletes expired memories (never pinned ones) with their history and reclaims space', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: hash() });
  const big = 'x'.repeat(3000);
  const items = [];
  for (let i = 0; i < 300; i++) items.push({ content: `expired note ${i} ${big}`, namespace: i % 2 ? 'a' : 'b', createdAt: PAST, ttl: '1d' });
  await mem.addMany(items);
  const keep = await mem.add('keep me', { expiresAt: PAST, pinned: true });
  const live = await mem.add('live note');
  const hist = (await mem.list({ includeExpired: true, namespace: 'a', limit: 1 }))[0]!;
  await mem.update(hist.id, { content: 'changed expired note' }); // one history version

  const dry = await mem.prune({ dryRun: true });
  assert.equal(dry.deleted, 300);
  assert.equal(dry.dryRun, true);
  assert.equal(dry.pinnedKept, 1);
  assert.equal(await mem.count({ includeExpired: true, namespace: '*' } as never), 302, 'a dry run changes nothing');

  const onlyA = await mem.prune({ namespace: 'a' });
  assert.equal(onlyA.deleted, 150);
  assert.equal(onlyA.historyDeleted, 1);
  const r = await mem.prune();
  assert.equal(r.deleted, 150);
  assert.equal(r.ids.length, 150);
  assert.equal(r.autoVacuum, 'incremental', 'new files use incremental vacuum');
  assert.equal(r.vacuum, 'incremental');
  assert.equal(r.freePagesAfter, 0);
  assert.ok(r.bytesAfter < r.bytesBefore, `file shrank: ${r.bytesBefore} -> ${r.bytesAfter}`);
  assert.ok(statSync(path).size < 600_000, 'the main file itself is small again');
  assert.ok(await mem.get(keep.id), 'pinned memories are never pruned');
  assert.ok(await mem.get(live.id));
  assert.equal(await mem.count({ includeExpired: true, namespace: '*' } as never), 2);
  const db = new Database(path, { readonly: true });
  assert.equal((db.prepare('SELECT count(*) AS n FROM memory_history').get() as { n: number }).n, 0);
  assert.equal(
    (db.prepare('SELECT count(*) AS n FROM embedding_cache WHERE content_hash NOT IN (SELECT content_hash FROM memories)').get() as { n: number }).n <= 1,
    true,
    'pruned vectors are not kept in the cache',
  );
  db.close();
  assert.equal((await mem.recall('expired', { mode: 'keyword' })).length, 0);
  await assert.rejects(mem.prune({ vacuum: 'sometimes' as 'auto' }), code('INVALID_INPUT'));
  await assert.rejects(mem.prune({ dryrun: true } as never), code('INVALID_INPUT'));
  await mem.close();
});

test('prune on a file made before incremental vacuum: says what it cannot reclaim; vacuum full rebuilds it', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: hash() });
  await mem.addMany(Array.from({ length: 200 }, (_, i) => ({ content: `old ${i} ${'y'.repeat(3000)}`, createdAt: PAST, ttl: '1d' })));
  await mem.close();
  // Turn it into an old-style file (auto_vacuum = NONE), as schema-1 files are.
  const raw = new Database(path);
  raw.pragma('auto_vacuum = NONE');
  raw.exec('VACUUM');
  assert.equal(raw.pragma('auto_vacuum', { simple: true }), 0);
  raw.close();

  const m2 = await openMemory({ path, embedder: hash() });
  const r = await m2.prune();
  assert.equal(r.deleted, 200);
  assert.equal(r.autoVacuum, 'none');
  assert.equal(r.vacuum, 'none');
  assert.ok(r.freePagesAfter > 100, 'the pages are free for reuse');
  assert.match(r.note ?? '', /does not shrink.*vacuum "full"/s);
  const full = await m2.prune({ vacuum: 'full' });
  assert.equal(full.deleted, 0);
  assert.equal(full.vacuum, 'full');
  assert.equal(full.freePagesAfter, 0);
  assert.ok(full.bytesAfter < full.bytesBefore / 4, `${full.bytesBefore} -> ${full.bytesAfter}`);
  await m2.close();
  const check = new Database(path, { readonly: true });
  assert.equal(check.pragma('auto_vacuum', { simple: true }), 2, 'switched to incremental for next time');
  check.close();
});

// ---- history and supersession ---------------------------------------------------------------

test('history: update and key upserts keep previous versions; forget deletes them', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: hash() });
  const a = await mem.add('deploy target: Raspberry Pi 3', { key: 'deploy', createdAt: '2026-01-01T00:00:00Z', category: 'infra' });
  await mem.add('deploy target: Raspberry Pi 4', { key: 'deploy', category: 'infra' });
  await mem.update(a.id, { metadata: { note: 'metadata only: no new version' } });
  await mem.update(a.id, { content: 'deploy target: Raspberry Pi 5' });
  const h = await mem.history(a.id);
  assert.deepEqual(
    h.map((v) => [v.content, v.current, v.endedBy]),
    [
      ['deploy target: Raspberry Pi 3', false, 'updated'],
      ['deploy target: Raspberry Pi 4', false, 'updated'],
      ['deploy target: Raspberry Pi 5', true, undefined],
    ],
  );
  assert.equal(h[0]!.validFrom.toISOString(), '2026-01-01T00:00:00.000Z');
  for (let i = 1; i < h.length; i++) assert.deepEqual(h[i]!.validFrom, h[i - 1]!.validUntil, 'versions are contiguous');
  assert.equal(h[2]!.validUntil, null);
  assert.equal(h[0]!.category, 'infra');
  assert.deepEqual(await mem.history(a.id, { namespace: 'elsewhere' }), []);
  assert.deepEqual(await mem.history('no-such-id'), []);
  // History survives reopening and is plain SQL.
  await mem.close();
  const db = new Database(path, { readonly: true });
  const rows = db.prepare('SELECT content, replaced_at FROM memory_history WHERE memory_id = ? ORDER BY version').all(a.id) as {
    content: string;
    replaced_at: string;
  }[];
  assert.equal(rows.length, 2);
  assert.match(rows[0]!.replaced_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  db.close();
  const m2 = await openMemory({ path, embedder: hash() });
  assert.equal((await m2.history(a.id)).length, 3);
  assert.equal(await m2.forget(a.id), true);
  assert.deepEqual(await m2.history(a.id), []);
  await m2.close();
  const db2 = new Database(path, { readonly: true });
  assert.equal((db2.prepare('SELECT count(*) AS n FROM memory_history').get() as { n: number }).n, 0, 'forget deletes history');
  db2.close();
});

test('supersedes: the old memory ranks directly below its successor and shows up in its history', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: hash() });
  await mem.addMany(FILLER);
  const v1 = await mem.add('Dana lives in Paris, in the Paris 11th arrondissement', { createdAt: '2025-01-01T00:00:00Z' });
  await mem.add('Paris trip planned for spring');
  const v2 = await mem.add('Dana moved to Berlin', { supersedes: v1.id, createdAt: '2025-06-01T00:00:00Z' });
  assert.equal((await mem.get(v1.id))!.supersededBy, v2.id);
  for (const mode of ['keyword', 'hybrid'] as const) {
    const plain = await mem.recall('where does Dana live Paris', { mode, limit: 5 });
    const i1 = plain.findIndex((h) => h.id === v1.id),
      i2 = plain.findIndex((h) => h.id === v2.id);
    assert.ok(i2 >= 0 && i1 === i2 + 1, `${mode}: superseded right after its successor (${i2}, ${i1})`);
    for (let i = 1; i < plain.length; i++) assert.ok(plain[i - 1]!.score >= plain[i]!.score, `${mode}: scores stay in order`);
  }
  const h = await mem.history(v2.id);
  assert.deepEqual(
    h.map((v) => [v.id, v.endedBy ?? 'current']),
    [
      [v1.id, 'superseded'],
      [v2.id, 'current'],
    ],
  );
  assert.equal(h[0]!.validUntil!.toISOString(), '2025-06-01T00:00:00.000Z');
  // Chains: v3 supersedes v2.
  const v3 = await mem.add('Dana moved to Lisbon', { supersedes: v2.id });
  assert.deepEqual(
    (await mem.history(v3.id)).map((v) => v.content),
    ['Dana lives in Paris, in the Paris 11th arrondissement', 'Dana moved to Berlin', 'Dana moved to Lisbon'],
  );
  const chain = (await mem.recall('Dana moved lives', { mode: 'keyword', limit: 5 })).map((x) => x.id).filter((id) => [v1.id, v2.id, v3.id].includes(id));
  assert.deepEqual(chain, [v3.id, v2.id, v1.id]);
  // Errors: unknown target, other namespace, self, cycles; addMany is all or nothing.
  await assert.rejects(mem.add('x1', { supersedes: 'nope' }), code('NOT_FOUND'));
  await assert.rejects(mem.add('x2', { supersedes: v1.id, namespace: 'other' }), code('NOT_FOUND'));
  const before = await mem.count();
  await assert.rejects(mem.addMany([{ content: 'fine' }, { content: 'bad', supersedes: 'nope' }]), code('NOT_FOUND'));
  assert.equal(await mem.count(), before, 'nothing written');
  const k = await mem.add('key holder', { key: 'kk' });
  await assert.rejects(mem.add('key holder 2', { key: 'kk', supersedes: k.id }), code('INVALID_INPUT'), 'cannot supersede itself');
  // A key upsert is a fresh statement: the memory is current again.
  const n = await mem.add('key holder moved on', { supersedes: k.id });
  assert.equal((await mem.get(k.id))!.supersededBy, n.id);
  await mem.add('key holder restated', { key: 'kk' });
  assert.equal((await mem.get(k.id))!.supersededBy, undefined);
  // Forgetting the successor makes the old memory stand on its own again.
  await mem.forget(v3.id);
  assert.equal((await mem.get(v2.id))!.supersededBy, undefined);
  await mem.close();
});

// ---- ranking options -------------------------------------------------------------------------

test('lifecycle fields round-trip through export / import and are plain columns', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: hash() });
  const a = await mem.add('fact one', { expiresAt: '2099-01-01T00:00:00Z', importance: 0.7, pinned: true });
  const b = await mem.add('fact two', { supersedes: a.id });
  const exp = await mem.add('fact three', { createdAt: PAST, ttl: '1d' });
  const recs = [...mem.export()];
  assert.equal(recs.length, 3, 'export includes expired memories (it is a backup)');
  const ra = recs.find((r) => r.id === a.id)!;
  assert.deepEqual([ra.expiresAt, ra.pinned, ra.importance, ra.supersededBy], ['2099-01-01T00:00:00.000Z', true, 0.7, b.id]);
  assert.equal(recs.find((r) => r.id === b.id)!.pinned, undefined, 'unset fields are left out');
  const copy = await openMemory({ path: tempDb(), embedder: hash() });
  assert.deepEqual(await copy.import(recs), { imported: 3, replaced: 0, skipped: 0 });
  const ca = (await copy.get(a.id))!;
  assert.deepEqual([ca.expiresAt?.toISOString(), ca.pinned, ca.importance, ca.supersededBy], ['2099-01-01T00:00:00.000Z', true, 0.7, b.id]);
  assert.equal(await copy.get(exp.id), null, 'still expired after import');
  await copy.close();
  await mem.close();
  const db = new Database(path, { readonly: true });
  const row = db.prepare('SELECT expires_at, pinned, importance, superseded_by, length(dedup_hash) AS h FROM memories WHERE id = ?').get(a.id);
  assert.deepEqual(row, { expires_at: '2099-01-01T00:00:00.000Z', pinned: 1, importance: 0.7, superseded_by: b.id, h: 64 });
  db.close();
});

test('a schema-1 file migrates: data kept, dedup hashes filled lazily, lifecycle works', async () => {
  const path = tempDb();
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  raw.exec(MIGRATIONS[0]!);
  raw.pragma('user_version = 1');
  raw.pragma(`application_id = ${APPLICATION_ID}`);
  raw.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', '1')").run();
  raw
    .prepare(`INSERT INTO memories(id, namespace, key, content, created_at, updated_at, content_hash)
    VALUES ('old-1', 'default', NULL, 'Legacy memory about Oslo', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'h')`)
    .run();
  raw.close();
  assert.ok(SCHEMA_VERSION >= 2);
  const mem = await openMemory({ path, embedder: 'none' });
  assert.equal((await mem.stats()).schemaVersion, SCHEMA_VERSION);
  const m = (await mem.get('old-1'))!;
  assert.equal(m.content, 'Legacy memory about Oslo');
  assert.equal(m.expiresAt, undefined);
  assert.equal((await mem.add('legacy memory about oslo.')).id, 'old-1', 'old rows take part in dedup');
  await mem.update('old-1', { content: 'Legacy memory about Bergen', ttl: '30d' });
  assert.equal((await mem.history('old-1')).length, 2);
  const r = await mem.prune();
  assert.equal(r.autoVacuum, 'none', 'an existing file keeps its vacuum mode until a full vacuum');
  await mem.close();
});

// ---- CLI -------------------------------------------------------------------------------------

test('CLI: lifecycle flags, prune and history', () => {
  const db = tempDb();
  const run = (...args: string[]) => cli(['--db', db, '--embedder', 'none', ...args]);
  const add = (...args: string[]) => JSON.parse(run('--json', 'add', ...args).stdout) as { id: string; deduplicated?: string };
  const a = add('Alice drinks tea', '--importance', '0.9', '--pin');
  assert.equal(add('alice drinks tea.').deduplicated, 'exact');
  const dup = run('add', 'Alice drinks tea');
  assert.equal(dup.code, 0);
  assert.match(dup.stdout, /^duplicate of /);
  assert.notEqual(add('Alice drinks tea', '--force').id, a.id);
  const b = add('Alice drinks coffee now', '--supersedes', a.id);
  const gone = add('temporary fact', '--created-at', PAST, '--ttl', '1d');
  add('dated fact', '--expires-at', '2021-01-01');

  const get = run('--json', 'get', a.id);
  assert.deepEqual([JSON.parse(get.stdout).pinned, JSON.parse(get.stdout).importance, JSON.parse(get.stdout).supersededBy], [true, 0.9, b.id]);
  assert.match(run('get', a.id).stdout, /pinned:\s+yes[\s\S]*superseded by: /);
  assert.equal(run('get', gone.id).code, 1, 'expired: not found');
  assert.equal(run('get', gone.id, '--include-expired').code, 0);
  assert.equal(JSON.parse(run('--json', 'list').stdout).length, 3);
  assert.equal(JSON.parse(run('--json', 'list', '--include-expired').stdout).length, 5);
  assert.match(run('stats').stdout, /\+ 2 expired: run mnemolite prune/);

  const hits = JSON.parse(run('--json', 'recall', 'alice drinks', '--importance-weight', '1', '--recency', '30d', '--mmr', '0.8').stdout) as { id: string }[];
  const ia = hits.findIndex((h) => h.id === a.id),
    ib = hits.findIndex((h) => h.id === b.id);
  assert.ok(ib >= 0 && ia === ib + 1, 'superseded directly below its successor');
  assert.equal(run('recall', 'x', '--recency-weight', '0.5').code, 1, '--recency-weight needs --recency');
  assert.equal(run('recall', 'x', '--mmr', 'lots').code, 1);

  assert.equal(run('update', b.id, '--content', 'Alice drinks oat-milk coffee', '--ttl', '30d').code, 0);
  const hist = run('history', b.id);
  assert.equal(hist.code, 0);
  assert.match(hist.stdout, /superseded[\s\S]*updated[\s\S]*current/);
  assert.equal(JSON.parse(run('--json', 'history', b.id).stdout).length, 3);
  assert.equal(run('history', 'nope').code, 1);
  assert.equal(run('update', a.id, '--pin', '--unpin').code, 1);

  const dry = run('prune', '--dry-run');
  assert.match(dry.stdout, /would delete 2 expired memories/);
  const pr = JSON.parse(run('--json', 'prune').stdout) as { deleted: number; autoVacuum: string };
  assert.deepEqual([pr.deleted, pr.autoVacuum], [2, 'incremental']);
  assert.match(run('prune').stdout, /deleted 0 expired memories/);
  assert.equal(run('prune', '--vacuum', 'sometimes').code, 1);
});

test('the embedder sees each text once even with dedup (exact duplicates are embedded from cache)', async () => {
  const e: Embedder & { texts: number } = hash();
  const mem = await openMemory({ path: tempDb(), embedder: e });
  await mem.add('cache me');
  const before = e.texts;
  await mem.add('cache me');
  assert.equal(e.texts, before, 'identical text: vector from the cache, then dedup');
  await mem.close();
});
