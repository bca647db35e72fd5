/**
 * The hand-written profiles (eval/data/profiles.json, eval/generate-profiles.ts) through the public
 * API, as an agent would use them: each person in a namespace, facts added with their `createdAt`
 * (and `eventAt` for events), every question asked with its `now`, with `recall` (limit 10) and
 * with `context()` at the agent surfaces' default threshold.
 *
 *   npx tsx eval/profiles.ts [--half tune|held|all] [--show] [--json FILE]
 *
 * Per kind:
 * - reworded: rank of the answer, its relevance, and whether it survives the default threshold;
 * - update: the newer statement above the older one (both in the top 10), and the newer one first;
 * - time: for "in <month>" questions the memory inside the window above the equally good one
 *   outside it; for every time question, the share of the window's memories in the top k
 *   (k = their number) and in `context()`;
 * - off-topic: nothing at or above the threshold (recall) and an empty `context()`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory, type Memory } from '../src/index.js';
import type { RecallHit, RecallOptions } from '../src/types/memory.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { DEFAULT_MIN_RELEVANCE } from '../src/recall/relevance.js';
import { CachingEmbedder } from './embed-cache.js';
import type { Profile, ProfileQuestion, ProfileSet } from './generate-profiles.js';

const here = new URL('.', import.meta.url).pathname;

export function loadProfiles(): ProfileSet {
  return JSON.parse(readFileSync(join(here, 'data', 'profiles.json'), 'utf8')) as ProfileSet;
}

/** Store every profile in its own namespace; returns data-set id → library id and back. */
export async function storeProfiles(mem: Memory, ps: readonly Profile[]): Promise<{ toLib: Map<string, string>; toData: Map<string, string> }> {
  const toLib = new Map<string, string>(),
    toData = new Map<string, string>();
  for (const p of ps) {
    // One add per fact in the order they were learned, as an agent adds them.
    for (const m of [...p.memories].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
      const r = await mem.add(m.content, { namespace: p.id, createdAt: m.createdAt, ...(m.eventAt ? { eventAt: m.eventAt } : {}) });
      toLib.set(m.id, r.id);
      toData.set(r.id, m.id);
    }
  }
  return { toLib, toData };
}

export interface ProfileRun {
  q: ProfileQuestion;
  profile: string;
  half: string;
  hits: RecallHit[];
  ranked: string[];
  context: string[];
  /** `context()` as the agent surfaces call it (`bestMatch: true`): the same, or the one low-confidence guess. */
  surface: string[];
}

/** Ask every question (recall limit 10 with its `now`, and context() at the default threshold). */
export async function askProfiles(mem: Memory, ps: readonly Profile[], toData: Map<string, string>, extra: RecallOptions = {}): Promise<ProfileRun[]> {
  const out: ProfileRun[] = [];
  for (const p of ps)
    for (const q of p.questions) {
      const hits = await mem.recall(q.query, { namespace: p.id, now: q.now, limit: 10, ...extra });
      const ctx = await mem.context(q.query, { namespace: p.id, now: q.now, ...extra });
      const surface = await mem.context(q.query, { namespace: p.id, now: q.now, bestMatch: true, ...extra });
      out.push({
        q,
        profile: p.id,
        half: p.half,
        hits,
        ranked: hits.map((h) => toData.get(h.id)!),
        context: ctx.memories.map((m) => toData.get(m.id)!),
        surface: surface.memories.map((m) => toData.get(m.id)!),
      });
    }
  return out;
}

const pct = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(0)}% (${a}/${b})` : '–');

/** The per-kind summary table of some runs. */
export function profileReport(runs: readonly ProfileRun[], label: string, show = false): string {
  const t = DEFAULT_MIN_RELEVANCE;
  const out = [`#### ${label}`, ''];
  const rw = runs.filter((r) => r.q.kind === 'reworded');
  const rankOf = (r: ProfileRun, ids: readonly string[]): number => r.ranked.findIndex((x) => ids.includes(x));
  const firstRel = (r: ProfileRun): RecallHit | undefined => r.hits[rankOf(r, r.q.relevant)];
  out.push('| kind | measure | value |', '|:--|:--|--:|');
  out.push(`| reworded (${rw.length}) | answer ranked first | ${pct(rw.filter((r) => rankOf(r, r.q.relevant) === 0).length, rw.length)} |`);
  out.push(`| | answer in the top 3 | ${pct(rw.filter((r) => rankOf(r, r.q.relevant) >= 0 && rankOf(r, r.q.relevant) < 3).length, rw.length)} |`);
  const inTop = rw.filter((r) => rankOf(r, r.q.relevant) >= 0);
  out.push(`| | first relevant hit kept at ${t} (of those in the top 10) | ${pct(inTop.filter((r) => firstRel(r)!.relevance >= t).length, inTop.length)} |`);
  out.push(`| | answer in context() | ${pct(rw.filter((r) => r.context.some((x) => r.q.relevant.includes(x))).length, rw.length)} |`);
  out.push(
    `| | answer in context() with \`bestMatch\` (the agent surfaces: a low-confidence guess counts) | ${pct(rw.filter((r) => r.surface.some((x) => r.q.relevant.includes(x))).length, rw.length)} |`,
  );
  const up = runs.filter((r) => r.q.kind === 'update');
  const newerAbove = (r: ProfileRun): boolean => {
    const a = rankOf(r, r.q.relevant),
      b = rankOf(r, r.q.stale ?? []);
    return a >= 0 && (b < 0 || a < b);
  };
  out.push(`| update (${up.length}) | newer above older | ${pct(up.filter(newerAbove).length, up.length)} |`);
  out.push(`| | newer ranked first | ${pct(up.filter((r) => rankOf(r, r.q.relevant) === 0).length, up.length)} |`);
  out.push(
    `| | newer in context() before older | ${pct(
      up.filter((r) => {
        const a = r.context.findIndex((x) => r.q.relevant.includes(x)),
          b = r.context.findIndex((x) => (r.q.stale ?? []).includes(x));
        return a >= 0 && (b < 0 || a < b);
      }).length,
      up.length,
    )} |`,
  );
  const tm = runs.filter((r) => r.q.kind === 'time');
  const pairs = tm.filter((r) => r.q.distractor);
  out.push(
    `| time (${tm.length}) | inside the window above the equal match outside (${pairs.length}) | ${pct(
      pairs.filter((r) => {
        const a = rankOf(r, r.q.relevant),
          b = rankOf(r, r.q.distractor!);
        return a >= 0 && (b < 0 || a < b);
      }).length,
      pairs.length,
    )} |`,
  );
  let got = 0,
    want = 0,
    inCtx = 0,
    kept = 0;
  for (const r of tm) {
    const k = r.q.relevant.length;
    want += k;
    got += r.q.relevant.filter((x) => r.ranked.slice(0, k).includes(x)).length;
    inCtx += r.q.relevant.filter((x) => r.context.includes(x)).length;
    kept += r.q.relevant.filter((x) => (r.hits[r.ranked.indexOf(x)]?.relevance ?? 0) >= t).length;
  }
  out.push(`| | window's memories in the top k (k = their number) | ${pct(got, want)} |`);
  out.push(`| | window's memories at relevance ≥ ${t} | ${pct(kept, want)} |`);
  out.push(`| | window's memories in context() | ${pct(inCtx, want)} |`);
  for (const kind of ['offtopic-world', 'offtopic-personal'] as const) {
    const off = runs.filter((r) => r.q.kind === kind);
    out.push(`| ${kind} (${off.length}) | nothing at ≥ ${t} | ${pct(off.filter((r) => r.hits.every((h) => h.relevance < t)).length, off.length)} |`);
    out.push(`| | empty context() | ${pct(off.filter((r) => !r.context.length).length, off.length)} |`);
    out.push(`| | empty context() with \`bestMatch\` (no guess shown) | ${pct(off.filter((r) => !r.surface.length).length, off.length)} |`);
  }
  if (show) {
    out.push('');
    for (const r of runs) {
      const top = r.hits
        .slice(0, 3)
        .map(
          (h, i) =>
            `${r.ranked[i]}@${h.relevance.toFixed(2)}[c${(h.evidence.coverage ?? 0).toFixed(2)} s${(h.evidence.cosine ?? 0).toFixed(2)} q${(h.evidence.queryCoverage ?? 0).toFixed(2)}]`,
        )
        .join(' ');
      out.push(
        `- ${r.q.id} ${r.q.kind} "${r.q.query}" want ${r.q.relevant.join(',') || '–'}${r.q.stale ? ` stale ${r.q.stale.join(',')}` : ''}: ${top} | ctx ${r.context.join(',') || '∅'}`,
      );
    }
  }
  return out.join('\n');
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const set = loadProfiles();
  const half = arg('--half') ?? 'tune';
  const ps = set.profiles.filter((p) => half === 'all' || p.half === half);
  const embedder = new CachingEmbedder(new LocalEmbedder({ workers: 0 }), arg('--cache') ?? join(here, '..', 'bench', '.cache', 'eval'));
  const dir = mkdtempSync(join(tmpdir(), 'mnemolite-profiles-'));
  try {
    const mem = await openMemory({ path: join(dir, 'p.db'), embedder });
    const { toData } = await storeProfiles(mem, ps);
    const runs = await askProfiles(mem, ps, toData);
    console.log(profileReport(runs, `profiles, ${half} half (${ps.map((p) => p.id).join(', ')})`, process.argv.includes('--show')));
    const j = arg('--json');
    if (j)
      writeFileSync(
        j,
        JSON.stringify(
          runs.map((r) => ({ ...r, hits: r.hits.map((h, i) => ({ id: r.ranked[i], relevance: h.relevance, evidence: h.evidence, score: h.score })) })),
        ),
      );
    await mem.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
