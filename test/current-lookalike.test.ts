/**
 * Current over stale against templated look-alikes (BENCHMARKS.md: the synthetic speed corpus).
 * Newer memories of the same shape as the one a question is about ("The security team's standup is
 * at … ; <someone> runs it") pass the "same thing" tests; without update evidence, one clearly
 * farther from the query than the older memory must not be moved above it. Real updates still are.
 * Runs on every store of test/store-matrix.ts, with an embedder whose vectors the test chooses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openMemory, type Embedder, type Memory } from '../src/index.js';
import { preferCurrent, QUERY_COSINE_GAP, type CurrentMeta } from '../src/recall/current.js';
import type { FusedHit } from '../src/recall/fusion.js';
import { PROBES } from '../src/recall/probes.js';
import { storeTargets } from './store-matrix.js';

const targets = await storeTargets();

/** Unit vector at `cos` to the first axis, the rest on axis `k` (so texts on different axes differ). */
function at(cos: number, k: number): number[] {
  const v = [0, 0, 0, 0, 0, 0, 0, 0];
  v[0] = cos;
  v[k] = Math.sqrt(1 - cos * cos);
  return v;
}

/** Relevance's probe questions (src/recall/baseline.ts) get a direction of their own. */
const probe = [0, 0, 0, 0, 0, 0, 0, 1];

/** An embedder with the vectors a test names (not the bundled model: "the same thing" then compares token overlap). */
function tableEmbedder(table: ReadonlyMap<string, number[]>): Embedder {
  return {
    provider: 'test',
    id: 'table-test@1',
    dims: 8,
    embed: async (texts: string[]) =>
      texts.map((t) => {
        const v = table.get(t) ?? (PROBES.includes(t) ? probe : undefined);
        if (!v) throw new Error(`no test vector for ${JSON.stringify(t)}`);
        return v;
      }),
  };
}

const QUESTION = 'Who runs the daily standup for the security team?';
const ASKED = "The security team's standup is at 10:00 on Teams; Amara runs it and the notes go into Google Docs.";
const LOOKALIKES = [
  "The security team's standup is at 12:30 on Slack; Rina runs it and the notes go into Notion.",
  "The security team's standup is at 8:45 on Meet; Goran runs it and the notes go into Confluence.",
  "The security team's standup is at 15:30 on Zoom; Carol runs it and the notes go into Obsidian.",
];

for (const T of targets) {
  if (!T.vectors) continue;
  describe(T.name, () => {
    const open = (table: Map<string, number[]>): Promise<Memory> => openMemory({ ...T.fresh(), embedder: tableEmbedder(table) });

    test('newer templated look-alikes farther from the question do not displace the older memory it is about', async () => {
      const table = new Map<string, number[]>([
        [QUESTION, at(1, 1)],
        [ASKED, at(0.9, 2)],
        ...LOOKALIKES.map((t, i): [string, number[]] => [t, at(0.6, 3 + i)]),
      ]);
      const mem = await open(table);
      try {
        await mem.add(ASKED, { createdAt: '2025-01-01T09:00:00Z' });
        for (const [i, t] of LOOKALIKES.entries()) await mem.add(t, { createdAt: `2025-0${i + 2}-01T09:00:00Z` });
        const off = await mem.recall(QUESTION, { limit: 4, preferCurrent: false, minRelevance: 0 });
        assert.equal(off[0]!.content, ASKED, 'the legs rank the asked-about memory first');
        const on = await mem.recall(QUESTION, { limit: 4, minRelevance: 0 });
        assert.equal(on[0]!.content, ASKED);
        assert.equal(on.length, 4, 'the look-alikes are still returned');
      } finally {
        await mem.close();
      }
    });

    test('a real update still moves above the older value: as close to the question, or farther with a change word', async () => {
      const q = 'Where does the user live?';
      const old = 'User lives in Paris.';
      for (const [newer, cos] of [
        ['User lives in Berlin.', 0.78], // no change word: within the smaller gap
        ['User now lives in Berlin.', 0.68], // a change word: farther, within the wider gap
      ] as const) {
        const mem = await open(
          new Map([
            [q, at(1, 1)],
            [old, at(0.8, 2)],
            [newer, at(cos, 3)],
          ]),
        );
        try {
          await mem.add(old, { createdAt: '2025-01-01T09:00:00Z' });
          await mem.add(newer, { createdAt: '2025-06-01T09:00:00Z' });
          const hits = await mem.recall(q, { limit: 2, minRelevance: 0 });
          assert.deepEqual(
            hits.map((h) => h.content),
            [newer, old],
            newer,
          );
        } finally {
          await mem.close();
        }
      }
    });
  });
}

test('the look-alike guard reads the query cosine: the gap allowed grows with update evidence', () => {
  const meta = (content: string, day: number): CurrentMeta => ({ namespace: 'default', category: null, content, time: day * 86_400_000 });
  const fused = [
    { seq: 1, score: 1 },
    { seq: 2, score: 0.9 },
  ] as FusedHit[];
  const q = 'Where does the user live?';
  const order = (newer: string, cosNewer: number, query = q): number[] =>
    preferCurrent(
      fused,
      new Map([
        [1, meta('User lives in Paris.', 1)],
        [2, meta(newer, 100)],
      ]),
      query,
      undefined,
      new Map([
        [1, 0.8],
        [2, cosNewer],
      ]),
    ).map((h) => h.seq);
  const [g0, g1] = QUERY_COSINE_GAP as [number, number];
  assert.deepEqual(order('User lives in Berlin.', 0.8 - g0 + 0.01), [2, 1]);
  assert.deepEqual(order('User lives in Berlin.', 0.8 - g0 - 0.01), [1, 2], 'no evidence: the smaller gap');
  assert.deepEqual(order('User now lives in Berlin.', 0.8 - g0 - 0.01), [2, 1], 'a change word: the wider gap');
  assert.deepEqual(order('User now lives in Berlin.', 0.8 - g1 - 0.01), [1, 2]);
  assert.deepEqual(order('User now lives in Berlin.', 0.8 - g1 + 0.01, 'Where does the user live now?'), [2, 1], 'both kinds of evidence');
  assert.deepEqual(order('User now lives in Berlin.', 0.8 - g1 - 0.01, 'Where does the user live now?'), [1, 2], 'both kinds of evidence');
  // Without cosines (keyword-only recall) the rule is as before.
  assert.deepEqual(
    preferCurrent(
      fused,
      new Map([
        [1, meta('User lives in Paris.', 1)],
        [2, meta('User lives in Berlin.', 100)],
      ]),
      q,
    ).map((h) => h.seq),
    [2, 1],
  );
});
