// What a hostile review of the HTTP API found (issue 16): no server path in error messages, no
// file-wide numbers for namespace-limited tokens, and the edges of request parsing.
// Real servers (createServer + listen on 127.0.0.1:0) driven with real HTTP requests.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { openMemory, type Memory } from '../src/index.js';
import { parseTokens } from '../src/http/auth.js';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, createServer, serverUrl } from '../src/http/server.js';
import { cli, tempDb } from './helpers.js';
import { startWorker } from './stress/lib/procs.js';

const ADMIN = 'admin-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';

const open: { app: FastifyInstance; mem: Memory }[] = [];
after(async () => {
  for (const o of open) {
    await o.app.close();
    await o.mem.close();
  }
});

async function start(mem: Memory, extra: Partial<Parameters<typeof createServer>[0]> = {}): Promise<string> {
  const app = createServer({ memory: mem, tokens: parseTokens({ MNEMOLITE_TOKEN: ADMIN, MNEMOLITE_TOKENS: `${AGENT}=agent-1` }), ...extra });
  await app.listen({ port: 0, host: '127.0.0.1' });
  open.push({ app, mem });
  return serverUrl(app);
}

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json: any;
}

export function req(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: Buffer; token?: string; headers?: Record<string, string> } = {},
): Promise<Res> {
  const u = new URL(base);
  const headers: Record<string, string> = { ...opts.headers };
  const payload = opts.raw ?? (opts.body !== undefined ? Buffer.from(JSON.stringify(opts.body)) : undefined);
  if (payload) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(payload.length);
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  return new Promise((resolve, reject) => {
    const r = httpRequest({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json });
      });
    });
    r.on('error', reject);
    if (payload) r.write(payload);
    r.end();
  });
}

test('BUSY and READ_ONLY messages name no server path; stats for a namespace-limited token hold no file-wide numbers', { timeout: 120_000 }, async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none', busyTimeoutMs: 50 });
  const u = await start(mem);
  assert.equal((await req(u, 'POST', '/api/memories', { token: AGENT, body: { content: 'mine' } })).status, 201);
  const locker = await startWorker('locker.ts', { db: path });
  await locker.waitFor((l) => l.op === 'locked');
  try {
    for (const token of [AGENT, ADMIN]) {
      const busy = await req(u, 'POST', '/api/memories', { token, body: { content: 'blocked', namespace: 'agent-1' } });
      assert.equal(busy.status, 503, busy.text);
      assert.equal(busy.json.error.code, 'BUSY');
      assert.ok(!busy.text.includes(path) && !busy.text.includes('mnemolite-test-'), busy.text);
    }
  } finally {
    locker.send('release');
    await locker.exited;
  }

  const st = await req(u, 'GET', '/api/stats', { token: AGENT });
  assert.equal(st.status, 200);
  assert.deepEqual(
    Object.keys(st.json).filter((k) => ['path', 'fileBytes', 'cacheEntries'].includes(k)),
    [],
  );
  const full = await req(u, 'GET', '/api/stats', { token: ADMIN });
  assert.equal(typeof full.json.fileBytes, 'number');
  assert.equal(typeof full.json.cacheEntries, 'number');

  const ro = await openMemory({ path, embedder: 'none', readonly: true });
  const v = await start(ro);
  const r = await req(v, 'POST', '/api/memories', { token: AGENT, body: { content: 'x' } });
  assert.equal(r.status, 409, r.text);
  assert.equal(r.json.error.code, 'READ_ONLY');
  assert.match(r.json.error.message, /read-only/);
  assert.ok(!r.text.includes(path), r.text);
});

test('a list page is cut at about 16 MiB of JSON and says where the next one starts; paging that way returns every memory once; a recall answer is cut the same way', {
  timeout: 300_000,
}, async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  // 100 kB of control characters: each is 6 bytes of JSON (\u0001), 600 kB per memory.
  const n = 120;
  for (let i = 0; i < n; i += 20) {
    await mem.addMany(Array.from({ length: 20 }, (_, j) => ({ content: `m${i + j} harbour ${'\u0001'.repeat(99_000)}`, namespace: 'agent-1' })));
  }
  const u = await start(mem);
  const seen = new Set<string>();
  let offset = 0,
    pages = 0;
  for (;;) {
    const r = await req(u, 'GET', `/api/memories?limit=1000&offset=${offset}`, { token: AGENT });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.ok(r.body.length <= 16 * 1024 * 1024 + 700_000, `page of ${r.body.length} bytes`);
    pages++;
    for (const m of r.json.memories as { id: string }[]) {
      assert.ok(!seen.has(m.id));
      seen.add(m.id);
    }
    assert.equal(r.json.total, n);
    if (r.json.nextOffset === undefined) break;
    assert.equal(r.json.nextOffset, offset + r.json.memories.length);
    offset = r.json.nextOffset;
  }
  assert.equal(seen.size, n);
  assert.ok(pages >= 4, `${pages} pages`);
  // The same memories as 1000 recall hits: a 500 (a string past V8's limit) before they were cut.
  const rec = await req(u, 'POST', '/api/recall', { token: AGENT, body: { query: 'harbour', limit: 1000, mode: 'keyword' } });
  assert.equal(rec.status, 200, rec.text.slice(0, 300));
  assert.ok(rec.body.length <= 16 * 1024 * 1024 + 700_000, `recall answer of ${rec.body.length} bytes`);
  assert.ok(rec.json.omitted > 0, 'the answer says how many hits it left out');
  assert.equal(rec.json.hits.length + rec.json.omitted, n);
});

test('a body that is not valid UTF-8 is a 400 in the JSON error shape and stores nothing (no U+FFFD)', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const u = await start(mem);
  const bad = [
    Buffer.concat([Buffer.from('{"content":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]), // Latin-1 é
    Buffer.concat([Buffer.from('{"content":"x'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    Buffer.concat([Buffer.from('{"content":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), // an encoded surrogate
    Buffer.concat([Buffer.from('{"content":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]), // overlong "/"
  ];
  for (const raw of bad) {
    const r = await req(u, 'POST', '/api/memories', { token: AGENT, raw });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'INVALID_JSON');
    assert.match(r.json.error.message, /not valid UTF-8/);
    const b = await req(u, 'POST', '/api/memories/batch', { token: AGENT, raw: Buffer.concat([Buffer.from('{"memories":['), raw, Buffer.from(']}')]) });
    assert.equal(b.status, 400, b.text);
  }
  assert.equal(await mem.count({ namespace: '*' }), 0);
  // Valid UTF-8 (and a stated U+FFFD) is stored exactly.
  const ok = await req(u, 'POST', '/api/memories', { token: AGENT, raw: Buffer.from(JSON.stringify({ content: 'café \ufffd 🦀' })) });
  assert.equal(ok.status, 201, ok.text);
  assert.equal((await mem.get(ok.json.id))!.content, 'café \ufffd 🦀');
});

/** Send raw bytes on a new connection; resolve with everything the server sent once it closes. */
function rawExchange(base: string, bytes: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname);
    let out = '';
    s.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    s.on('error', reject);
    s.on('close', () => resolve(out));
    s.write(bytes);
  });
}

function parseRaw(text: string): { status: number; headers: string; json: any } {
  const at = text.indexOf('\r\n\r\n');
  return { status: Number(text.slice(9, 12)), headers: text.slice(0, at).toLowerCase(), json: JSON.parse(text.slice(at + 4)) };
}

test('a URL or headers past the 16 KiB limit get the documented JSON error (414 / 431), not the framework shape', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const u = await start(mem);
  const longUrl = parseRaw(await rawExchange(u, `GET /api/memories?category=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  assert.equal(longUrl.status, 414);
  assert.deepEqual(Object.keys(longUrl.json), ['error']);
  assert.equal(longUrl.json.error.code, 'URI_TOO_LONG');
  assert.match(longUrl.json.error.message, /POST body/);
  assert.match(longUrl.headers, /content-type: application\/json/);
  assert.match(longUrl.headers, /x-content-type-options: nosniff/);
  const bigHeader = parseRaw(await rawExchange(u, `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(40_000)}\r\n\r\n`));
  assert.equal(bigHeader.status, 431);
  assert.equal(bigHeader.json.error.code, 'HEADERS_TOO_LARGE');
  const garbage = parseRaw(await rawExchange(u, 'NOT HTTP AT ALL\r\n\r\n'));
  assert.equal(garbage.status, 400);
  assert.equal(garbage.json.error.code, 'BAD_REQUEST');
  // Through fetch as well: the status and the shape.
  const f = await fetch(`${u}/api/memories?category=${'c'.repeat(20_000)}`, { headers: { authorization: `Bearer ${AGENT}` } });
  assert.equal(f.status, 414);
  assert.equal(((await f.json()) as { error: { code: string } }).error.code, 'URI_TOO_LONG');
});

test('connections beyond maxConnections are closed at once; a freed slot is usable again; the default cap is set', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const cap = 3;
  const u = await start(mem, { maxConnections: cap });
  const app = open[open.length - 1]!.app;
  const url = new URL(u);
  // Keep-alive connections, each proven open by a complete answer.
  const held: Socket[] = [];
  const ask = (s: Socket): Promise<string> =>
    new Promise((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer): void => {
        out += d.toString('utf8');
        if (/\r\n\r\n[\s\S]*\}$/.test(out)) {
          s.off('data', onData);
          resolve(out);
        }
      };
      s.on('data', onData);
      s.once('error', reject);
      s.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
  const openSocket = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = connect(Number(url.port), url.hostname, () => resolve(s));
      s.once('error', reject);
    });
  for (let i = 0; i < cap; i++) {
    const s = await openSocket();
    held.push(s);
    assert.match(await ask(s), /^HTTP\/1.1 200/);
  }
  // The extra one: accepted by the kernel, then closed by the server without an answer.
  const extra = await openSocket();
  const got = await new Promise<string>((resolve) => {
    let out = '';
    extra.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    extra.on('error', () => {});
    extra.on('close', () => resolve(out));
    extra.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
  });
  assert.equal(got, '', 'the connection over the cap gets no answer');
  // The held ones still work.
  assert.match(await ask(held[0]!), /^HTTP\/1.1 200/);
  // Free one slot and wait until the server has counted it closed (no clock involved).
  held.pop()!.destroy();
  while ((await new Promise<number>((r) => app.server.getConnections((_e, n) => r(n)))) >= cap) await new Promise((r) => setImmediate(r));
  const again = await openSocket();
  assert.match(await ask(again), /^HTTP\/1.1 200/);
  for (const s of [...held, again]) s.destroy();
  // Without the option the documented default applies.
  const u2 = await start(await openMemory({ path: tempDb(), embedder: 'none' }));
  assert.ok(u2);
  assert.equal(open[open.length - 1]!.app.server.maxConnections, DEFAULT_MAX_CONNECTIONS);
  assert.throws(() => createServer({ memory: mem, maxConnections: 0 }), { code: 'INVALID_INPUT' });
  const flag = cli(['--db', tempDb(), '--embedder', 'none', 'serve', '--port', '0', '--max-connections', '0']);
  assert.equal(flag.code, 1);
  assert.match(flag.stderr, /--max-connections must be a whole number from 1/);
});

test('prune through a namespace-limited token deletes only its expired memories: no vacuum or checkpoint of the shared file, no file-level numbers', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  const old = { createdAt: '2020-01-01T00:00:00Z', ttl: '1d' };
  const filler = 'x'.repeat(20_000);
  await mem.addMany([
    ...Array.from({ length: 20 }, (_, i) => ({ content: `agent-1 expired ${i} ${filler}`, namespace: 'agent-1', ...old })),
    ...Array.from({ length: 20 }, (_, i) => ({ content: `agent-2 expired ${i} ${filler}`, namespace: 'agent-2', ...old })),
  ]);
  const u = await start(mem);
  const FILE_FIELDS = ['autoVacuum', 'vacuum', 'freePagesBefore', 'freePagesAfter', 'bytesBefore', 'bytesAfter', 'note'];
  for (const vacuum of ['auto', 'full']) {
    const r = await req(u, 'POST', '/api/prune', { token: AGENT, body: { vacuum } });
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.error.message, /every namespace/);
  }
  for (const dryRun of [true, false]) {
    const r = await req(u, 'POST', '/api/prune', { token: AGENT, body: { dryRun } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.deleted, 20);
    assert.deepEqual(
      Object.keys(r.json).filter((k) => FILE_FIELDS.includes(k)),
      [],
      `no file-level field: ${r.text}`,
    );
  }
  const free = (): number => {
    const db = new Database(path, { readonly: true });
    try {
      return db.pragma('freelist_count', { simple: true }) as number;
    } finally {
      db.close();
    }
  };
  assert.ok(free() > 0, 'the limited prune left the freed pages in place (no vacuum)');
  const admin = await req(u, 'POST', '/api/prune', { token: ADMIN, body: {} });
  assert.equal(admin.status, 200, admin.text);
  assert.equal(admin.json.deleted, 20);
  assert.equal(admin.json.vacuum, 'incremental');
  assert.equal(typeof admin.json.bytesBefore, 'number');
  assert.equal(free(), 0);
});

test('slow or idle sockets cannot hold every slot: a per-address cap closes the extra ones at once, and headers must arrive within the (short) headers timeout', async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  const u = await start(mem, { maxConnections: 20, maxConnectionsPerAddress: 3, headersTimeoutMs: 300 });
  const app = open[open.length - 1]!.app;
  const url = new URL(u);
  const connections = (): Promise<number> => new Promise<number>((r) => app.server.getConnections((_e, n) => r(n)));
  const openFrom = (localAddress: string): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = connect({ port: Number(url.port), host: url.hostname, localAddress }, () => resolve(s));
      s.once('error', reject);
    });
  /** What the server sends until it closes the socket. */
  const untilClosed = (s: Socket): Promise<string> =>
    new Promise((resolve) => {
      let out = '';
      s.on('data', (d: Buffer) => {
        out += d.toString('utf8');
      });
      s.on('error', () => {});
      s.on('close', () => resolve(out));
    });
  // Three sockets from one address that never finish their headers.
  const slow = await Promise.all([0, 1, 2].map(() => openFrom('127.0.0.1')));
  const slowEnds = slow.map((s) => {
    s.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
    return untilClosed(s);
  });
  // A fourth from the same address (once the server has counted the three) is closed at once, without an answer.
  while ((await connections()) < 3) await new Promise((r) => setImmediate(r));
  const extra = await openFrom('127.0.0.1');
  const extraEnd = untilClosed(extra);
  extra.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  assert.equal(await extraEnd, '', 'the connection over the per-address cap gets no answer');
  // Another address is served meanwhile (Linux routes all of 127/8 to loopback).
  let other: Socket | undefined;
  try {
    other = await openFrom('127.0.0.2');
  } catch {
    other = undefined;
  }
  if (other) {
    const end = untilClosed(other);
    other.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.match(await end, /^HTTP\/1.1 200/);
  }
  // The slow ones are answered 408 and closed by the server once the headers timeout passes.
  for (const [i, end] of slowEnds.entries()) assert.match(await end, /^HTTP\/1.1 408/, `slow socket ${i}`);
  // A socket that sends nothing at all is closed the same way (once the server has counted the others closed).
  while ((await connections()) > 0) await new Promise((r) => setImmediate(r));
  const silent = await openFrom('127.0.0.1');
  assert.match(await untilClosed(silent), /^HTTP\/1.1 408/, 'silent socket');
  // Defaults: 10 s for the headers (was 30 s, checked every 30 s), 5 s for an idle keep-alive connection (was Fastify's 72 s).
  const u2 = await start(await openMemory({ path: tempDb(), embedder: 'none' }));
  assert.ok(u2);
  const server = open[open.length - 1]!.app.server;
  assert.equal(server.headersTimeout, DEFAULT_HEADERS_TIMEOUT_MS);
  assert.ok(DEFAULT_HEADERS_TIMEOUT_MS <= 10_000);
  assert.equal(server.keepAliveTimeout, 5_000);
  assert.throws(() => createServer({ memory: mem, maxConnectionsPerAddress: 0 }), { code: 'INVALID_INPUT' });
});

test('GET /api/memories/{id}/history pages (limit, offset) and cuts a page at about 16 MiB of JSON; paging returns every version once', {
  timeout: 300_000,
}, async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  // 60 versions of 100 kB of control characters: 600 kB of JSON each, 36 MB in all.
  const { id } = await mem.add(`v0 ${'\u0001'.repeat(99_000)}`, { namespace: 'agent-1' });
  for (let v = 1; v < 60; v++) await mem.update(id, { content: `v${v} ${'\u0001'.repeat(99_000)}` });
  const u = await start(mem);
  const seen: string[] = [];
  let pages = 0;
  for (let offset: number | undefined = 0; offset !== undefined; pages++) {
    const r = await req(u, 'GET', `/api/memories/${id}/history?offset=${offset}`, { token: AGENT });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.ok(r.body.length <= 16 * 1024 * 1024 + 700_000, `page of ${r.body.length} bytes`);
    seen.push(...(r.json.versions as { content: string }[]).map((v) => v.content.split(' ')[0]!));
    offset = r.json.nextOffset;
  }
  assert.deepEqual(
    seen,
    Array.from({ length: 60 }, (_, i) => `v${i}`),
  );
  assert.ok(pages >= 3, `${pages} pages`);
  const small = await req(u, 'GET', `/api/memories/${id}/history?limit=5&offset=58`, { token: AGENT });
  assert.deepEqual(
    small.json.versions.map((v: { content: string }) => v.content.split(' ')[0]),
    ['v58', 'v59'],
  );
  assert.equal(small.json.nextOffset, undefined);
  assert.equal((await req(u, 'GET', `/api/memories/${id}/history?limit=0`, { token: AGENT })).status, 400);
});
