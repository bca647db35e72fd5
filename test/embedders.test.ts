import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { MnemoliteError, OpenAIEmbedder, ollamaEmbedder, openMemory } from '../src/index.js';
import { tempDb } from './helpers.js';

/** A real HTTP server speaking the OpenAI /v1/embeddings protocol on loopback. */
async function fakeServer(handler: (body: { model: string; input: string[] }, req: IncomingMessage, res: ServerResponse, n: number) => void) {
  let n = 0;
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => handler(JSON.parse(data) as { model: string; input: string[] }, req, res, ++n));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())), calls: () => n };
}

const vec = (t: string, d: number) => Array.from({ length: d }, (_, i) => ((t.charCodeAt(i % t.length) * (i + 1)) % 17) + 1);

test('openai provider: batches, bearer key, ordering by index, used by a Memory', async () => {
  const seen: { auth?: string; model: string; n: number }[] = [];
  const srv = await fakeServer((body, req, res) => {
    seen.push({ ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), model: body.model, n: body.input.length });
    // Answer out of order: the client must sort by index.
    const data = body.input.map((t, index) => ({ object: 'embedding', index, embedding: vec(t, 8) })).reverse();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
  });
  process.env.TEST_EMBED_KEY = 'sk-test';
  const e = new OpenAIEmbedder({ model: 'my-model', baseURL: srv.url, dims: 8, apiKeyEnv: 'TEST_EMBED_KEY', batchSize: 2 });
  assert.equal(e.id, 'my-model');
  const out = await e.embed(['a', 'bb', 'ccc']);
  assert.deepEqual(out, [vec('a', 8), vec('bb', 8), vec('ccc', 8)]);
  assert.deepEqual(
    seen.map((s) => s.n),
    [2, 1],
  );
  assert.equal(seen[0]!.auth, 'Bearer sk-test');
  const mem = await openMemory({ path: tempDb(), embedder: e });
  await mem.add('hello over http');
  const hits = await mem.recall('hello over http', { mode: 'vector' });
  assert.ok(hits[0]!.score > 0.999);
  assert.deepEqual((await mem.stats()).embedding, { provider: 'openai', model: 'my-model', dims: 8 });
  await mem.close();
  await srv.close();
});

test('openai provider: retries 429/5xx with backoff, then succeeds', async () => {
  const srv = await fakeServer((body, _req, res, n) => {
    if (n <= 2) {
      res.writeHead(n === 1 ? 429 : 503).end('busy');
      return;
    }
    res.writeHead(200).end(JSON.stringify({ data: body.input.map((t, index) => ({ index, embedding: vec(t, 4) })) }));
  });
  const e = new OpenAIEmbedder({ model: 'm', baseURL: srv.url, dims: 4, retries: 3 });
  assert.equal((await e.embed(['x'])).length, 1);
  assert.equal(srv.calls(), 3);
  await srv.close();
});

test('openai provider: gives up with a typed error; 401 says to set the key; timeouts', async () => {
  const down = await fakeServer((_b, _q, res) => {
    res.writeHead(500).end('boom');
  });
  await assert.rejects(
    new OpenAIEmbedder({ model: 'm', baseURL: down.url, dims: 4, retries: 1 }).embed(['x']),
    (err: unknown) => err instanceof MnemoliteError && err.code === 'EMBEDDER_FAILED' && /did not answer after 2 attempts/.test(err.message),
  );
  await down.close();
  const denied = await fakeServer((_b, _q, res) => {
    res.writeHead(401).end('{"error":"bad key"}');
  });
  await assert.rejects(new OpenAIEmbedder({ model: 'm', baseURL: denied.url, dims: 4 }).embed(['x']), /OPENAI_API_KEY/);
  assert.equal(denied.calls(), 1, '4xx is not retried');
  await denied.close();
  const slow = await fakeServer(() => {
    /* never answers */
  });
  await assert.rejects(new OpenAIEmbedder({ model: 'm', baseURL: slow.url, dims: 4, timeoutMs: 100, retries: 0 }).embed(['x']), /timed out/);
  await slow.close();
  const short = await fakeServer((_b, _q, res) => {
    res.writeHead(200).end(JSON.stringify({ data: [] }));
  });
  await assert.rejects(new OpenAIEmbedder({ model: 'm', baseURL: short.url, dims: 4 }).embed(['x']), /returned 0 vectors for 1/);
  await short.close();
});

test('openai provider: needs a model and known dims; ollama preset', () => {
  assert.throws(() => new OpenAIEmbedder({ model: 'mystery-model' }), /pass dims/);
  assert.equal(new OpenAIEmbedder({ model: 'text-embedding-3-small' }).dims, 1536);
  const o = ollamaEmbedder();
  assert.equal(o.id, 'nomic-embed-text');
  assert.equal(o.dims, 768);
});

test('a custom embedder object with a bad shape is refused at open', async () => {
  await assert.rejects(
    openMemory({ path: tempDb(), embedder: { id: '', dims: 3 } as never }),
    (err: unknown) => err instanceof MnemoliteError && err.code === 'INVALID_INPUT',
  );
});

test('a custom embedder missing provider, or with a bad id, dims, embed or close, is INVALID_INPUT naming the field, and no file is created', async () => {
  const embed = async (texts: string[]): Promise<number[][]> => texts.map(() => [1, 0, 0]);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ id: 'm', dims: 3, embed }, /provider must be a non-empty string \(got nothing\)/],
    [{ provider: '', id: 'm', dims: 3, embed }, /provider/],
    [{ provider: 'p', id: 7, dims: 3, embed }, /id must be a non-empty string/],
    [{ provider: 'p', id: 'm', dims: 2.5, embed }, /dims must be a whole number/],
    [{ provider: 'p', id: 'm', dims: '3', embed }, /dims must be a whole number/],
    [{ provider: 'p', id: 'm', dims: 3, embed: 'no' }, /embed must be a function/],
    [{ provider: 'p', id: 'm', dims: 3, embed, close: 1 }, /close, when present, must be a function/],
  ];
  for (const [e, msg] of cases) {
    const path = tempDb();
    await assert.rejects(
      openMemory({ path, embedder: e as never }),
      (err: unknown) => err instanceof MnemoliteError && err.code === 'INVALID_INPUT' && msg.test(err.message) && /custom embedder/.test(err.message),
      JSON.stringify(Object.keys(e)),
    );
    assert.equal(existsSync(path), false);
  }
  const ok = await openMemory({ path: tempDb(), embedder: { provider: 'p', id: 'm', dims: 3, embed } });
  await ok.add('works');
  await ok.close();
});
