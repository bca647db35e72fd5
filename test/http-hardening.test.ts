// What a hostile review of the HTTP API found (issue 16): no server path in error messages, no
// file-wide numbers for namespace-limited tokens, and the edges of request parsing.
// Real servers (createServer + listen on 127.0.0.1:0) driven with real HTTP requests.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openMemory, type Memory } from '../src/index.js';
import { parseTokens } from '../src/http/auth.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { tempDb } from './helpers.js';
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

test('a list page is cut at about 16 MiB of JSON and says where the next one starts; paging that way returns every memory once', {
  timeout: 300_000,
}, async () => {
  const mem = await openMemory({ path: tempDb(), embedder: 'none' });
  // 100 kB of control characters: each is 6 bytes of JSON (\u0001), 600 kB per memory.
  const n = 120;
  for (let i = 0; i < n; i += 20) {
    await mem.addMany(Array.from({ length: 20 }, (_, j) => ({ content: `m${i + j} ${'\u0001'.repeat(99_000)}`, namespace: 'agent-1' })));
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
});
