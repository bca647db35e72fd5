/**
 * Calibration and trade-off curve of recall's `relevance` (issue 15, EVAL.md "Relevance").
 *
 *   npx tsx eval/relevance.ts [--fit] [--json FILE] [--store pglite]
 *
 * Loads facts and conversations (eval/data/), and LoCoMo dev (../shared/locomo-dev, one memory per
 * turn, never copied into the repo) when present. Runs every answerable query, every off-topic query
 * of eval/data/offtopic.json (against the facts store and one conversation each) and LoCoMo's
 * category-5 questions (about things the chat does not say) with `recall(limit 10)`, in hybrid and
 * keyword mode. Then prints, for thresholds 0.05…0.95: the share of off-topic queries that return
 * nothing and the share of answerable queries whose first relevant hit survives.
 * `--fit` also fits the logistic constants (src/recall/relevance.ts) on the facts, conversations
 * and off-topic hits, and prints them.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory, type Memory } from '../src/index.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { relevanceOf } from '../src/recall/relevance.js';
import type { RelevanceEvidence } from '../src/types/recall.js';
import type { RecallOptions } from '../src/types/memory.js';
import { freshSchema, startPgliteProcess } from '../test/pg-servers.js';
import { CachingEmbedder } from './embed-cache.js';
import type { Dataset } from './gen-util.js';
import { loadDataset } from './relevance-kinds.js';

const here = new URL('.', import.meta.url).pathname;
const arg = (n: string): string | undefined => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** One query's hits: evidence and whether each is relevant (undefined for off-topic). */
interface QueryRun {
  set: string;
  offtopic: boolean;
  hits: { e: RelevanceEvidence; rel: boolean }[];
}

let pgUrl: string | undefined;
async function open(dir: string, name: string, embedder: CachingEmbedder): Promise<Memory> {
  const where = pgUrl ? { url: pgUrl, postgres: { schema: freshSchema(), poolSize: 1 } } : { path: join(dir, `${name}.db`) };
  return openMemory({ ...where, embedder });
}

/** LoCoMo's "1:56 pm on 8 May, 2023" → ISO. */
function locomoDate(s: string): string {
  const m = /(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})/i.exec(s);
  if (!m) throw new Error(`unparsed LoCoMo date ${s}`);
  const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
  const h = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), months.indexOf(m[5]!.toLowerCase()), Number(m[4]), h, Number(m[2]))).toISOString();
}

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface LocomoQa {
  question: string;
  evidence: string[];
  category: number;
}

async function main(): Promise<void> {
  const pglite = arg('--store') === 'pglite' ? await startPgliteProcess() : null;
  pgUrl = pglite?.url ?? (arg('--store')?.startsWith('postgres') ? arg('--store') : undefined);
  const embedder = new CachingEmbedder(new LocalEmbedder(), arg('--cache') ?? join(here, '..', 'bench', '.cache', 'eval'));
  const dir = mkdtempSync(join(tmpdir(), 'mnemolite-relevance-'));
  const off = (JSON.parse(readFileSync(join(here, 'data', 'offtopic.json'), 'utf8')) as { queries: { query: string }[] }).queries;
  const runs: Record<'hybrid' | 'keyword', QueryRun[]> = { hybrid: [], keyword: [] };
  const modes = ['hybrid', 'keyword'] as const;
  const record = async (mem: Memory, set: string, query: string, opts: RecallOptions, isRel: ((libId: string) => boolean) | null): Promise<void> => {
    for (const mode of modes) {
      const hits = await mem.recall(query, { ...opts, limit: 10, mode });
      runs[mode].push({ set, offtopic: isRel === null, hits: hits.map((h) => ({ e: h.evidence, rel: isRel ? isRel(h.id) : false })) });
    }
  };
  try {
    for (const name of ['facts', 'conversations']) {
      const ds = JSON.parse(readFileSync(join(here, 'data', `${name}.json`), 'utf8')) as Dataset;
      const mem = await open(dir, name, embedder);
      const toEval = await loadDataset(mem, ds);
      process.stderr.write(`${name}: loaded\n`);
      for (const q of ds.queries) {
        const opts: RecallOptions = {};
        if (q.namespace) opts.namespace = q.namespace;
        if (q.since) opts.since = q.since;
        if (q.until) opts.until = q.until;
        await record(mem, name, q.query, opts, (id) => (toEval.get(id) ?? []).some((e) => (q.relevant[e] ?? 0) > 0));
      }
      const nss = [...new Set(ds.memories.map((m) => m.namespace).filter((x): x is string => !!x))];
      for (const [i, q] of off.entries()) await record(mem, `offtopic→${name}`, q.query, nss.length ? { namespace: nss[i % nss.length]! } : {}, null);
      await mem.close();
    }
    const locomoDir = join(here, '..', '..', 'shared', 'locomo-dev');
    const ldir = existsSync(locomoDir) ? locomoDir : '/work/shared/locomo-dev';
    if (existsSync(ldir)) {
      const mem = await open(dir, 'locomo', embedder);
      for (const f of readdirSync(ldir)
        .filter((x) => x.endsWith('.json'))
        .sort()) {
        const c = JSON.parse(readFileSync(join(ldir, f), 'utf8')) as Record<string, unknown> & { qa: LocomoQa[] };
        const ns = f.replace('.json', '');
        const items: Parameters<Memory['addMany']>[0] = [];
        const dias: string[] = [];
        for (let n = 1; c[`session_${n}`]; n++) {
          const at = locomoDate(c[`session_${n}_date_time`] as string);
          for (const t of c[`session_${n}`] as LocomoTurn[]) {
            items.push({
              content: `${t.speaker}: ${t.text}${t.blip_caption ? ` [${t.blip_caption}]` : ''}`,
              createdAt: at,
              namespace: ns,
              sessionId: `D${n}`,
              force: true,
            });
            dias.push(t.dia_id);
          }
        }
        const res = await mem.addMany(items);
        const dia = new Map(res.map((r, i) => [r.id, dias[i]!]));
        const norm = (e: string): string => e.replace(/^D:?(\d+):0*(\d+)$/, 'D$1:$2');
        for (const qa of c.qa) {
          if (qa.category === 5) await record(mem, 'locomo cat-5', qa.question, { namespace: ns }, null);
          else {
            const ev = new Set(qa.evidence.map(norm));
            await record(mem, 'locomo', qa.question, { namespace: ns }, (id) => ev.has(dia.get(id) ?? ''));
          }
        }
        process.stderr.write(`locomo ${ns}: done\n`);
      }
      await mem.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await pglite?.stop();
  }
  if (process.argv.includes('--fit')) for (const mode of modes) fit(runs[mode], mode);
  for (const mode of modes) curve(runs[mode], mode, relevanceOf);
  const jsonPath = arg('--json');
  if (jsonPath) writeFileSync(jsonPath, JSON.stringify(runs));
}

/** Logistic regression by gradient descent on (coverage, cosine) → relevant, over training hits. */
function fit(rs: QueryRun[], mode: string): void {
  const xs: [number, number, number][] = [];
  for (const r of rs) if (!r.set.startsWith('locomo')) for (const h of r.hits) xs.push([h.e.coverage ?? 0, h.e.cosine ?? 0, h.rel ? 1 : 0]);
  let b = 0,
    wc = 0,
    ws = 0;
  const lr = 0.5;
  for (let it = 0; it < 4000; it++) {
    let gb = 0,
      gc = 0,
      gs = 0;
    for (const [c, s, y] of xs) {
      const p = 1 / (1 + Math.exp(-(b + wc * c + ws * s)));
      gb += p - y;
      gc += (p - y) * c;
      gs += (p - y) * s;
    }
    b -= (lr * gb) / xs.length;
    wc -= ((lr * gc) / xs.length) * 4;
    ws -= ((lr * gs) / xs.length) * 4;
  }
  console.log(
    `fit ${mode}: bias ${b.toFixed(2)}, coverage ${wc.toFixed(2)}, cosine ${ws.toFixed(2)} (${xs.length} hits, ${xs.filter((x) => x[2]).length} relevant)`,
  );
}

/** Off-topic: share with no hit ≥ t. Answerable: share (of those with a relevant hit in the top 10) whose first relevant hit is ≥ t. */
function curve(rs: QueryRun[], mode: string, rel: (e: RelevanceEvidence) => number): void {
  const sets = [...new Set(rs.map((r) => r.set))];
  const ts = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
  console.log(`\n### ${mode}: off-topic queries returning nothing / answerable queries keeping their first relevant hit\n`);
  console.log(`| set (queries) | ${ts.map((t) => `≥ ${t}`).join(' | ')} |`);
  console.log(`|:--|${ts.map(() => '--:').join('|')}|`);
  const row = (label: string, xs: QueryRun[]): void => {
    if (!xs.length) return;
    const cells = ts.map((t) => {
      if (xs[0]!.offtopic) return xs.filter((r) => r.hits.every((h) => rel(h.e) < t)).length / xs.length;
      const withRel = xs.filter((r) => r.hits.some((h) => h.rel));
      return withRel.filter((r) => rel(r.hits.find((h) => h.rel)!.e) >= t).length / Math.max(1, withRel.length);
    });
    const n = xs[0]!.offtopic ? xs.length : xs.filter((r) => r.hits.some((h) => h.rel)).length;
    console.log(`| ${label} (${n}) | ${cells.map((c) => `${(100 * c).toFixed(1)}%`).join(' | ')} |`);
  };
  for (const s of sets)
    row(
      s,
      rs.filter((r) => r.set === s),
    );
  row(
    'all off-topic (facts + conversations)',
    rs.filter((r) => r.set.startsWith('offtopic')),
  );
  row(
    'all answerable (facts + conversations)',
    rs.filter((r) => r.set === 'facts' || r.set === 'conversations'),
  );
}

await main();
