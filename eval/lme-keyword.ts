/**
 * The keyword leg alone on LongMemEval, without vectors (no embedding: minutes, not the hour the
 * vector cache takes): the library's `mode: 'keyword'` against plain FTS5 BM25 over the same turns,
 * turn level, for the keyword-evidence constants given as JSON points (set in this process).
 *   npx tsx eval/lme-keyword.ts [--half tune|check] [--db FILE] [--points JSON]
 */
import { existsSync } from 'node:fs';
import { openMemory } from '../src/index.js';
import { KEYWORD_EVIDENCE } from '../src/recall/context-evidence.js';
import type { CachingEmbedder } from './embed-cache.js';
import { Baselines, defaultLmeDir, lmeHalf, loadLme, scoreLme, storeQuestion, type TurnMap } from './longmemeval.js';

const arg = (n: string): string | undefined => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
type S = { r5: number; r10: number; mrr: number };
const mean = (xs: readonly S[]): S => ({
  r5: xs.reduce((a, x) => a + x.r5, 0) / xs.length,
  r10: xs.reduce((a, x) => a + x.r10, 0) / xs.length,
  mrr: xs.reduce((a, x) => a + x.mrr, 0) / xs.length,
});
const f3 = (s: S): string => `${s.r5.toFixed(3)} / ${s.r10.toFixed(3)} / ${s.mrr.toFixed(3)}`;

const half = arg('--half') ?? 'tune';
const qs = loadLme(defaultLmeDir()).filter((q) => !q.abstention && lmeHalf(q.id) === half);
const db = arg('--db') ?? `/tmp/lme-keyword-${half}.db`;
const reuse = existsSync(db);
const mem = await openMemory({ path: db, embedder: 'none' });
const maps = new Map<string, TurnMap>();
for (const q of qs) {
  if (reuse) {
    // Rebuilt from the stored memories (as eval/longmemeval.ts --db does).
    const m: TurnMap = new Map();
    const rows = [];
    for (let off = 0; ; off += 1000) {
      const got = await mem.list({ namespace: q.id, limit: 1000, offset: off, order: 'asc' });
      rows.push(...got);
      if (got.length < 1000) break;
    }
    const kept = new Map(q.sessions.map((s) => [s.id, s.turns.flatMap((t, i) => (t.content.trim() !== '' ? [i] : []))]));
    for (const r of rows) {
      const md = r.metadata as { turn?: number; turns?: [number, number] };
      const [a, b] = md.turns ?? [md.turn!, md.turn!];
      m.set(
        r.id,
        kept
          .get(r.sessionId ?? '')!
          .slice(a, b + 1)
          .map((i) => `${r.sessionId}:${i}`),
      );
    }
    maps.set(q.id, m);
  } else maps.set(q.id, await storeQuestion(mem, q));
}
// Plain BM25 needs no vectors: the baseline's embedder is a stand-in of zeros.
const zeros = { embed: async (t: string[]) => t.map(() => new Float32Array(1)) } as unknown as CachingEmbedder;
const base = new Baselines();
const bm: S[] = [];
for (const q of qs) {
  await base.add(q, zeros);
  bm.push(
    scoreLme(
      base.bm25(q).map((k) => [k]),
      q,
    ).turn,
  );
}
console.log(`lme ${half} (${qs.length}) plain FTS5 BM25: ${f3(mean(bm))}`);
const points = JSON.parse(arg('--points') ?? '[{}]') as Record<string, number>[];
const shipped = { ...KEYWORD_EVIDENCE };
for (const p of points) {
  Object.assign(KEYWORD_EVIDENCE, shipped, p);
  const xs: S[] = [];
  for (const q of qs) {
    const hits = await mem.recall(q.question, { namespace: q.id, limit: 50, now: q.date, mode: 'keyword' });
    xs.push(
      scoreLme(
        hits.map((h) => maps.get(q.id)!.get(h.id) ?? []),
        q,
      ).turn,
    );
  }
  console.log(`lme ${half} keyword ${JSON.stringify(p)}: ${f3(mean(xs))}`);
}
base.close();
await mem.close();
