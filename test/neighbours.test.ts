/**
 * The `neighbours` recall option (issue 26 item 6): each hit in a session comes with the turns
 * around it, in order, deduplicated, from its own namespace only, on every store; bad values are
 * INVALID_INPUT. Through HTTP too, and through the agent tools (`memoryTools`, so MCP and the
 * integrations): `before`/`after` arguments, the turns shown under each hit marked as context.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { memoryTools, openMemory, type Memory, type ToolHit } from '../src/index.js';
import { createServer, serverUrl } from '../src/http/server.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

const turns = (words: string[]): { speaker: string; content: string; at: string }[] =>
  words.map((w, i) => ({ speaker: i % 2 ? 'Ben' : 'Ana', content: w, at: new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString() }));

for (const T of targets) {
  describe(T.name, () => {
    const open = (): Promise<Memory> => openMemory({ ...T.fresh(), embedder: 'none' });

    test('each hit comes with the turns before and after it in its session, in order, deduplicated, never from another namespace', async () => {
      const mem = await open();
      try {
        await mem.addConversation(
          turns([
            'We should plan the trip',
            'Where to?',
            'Lisbon, for the tiles',
            'When?',
            'In May',
            'Book the flights then',
            'Done, and a hotel near the river',
          ]),
          { namespace: 'a', sessionId: 's1', minWords: 0, contextWindow: 0 },
        );
        await mem.addConversation(turns(['Lisbon again next year?', 'Maybe']), { namespace: 'b', sessionId: 's1', minWords: 0, contextWindow: 0 });
        const [hit] = await mem.recall('tiles', { namespace: 'a', mode: 'keyword', neighbours: { before: 2, after: 1 } });
        assert.equal(hit!.content, 'Ana: Lisbon, for the tiles');
        assert.deepEqual(
          hit!.neighbours!.before.map((m) => m.content),
          ['Ana: We should plan the trip', 'Ben: Where to?'],
        );
        assert.deepEqual(
          hit!.neighbours!.after.map((m) => m.content),
          ['Ben: When?'],
        );
        // Two hits of one session: a turn is shown once, around the better hit, and never as a neighbour of another hit.
        const two = await mem.recall('Lisbon flights', { namespace: 'a', mode: 'keyword', neighbours: { before: 3, after: 3 } });
        const contents = two.map((h) => h.content);
        const shown = two.flatMap((h) => [...(h.neighbours?.before ?? []), ...(h.neighbours?.after ?? [])].map((m) => m.content));
        assert.equal(new Set(shown).size, shown.length, 'no turn twice');
        assert.ok(!shown.some((s) => contents.includes(s)), 'a hit is not repeated as a neighbour');
        assert.ok(!shown.some((s) => /next year|Maybe/.test(s)), 'never a turn of another namespace');
        // Off by default; a memory outside a session has none.
        const plain = await mem.recall('tiles', { namespace: 'a', mode: 'keyword' });
        assert.equal(plain[0]!.neighbours, undefined);
        await mem.add('Tiles are called azulejos', { namespace: 'a' });
        const loose = (await mem.recall('azulejos', { namespace: 'a', mode: 'keyword', neighbours: { before: 2 } }))[0]!;
        assert.equal(loose.neighbours, undefined);
      } finally {
        await mem.close();
      }
    });

    test('memoryTools memory_recall: before/after show the turns around each hit, in order, once, marked as context; off by default', async () => {
      const mem = await open();
      try {
        await mem.addConversation(turns(['Any plans for the weekend?', 'Hiking in Sintra', 'With whom?', 'With my sister Rita', 'Nice, take water']), {
          namespace: 'a',
          sessionId: 's1',
          minWords: 0,
          contextWindow: 0,
        });
        await mem.addConversation(turns(['Sintra is lovely', 'It is']), { namespace: 'b', sessionId: 's1', minWords: 0, contextWindow: 0 });
        const tools = memoryTools(mem, { namespace: 'a', minRelevance: 0 });
        const r = await tools.execute('memory_recall', { query: 'sister Rita', mode: 'keyword', limit: 1, before: 2, after: 1 });
        assert.ok(r.ok, r.text);
        const [hit] = (r.data as { hits: ToolHit[] }).hits;
        assert.equal(hit!.content, 'Ben: With my sister Rita');
        assert.deepEqual(
          hit!.neighbours!.before.map((m) => m.content),
          ['Ben: Hiking in Sintra', 'Ana: With whom?'],
        );
        assert.deepEqual(
          hit!.neighbours!.after.map((m) => m.content),
          ['Ana: Nice, take water'],
        );
        // The text shows them under the hit, marked as context, oldest first.
        const lines = r.text.split('\n');
        const at = (s: string): number => lines.findIndex((l) => l.includes(s));
        assert.match(r.text, /context, the turns around it in its conversation \(not matches\), oldest first:/);
        assert.ok(at('[before] Ben: Hiking in Sintra') > at('1. Ben: With my sister Rita'), r.text);
        assert.ok(at('[before] Ben: Hiking in Sintra') < at('[before] Ana: With whom?'), r.text);
        assert.ok(at('[before] Ana: With whom?') < at('[after] Ana: Nice, take water'), r.text);
        assert.ok(!/Sintra is lovely/.test(r.text), 'never a turn of another namespace');
        // Two hits of the session: no turn twice, no hit repeated as a neighbour.
        const two = await tools.execute('memory_recall', { query: 'Sintra sister', mode: 'keyword', before: 5, after: 5 });
        assert.ok(two.ok, two.text);
        const hits = (two.data as { hits: ToolHit[] }).hits;
        const shown = hits.flatMap((h) => [...(h.neighbours?.before ?? []), ...(h.neighbours?.after ?? [])].map((m) => m.content));
        assert.equal(new Set(shown).size, shown.length, 'no turn twice');
        assert.ok(!shown.some((c) => hits.some((h) => h.content === c)), 'a hit is not repeated as a neighbour');
        // Off by default: no neighbours, no context lines.
        const plain = await tools.execute('memory_recall', { query: 'sister Rita', mode: 'keyword', limit: 1 });
        assert.ok(plain.ok);
        assert.equal((plain.data as { hits: ToolHit[] }).hits[0]!.neighbours, undefined);
        assert.ok(!plain.text.includes('[before]'));
        for (const bad of [{ before: 21 }, { after: -1 }, { before: 1.5 }]) {
          const e = await tools.execute('memory_recall', { query: 'Rita', ...bad });
          assert.equal(e.ok, false);
          if (!e.ok) assert.equal(e.error.code, 'INVALID_INPUT');
        }
      } finally {
        await mem.close();
      }
    });

    test('HTTP POST /api/recall: neighbours in the body, the turns on each hit, both as /openapi.json documents them', async () => {
      const mem = await open();
      const app = createServer({ memory: mem });
      try {
        await mem.addConversation(turns(['Did you feed the cat?', 'Yes, at seven', 'And the plants?', 'Not yet']), {
          namespace: 'a',
          sessionId: 's1',
          minWords: 0,
          contextWindow: 0,
        });
        await app.listen({ port: 0, host: '127.0.0.1' });
        const base = serverUrl(app);
        const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { components: { schemas: Record<string, { properties: Record<string, any> }> } };
        const body = doc.components.schemas.RecallRequest!.properties.neighbours;
        assert.equal(body.type, 'object');
        assert.equal(body.properties.before.maximum, 20);
        assert.equal(body.properties.after.minimum, 0);
        assert.ok(doc.components.schemas.RecallHit!.properties.neighbours, 'the hit documents its neighbour turns');
        const post = (b: unknown) => fetch(`${base}/api/recall`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
        const res = await post({ query: 'cat', namespace: 'a', mode: 'keyword', neighbours: { after: 2 } });
        assert.equal(res.status, 200, await res.clone().text());
        const out = (await res.json()) as { hits: { content: string; neighbours?: { before: unknown[]; after: { content: string }[] } }[] };
        assert.equal(out.hits[0]!.content, 'Ana: Did you feed the cat?');
        assert.deepEqual(out.hits[0]!.neighbours!.before, []);
        assert.deepEqual(
          out.hits[0]!.neighbours!.after.map((m) => m.content),
          ['Ben: Yes, at seven', 'Ana: And the plants?'],
        );
        // @ts-expect-error -- under NodeNext, ajv's CommonJS default export is typed as its module object
        const ajv = new Ajv2020({ strict: false, allErrors: true });
        ajv.addSchema({ $id: 'openapi.json', components: doc.components });
        const validate = ajv.getSchema('openapi.json#/components/schemas/RecallResult');
        assert.ok(validate(out), JSON.stringify(validate.errors));
        const bad = await post({ query: 'cat', namespace: 'a', neighbours: { before: 21 } });
        assert.equal(bad.status, 400);
      } finally {
        await app.close();
        await mem.close();
      }
    });

    test('bad neighbours values are INVALID_INPUT', async () => {
      const mem = await open();
      try {
        for (const bad of [{ before: 21 }, { after: -1 }, { before: 1.5 }, { around: 2 }]) {
          await assert.rejects(mem.recall('x', { mode: 'keyword', neighbours: bad as never }), (e: Error & { code?: string }) => e.code === 'INVALID_INPUT');
        }
      } finally {
        await mem.close();
      }
    });
  });
}
