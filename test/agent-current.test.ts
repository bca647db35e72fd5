/**
 * What the agent surfaces show a model (issue 26 item 2, issue 24 item 1): replaced memories left
 * out by default and marked outdated when asked for; a question nothing clearly matches answered
 * with the closest memory worded as a low-confidence guess. Library option, memoryTools and the MCP
 * server through the real SDK client, on every store of test/store-matrix.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { memoryTools, openMemory, type Memory } from '../src/index.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { createMcpServer } from '../src/mcp/server.js';
import { CLI, HashEmbedder, tempDb } from './helpers.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

async function mcpClient(mem: Memory, options: Parameters<typeof createMcpServer>[1] = {}): Promise<Client> {
  const server = createMcpServer(mem, { ...options, log: () => {} });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'agent-current-test', version: '1.0.0' });
  await client.connect(b);
  return client;
}

const textOf = (r: CallToolResult): string => (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

for (const T of targets) {
  describe(T.name, () => {
    const open = (): Promise<Memory> => openMemory({ ...T.fresh(), embedder: T.vectors ? new HashEmbedder() : 'none' });
    // Relevance between the bar and hopeless needs meaning: the bundled model.
    const openLocal = (): Promise<Memory> => openMemory({ ...T.fresh() });

    async function moved(mem: Memory): Promise<{ old: string; now: string }> {
      const old = await mem.add('Alice lives in Lisbon, in a flat near the river.', { createdAt: '2025-01-10T09:00:00Z' });
      const now = await mem.add('Alice moved to Porto; she lives there with her sister.', { supersedes: old.id, createdAt: '2025-06-02T09:00:00Z' });
      await mem.add('Alice works as a nurse at the city hospital.', { createdAt: '2025-02-01T09:00:00Z' });
      return { old: old.id, now: now.id };
    }

    test('library: excludeSuperseded leaves replaced memories out before the limit', async () => {
      const mem = await open();
      try {
        const { old, now } = await moved(mem);
        const all = await mem.recall('where does Alice live', { mode: 'keyword', limit: 2 });
        assert.ok(all.some((h) => h.id === old && h.supersededBy === now));
        const current = await mem.recall('where does Alice live', { mode: 'keyword', limit: 2, excludeSuperseded: true });
        assert.ok(current.length >= 1);
        assert.ok(current.every((h) => h.id !== old && !h.supersededBy));
        assert.equal(current[0]!.id, now);
        await assert.rejects(mem.recall('x', { excludeSuperseded: 'yes' as unknown as boolean }), { code: 'INVALID_INPUT' });
      } finally {
        await mem.close();
      }
    });

    test('memoryTools: outdated memories left out by default, marked OUTDATED with their date when asked for', async () => {
      const mem = await open();
      try {
        const { old, now } = await moved(mem);
        const tools = memoryTools(mem, { minRelevance: 0 });
        const r = await tools.execute('memory_recall', { query: 'where does Alice live', mode: 'keyword' });
        assert.ok(r.ok);
        const hits = r.data.hits as { id: string; status: string }[];
        assert.ok(!hits.some((h) => h.id === old), r.text);
        assert.ok(hits.some((h) => h.id === now && h.status === 'current'));
        assert.doesNotMatch(r.text, /Lisbon/);
        assert.match(r.text, /Porto[^\n]*\n {3}current \| id: [^\n]*created: 2025-06-02/);

        const withOld = await tools.execute('memory_recall', { query: 'where does Alice live', mode: 'keyword', includeOutdated: true });
        assert.ok(withOld.ok);
        const h2 = withOld.data.hits as { id: string; status: string; supersededBy?: string }[];
        const o = h2.find((h) => h.id === old);
        assert.ok(o && o.status === 'outdated' && o.supersededBy === now);
        assert.match(withOld.text, new RegExp(`Lisbon[^\\n]*\\n {3}OUTDATED \\(replaced by ${now}\\) \\| id: [^\\n]*created: 2025-01-10`));

        // The host can make outdated memories the default.
        const hostOld = await memoryTools(mem, { minRelevance: 0, includeOutdated: true }).execute('memory_recall', {
          query: 'where does Alice live',
          mode: 'keyword',
        });
        assert.ok(hostOld.ok && (hostOld.data.hits as { id: string }[]).some((h) => h.id === old));
      } finally {
        await mem.close();
      }
    });

    test('memoryTools: a question nothing clearly matches gets the closest memory, worded as a guess', { skip: !T.vectors && 'no pgvector' }, async () => {
      const mem = await openLocal();
      try {
        await moved(mem);
        // A threshold no partial match reaches: the closest memory comes back as a guess.
        const tools = memoryTools(mem, { minRelevance: 0.99 });
        const r = await tools.execute('memory_recall', { query: 'which hospital ward does Alice manage' });
        assert.ok(r.ok);
        const hits = r.data.hits as { relevance: number; lowConfidence?: true; content: string }[];
        assert.equal(hits.length, 1, r.text);
        assert.equal(hits[0]!.lowConfidence, true);
        assert.ok(hits[0]!.relevance < 0.99 && hits[0]!.relevance >= 0.3);
        assert.match(hits[0]!.content, /hospital/);
        assert.ok(
          r.text.startsWith(
            `No memory is clearly relevant to "which hospital ward does Alice manage". Closest (low confidence, relevance ${hits[0]!.relevance.toFixed(2)}; use it only if it fits):`,
          ),
          r.text,
        );
        // Off: the old answer.
        const off = await memoryTools(mem, { minRelevance: 0.99, bestMatch: false }).execute('memory_recall', {
          query: 'which hospital ward does Alice manage',
        });
        assert.ok(off.ok);
        assert.equal(off.text, 'No relevant memory for "which hospital ward does Alice manage".');
      } finally {
        await mem.close();
      }
    });

    test('MCP: memory_recall and memory_context through the SDK client leave outdated memories out', async () => {
      const mem = await open();
      try {
        const { old, now } = await moved(mem);
        const client = await mcpClient(mem, { minRelevance: 0 });
        try {
          const r = (await client.callTool({ name: 'memory_recall', arguments: { query: 'where does Alice live', mode: 'keyword' } })) as CallToolResult;
          assert.ok(!r.isError, textOf(r));
          assert.doesNotMatch(textOf(r), /Lisbon/);
          const sc = r.structuredContent as { hits: { id: string; status: string }[] };
          assert.ok(sc.hits.some((h) => h.id === now && h.status === 'current'));
          const withOld = (await client.callTool({
            name: 'memory_recall',
            arguments: { query: 'where does Alice live', mode: 'keyword', includeOutdated: true },
          })) as CallToolResult;
          assert.match(textOf(withOld), new RegExp(`OUTDATED \\(replaced by ${now}\\)`));
          assert.ok((withOld.structuredContent as { hits: { id: string }[] }).hits.some((h) => h.id === old));
          const ctx = (await client.callTool({ name: 'memory_context', arguments: { query: 'where does Alice live' } })) as CallToolResult;
          assert.ok(!ctx.isError);
          assert.doesNotMatch(textOf(ctx), /Lisbon/);
          assert.match(textOf(ctx), /\[2025-06-02\] Alice moved to Porto/);
        } finally {
          await client.close();
        }
      } finally {
        await mem.close();
      }
    });

    test('MCP: a question nothing clearly matches gets the closest memory, worded as a guess, in memory_recall and memory_context', {
      skip: !T.vectors && 'no pgvector',
    }, async () => {
      const mem = await openLocal();
      try {
        await moved(mem);
        const strict = await mcpClient(mem, { minRelevance: 0.99 });
        try {
          const q = 'which hospital ward does Alice manage';
          const r = (await strict.callTool({ name: 'memory_recall', arguments: { query: q } })) as CallToolResult;
          assert.match(
            textOf(r),
            /^No memory is clearly relevant to "which hospital ward does Alice manage"\. Closest \(low confidence, relevance 0\.\d\d; use it only if it fits\):\n1\. Alice works/,
          );
          const ctx = (await strict.callTool({ name: 'memory_context', arguments: { query: q } })) as CallToolResult;
          assert.ok(!ctx.isError, textOf(ctx));
          assert.match(textOf(ctx), /^Possibly related \(low confidence\):\n- \[2025-02-01\] Alice works/);
          assert.equal((ctx.structuredContent as { lowConfidence?: true }).lowConfidence, true);
        } finally {
          await strict.close();
        }
      } finally {
        await mem.close();
      }
    });
  });
}

test('HTTP and CLI: excludeSuperseded / --exclude-superseded leave the replaced memory out; the OpenAPI document lists it', async () => {
  const path = tempDb();
  const mem = await openMemory({ path, embedder: 'none' });
  const old = await mem.add('Alice lives in Lisbon, in a flat near the river.');
  const now = await mem.add('Alice moved to Porto; she lives there with her sister.', { supersedes: old.id });
  const app = createServer({ memory: mem, inspector: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = serverUrl(app);
  const recall = async (body: object): Promise<{ status: number; json: { hits?: { id: string }[] } }> => {
    const r = await fetch(`${url}/api/recall`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: r.status, json: (await r.json()) as { hits?: { id: string }[] } };
  };
  try {
    const all = await recall({ query: 'Alice lives', mode: 'keyword' });
    assert.ok(all.json.hits!.some((h) => h.id === old.id));
    const current = await recall({ query: 'Alice lives', mode: 'keyword', excludeSuperseded: true });
    assert.equal(current.status, 200);
    assert.deepEqual(
      current.json.hits!.map((h) => h.id),
      [now.id],
    );
    assert.equal((await recall({ query: 'Alice', excludeSuperseded: 'yes' })).status, 400);
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    assert.ok(doc.components.schemas.RecallRequest?.properties?.excludeSuperseded);
  } finally {
    await app.close();
    await mem.close();
  }
  const out = spawnSync(process.execPath, [CLI, '--db', path, '--embedder', 'none', '--json', 'recall', 'Alice lives', '--exclude-superseded'], {
    encoding: 'utf8',
  });
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(
    (JSON.parse(out.stdout) as { id: string }[]).map((h) => h.id),
    [now.id],
  );
});
