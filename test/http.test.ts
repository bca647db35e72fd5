import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { after, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { CLI, tempDb } from './helpers.js';

// `mnemolite serve` is started as a real child process (the built CLI, dist/cli/main.js) and
// driven with real HTTP requests over 127.0.0.1.

const ADMIN = 'admin-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';
/** Strong enough for a non-loopback bind (the shape of `openssl rand -hex 32`). */
const STRONG = '9f3c1a7be04d5562c8e1f0a93b7d24c6e58a0f1d3b9c7e2a4f6d8b0c1e3a5f79';
const TEAM = 'team-token-0123456789abcdef0';

interface Server {
  url: string;
  port: number;
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}
const running: Server[] = [];
after(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

/** Start `mnemolite serve --port 0` and wait for the address it prints. */
function serve(args: { db?: string; global?: string[]; serve?: string[]; env?: Record<string, string> } = {}): Promise<Server> {
  const db = args.db ?? tempDb();
  const proc = spawn(process.execPath, [CLI, '--db', db, ...(args.global ?? ['--embedder', 'none']), 'serve', '--port', '0', ...(args.serve ?? [])], {
    env: { ...process.env, MNEMOLITE_DB: '', MNEMOLITE_TOKEN: '', MNEMOLITE_TOKENS: '', MNEMOLITE_HOST: '', MNEMOLITE_PORT: '', ...args.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '',
    err = '';
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in 120 s\nstdout: ${out}\nstderr: ${err}`));
    }, 120_000);
    const onData = (): void => {
      const m = /listening(?: on |":")(http:\/\/[^\s"]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      proc.stdout!.off('data', onData);
      const url = m[1]!.replace(/^http:\/\/(0\.0\.0\.0|\[::\])/, 'http://127.0.0.1');
      const s: Server = {
        url,
        port: Number(new URL(url).port),
        proc,
        stdout: () => out,
        stderr: () => err,
        stop: async () => {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
          await exited;
        },
      };
      running.push(s);
      resolve(s);
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Run the CLI expecting it to exit (for refused configurations). */
function serveExit(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, '--db', tempDb(), '--embedder', 'none', 'serve', ...args], {
      env: { ...process.env, MNEMOLITE_DB: '', MNEMOLITE_TOKEN: '', MNEMOLITE_TOKENS: '', ...env },
    });
    let stdout = '',
      stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    const t = setTimeout(() => p.kill('SIGKILL'), 120_000);
    p.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One HTTP request with full control over headers and the raw body. */
function req(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string | Buffer; token?: string; headers?: Record<string, string> } = {},
): Promise<Res> {
  const u = new URL(path, base);
  const headers: Record<string, string> = { ...opts.headers };
  let payload: Buffer | undefined;
  if (opts.raw !== undefined) payload = Buffer.from(opts.raw);
  else if (opts.body !== undefined) {
    payload = Buffer.from(JSON.stringify(opts.body));
    headers['content-type'] ??= 'application/json';
  }
  if (payload) headers['content-length'] = String(payload.length);
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  return new Promise((resolve, reject) => {
    const r = httpRequest({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers, timeout: 120_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    r.on('error', reject);
    r.on('timeout', () => r.destroy(new Error('request timed out')));
    if (payload) r.write(payload);
    r.end();
  });
}

/** An error response: the status, a JSON `{ error: { code, message } }`, and nothing internal. */
function assertError(r: Res, status: number, code: string, message?: RegExp): void {
  assert.equal(r.status, status, r.text);
  assert.match(String(r.headers['content-type']), /application\/json/);
  assert.equal(r.json?.error?.code, code, r.text);
  assert.equal(typeof r.json.error.message, 'string');
  if (message) assert.match(r.json.error.message, message);
  assert.doesNotMatch(r.text, /\bat [^\n]+:\d+:\d+|node_modules|\.ts:\d|\.js:\d|stack/i, 'no stack trace or source path');
}

/** Validate a response against a schema of the served OpenAPI document. */
function conformer(doc: any): (schema: string, value: unknown) => void {
  // @ts-expect-error -- under NodeNext, ajv's CommonJS default export is typed as its module object
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  return (schema, value) => {
    const validate = ajv.getSchema(`openapi.json#/components/schemas/${schema}`);
    assert.ok(validate, `schema ${schema} exists`);
    assert.ok(validate(value), `${schema}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`);
  };
}

test('every route answers real HTTP requests, and responses match /openapi.json', { timeout: 300_000 }, async () => {
  const s = await serve();
  const u = s.url;
  assert.match(s.stdout(), /auth:\s+no token \(loopback only\)/);
  const doc = (await req(u, 'GET', '/openapi.json')).json;
  const conforms = conformer(doc);

  const health = await req(u, 'GET', '/api/health');
  assert.equal(health.status, 200);
  conforms('HealthResult', health.json);
  const me = await req(u, 'GET', '/api/me');
  assert.deepEqual(me.json, { auth: 'none', namespaces: '*', namespacesInUse: [], readOnly: false });

  // add
  const a = await req(u, 'POST', '/api/memories', {
    body: {
      content: 'We deploy the Rust service on a Raspberry Pi 4',
      namespace: 'agent-1',
      key: 'deploy',
      category: 'core',
      sessionId: 's1',
      metadata: { source: 'chat' },
      createdAt: '2026-03-01T00:00:00Z',
    },
  });
  assert.equal(a.status, 201, a.text);
  conforms('AddResult', a.json);
  assert.equal(a.json.replaced, false);
  const id = a.json.id as string;
  const again = await req(u, 'POST', '/api/memories', {
    body: {
      content: 'We deploy the Rust service on a Raspberry Pi 5',
      namespace: 'agent-1',
      key: 'deploy',
      category: 'core',
      sessionId: 's1',
      metadata: { source: 'chat' },
    },
  });
  assert.deepEqual(again.json, { id, replaced: true });
  const batch = await req(u, 'POST', '/api/memories/batch', {
    body: {
      memories: [
        { content: 'Alice prefers green tea', category: 'preference', createdAt: '2026-03-02T00:00:00Z' },
        { content: 'The cat is called Whiskers', namespace: 'agent-2', sessionId: 's2', metadata: { source: 'import' }, createdAt: '2026-03-03T00:00:00Z' },
      ],
    },
  });
  assert.equal(batch.status, 201, batch.text);
  conforms('AddManyResult', batch.json);
  assert.equal(batch.json.results.length, 2);
  const [teaId, catId] = batch.json.results.map((r: { id: string }) => r.id);

  // get
  const got = await req(u, 'GET', `/api/memories/${id}`);
  assert.equal(got.status, 200);
  conforms('Memory', got.json);
  assert.equal(got.json.content, 'We deploy the Rust service on a Raspberry Pi 5');
  assert.equal(got.json.createdAt, '2026-03-01T00:00:00.000Z');
  assert.deepEqual(got.json.metadata, { source: 'chat' });
  assertError(await req(u, 'GET', `/api/memories/${id}?namespace=agent-2`), 404, 'NOT_FOUND', /No memory with id/);
  assertError(await req(u, 'GET', '/api/memories/00000000-0000-7000-8000-000000000000'), 404, 'NOT_FOUND');

  // list
  const all = await req(u, 'GET', '/api/memories');
  assert.equal(all.status, 200);
  conforms('ListResult', all.json);
  assert.equal(all.json.total, 3, 'every namespace by default');
  assert.deepEqual(
    all.json.memories.map((m: { id: string }) => m.id),
    [catId, teaId, id],
    'newest first',
  );
  const asc = await req(u, 'GET', '/api/memories?order=asc&limit=2&offset=1');
  assert.deepEqual(
    asc.json.memories.map((m: { id: string }) => m.id),
    [teaId, catId],
  );
  assert.equal(asc.json.total, 3);
  assert.equal((await req(u, 'GET', '/api/memories?namespace=agent-2')).json.total, 1);
  assert.equal((await req(u, 'GET', '/api/memories?category=preference')).json.memories[0].id, teaId);
  assert.equal((await req(u, 'GET', '/api/memories?sessionId=s1')).json.memories[0].id, id);
  assert.equal((await req(u, 'GET', '/api/memories?since=2026-03-02&until=2026-03-03')).json.memories[0].id, teaId);
  const meta = await req(u, 'GET', `/api/memories?metadata=${encodeURIComponent('{"source":"import"}')}`);
  assert.deepEqual(
    meta.json.memories.map((m: { id: string }) => m.id),
    [catId],
  );

  // recall
  const rec = await req(u, 'POST', '/api/recall', { body: { query: 'raspberry', namespace: 'agent-1' } });
  assert.equal(rec.status, 200, rec.text);
  conforms('RecallResult', rec.json);
  assert.equal(rec.json.hits[0].id, id);
  assert.equal(rec.json.hits[0].keywordRank, 1);
  assert.equal((await req(u, 'POST', '/api/recall', { body: { query: 'raspberry' } })).json.hits.length, 0, 'recall defaults to namespace "default"');
  assert.equal((await req(u, 'POST', '/api/recall', { body: { query: 'whiskers', namespace: '*' } })).json.hits[0].id, catId);
  assertError(await req(u, 'POST', '/api/recall', { body: { query: 'x', mode: 'vector' } }), 400, 'SEMANTIC_DISABLED', /Semantic recall is off/);
  // relevance (issue 15): every hit carries it; minRelevance filters; a bad threshold is a 400
  assert.ok(rec.json.hits.every((h: { relevance: number }) => h.relevance >= 0 && h.relevance <= 1));
  const strict = await req(u, 'POST', '/api/recall', { body: { query: 'raspberry', namespace: 'agent-1', minRelevance: 1 } });
  assert.ok(strict.json.hits.every((h: { relevance: number }) => h.relevance >= 1));
  assertError(await req(u, 'POST', '/api/recall', { body: { query: 'x', minRelevance: 2 } }), 400, 'INVALID_INPUT', /minRelevance/);
  // context: a dated block, or "" when nothing is relevant
  const ctx = await req(u, 'POST', '/api/context', { body: { query: 'raspberry', namespace: 'agent-1', minRelevance: 0, maxTokens: 200 } });
  assert.equal(ctx.status, 200, ctx.text);
  conforms('ContextResult', ctx.json);
  assert.match(ctx.json.text, /^Relevant memories \(most relevant first\):\n- \[\d{4}-\d\d-\d\d\] /);
  assert.equal(ctx.json.memories[0].id, id);
  const noCtx = await req(u, 'POST', '/api/context', { body: { query: 'capital of Australia', namespace: 'agent-1' } });
  assert.deepEqual([noCtx.json.text, noCtx.json.memories], ['', []]);
  assertError(await req(u, 'POST', '/api/context', { body: { query: 'x', maxTokens: 1 } }), 400, 'INVALID_INPUT', /maxTokens/);

  // update
  const up = await req(u, 'PATCH', `/api/memories/${teaId}`, { body: { content: 'Alice prefers oolong tea', category: null, metadata: { source: 'edit' } } });
  assert.equal(up.status, 200, up.text);
  conforms('Memory', up.json);
  assert.equal(up.json.content, 'Alice prefers oolong tea');
  assert.equal(up.json.category, null);
  assert.deepEqual(up.json.metadata, { source: 'edit' });
  assertError(await req(u, 'PATCH', '/api/memories/nope', { body: { content: 'x' } }), 404, 'NOT_FOUND');
  assertError(await req(u, 'PATCH', `/api/memories/${teaId}`, { body: { key: '' } }), 400, 'INVALID_INPUT', /key must not be empty/);

  // stats
  const st = await req(u, 'GET', '/api/stats');
  assert.equal(st.status, 200);
  conforms('Stats', st.json);
  assert.equal(st.json.memories, 3);
  assert.deepEqual(st.json.namespaces, { 'agent-1': 1, default: 1, 'agent-2': 1 });
  assert.equal(st.json.semantic, false);
  assert.ok(st.json.fileBytes > 0);
  assert.equal((await req(u, 'GET', '/api/stats?namespace=agent-2')).json.memories, 1);

  // export
  const ex = await req(u, 'GET', '/api/export');
  assert.equal(ex.status, 200);
  assert.match(String(ex.headers['content-type']), /application\/x-ndjson/);
  const lines = ex.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 3);
  for (const l of lines) conforms('ExportRecord', l);
  assert.deepEqual(new Set(lines.map((l) => l.id)), new Set([id, teaId, catId]));
  const ex2 = await req(u, 'GET', '/api/export?namespace=agent-2&vectors=true');
  assert.equal(ex2.text.trim().split('\n').length, 1);

  // forget
  const del = await req(u, 'DELETE', `/api/memories/${catId}`);
  assert.equal(del.status, 200);
  conforms('ForgetResult', del.json);
  assert.deepEqual(del.json, { id: catId, forgotten: true });
  assertError(await req(u, 'DELETE', `/api/memories/${catId}`), 404, 'NOT_FOUND');
  assertError(await req(u, 'GET', `/api/memories/${catId}`), 404, 'NOT_FOUND');
  assert.equal((await req(u, 'GET', '/api/stats')).json.memories, 2);

  // the inspector's files
  const page = await req(u, 'GET', '/');
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
  assert.match(page.text, /mnemolite/);
  const js = await req(u, 'GET', '/inspector.js');
  assert.match(String(js.headers['content-type']), /javascript/);
  assert.doesNotThrow(() => new Function(js.text), 'the inspector script parses');
  assert.equal((await req(u, 'GET', '/inspector.css')).status, 200);
  await s.stop();
  assert.equal(s.proc.exitCode, 0, s.stderr());
});

test('lifecycle over HTTP: expiry, pinning, importance, dedup, history, prune, re-ranking', { timeout: 120_000 }, async () => {
  const s = await serve();
  const u = s.url;
  const doc = (await req(u, 'GET', '/openapi.json')).json;
  const conforms = conformer(doc);
  const add = async (body: Record<string, unknown>) => {
    const r = await req(u, 'POST', '/api/memories', { body });
    assert.equal(r.status, 201, r.text);
    conforms('AddResult', r.json);
    return r.json as { id: string; replaced: boolean; deduplicated?: string };
  };
  const old = await add({ content: 'The wifi password was hunter2', createdAt: '2020-01-01T00:00:00Z', ttl: '1d' });
  const pinned = await add({ content: 'The wifi network is called Basement', pinned: true, importance: 0.9 });
  const live = await add({ content: 'The router sits in the hallway cupboard', expiresAt: '2999-01-01T00:00:00Z' });
  const dup = await add({ content: 'The router sits in the hallway cupboard' });
  assert.equal(dup.id, live.id, 'an identical memory is stored once');
  assert.equal(dup.deduplicated, 'exact');

  // Expired memories are hidden unless asked for.
  assert.deepEqual((await req(u, 'GET', '/api/memories')).json.memories.map((m: { id: string }) => m.id).sort(), [pinned.id, live.id].sort());
  const withExpired = await req(u, 'GET', '/api/memories?includeExpired=true');
  assert.equal(withExpired.json.total, 3);
  assertError(await req(u, 'GET', `/api/memories/${old.id}`), 404, 'NOT_FOUND');
  const expired = await req(u, 'GET', `/api/memories/${old.id}?includeExpired=true`);
  assert.equal(expired.status, 200);
  conforms('Memory', expired.json);
  assert.equal(expired.json.expiresAt, '2020-01-02T00:00:00.000Z');
  const p = (await req(u, 'GET', `/api/memories/${pinned.id}`)).json;
  conforms('Memory', p);
  assert.equal(p.pinned, true);
  assert.equal(p.importance, 0.9);
  assert.equal((await req(u, 'GET', '/api/stats')).json.expired, 1);
  assert.equal(
    (await req(u, 'POST', '/api/recall', { body: { query: 'wifi password' } })).json.hits.some((h: { id: string }) => h.id === old.id),
    false,
  );
  const ranked = await req(u, 'POST', '/api/recall', { body: { query: 'wifi router', recency: { halfLife: '30d', weight: 0.5 }, importanceWeight: 1 } });
  assert.equal(ranked.status, 200, ranked.text);
  conforms('RecallResult', ranked.json);
  assert.ok(ranked.json.hits.length >= 1 && ranked.json.hits.every((h: { id: string }) => h.id !== old.id));
  const diverse = await req(u, 'POST', '/api/recall', { body: { query: 'wifi router', mode: 'keyword', mmr: { lambda: 0.5 } } });
  assert.equal(diverse.status, 200, diverse.text);

  // Update: unpin, new expiry; history keeps earlier content.
  const up = await req(u, 'PATCH', `/api/memories/${live.id}`, {
    body: { content: 'The router moved to the attic', expiresAt: null, importance: null, pinned: true },
  });
  assert.equal(up.status, 200, up.text);
  assert.equal(up.json.expiresAt, undefined);
  assert.equal(up.json.pinned, true);
  const hist = await req(u, 'GET', `/api/memories/${live.id}/history`);
  assert.equal(hist.status, 200, hist.text);
  conforms('HistoryResult', hist.json);
  assert.deepEqual(
    hist.json.versions.map((v: { content: string; current: boolean }) => [v.content, v.current]),
    [
      ['The router sits in the hallway cupboard', false],
      ['The router moved to the attic', true],
    ],
  );
  assertError(await req(u, 'GET', '/api/memories/00000000-0000-7000-8000-000000000000/history'), 404, 'NOT_FOUND');

  // Prune deletes the expired memory (a dry run first).
  const dry = await req(u, 'POST', '/api/prune', { body: { dryRun: true } });
  assert.equal(dry.status, 200, dry.text);
  conforms('PruneResult', dry.json);
  assert.deepEqual([dry.json.deleted, dry.json.dryRun, dry.json.ids], [1, true, [old.id]]);
  const pr = await req(u, 'POST', '/api/prune', { body: {} });
  assert.deepEqual([pr.json.deleted, pr.json.dryRun], [1, false]);
  assert.equal((await req(u, 'GET', '/api/memories?includeExpired=true')).json.total, 2);

  // Bad lifecycle input.
  assertError(await req(u, 'POST', '/api/memories', { body: { content: 'x', ttl: true } }), 400, 'INVALID_INPUT', /"ttl"/);
  assertError(await req(u, 'POST', '/api/memories', { body: { content: 'x', importance: 5 } }), 400, 'INVALID_INPUT', /importance/);
  assertError(await req(u, 'POST', '/api/prune', { body: { vacuum: 'sometimes' } }), 400, 'INVALID_INPUT', /"vacuum"/);
  assertError(await req(u, 'POST', '/api/recall', { body: { query: 'x', recency: { weight: 1 } } }), 400, 'INVALID_INPUT', /recency\.halfLife/);
});

test('/openapi.json documents every route, its parameters, bodies and responses', { timeout: 120_000 }, async () => {
  const s = await serve();
  const r = await req(s.url, 'GET', '/openapi.json');
  assert.equal(r.status, 200);
  const doc = r.json;
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.title, 'mnemolite HTTP API');
  const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, m]) => Object.keys(m).map((k) => `${k.toUpperCase()} ${p}`));
  for (const op of [
    'POST /api/memories',
    'POST /api/memories/batch',
    'GET /api/memories',
    'GET /api/memories/{id}',
    'PATCH /api/memories/{id}',
    'DELETE /api/memories/{id}',
    'GET /api/memories/{id}/history',
    'POST /api/recall',
    'POST /api/prune',
    'GET /api/stats',
    'GET /api/export',
    'GET /api/me',
    'GET /api/health',
  ])
    assert.ok(ops.includes(op), `${op} is documented`);
  // Every $ref points at a component.
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(refs.length > 10);
  for (const name of refs) assert.ok(doc.components.schemas[name], `component ${name} exists`);
  const add = doc.paths['/api/memories'].post;
  assert.deepEqual(add.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/AddRequest' });
  assert.deepEqual(doc.components.schemas.AddRequest.required, ['content']);
  assert.equal(doc.components.schemas.AddRequest.additionalProperties, false);
  assert.ok(add.responses['201'] && add.responses['400'] && add.responses['413']);
  const list = doc.paths['/api/memories'].get;
  const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
  assert.deepEqual(
    { in: limit.in, required: limit.required, type: limit.schema.type, max: limit.schema.maximum },
    { in: 'query', required: false, type: 'integer', max: 1000 },
  );
  const idParam = doc.paths['/api/memories/{id}'].get.parameters.find((p: { name: string }) => p.name === 'id');
  assert.equal(idParam.in, 'path');
  assert.equal(idParam.required, true);
  assert.deepEqual(doc.paths['/api/recall'].post.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/RecallRequest' });
  assert.deepEqual(doc.components.schemas.RecallRequest.properties.mode.enum, ['hybrid', 'keyword', 'vector']);
  assert.ok(doc.paths['/api/export'].get.responses['200'].content['application/x-ndjson']);
  assert.deepEqual(doc.paths['/api/stats'].get.security, [], 'no token configured: no security requirement');
  assert.ok(doc.components.securitySchemes.bearerAuth);
  // With tokens, the /api routes (but not health) require the bearer scheme.
  const t = await serve({ env: { MNEMOLITE_TOKEN: ADMIN } });
  const tdoc = (await req(t.url, 'GET', '/openapi.json')).json;
  assert.deepEqual(tdoc.paths['/api/stats'].get.security, [{ bearerAuth: [] }]);
  assert.ok(tdoc.paths['/api/stats'].get.responses['401']);
  assert.deepEqual(tdoc.paths['/api/health'].get.security, []);
});

test('bad requests get a 4xx with a clear message and no stack trace', { timeout: 120_000 }, async () => {
  const s = await serve({ serve: ['--body-limit', '200000'] });
  const u = s.url;
  const post = (path: string, o: Parameters<typeof req>[3]) => req(u, 'POST', path, o);
  assertError(await post('/api/memories', { raw: '{"content": "x",', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON', /not valid JSON/);
  assertError(await post('/api/memories', { raw: '', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON', /empty/);
  assertError(
    await post('/api/memories', { raw: '{"__proto__": {"admin": true}, "content": "x"}', headers: { 'content-type': 'application/json' } }),
    400,
    'INVALID_JSON',
    /__proto__/,
  );
  assertError(await post('/api/memories', {}), 400, 'INVALID_INPUT', /needs a JSON body/);
  assertError(
    await post('/api/memories', { raw: 'content=hello', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    /application\/json/,
  );
  assertError(await post('/api/memories', { raw: 'hello', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  assertError(await post('/api/memories', { body: { content: 42 } }), 400, 'INVALID_INPUT', /body field "content": expected string, received number/);
  assertError(await post('/api/memories', { body: { text: 'hello' } }), 400, 'INVALID_INPUT', /"content"|unknown field/);
  assertError(await post('/api/memories', { body: { content: 'hello', colour: 'red' } }), 400, 'INVALID_INPUT', /unknown field\(s\): "colour"/);
  assertError(await post('/api/memories', { body: ['hello'] }), 400, 'INVALID_INPUT', /expected object/);
  assertError(await post('/api/memories', { body: { content: '   ' } }), 400, 'INVALID_INPUT', /empty or only whitespace/);
  assertError(await post('/api/memories', { body: { content: 'x', metadata: [1] } }), 400, 'INVALID_INPUT', /metadata/);
  assertError(await post('/api/memories', { body: { content: 'x', createdAt: 'last tuesday' } }), 400, 'INVALID_INPUT', /valid date/);
  assertError(await post('/api/memories', { body: { content: 'x', namespace: '' } }), 400, 'INVALID_INPUT', /namespace/);
  assertError(await post('/api/memories', { body: { content: 'é'.repeat(60_000) } }), 400, 'INVALID_INPUT', /120000 bytes; the limit is 100000/);
  assertError(await post('/api/memories', { body: { content: 'x'.repeat(300_000) } }), 413, 'PAYLOAD_TOO_LARGE', /larger than the server accepts/);
  assertError(await post('/api/memories/batch', { body: { memories: [] } }), 400, 'INVALID_INPUT', /memories/);
  assertError(await post('/api/recall', { body: { query: 'x', limit: '5' } }), 400, 'INVALID_INPUT', /"limit": expected number, received string/);
  assertError(await post('/api/recall', { body: { query: 'x', limit: 0 } }), 400, 'INVALID_INPUT', /"limit"/);
  assertError(await post('/api/recall', { body: { query: 'x', mode: 'fuzzy' } }), 400, 'INVALID_INPUT', /"mode"/);
  assertError(await post('/api/recall', { body: { query: '' } }), 400, 'INVALID_INPUT', /query is empty/);
  assertError(await post('/api/recall', { body: { query: 'x', since: '2026-05-01', until: '2026-04-01' } }), 400, 'INVALID_INPUT', /must be before/);
  assertError(await req(u, 'GET', '/api/memories?limit=abc'), 400, 'INVALID_INPUT', /query parameter "limit": must be a whole number/);
  assertError(await req(u, 'GET', '/api/memories?limit=5000'), 400, 'INVALID_INPUT', /at most 1000/);
  assertError(await req(u, 'GET', '/api/memories?order=sideways'), 400, 'INVALID_INPUT', /"order"/);
  assertError(await req(u, 'GET', '/api/memories?colour=red'), 400, 'INVALID_INPUT', /unknown field\(s\): "colour"/);
  assertError(await req(u, 'GET', '/api/memories?namespace=a&namespace=b'), 400, 'INVALID_INPUT', /"namespace"/);
  assertError(await req(u, 'GET', '/api/memories?metadata=%7Bnope'), 400, 'INVALID_INPUT', /JSON object/);
  assertError(await req(u, 'GET', '/api/export?vectors=maybe'), 400, 'INVALID_INPUT', /true or false/);
  assertError(await req(u, 'PATCH', '/api/memories/x', { body: { content: 5 } }), 400, 'INVALID_INPUT', /"content"/);
  assertError(await req(u, 'GET', `/api/memories/${'x'.repeat(300)}`), 414, 'URI_TOO_LONG', /too long/);
  assertError(await req(u, 'GET', '/api/nothing-here'), 404, 'NO_ROUTE', /openapi\.json/);
  assertError(await req(u, 'GET', '/api/memories/%E0%A4%A'), 400, 'BAD_REQUEST');
  assertError(await req(u, 'PUT', '/api/memories'), 404, 'NO_ROUTE');
  // Default limit (1 MiB) on another server.
  const d = await serve();
  assertError(
    await req(d.url, 'POST', '/api/memories/batch', { body: { memories: Array.from({ length: 30 }, () => ({ content: 'y'.repeat(50_000) })) } }),
    413,
    'PAYLOAD_TOO_LARGE',
  );
  // Still healthy afterwards.
  assert.equal((await req(u, 'POST', '/api/memories', { body: { content: 'still fine' } })).status, 201);
});

test('tokens: bearer auth, constant-time check, per-token namespace restriction', { timeout: 180_000 }, async () => {
  const s = await serve({ env: { MNEMOLITE_TOKEN: ADMIN, MNEMOLITE_TOKENS: `${AGENT}=agent-1, ${TEAM}=team-*|shared` } });
  const u = s.url;
  assert.match(s.stdout(), /3 tokens, 2 limited to namespaces/);
  // Public: health, the OpenAPI document and the inspector's files (they hold no data).
  assert.equal((await req(u, 'GET', '/api/health')).status, 200);
  assert.equal((await req(u, 'GET', '/openapi.json')).status, 200);
  assert.equal((await req(u, 'GET', '/')).status, 200);
  // Missing or wrong tokens.
  const none = await req(u, 'GET', '/api/stats');
  assertError(none, 401, 'UNAUTHORIZED', /Authorization: Bearer/);
  assert.match(String(none.headers['www-authenticate']), /^Bearer/);
  assertError(await req(u, 'GET', '/api/stats', { token: 'admin-token-0123456789abcdeX' }), 401, 'UNAUTHORIZED', /not valid/);
  assertError(await req(u, 'GET', '/api/stats', { token: ADMIN.slice(0, -1) }), 401, 'UNAUTHORIZED');
  assertError(await req(u, 'GET', '/api/stats', { headers: { authorization: `Basic ${Buffer.from(`x:${ADMIN}`).toString('base64')}` } }), 401, 'UNAUTHORIZED');
  assertError(await req(u, 'POST', '/api/memories', { body: { content: 'sneaky' } }), 401, 'UNAUTHORIZED');
  assertError(await req(u, 'DELETE', '/api/memories/x'), 401, 'UNAUTHORIZED');
  assert.equal((await req(u, 'GET', '/api/stats', { token: ADMIN })).status, 200);
  assert.equal((await req(u, 'GET', '/api/stats', { headers: { authorization: `bearer ${ADMIN}` } })).status, 200, 'scheme is case-insensitive');
  // A host check is not needed with tokens: any Host works.
  assert.equal((await req(u, 'GET', '/api/me', { token: ADMIN, headers: { host: 'memory.internal:7077' } })).status, 200);

  // Admin writes to several namespaces.
  const add = async (token: string, body: Record<string, unknown>) => req(u, 'POST', '/api/memories', { token, body });
  const secret = (await add(ADMIN, { content: 'The launch code is hidden in the vault', namespace: 'ops' })).json.id as string;
  const shared = (await add(ADMIN, { content: 'Shared vault note for the team', namespace: 'shared' })).json.id as string;

  // The agent token: exactly one namespace, used by default.
  // namespacesInUse lists only names inside the grant: ops and shared hold memories, but not for this token.
  assert.deepEqual((await req(u, 'GET', '/api/me', { token: AGENT })).json, { auth: 'token', namespaces: ['agent-1'], namespacesInUse: [], readOnly: false });
  const mine = await add(AGENT, { content: 'Agent one keeps its vault notes here' });
  assert.equal(mine.status, 201, mine.text);
  const mineId = mine.json.id as string;
  assert.equal((await req(u, 'GET', `/api/memories/${mineId}`, { token: ADMIN })).json.namespace, 'agent-1');
  assertError(await add(AGENT, { content: 'x', namespace: 'ops' }), 403, 'FORBIDDEN', /may not use namespace "ops"/);
  assertError(
    await req(u, 'POST', '/api/memories/batch', { token: AGENT, body: { memories: [{ content: 'ok' }, { content: 'no', namespace: 'ops' }] } }),
    403,
    'FORBIDDEN',
  );
  const list = await req(u, 'GET', '/api/memories', { token: AGENT });
  assert.deepEqual(
    list.json.memories.map((m: { id: string }) => m.id),
    [mineId],
    'lists only its namespace',
  );
  assertError(await req(u, 'GET', '/api/memories?namespace=*', { token: AGENT }), 403, 'FORBIDDEN', /not every namespace/);
  assertError(await req(u, 'GET', '/api/memories?namespace=ops', { token: AGENT }), 403, 'FORBIDDEN');
  // Memories of other namespaces do not exist for it.
  assertError(await req(u, 'GET', `/api/memories/${secret}`, { token: AGENT }), 404, 'NOT_FOUND');
  assertError(await req(u, 'PATCH', `/api/memories/${secret}`, { token: AGENT, body: { content: 'changed' } }), 404, 'NOT_FOUND');
  assertError(await req(u, 'DELETE', `/api/memories/${secret}`, { token: AGENT }), 404, 'NOT_FOUND');
  assertError(await req(u, 'GET', `/api/memories/${secret}?namespace=ops`, { token: AGENT }), 403, 'FORBIDDEN');
  assert.equal((await req(u, 'GET', `/api/memories/${secret}`, { token: ADMIN })).json.content, 'The launch code is hidden in the vault', 'untouched');
  const hits = await req(u, 'POST', '/api/recall', { token: AGENT, body: { query: 'vault' } });
  assert.deepEqual(
    hits.json.hits.map((h: { id: string }) => h.id),
    [mineId],
  );
  assertError(await req(u, 'POST', '/api/recall', { token: AGENT, body: { query: 'vault', namespace: '*' } }), 403, 'FORBIDDEN');
  const st = await req(u, 'GET', '/api/stats', { token: AGENT });
  assert.equal(st.status, 200);
  assert.deepEqual(st.json.namespaces, { 'agent-1': 1 });
  assert.equal(st.json.path, undefined, 'the file path is not shown to restricted tokens');
  const ex = await req(u, 'GET', '/api/export', { token: AGENT });
  assert.deepEqual(
    ex.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id),
    [mineId],
  );
  assert.equal((await req(u, 'PATCH', `/api/memories/${mineId}`, { token: AGENT, body: { category: 'notes' } })).json.category, 'notes');
  assert.equal((await req(u, 'GET', `/api/memories/${mineId}/history`, { token: AGENT })).status, 200);
  assertError(await req(u, 'GET', `/api/memories/${secret}/history`, { token: AGENT }), 404, 'NOT_FOUND');
  assert.equal((await req(u, 'POST', '/api/prune', { token: AGENT, body: { dryRun: true } })).status, 200);
  assertError(await req(u, 'POST', '/api/prune', { token: AGENT, body: { vacuum: 'full' } }), 403, 'FORBIDDEN', /every namespace/);

  // The team token: a prefix pattern and a name; no single default, so it must name a namespace.
  assertError(await add(TEAM, { content: 'x' }), 403, 'FORBIDDEN', /may not use namespace "default"/);
  assert.equal((await add(TEAM, { content: 'Team red vault rota', namespace: 'team-red' })).status, 201);
  assertError(await add(TEAM, { content: 'x', namespace: 'teammate' }), 403, 'FORBIDDEN');
  assertError(await req(u, 'GET', '/api/memories', { token: TEAM }), 403, 'FORBIDDEN', /Pass namespace=/);
  assert.equal((await req(u, 'GET', `/api/memories/${shared}`, { token: TEAM })).status, 200);
  assert.equal((await req(u, 'GET', '/api/memories?namespace=team-red', { token: TEAM })).json.total, 1);
  assert.equal((await req(u, 'DELETE', `/api/memories/${shared}`, { token: TEAM })).status, 200);
  assertError(await req(u, 'DELETE', `/api/memories/${mineId}`, { token: TEAM }), 404, 'NOT_FOUND');
});

test('binding beyond loopback needs a token; bad token settings are refused', { timeout: 180_000 }, async () => {
  const refused = await serveExit(['--port', '0', '--host', '0.0.0.0'], {});
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /Refusing to listen on 0\.0\.0\.0 without a token.*MNEMOLITE_TOKEN/);
  assert.doesNotMatch(refused.stderr, /\bat .+:\d+:\d+/);
  const short = await serveExit(['--port', '0'], { MNEMOLITE_TOKEN: 'short' });
  assert.equal(short.code, 1);
  assert.match(short.stderr, /at least 16 characters/);
  const badList = await serveExit(['--port', '0'], { MNEMOLITE_TOKENS: `${AGENT}` });
  assert.equal(badList.code, 1);
  assert.match(badList.stderr, /<token>=<namespaces>/);
  const badPort = await serveExit(['--port', '70000'], {});
  assert.equal(badPort.code, 1);
  assert.match(badPort.stderr, /--port must be a whole number/);

  // Beyond loopback a token must be strong (~128 bits estimated), for MNEMOLITE_TOKEN and MNEMOLITE_TOKENS alike.
  for (const env of [
    { MNEMOLITE_TOKEN: 'aaaaaaaaaaaaaaaa' } as Record<string, string>,
    { MNEMOLITE_TOKEN: 'password12345678' },
    { MNEMOLITE_TOKEN: ADMIN },
    { MNEMOLITE_TOKEN: STRONG, MNEMOLITE_TOKENS: 'password12345678password=agent-1' },
  ]) {
    const weak = await serveExit(['--port', '0', '--host', '0.0.0.0'], env);
    assert.equal(weak.code, 1, `${JSON.stringify(env)}: ${weak.stderr}`);
    assert.match(weak.stderr, /too weak to listen beyond loopback.*openssl rand -hex 32/);
  }
  const s = await serve({ serve: ['--host', '0.0.0.0'], env: { MNEMOLITE_TOKEN: STRONG } });
  assert.match(s.stdout(), /plain HTTP/);
  const j = await serve({ global: ['--embedder', 'none', '--json'], env: { MNEMOLITE_TOKEN: ADMIN } });
  const started = JSON.parse(j.stdout().split('\n')[0]!) as { listening: string; auth: string; semantic: boolean };
  assert.equal(started.listening, j.url);
  assert.equal(started.auth, '1 token');
  assert.equal(started.semantic, false);
  assertError(await req(s.url, 'GET', '/api/stats'), 401, 'UNAUTHORIZED');
  assert.equal((await req(s.url, 'GET', '/api/stats', { token: STRONG })).status, 200);
  // The port is taken now: a clear error.
  const busy = await serveExit(['--port', String(s.port), '--host', '0.0.0.0'], { MNEMOLITE_TOKEN: STRONG });
  assert.equal(busy.code, 1);
  assert.match(busy.stderr, /already in use/);
});

test('loopback without a token: foreign Host and cross-origin requests are refused; --read-only', { timeout: 120_000 }, async () => {
  const s = await serve();
  const u = s.url;
  assertError(await req(u, 'GET', '/api/stats', { headers: { host: `evil.example:${s.port}` } }), 403, 'FORBIDDEN', /Host "evil\.example/);
  assertError(await req(u, 'GET', '/', { headers: { host: 'rebind.attacker.test' } }), 403, 'FORBIDDEN');
  assert.equal((await req(u, 'GET', '/api/stats', { headers: { host: `localhost:${s.port}` } })).status, 200);
  assert.equal((await req(u, 'GET', '/api/stats', { headers: { host: `[::1]:${s.port}` } })).status, 200);
  assertError(
    await req(u, 'POST', '/api/memories', { body: { content: 'csrf' }, headers: { origin: 'https://evil.example' } }),
    403,
    'FORBIDDEN',
    /Cross-origin/,
  );
  assertError(await req(u, 'DELETE', '/api/memories/x', { headers: { origin: 'null' } }), 403, 'FORBIDDEN');
  assert.equal(
    (await req(u, 'POST', '/api/memories', { body: { content: 'same origin is fine' }, headers: { origin: `http://127.0.0.1:${s.port}` } })).status,
    201,
  );
  const r = await req(u, 'GET', '/api/stats');
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['cache-control'], 'no-store');
  assert.equal(r.headers['access-control-allow-origin'], undefined, 'no CORS');

  const db = tempDb();
  const w = await serve({ db });
  assert.equal((await req(w.url, 'POST', '/api/memories', { body: { content: 'written before' } })).status, 201);
  await w.stop();
  const ro = await serve({ db, serve: ['--read-only'] });
  assert.match(ro.stdout(), /read-only/);
  assert.equal((await req(ro.url, 'GET', '/api/memories')).json.total, 1);
  assertError(await req(ro.url, 'POST', '/api/memories', { body: { content: 'x' } }), 409, 'READ_ONLY', /read-only/);
});
