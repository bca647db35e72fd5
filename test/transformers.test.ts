/**
 * The `transformers` embedding provider, end to end on a tiny random-weight BERT ONNX model and
 * WordPiece vocabulary that this test generates (test/fixtures/tiny-bert.ts): no weights are
 * downloaded or shipped, and the network is never used.
 *
 * `@huggingface/transformers` is an optional dependency. Without it these tests skip with a
 * message, except under CI (CI=true), where its absence fails the run.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MnemoliteError, openMemory, transformersEmbedder, TransformersEmbedder, type Embedder } from '../src/index.js';
import { TRANSFORMERS_INSTALL } from '../src/embed/transformers.js';
import { writeTinyBert } from './fixtures/tiny-bert.js';
import { cli, ROOT, spawnSync, tempDb, tempDir } from './helpers.js';

const PKG = '@huggingface/transformers';
type TxEnv = { fetch: (input: string | URL, init?: unknown) => Promise<unknown> };
let tx: { env: TxEnv } | null = null;
try {
  tx = (await import(PKG as string)) as { env: TxEnv };
} catch {
  tx = null;
}
const SKIP = tx ? false : `optional package ${PKG} is not installed (install it with: ${TRANSFORMERS_INSTALL})`;

test('the optional package is installed under CI', () => {
  if (!tx && process.env.CI)
    assert.fail(`${PKG} must be installed in CI (npm ci with ONNXRUNTIME_NODE_INSTALL_CUDA=skip); the transformers tests would otherwise skip.`);
  if (!tx) console.log(`skipping the transformers tests: ${SKIP}`);
});

const HIDDEN = 32;
const texts = ['Alice prefers green tea', 'Bob deploys the Rust service on a Raspberry Pi', 'The meeting moved to Tuesday', 'x'];

const expectCode =
  (code: string, re?: RegExp) =>
  (err: unknown): boolean => {
    assert.ok(err instanceof MnemoliteError, `expected a MnemoliteError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (re) assert.match(err.message, re);
    return true;
  };
const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};
const close = (a: ArrayLike<number>, b: ArrayLike<number>, eps = 1e-5): boolean =>
  a.length === b.length && Array.from(a).every((x, i) => Math.abs(x - b[i]!) < eps);

describe('transformers provider on a generated tiny BERT', { skip: SKIP }, () => {
  let dir = '';
  let cacheDir = '';
  const fetched: string[] = [];
  let realFetch: TxEnv['fetch'];

  before(() => {
    dir = writeTinyBert(join(tempDir(), 'tiny-bert'), { hidden: HIDDEN, quantizedCopy: true }).dir;
    cacheDir = join(tempDir(), 'cache');
    // Every request transformers.js makes goes through env.fetch: record and refuse them all.
    realFetch = tx!.env.fetch;
    tx!.env.fetch = async (input) => {
      fetched.push(String(input));
      return new Response('offline test', { status: 404 });
    };
  });
  after(() => {
    tx!.env.fetch = realFetch;
  });

  test('a local folder loads offline: dims from config.json, unit vectors, deterministic, different texts differ', async () => {
    const e = new TransformersEmbedder({ model: dir, cacheDir });
    assert.equal(e.provider, 'transformers');
    assert.equal(e.dims, HIDDEN);
    assert.equal(e.id, 'mnemolite-tests/tiny-bert:mean');
    const a = await e.embed(texts);
    assert.equal(a.length, texts.length);
    for (const v of a) {
      assert.equal(v.length, HIDDEN);
      assert.ok(v.every(Number.isFinite));
      assert.ok(Math.abs(dot(v, v) - 1) < 1e-5, 'normalised');
    }
    const b = await e.embed(texts);
    a.forEach((v, i) => assert.ok(close(v, b[i]!), `text ${i} embeds the same twice`));
    for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) assert.ok(dot(a[i]!, a[j]!) < 0.9999, `texts ${i} and ${j} differ`);
    // Tokenization is real WordPiece: case folds, unknown words split into pieces.
    const [lower, upper, other] = await e.embed(['alice prefers green tea', 'ALICE PREFERS GREEN TEA', 'zebras juggle quietly']);
    assert.ok(close(lower!, upper!), 'BertNormalizer lowercases');
    assert.ok(dot(lower!, other!) < 0.9999);
    await e.close();
    assert.deepEqual(fetched, [], 'no network request');
    assert.deepEqual(existsSync(cacheDir) ? readdirSync(cacheDir) : [], [], 'a local folder is not copied into the cache');
  });

  test('batches: any batch size gives the vectors of one-by-one calls, in input order; long texts are truncated', async () => {
    const many = Array.from({ length: 37 }, (_, i) => `${texts[i % texts.length]} number ${i} ${'and more words '.repeat(i % 5)}`);
    const batched = await new TransformersEmbedder({ model: dir, batchSize: 5 }).embed(many);
    const single = new TransformersEmbedder({ model: dir, batchSize: 1 });
    for (let i = 0; i < many.length; i += 6) assert.ok(close(batched[i]!, (await single.embed([many[i]!]))[0]!, 1e-4), `text ${i}`);
    const long = 'the memory of the meeting on monday '.repeat(400);
    const [v] = await single.embed([long]);
    assert.equal(v!.length, HIDDEN);
    assert.deepEqual(await single.embed([]), []);
  });

  test('transformersEmbedder() loads first and measures dims; a wrong dims is a typed error', async () => {
    const e = await transformersEmbedder({ model: dir });
    assert.equal(e.dims, HIDDEN);
    const lazy = new TransformersEmbedder({ model: dir });
    assert.ok(close((await e.embed(texts))[1]!, (await lazy.embed(texts))[1]!));
    const wrong = new TransformersEmbedder({ model: dir, dims: 16 });
    await assert.rejects(wrong.embed(['hello']), expectCode('EMBEDDER_FAILED', /32-dimensional.*dims is 16/));
  });

  test('pooling, weights variant and name change the embedding identity', async () => {
    const mean = new TransformersEmbedder({ model: dir });
    const cls = new TransformersEmbedder({ model: dir, pooling: 'cls' });
    const q8 = new TransformersEmbedder({ model: dir, dtype: 'q8' });
    assert.equal(cls.id, 'mnemolite-tests/tiny-bert:cls');
    assert.equal(q8.id, 'mnemolite-tests/tiny-bert:mean:q8');
    assert.equal(new TransformersEmbedder({ model: dir, name: 'my-model' }).id, 'my-model:mean');
    const [m] = await mean.embed([texts[0]!]);
    const [c] = await cls.embed([texts[0]!]);
    const [q] = await q8.embed([texts[0]!]); // onnx/model_quantized.onnx: other weights
    assert.ok(dot(m!, c!) < 0.9999 && dot(m!, q!) < 0.9999);
    // A sentence-transformers folder's 1_Pooling/config.json sets the default pooling.
    const st = join(tempDir(), 'st-model');
    cpSync(dir, st, { recursive: true });
    mkdirSync(join(st, '1_Pooling'));
    writeFileSync(
      join(st, '1_Pooling', 'config.json'),
      JSON.stringify({ word_embedding_dimension: HIDDEN, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }),
    );
    const stE = new TransformersEmbedder({ model: st });
    assert.equal(stE.id, 'mnemolite-tests/tiny-bert:cls');
    assert.ok(close((await stE.embed([texts[0]!]))[0]!, c!));
  });

  test('a Memory opened with it stores and recalls, and the file records its identity', async () => {
    const path = tempDb();
    const e = new TransformersEmbedder({ model: dir });
    const mem = await openMemory({ path, embedder: e });
    const ids: string[] = [];
    for (const t of texts.slice(0, 3)) ids.push((await mem.add(t)).id);
    for (let i = 0; i < 3; i++) {
      const hits = await mem.recall(texts[i]!, { mode: 'vector', limit: 3 });
      assert.equal(hits[0]!.id, ids[i], `vector recall finds "${texts[i]}" first`);
    }
    const hybrid = await mem.recall('Raspberry Pi', { mode: 'hybrid' });
    assert.equal(hybrid[0]!.id, ids[1]);
    const s = await mem.stats();
    assert.deepEqual(s.embedding, { provider: 'transformers', model: 'mnemolite-tests/tiny-bert:mean', dims: HIDDEN });
    assert.equal(s.embedded, 3);
    assert.equal(s.semantic, true);
    await mem.close();
    // Another model on the same file is refused, naming this one.
    await assert.rejects(
      openMemory({ path, embedder: new TransformersEmbedder({ model: dir, pooling: 'cls' }) }),
      expectCode('EMBEDDING_MISMATCH', /tiny-bert:mean/),
    );
    const again = await openMemory({ path, embedder: await transformersEmbedder({ model: dir }) });
    assert.equal((await again.recall(texts[2]!, { mode: 'vector' }))[0]!.id, ids[2]);
    await again.close();
    assert.deepEqual(fetched, []);
  });

  test('a hub id already in the cache loads offline; an uncached one downloads only when allowed', async () => {
    // Lay the model out where a download would have put it: <cacheDir>/<owner>/<name>/…
    cpSync(dir, join(cacheDir, 'mnemolite-tests', 'cached-bert'), { recursive: true });
    const cached = new TransformersEmbedder({ model: 'mnemolite-tests/cached-bert', cacheDir });
    assert.equal(cached.id, 'mnemolite-tests/cached-bert:mean');
    assert.equal(cached.dims, HIDDEN);
    assert.equal((await cached.embed(['hello']))[0]!.length, HIDDEN);
    assert.deepEqual(fetched, [], 'read from the cache, not fetched');

    assert.throws(() => new TransformersEmbedder({ model: 'someone/not-cached', cacheDir }), expectCode('INVALID_INPUT', /allowDownload/));
    await assert.rejects(transformersEmbedder({ model: 'someone/not-cached', cacheDir }), expectCode('INVALID_INPUT', /allowDownload/));
    // Allowed: the request goes out (here to the refusing fetch above), and its failure is typed.
    assert.throws(() => new TransformersEmbedder({ model: 'someone/not-cached', cacheDir, allowDownload: true }), expectCode('INVALID_INPUT', /dims/));
    await assert.rejects(transformersEmbedder({ model: 'someone/not-cached', cacheDir, allowDownload: true }), expectCode('EMBEDDER_FAILED', /network/));
    assert.ok(
      fetched.length > 0 && (fetched as string[]).every((u) => u.includes('someone/not-cached')),
      `only the allowed model was fetched: ${fetched.join(', ')}`,
    );
    fetched.length = 0;
  });

  test('bad folders and options are typed errors', async () => {
    assert.throws(() => new TransformersEmbedder({ model: join(tempDir(), 'missing', 'model') }), expectCode('INVALID_INPUT', /does not exist/));
    assert.throws(() => new TransformersEmbedder({ model: './no/such/model' }), expectCode('INVALID_INPUT', /does not exist/));
    assert.throws(() => new TransformersEmbedder({ model: tempDir() }), expectCode('INVALID_INPUT', /config\.json/));
    assert.throws(() => new TransformersEmbedder({ model: '' }), expectCode('INVALID_INPUT'));
    assert.throws(() => new TransformersEmbedder({ model: dir, pooling: 'max' as 'mean' }), expectCode('INVALID_INPUT', /pooling/));
    assert.throws(() => new TransformersEmbedder({ model: dir, dims: 0 }), expectCode('INVALID_INPUT', /dims/));
    // config.json without a hidden size: dims unknown until loaded.
    const noSize = join(tempDir(), 'no-size');
    cpSync(dir, noSize, { recursive: true });
    writeFileSync(join(noSize, 'config.json'), JSON.stringify({ model_type: 'bert' }));
    assert.throws(() => new TransformersEmbedder({ model: noSize }), expectCode('INVALID_INPUT', /transformersEmbedder/));
    // A folder with a config but no ONNX weights: loading fails, typed, and a Memory writes nothing.
    const noOnnx = join(tempDir(), 'no-onnx');
    mkdirSync(noOnnx);
    cpSync(join(dir, 'config.json'), join(noOnnx, 'config.json'));
    cpSync(join(dir, 'tokenizer.json'), join(noOnnx, 'tokenizer.json'));
    cpSync(join(dir, 'tokenizer_config.json'), join(noOnnx, 'tokenizer_config.json'));
    const noTokenizer = join(tempDir(), 'no-tokenizer');
    mkdirSync(noTokenizer);
    cpSync(join(dir, 'config.json'), join(noTokenizer, 'config.json'));
    assert.throws(
      () => new TransformersEmbedder({ model: noTokenizer }),
      expectCode('INVALID_INPUT', /tokenizer\.json and tokenizer_config\.json are missing/),
    );
    await assert.rejects(new TransformersEmbedder({ model: dir, dtype: 'q4' }).embed(['hi']), expectCode('EMBEDDER_FAILED', /onnx\/model_q4\.onnx/));
    const broken = new TransformersEmbedder({ model: noOnnx });
    await assert.rejects(broken.embed(['hi']), expectCode('EMBEDDER_FAILED', /onnx\/model\.onnx/));
    await assert.rejects(transformersEmbedder({ model: noOnnx }), expectCode('EMBEDDER_FAILED'));
    const mem = await openMemory({ path: tempDb(), embedder: broken });
    await assert.rejects(mem.add('nothing is written'), expectCode('EMBEDDER_FAILED'));
    assert.equal((await mem.stats()).memories, 0);
    await mem.close();
    assert.deepEqual(fetched, []);
  });

  test("import 'mnemolite' does not load @huggingface/transformers; the first embed does", () => {
    const d = tempDir();
    writeFileSync(
      join(d, 'hook.mjs'),
      `export async function resolve(spec, ctx, next) {
  if (spec.startsWith('@huggingface/') || spec.startsWith('onnxruntime')) process.stderr.write('LOADED ' + spec + '\\n');
  return next(spec, ctx);
}\n`,
    );
    writeFileSync(join(d, 'register.mjs'), `import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n`);
    const script = `const m = await import(${JSON.stringify(join(ROOT, 'dist', 'index.js'))});
process.stderr.write('IMPORTED\\n');
const e = new m.TransformersEmbedder({ model: ${JSON.stringify(dir)} });
process.stderr.write('CONSTRUCTED\\n');
await e.embed(['hello']);
process.stderr.write('EMBEDDED\\n');`;
    const r = spawnSync(process.execPath, ['--import', join(d, 'register.mjs'), '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.split('\n').filter((l) => /^(LOADED @huggingface\/transformers|IMPORTED|CONSTRUCTED|EMBEDDED)$/.test(l));
    assert.deepEqual(lines, ['IMPORTED', 'CONSTRUCTED', 'LOADED @huggingface/transformers', 'EMBEDDED']);
  });

  test('CLI: --embedder transformers --model <folder> adds, recalls and reports the model', () => {
    const db = tempDb();
    const base = ['--db', db, '--json', '--embedder', 'transformers', '--model', dir];
    const add = cli([...base, 'add', 'Bob deploys the Rust service on a Raspberry Pi']);
    assert.equal(add.code, 0, add.stderr);
    assert.equal(cli([...base, 'add', 'Alice prefers green tea']).code, 0);
    const r = cli([...base, 'recall', '--mode', 'vector', 'Alice prefers green tea']);
    assert.equal(r.code, 0, r.stderr);
    assert.match((JSON.parse(r.stdout) as { content: string }[])[0]!.content, /Alice/);
    const s = cli([...base, 'stats']);
    assert.equal(JSON.parse(s.stdout).embedding.model, 'mnemolite-tests/tiny-bert:mean');
    const missing = cli(['--db', db, '--embedder', 'transformers', '--model', join(ROOT, 'no-such-model-folder'), 'stats']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /does not exist/);
    const noModel = cli(['--db', db, '--embedder', 'transformers', 'stats'], { env: { MNEMOLITE_MODEL: '' } });
    assert.equal(noModel.code, 1);
    assert.match(noModel.stderr, /needs --model/);
  });
});

test('without the optional package: a typed EMBEDDER_FAILED that says how to install it', async () => {
  // Load a copy of the provider from a folder with no node_modules above it, so that Node's own
  // resolution of @huggingface/transformers fails exactly as it does for a user without it.
  const d = tempDir();
  mkdirSync(join(d, 'embed'));
  for (const f of ['embed/transformers.ts', 'embed/provider.ts', 'errors.ts']) cpSync(join(ROOT, 'src', f), join(d, f));
  writeFileSync(join(d, 'package.json'), '{"type":"module"}');
  const mod = (await import(join(d, 'embed', 'transformers.ts'))) as typeof import('../src/embed/transformers.js');
  const model = writeTinyBert(join(d, 'model'), { hidden: 8 }).dir;
  const e: Embedder = new mod.TransformersEmbedder({ model });
  assert.equal(e.dims, 8);
  const check = (err: unknown): boolean => {
    assert.equal((err as MnemoliteError).name, 'MnemoliteError');
    assert.equal((err as MnemoliteError).code, 'EMBEDDER_FAILED');
    assert.match((err as Error).message, /optional package @huggingface\/transformers, which is not installed/);
    assert.ok((err as Error).message.includes('ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install @huggingface/transformers'));
    return true;
  };
  await assert.rejects(e.embed(['hello']), check);
  await assert.rejects(mod.transformersEmbedder({ model }), check);
  // Through a Memory the same advice reaches the caller, and nothing is written.
  const mem = await openMemory({ path: tempDb(), embedder: e });
  await assert.rejects(
    mem.add('hello'),
    (err: unknown) => err instanceof MnemoliteError && err.code === 'EMBEDDER_FAILED' && err.message.includes(TRANSFORMERS_INSTALL),
  );
  assert.equal((await mem.stats()).memories, 0);
  await mem.close();
});
