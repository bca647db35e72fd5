/**
 * The other kind of session data: facts noted one by one during a session (not a chat). The facts
 * set with every memory given a sessionId per calendar day it was noted, stored with
 * `contextWindow` 0 and 2; same queries. Decides the default window for memories added one by one
 * with a sessionId (EVAL.md), next to the chats.
 *   npx tsx eval/facts-in-sessions.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../src/index.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { CachingEmbedder } from './embed-cache.js';
import type { Dataset } from './gen-util.js';
import { mean, score, type Scores } from './metrics.js';

const here = new URL('.', import.meta.url).pathname;
const ds = JSON.parse(readFileSync(join(here, 'data', 'facts.json'), 'utf8')) as Dataset;
const embedder = new CachingEmbedder(new LocalEmbedder(), join(here, '..', 'bench', '.cache', 'eval'));
const dir = mkdtempSync(join(tmpdir(), 'mnemolite-facts-sessions-'));
const f3 = (x: number): string => x.toFixed(3);
console.log(
  `facts (${ds.memories.length} memories, ${ds.queries.length} queries), one session per day noted; sessions: ${new Set(ds.memories.map((m) => m.createdAt.slice(0, 10))).size}\n`,
);
console.log('| contextWindow | mode | R@5 | R@10 | MRR |\n|--:|:--|--:|--:|--:|');
try {
  for (const window of [0, 2]) {
    const mem = await openMemory({ path: join(dir, `w${window}.db`), embedder });
    const ids = new Map<string, string[]>();
    const res = await mem.addMany(
      ds.memories.map((m) => ({
        content: m.content,
        createdAt: m.createdAt,
        sessionId: m.createdAt.slice(0, 10),
        contextWindow: window,
        ...(m.category ? { category: m.category } : {}),
        ...(m.namespace ? { namespace: m.namespace } : {}),
      })),
    );
    res.forEach((r, i) => ids.set(r.id, [...(ids.get(r.id) ?? []), ds.memories[i]!.id]));
    for (const mode of ['keyword', 'vector', 'hybrid'] as const) {
      const per: Scores[] = [];
      for (const q of ds.queries) {
        const hits = await mem.recall(q.query, {
          mode,
          limit: 10,
          ...(q.namespace ? { namespace: q.namespace } : {}),
          ...(q.since ? { since: q.since } : {}),
          ...(q.until ? { until: q.until } : {}),
        });
        const ranked = hits.map((h) => {
          const es = ids.get(h.id) ?? [h.id];
          return es.reduce((b, e) => ((q.relevant[e] ?? 0) > (q.relevant[b] ?? 0) ? e : b), es[0]!);
        });
        per.push(score(ranked, q.relevant, (id) => id));
      }
      const m = mean(per);
      console.log(`| ${window} | ${mode} | ${f3(m.r5)} | ${f3(m.r10)} | ${f3(m.mrr)} |`);
    }
    await mem.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
