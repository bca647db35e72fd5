/**
 * Dump the default recall's ranked candidates (limit 150 from the protocol's 150-deep pool) with
 * each hit's speaker(s), for the offline speaker-preference study (eval/speaker/cv.ts):
 *   tsx eval/speaker/dump.ts [conversation|turns] OUT.json
 * The LoCoMo dev half is read where it lies (../shared/locomo-dev), never copied.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../../src/index.js';
import type { RecallOptions } from '../../src/types/memory.js';
import { LocalEmbedder } from '../../src/embed/local.js';
import { CachingEmbedder } from '../embed-cache.js';
import { defaultLocomoDir, loadLocomo, storeConversation } from '../locomo.js';

const [path = 'conversation', out = `/tmp/speaker-${path}.json`] = process.argv.slice(2) as ['conversation' | 'turns', string];
const extra = JSON.parse(process.env.RECALL_OPTS ?? '{}') as RecallOptions;
const here = new URL('.', import.meta.url).pathname;
const embedder = new CachingEmbedder(new LocalEmbedder(), join(here, '..', '..', 'bench', '.cache', 'eval'));
const tmp = mkdtempSync(join(tmpdir(), 'speaker-dump-'));
const convs = loadLocomo(defaultLocomoDir());
const mem = await openMemory({ path: join(tmp, 'm.db'), embedder });
const dump = [];
for (const c of convs) {
  const map = await storeConversation(mem, c, path);
  const speakerOf = new Map(c.sessions.flatMap((s) => s.turns.map((t) => [t.dia, t.speaker] as const)));
  const qs = [];
  for (const q of c.questions) {
    const hits = await mem.recall(q.question, { namespace: c.id, limit: 150, candidates: 150, ...extra });
    qs.push({
      question: q.question,
      category: q.category,
      evidence: q.evidence,
      hits: hits.map((h) => {
        const dias = map.get(h.id) ?? [];
        return {
          dias,
          score: h.score,
          speaker: typeof h.metadata.speaker === 'string' ? h.metadata.speaker : null,
          speakers: Array.isArray(h.metadata.speakers) ? (h.metadata.speakers as string[]) : null,
          // Ground truth speakers of the turns the memory stands for (for the turns path, which stores no metadata).
          truth: [...new Set(dias.map((d) => speakerOf.get(d)!))],
        };
      }),
    });
  }
  dump.push({ id: c.id, speakers: c.speakers, questions: qs });
  process.stderr.write(`\r${path}: ${c.id}   `);
}
await mem.close();
rmSync(tmp, { recursive: true, force: true });
writeFileSync(out, JSON.stringify(dump));
process.stderr.write(`\nwrote ${out}\n`);
