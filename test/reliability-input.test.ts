/**
 * Bad input and injection. Extends test/api.test.ts (which covers the basic INVALID_INPUT table
 * and a lying embedder on add): boundaries, the remaining options, every write path, and
 * property-based fuzzing of EVERY string argument of the API.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MnemoliteError, openMemory, type Embedder, type Memory } from '../src/index.js';
import { HashEmbedder, cli, tempDb, tempDir } from './helpers.js';
import { checkFile } from './stress/lib/filecheck.js';
import { property, runs } from './stress/lib/prop.js';

const CODES = new Set([
  'INVALID_INPUT',
  'NOT_FOUND',
  'NOT_A_DATABASE',
  'SCHEMA_TOO_NEW',
  'EMBEDDING_MISMATCH',
  'EMBEDDER_FAILED',
  'SEMANTIC_DISABLED',
  'READ_ONLY',
  'BUSY',
  'CLOSED',
  'STORAGE',
]);
/** Words that tell the caller what to do (every message has at least one). */
const ADVICE =
  /\b(must|use|choose|pass|remove|split|fix|check|open|restore|create|upgrade|retry|list|point|only|needs?|expect(s|ed)?|limit|should|cannot|add|is not|are not|not valid|at most|at least|between|wrong type|nothing was written)\b/i;

/** A fingerprint of everything a write can change in the memories (read with a plain connection). */
function fingerprint(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT id, namespace, key, content, category, session_id, metadata, created_at, updated_at, hex(embedding) AS e FROM memories ORDER BY seq')
      .all();
    const changes = db.prepare('SELECT coalesce(max(version), 0) FROM changes').pluck().get();
    return JSON.stringify({ rows, changes });
  } finally {
    db.close();
  }
}

/** `fn` must reject with a MnemoliteError of `code` whose message says what to do. */
async function rejectsWith(what: string, code: string, fn: () => unknown): Promise<void> {
  await assert.rejects(
    async () => {
      await fn();
    },
    (err: unknown) => {
      assert.ok(err instanceof MnemoliteError, `${what}: expected a MnemoliteError, got ${(err as Error)?.name}: ${(err as Error)?.message}`);
      assert.equal(err.code, code, `${what}: ${err.message}`);
      assert.match(err.message, ADVICE, `${what}: the message says what to do: ${err.message}`);
      assert.doesNotMatch(err.message, /SQLITE_|sqlite3|SqliteError/, `${what}: no raw SQLite wording`);
      return true;
    },
    what,
  );
}

let deep: unknown = 'leaf';
for (let i = 0; i < 100_000; i++) deep = [deep];
let deep65: unknown = 1;
for (let i = 0; i < 66; i++) deep65 = { a: deep65 };

test('bad input everywhere: typed error with a code and advice, and nothing written', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  const { id } = await mem.add('an existing memory about tea', { namespace: 'a', key: 'k1' });
  const before = fingerprint(path);
  const I = 'INVALID_INPUT';
  const cases: [string, string, () => unknown][] = [
    // Content: the size limit is in UTF-8 bytes, not characters.
    ['content 100,001 bytes in 33,334 characters', I, () => mem.add('€'.repeat(33_334))],
    ['content with NUL in a batch', I, () => mem.addMany([{ content: 'fine' }, { content: 'bad\u0000' }])],
    ['content lone low surrogate', I, () => mem.add('x \udc00')],
    ['content undefined', I, () => mem.add(undefined as unknown as string)],
    ['addMany not an array', I, () => mem.addMany('text' as unknown as [])],
    ['addMany item null', I, () => mem.addMany([null as unknown as { content: string }])],
    // Labels.
    ['namespace "*" (means every namespace)', I, () => mem.add('x', { namespace: '*' })],
    ['namespace 129 characters', I, () => mem.add('x', { namespace: 'n'.repeat(129) })],
    ['namespace whitespace', I, () => mem.add('x', { namespace: '   ' })],
    ['key 513 characters', I, () => mem.add('x', { key: 'k'.repeat(513) })],
    ['category with tab', I, () => mem.add('x', { category: 'a\tb' })],
    ['sessionId lone surrogate', I, () => mem.add('x', { sessionId: 's\ud800' })],
    ['namespace number', I, () => mem.add('x', { namespace: 5 as unknown as string })],
    // Metadata.
    ['metadata nested 100,000 deep', I, () => mem.add('x', { metadata: { deep } })],
    ['metadata nested 67 deep', I, () => mem.add('x', { metadata: deep65 as Record<string, unknown> })],
    ['metadata over 64 KB', I, () => mem.add('x', { metadata: { big: 'x'.repeat(64_001) } })],
    ['metadata undefined value', I, () => mem.add('x', { metadata: { u: undefined } })],
    ['metadata Symbol', I, () => mem.add('x', { metadata: { s: Symbol('s') } as unknown as Record<string, unknown> })],
    ['metadata Map', I, () => mem.add('x', { metadata: { m: new Map() } })],
    ['metadata Infinity', I, () => mem.add('x', { metadata: { n: [1, Infinity] } })],
    ['metadata key lone surrogate', I, () => mem.add('x', { metadata: { 'k\ud800': 1 } })],
    ['metadata value lone surrogate', I, () => mem.add('x', { metadata: { k: ['ok', 'v\udfff'] } })],
    ['metadata string', I, () => mem.add('x', { metadata: '{"a":1}' as unknown as Record<string, unknown> })],
    // Dates.
    ['createdAt year 10000', I, () => mem.add('x', { createdAt: '10000-01-01T00:00:00Z' })],
    ['createdAt month 13', I, () => mem.add('x', { createdAt: '2026-13-01' })],
    ['createdAt number', I, () => mem.add('x', { createdAt: 1_700_000_000_000 as unknown as string })],
    ['recall since garbage', I, () => mem.recall('tea', { since: 'last tuesday' })],
    ['list until invalid Date', I, () => mem.list({ until: new Date('nope') })],
    // Recall options.
    ['limit 1001', I, () => mem.recall('tea', { limit: 1001 })],
    ['limit as string', I, () => mem.recall('tea', { limit: '5' as unknown as number })],
    ['candidates 0', I, () => mem.recall('tea', { candidates: 0 })],
    ['candidates 10,001', I, () => mem.recall('tea', { candidates: 10_001 })],
    ['rrfK 0', I, () => mem.recall('tea', { rrfK: 0 })],
    ['rrfK Infinity', I, () => mem.recall('tea', { rrfK: Infinity })],
    ['exact not boolean', I, () => mem.recall('tea', { exact: 'yes' as unknown as boolean })],
    ['mode empty', I, () => mem.recall('tea', { mode: '' as 'hybrid' })],
    ['mode upper case', I, () => mem.recall('tea', { mode: 'KEYWORD' as 'keyword' })],
    ['metadata filter object value', I, () => mem.recall('tea', { metadata: { a: { b: 1 } as unknown as string } })],
    ['metadata filter NaN', I, () => mem.recall('tea', { metadata: { n: NaN } })],
    ['metadata filter dotted key', I, () => mem.recall('tea', { metadata: { 'a.b': 1 } })],
    ['query lone surrogate', I, () => mem.recall('tea \ud800')],
    ['query too long', I, () => mem.recall('t'.repeat(100_001))],
    ['query number', I, () => mem.recall(42 as unknown as string)],
    ['recall options array', I, () => mem.recall('tea', [] as unknown as object)],
    // List / count / stats / export.
    ['list limit 10,001', I, () => mem.list({ limit: 10_001 })],
    ['list offset 1.5', I, () => mem.list({ offset: 1.5 })],
    ['list order', I, () => mem.list({ order: 'up' as 'asc' })],
    ['count unknown option', I, () => mem.count({ nmespace: 'a' } as unknown as object)],
    ['stats namespace empty', I, () => mem.stats({ namespace: '' })],
    ['export unknown option', I, () => [...mem.export({ vector: true } as unknown as object)]],
    // get / update / forget.
    ['get id with newline', I, () => mem.get('a\nb')],
    ['get id 201 characters', I, () => mem.get('i'.repeat(201))],
    ['forget id object', I, () => mem.forget({} as unknown as string)],
    ['update unknown id', 'NOT_FOUND', () => mem.update('01a22d00-0000-7000-8000-000000000000', { content: 'x' })],
    ['update in another namespace', 'NOT_FOUND', () => mem.update(id, { content: 'x' }, { namespace: 'b' })],
    ['update empty content', I, () => mem.update(id, { content: '' })],
    ['update content NUL', I, () => mem.update(id, { content: 'a\u0000' })],
    ['update unknown field', I, () => mem.update(id, { contnt: 'x' } as unknown as object)],
    ['update metadata array', I, () => mem.update(id, { metadata: [1] as unknown as Record<string, unknown> })],
    ['update scope namespace "" ', I, () => mem.update(id, { content: 'x' }, { namespace: '' })],
    // import: validated in full before anything is written.
    ['import not iterable', I, () => mem.import(42 as unknown as [])],
    ['import record null', I, () => mem.import([null])],
    [
      'import bad record last of 500',
      I,
      () => mem.import([...Array.from({ length: 499 }, (_, i) => ({ content: `imported ${i}` })), { content: 'x', createdAt: 'never' }], { batchSize: 10 }),
    ],
    ['import record id with newline', I, () => mem.import([{ id: 'a\nb', content: 'x' }])],
    ['import record namespace "*"', I, () => mem.import([{ content: 'x', namespace: '*' }])],
    ['import record metadata not JSON-able', I, () => mem.import([{ content: 'x', metadata: { deep } }])],
    ['import onConflict', I, () => mem.import([{ content: 'x' }], { onConflict: 'merge' as 'skip' })],
    ['import batchSize NaN (would import nothing)', I, () => mem.import([{ content: 'x' }], { batchSize: NaN })],
    ['reindex batchSize NaN', I, () => mem.reindex({ batchSize: NaN })],
    ['reindex batchSize 0.5', I, () => mem.reindex({ batchSize: 0.5 })],
    // backup: never lands anywhere but a new, plain path.
    ['backup empty', I, () => mem.backup('')],
    ['backup trailing space', I, () => mem.backup(join(tempDir(), 'b.db '))],
    ['backup NUL', I, () => mem.backup(join(tempDir(), 'b.db\u0000x'))],
    ['backup missing directory', I, () => mem.backup(join(tempDir(), 'no', 'such', 'b.db'))],
    ['backup onto itself', I, () => mem.backup(path)],
    // openMemory.
    ['open path empty', I, () => openMemory({ path: '', embedder: 'none' })],
    ['open path NUL', I, () => openMemory({ path: 'a\u0000b', embedder: 'none' })],
    ['open embedder name', I, () => openMemory({ path: tempDb(), embedder: 'bert' as 'local' })],
    ['open embedder without dims', I, () => openMemory({ path: tempDb(), embedder: { provider: 'x', id: 'x', embed: async () => [] } as unknown as Embedder })],
    ['open busyTimeoutMs NaN', I, () => openMemory({ path: tempDb(), embedder: 'none', busyTimeoutMs: NaN })],
    ['open busyTimeoutMs negative', I, () => openMemory({ path: tempDb(), embedder: 'none', busyTimeoutMs: -1 })],
    ['open options null', I, () => openMemory(null as unknown as object)],
    ['open unknown dedup option', I, () => openMemory({ path: tempDb(), embedder: 'none', nearDuplicates: 'maybe' } as unknown as object)],
  ];
  for (const [name, c, fn] of cases) await rejectsWith(name, c, fn);
  assert.equal(fingerprint(path), before, 'nothing was written by any rejected call');
  // The limits are exact: the largest accepted values work.
  await mem.add('x'.repeat(100_000), { namespace: 'n'.repeat(128), key: 'k'.repeat(512), metadata: { big: 'x'.repeat(63_000) } });
  await mem.add('€'.repeat(33_333));
  await mem.recall('tea', { limit: 1000, candidates: 10_000 });
  await mem.close();
  assert.ok(existsSync(path));
});

test('a lying embedder fails typed on every path (recall, update, import, reindex) and writes nothing', async () => {
  const path = tempDb();
  const good = await openMemory({ path, embedder: new HashEmbedder('liar', 4) });
  const { id } = await good.add('stored with good vectors');
  await good.close();
  const lies: [string, (texts: string[]) => unknown][] = [
    ['NaN', (t) => t.map(() => [1, NaN, 0, 0])],
    ['-Infinity', (t) => t.map(() => [1, 0, -Infinity, 0])],
    ['wrong length', (t) => t.map(() => [1, 0, 0])],
    ['too many vectors', (t) => [...t, t].map(() => [1, 0, 0, 0])],
    ['not an array', () => 'vectors'],
    ['null vector', (t) => t.map(() => null)],
    [
      'throws a string',
      () => {
        throw 'model exploded';
      },
    ],
  ];
  for (const [name, lie] of lies) {
    const mem = await openMemory({ path, embedder: { provider: 'test', id: 'liar', dims: 4, embed: async (t: string[]) => lie(t) as number[][] } });
    const before = fingerprint(path);
    await rejectsWith(`${name}: recall`, 'EMBEDDER_FAILED', () => mem.recall('a brand new query', { mode: 'vector' }));
    await rejectsWith(`${name}: update`, 'EMBEDDER_FAILED', () => mem.update(id, { content: 'new text to embed' }));
    await rejectsWith(`${name}: add`, 'EMBEDDER_FAILED', () => mem.add('another new text'));
    await rejectsWith(`${name}: import`, 'EMBEDDER_FAILED', () => mem.import([{ content: 'imported text' }, { content: 'second' }]));
    assert.equal(fingerprint(path), before, `${name}: nothing written`);
    await mem.close();
  }
  // A multi-batch import whose model fails late (call 20 of ~38) writes nothing either.
  let calls = 0;
  const flaky = await openMemory({
    path,
    embedder: {
      provider: 'test',
      id: 'liar',
      dims: 4,
      embed: async (t: string[]) => {
        if (++calls === 20) throw new Error('model crashed');
        return t.map((x) => [1, x.length, 0, 1]);
      },
    },
  });
  const beforeImport = fingerprint(path);
  await rejectsWith('late failure in a 1,200-record import', 'EMBEDDER_FAILED', () =>
    flaky.import(
      Array.from({ length: 1200 }, (_, i) => ({ content: `bulk record ${i}` })),
      { batchSize: 500 },
    ),
  );
  assert.equal(fingerprint(path), beforeImport, 'no batch of the failed import was written');
  await flaky.close();
  // reindex commits per batch: a lying model stops it with a typed error, earlier batches stay.
  const none = await openMemory({ path, embedder: 'none' });
  await none.addMany([{ content: 'needs a vector 1' }, { content: 'needs a vector 2' }]);
  await none.close();
  const liar = await openMemory({ path, embedder: { provider: 'test', id: 'liar', dims: 4, embed: async (t: string[]) => t.map(() => [0, NaN, 0, 0]) } });
  const before = fingerprint(path);
  await rejectsWith('reindex', 'EMBEDDER_FAILED', () => liar.reindex());
  assert.equal(fingerprint(path), before);
  await liar.close();
});

// ---- fuzzing every string argument of the API ---------------------------------------------

/** SQL and FTS5 fragments that must stay plain text wherever they go. */
export const PAYLOADS = [
  "'",
  "''",
  '"',
  '`',
  ';',
  '--',
  '/*',
  '*/',
  '%',
  '_',
  '\\',
  '?',
  ':name',
  '@p',
  '$p',
  '$.a',
  '$."a"',
  '*',
  "'; DROP TABLE memories; --",
  '" OR 1=1 --',
  "') OR ('1'='1",
  '1; DELETE FROM memories',
  'UNION SELECT * FROM meta',
  "json_extract(metadata, '$')",
  "x' || (SELECT group_concat(content) FROM memories) || '",
  'NEAR(tea coffee, 2)',
  'tea AND coffee',
  'tea OR coffee',
  'NOT tea',
  'tea*',
  '^tea',
  'content:tea',
  'memories_fts:tea',
  '"unterminated',
  '(',
  ')',
  '{content}: tea',
  '-tea',
  '+tea',
  'tea:',
  'rank',
  'bm25(memories_fts)',
  'default',
  '*',
  'DEFAULT',
];

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udfff',
      '\n',
      '\t',
      ' ',
      '\u200b',
      '\u2028',
      '🚀',
      '東京',
      'é',
      'e\u0301',
      '2026-01-01',
      '2026-01-01T00:00:00Z',
    ),
  },
);
/** Any string, biased towards the hostile. */
export const anyString = fc.oneof(
  { weight: 8, arbitrary: fc.array(piece, { maxLength: 6 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '*', 'x'.repeat(100_001), '€'.repeat(33_334), 'n'.repeat(129), 'hybrid', 'asc', 'skip', '..', '.') },
);

interface Ctx {
  id: string;
  dir: string;
  n: number;
}
type Call = [name: string, writes: boolean, run: (m: Memory, s: string, c: Ctx) => Promise<unknown> | unknown];
const NO_ID = '01a22d00-0000-7000-8000-000000000000';
/** A path inside the sandbox, for arguments that name files. */
const sandboxed = (c: Ctx, s: string): string => join(c.dir, `${c.n++}-${s.replace(/\//g, '_')}`);

export const CALLS: Call[] = [
  ['add content', true, (m, s) => m.add(s)],
  ['add namespace', true, (m, s) => m.add('fuzz note', { namespace: s })],
  ['add key', true, (m, s) => m.add('fuzz keyed', { key: s })],
  ['add category', true, (m, s) => m.add('fuzz category', { category: s })],
  ['add sessionId', true, (m, s) => m.add('fuzz session', { sessionId: s })],
  ['add createdAt', true, (m, s) => m.add('fuzz date', { createdAt: s })],
  ['add expiresAt', true, (m, s) => m.add('fuzz expiry', { expiresAt: s } as object)],
  ['add ttl', true, (m, s) => m.add('fuzz ttl', { ttl: s } as object)],
  ['add supersedes', true, (m, s) => m.add('fuzz supersedes', { supersedes: s } as object)],
  ['add nearDuplicates', true, (m, s) => m.add('fuzz near', { nearDuplicates: s } as object)],
  ['add option name', true, (m, s) => m.add('fuzz option', { [s]: 'v' } as object)],
  ['add metadata key', true, (m, s) => m.add('fuzz meta key', { metadata: { [s]: s } })],
  ['add metadata value', true, (m, s) => m.add('fuzz meta value', { metadata: { v: s, nested: [s, { s }] } })],
  ['addMany content', true, (m, s) => m.addMany([{ content: 'fuzz batch ok' }, { content: s, namespace: 'batch' }])],
  ['addConversation speaker', true, (m, s) => m.addConversation([{ speaker: s, content: 'hello there, how are you today friend' }])],
  ['addConversation content', true, (m, s) => m.addConversation([{ speaker: 'user', content: s }])],
  ['addConversation at', true, (m, s) => m.addConversation([{ speaker: 'user', content: 'a turn with a time on it', at: s }])],
  ['addConversation sessionId', true, (m, s) => m.addConversation([{ speaker: 'user', content: 'a turn in a session' }], { sessionId: s })],
  ['recall query hybrid', false, (m, s) => m.recall(s, { namespace: '*' })],
  ['recall query keyword', false, (m, s) => m.recall(s, { namespace: '*', mode: 'keyword' })],
  ['recall query vector', false, (m, s) => m.recall(s, { mode: 'vector' })],
  ['recall namespace', false, (m, s) => m.recall('fuzz tea', { namespace: s })],
  ['recall category', false, (m, s) => m.recall('fuzz tea', { category: s })],
  ['recall sessionId', false, (m, s) => m.recall('fuzz tea', { sessionId: s, mode: 'keyword' })],
  ['recall since', false, (m, s) => m.recall('fuzz tea', { since: s })],
  ['recall until', false, (m, s) => m.recall('fuzz tea', { until: s, mode: 'vector' })],
  ['recall mode', false, (m, s) => m.recall('fuzz tea', { mode: s as 'hybrid' })],
  ['recall metadata filter key', false, (m, s) => m.recall('fuzz tea', { metadata: { [s]: 'v' } })],
  ['recall metadata filter value', false, (m, s) => m.recall('fuzz tea', { namespace: '*', metadata: { v: s } })],
  ['recall recency halfLife', false, (m, s) => m.recall('fuzz tea', { recency: { halfLife: s } } as object)],
  ['get id', false, (m, s) => m.get(s)],
  ['get namespace', false, (m, s, c) => m.get(c.id, { namespace: s })],
  ['history id', false, (m, s) => m.history(s)],
  ['history namespace', false, (m, s, c) => m.history(c.id, { namespace: s })],
  ['update id', true, (m, s) => m.update(s, { content: 'fuzz updated' })],
  ['update content', true, (m, s, c) => m.update(c.id, { content: s })],
  ['update key', true, (m, s, c) => m.update(c.id, { key: s })],
  ['update category', true, (m, s, c) => m.update(c.id, { category: s })],
  ['update sessionId', true, (m, s, c) => m.update(c.id, { sessionId: s })],
  ['update metadata', true, (m, s, c) => m.update(c.id, { metadata: { [s]: s } })],
  ['update expiresAt', true, (m, s, c) => m.update(c.id, { expiresAt: s } as object)],
  ['update scope namespace', true, (m, s, c) => m.update(c.id, { content: 'fuzz scoped update' }, { namespace: s })],
  ['forget id', true, (m, s) => m.forget(s)],
  ['forget namespace', true, (m, s) => m.forget(NO_ID, { namespace: s })],
  ['list namespace', false, (m, s) => m.list({ namespace: s })],
  ['list category', false, (m, s) => m.list({ namespace: '*', category: s })],
  ['list sessionId', false, (m, s) => m.list({ sessionId: s })],
  ['list since', false, (m, s) => m.list({ since: s })],
  ['list until', false, (m, s) => m.list({ until: s })],
  ['list order', false, (m, s) => m.list({ order: s as 'asc' })],
  ['list metadata value', false, (m, s) => m.list({ namespace: '*', metadata: { v: s } })],
  ['count namespace', false, (m, s) => m.count({ namespace: s })],
  ['count metadata key', false, (m, s) => m.count({ metadata: { [s]: 1 } })],
  ['stats namespace', false, (m, s) => m.stats({ namespace: s })],
  ['export namespace', false, (m, s) => [...m.export({ namespace: s })]],
  ['export category', false, (m, s) => [...m.export({ category: s, vectors: true })]],
  ['prune namespace', true, (m, s) => m.prune({ namespace: s, dryRun: true })],
  ['prune vacuum', true, (m, s) => m.prune({ vacuum: s as 'auto', dryRun: true })],
  ['import id', true, (m, s) => m.import([{ id: s, content: 'fuzz imported by id' }])],
  ['import content', true, (m, s) => m.import([{ content: s }])],
  ['import namespace', true, (m, s) => m.import([{ content: 'fuzz imported ns', namespace: s }])],
  ['import key', true, (m, s) => m.import([{ content: 'fuzz imported key', key: s }])],
  ['import category', true, (m, s) => m.import([{ content: 'fuzz imported cat', category: s }])],
  ['import sessionId', true, (m, s) => m.import([{ content: 'fuzz imported session', sessionId: s }])],
  ['import createdAt', true, (m, s) => m.import([{ content: 'fuzz imported created', createdAt: s }])],
  ['import updatedAt', true, (m, s) => m.import([{ content: 'fuzz imported updated', updatedAt: s }])],
  ['import metadata', true, (m, s) => m.import([{ content: 'fuzz imported meta', metadata: { [s]: s } }])],
  ['import embeddingModel', true, (m, s) => m.import([{ content: 'fuzz imported vector', embedding: [1, 0], embeddingModel: s }])],
  ['import onConflict', true, (m, s) => m.import([{ content: 'fuzz conflict' }], { onConflict: s as 'skip' })],
  ['backup dest', false, (m, s, c) => m.backup(sandboxed(c, s))],
  // A raw relative path lands in the working directory: run it inside the sandbox, never the repository.
  [
    'backup raw dest',
    false,
    async (m, s, c) => {
      if (/^[\w.-]*$/.test(s) || s.includes('/')) return;
      const cwd = process.cwd();
      process.chdir(c.dir);
      try {
        await m.backup(s);
      } finally {
        process.chdir(cwd);
      }
    },
  ],
  [
    'openMemory path',
    false,
    async (_m, s, c) => {
      const o = await openMemory({ path: sandboxed(c, s), embedder: new HashEmbedder() });
      await o.close();
    },
  ],
  [
    'openMemory embedder',
    false,
    async (_m, s, c) => {
      const o = await openMemory({ path: sandboxed(c, 'e'), embedder: s as 'local' });
      await o.close();
    },
  ],
];

test('fuzz: every string argument of the API gives a result or a typed error, never a raw one; failed writes write nothing', { timeout: 300_000 }, async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  const ctx: Ctx = { id: (await mem.add('the fixture memory about tea', { namespace: 'fx' })).id, dir: tempDir(), n: 0 };
  const used = new Map<string, number>();
  await property(
    fc.asyncProperty(fc.constantFrom(...CALLS), anyString, async ([name, writes, run], s) => {
      if (!(await mem.get(ctx.id))) ctx.id = (await mem.add(`the fixture memory about tea ${ctx.n++}`, { namespace: 'fx' })).id;
      const before = writes ? fingerprint(path) : '';
      try {
        await run(mem, s, ctx);
        used.set(`${name} ok`, (used.get(`${name} ok`) ?? 0) + 1);
      } catch (err) {
        assert.ok(err instanceof MnemoliteError, `${name}(${JSON.stringify(s).slice(0, 80)}): raw ${(err as Error)?.name}: ${(err as Error)?.message}`);
        assert.ok(CODES.has(err.code));
        assert.ok(err.message.length > 15, `${name}: ${err.message}`);
        assert.doesNotMatch(err.message, /SQLITE_|SqliteError/, `${name}: ${err.message}`);
        if (err.code === 'STORAGE') assert.fail(`${name}(${JSON.stringify(s).slice(0, 80)}): input error reported as STORAGE: ${err.message}`);
        if (writes) assert.equal(fingerprint(path), before, `${name}(${JSON.stringify(s).slice(0, 80)}) failed but wrote`);
        used.set(`${name} ${err.code}`, (used.get(`${name} ${err.code}`) ?? 0) + 1);
      }
    }),
    { numRuns: runs(800) },
  );
  await mem.close();
  // The file is sound afterwards: integrity, FTS index and vectors agree with the memories.
  checkFile(path, { model: 'hash-64' });
  const missing = CALLS.map(([name]) => name).filter((name) => ![...used.keys()].some((k) => k.startsWith(`${name} `)));
  assert.deepEqual(missing, [], 'every call was exercised');
});

// ---- injection --------------------------------------------------------------------------

/** A payload that is a valid label (non-blank, no control characters, well-formed, <= 128). */
const labelPayload = fc
  .array(fc.oneof(fc.constantFrom(...PAYLOADS), fc.constantFrom(' ', 'x', '東京', 'é')), { minLength: 1, maxLength: 3 })
  .map((a) => a.join(''))
  .filter((s) => s.trim().length > 0 && s !== '*' && s.length <= 128);
/** A namespace payload: a name ending in "*" is a prefix pattern when reading, so writes refuse it. */
const namespacePayload = labelPayload.filter((s) => !s.endsWith('*'));

test('injection: SQL and FTS5 operators in every stored or filtering string are plain text', { timeout: 120_000 }, async () => {
  await property(
    fc.asyncProperty(
      fc.uniqueArray(namespacePayload, { minLength: 2, maxLength: 3 }),
      fc.array(fc.record({ content: labelPayload, key: labelPayload, category: labelPayload, sessionId: labelPayload, mk: labelPayload, mv: labelPayload }), {
        minLength: 1,
        maxLength: 6,
      }),
      labelPayload,
      async (namespaces, specs, query) => {
        const path = tempDb();
        const mem = await openMemory({ path, embedder: new HashEmbedder() });
        const db = new Database(path, { readonly: true });
        const schema = db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all();
        const model: { id: string; namespace: string; key: string; content: string; category: string; sessionId: string; metadata: Record<string, string> }[] =
          [];
        for (const [i, s] of specs.entries()) {
          const namespace = namespaces[i % namespaces.length]!;
          const rec = {
            namespace,
            key: s.key,
            content: `${s.content} #${i}`,
            category: s.category,
            sessionId: s.sessionId,
            metadata: { [s.mk]: s.mv, v: s.mv },
          };
          const { id } = await mem.add(rec.content, { ...rec });
          const prior = model.findIndex((m) => m.namespace === namespace && m.key === s.key);
          if (prior >= 0) model.splice(prior, 1); // same key in the namespace: an upsert
          model.push({ id, ...rec });
        }
        // Stored exactly as given.
        for (const m of model) {
          const got = (await mem.get(m.id))!;
          assert.deepEqual(
            { ns: got.namespace, key: got.key, content: got.content, category: got.category, sessionId: got.sessionId, metadata: got.metadata },
            { ns: m.namespace, key: m.key, content: m.content, category: m.category, sessionId: m.sessionId, metadata: m.metadata },
          );
        }
        // Filters match exactly, never as patterns or expressions.
        const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
        for (const ns of namespaces) {
          const mine = model.filter((m) => m.namespace === ns);
          assert.deepEqual(ids(await mem.list({ namespace: ns })), ids(mine));
          assert.equal(await mem.count({ namespace: ns }), mine.length);
          for (const m of mine) {
            assert.deepEqual(ids(await mem.list({ namespace: ns, category: m.category })), ids(mine.filter((x) => x.category === m.category)));
            assert.deepEqual(ids(await mem.list({ namespace: ns, sessionId: m.sessionId })), ids(mine.filter((x) => x.sessionId === m.sessionId)));
            assert.deepEqual(ids(await mem.list({ namespace: ns, metadata: { v: m.metadata.v! } })), ids(mine.filter((x) => x.metadata.v === m.metadata.v)));
          }
          for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
            const hits = await mem.recall(query, { namespace: ns, mode, limit: 50 });
            assert.ok(
              hits.every((h) => h.namespace === ns && mine.some((m) => m.id === h.id)),
              `${mode} recall stays in its namespace`,
            );
            const cat = await mem.recall(query, { namespace: ns, category: mine[0]?.category ?? 'none', mode, limit: 50 });
            assert.ok(cat.every((h) => h.category === mine[0]?.category));
          }
        }
        // An operator in a metadata filter KEY is refused, not interpreted.
        const mk = specs[0]!.mk;
        if (/^[A-Za-z0-9_-]{1,64}$/.test(mk))
          assert.deepEqual(
            ids(await mem.list({ namespace: '*', metadata: { [mk]: specs[0]!.mv } })),
            ids(model.filter((m) => m.metadata[mk] === specs[0]!.mv)),
          );
        else await assert.rejects(mem.list({ metadata: { [mk]: 'x' } }), (e: unknown) => (e as MnemoliteError).code === 'INVALID_INPUT');
        // Nothing else happened to the file.
        assert.deepEqual(db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all(), schema, 'schema unchanged');
        assert.equal(db.prepare('SELECT count(*) FROM memories').pluck().get(), model.length);
        db.close();
        await mem.close();
        checkFile(path, { model: 'hash-64' });
      },
    ),
    { numRuns: runs(25) },
  );
});

test('injection through export/import and the file name: payloads survive a round trip byte for byte', async () => {
  const dir = tempDir();
  const path = join(dir, `it's "a" db; DROP TABLE x --.db`);
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  // A namespace may not end in "*" (a prefix pattern when reading); the payload still goes everywhere else.
  for (const [i, p] of PAYLOADS.entries())
    if (p.trim() && p !== '*')
      await mem.add(`${p} #${i}`, { namespace: p.endsWith('*') ? `${p}.` : p, key: p, category: p, sessionId: p, metadata: { [p]: p } });
  const out = [...mem.export({ vectors: true })];
  await mem.close();
  const copy = await openMemory({ path: join(dir, 'copy.db'), embedder: new HashEmbedder() });
  await copy.import(JSON.parse(JSON.stringify(out)) as unknown[]);
  assert.deepEqual([...copy.export({ vectors: true })], out);
  await copy.close();
  writeFileSync(join(dir, 'marker'), 'x');
  assert.equal(readFileSync(join(dir, 'marker'), 'utf8'), 'x');
});

test('writing or recalling through a Memory while iterating its own export() is a typed error with advice, and writes nothing', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: new HashEmbedder() });
  await mem.addMany([{ content: 'first memory about tea' }, { content: 'second memory about rust' }]);
  const before = fingerprint(path);
  for (const [name, fn] of [
    ['add', () => mem.add('copy')],
    ['update', (id: string) => mem.update(id, { content: 'changed' })],
    ['forget', (id: string) => mem.forget(id)],
    ['import', () => mem.import([{ content: 'imported' }])],
    ['recall (its index sync is a statement better-sqlite3 blocks too)', () => mem.recall('tea')],
  ] as const) {
    for (const r of mem.export()) {
      await rejectsWith(`${name} during export`, 'INVALID_INPUT', () => fn(r.id));
      assert.equal((await mem.get(r.id))?.id, r.id, 'plain reads work during an export');
      assert.equal((await mem.list()).length, 2);
      break;
    }
  }
  assert.equal(fingerprint(path), before);
  // The documented way works.
  for (const r of [...mem.export()]) await mem.update(r.id, { content: `${r.content} (edited)` });
  assert.equal((await mem.list()).filter((m) => m.content.endsWith('(edited)')).length, 2);
  await mem.close();
});

test('import refuses a file with duplicate ids (naming the records) or unknown fields (naming the field), and writes nothing; CLI names file:line', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  try {
    await mem.add('already here', { namespace: 'n' });
    const before = [...mem.export()];
    const id = '019ad5c0-0000-7000-8000-000000000001';
    const other = '019ad5c0-0000-7000-8000-000000000002';
    const dup = [{ id, content: 'first' }, { id: other, content: 'fine' }, { content: 'no id: gets a new one' }, { id, content: 'second, same id' }];
    await assert.rejects(mem.import(dup), (e: MnemoliteError) => {
      assert.equal(e.code, 'INVALID_INPUT');
      assert.match(e.message, new RegExp(`import records 1 and 4 have the same id ${id}`));
      assert.deepEqual(e.details, { id, records: [1, 4] });
      return true;
    });
    // The same with replace: the file is ambiguous whatever the conflict policy.
    await assert.rejects(mem.import(dup, { onConflict: 'replace' }), { code: 'INVALID_INPUT' });
    for (const [field, rec] of [
      ['catgory', { content: 'typo', catgory: 'x' }],
      ['eventTime', { content: 'from a newer version', eventTime: '2026-01-01' }],
      ['__proto__', JSON.parse('{"content":"proto","__proto__":{"a":1}}')],
    ] as [string, Record<string, unknown>][]) {
      await assert.rejects(mem.import([{ content: 'ok' }, rec]), (e: MnemoliteError) => {
        assert.equal(e.code, 'INVALID_INPUT');
        assert.match(e.message, new RegExp(`import record 2 has unknown field ${JSON.stringify(JSON.stringify(field)).slice(1, -1)}`));
        assert.match(e.message, /Nothing was imported/);
        return true;
      });
    }
    assert.deepEqual([...mem.export()], before, 'nothing written');
    // Every field export writes is accepted back.
    const full = [...mem.export({ vectors: true })];
    assert.deepEqual(await mem.import(full), { imported: 0, replaced: 0, skipped: 1 });
  } finally {
    await mem.close();
  }
  // The CLI points at the lines (blank lines included in the count).
  const dir = tempDir();
  const file = join(dir, 'dup.jsonl');
  writeFileSync(
    file,
    '{"id":"019ad5c0-0000-7000-8000-000000000009","content":"a"}\n\n{"content":"b"}\n{"id":"019ad5c0-0000-7000-8000-000000000009","content":"c"}\n',
  );
  const db = join(dir, 'm.db');
  const r = cli(['--db', db, '--embedder', 'none', 'import', file]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /dup\.jsonl lines 1 and 4 have the same id/);
  const unknownFile = join(dir, 'unknown.jsonl');
  writeFileSync(unknownFile, '\n{"content":"a","tags":["x"]}\n');
  const u = cli(['--db', db, '--embedder', 'none', 'import', unknownFile]);
  assert.equal(u.code, 1);
  assert.match(u.stderr, /unknown\.jsonl:2 has unknown field "tags"/);
  assert.equal(existsSync(db), false);
});
