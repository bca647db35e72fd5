/**
 * The keyword leg's conversational evidence and the fusion's keyword share, chosen leaving one set
 * out (issue 24): LoCoMo dev (each of its five conversations a set), LongMemEval dev (its tune half
 * only), the generated facts and conversations. Every grid point runs the default hybrid recall of
 * every question through the public API, with the library's constants set in this process
 * (`KEYWORD_EVIDENCE`, `ADAPTIVE_DEFAULTS.keywordWeight`); for each set left out, the point with the
 * best mean R@5 + R@10 + MRR over the other sets (each set weighing the same) is scored on it.
 *
 *   npx tsx eval/ranking-cv.ts [--lme-db FILE] [--locomo-db DIR] [--fusion | --gain | --rules FAMILY[,…]|all] [--only 'NAME|…'] [--kinds] [--held]
 * (`--fusion`: the grid over the vector leg's normalisation range and the keyword weight instead;
 * `--gain`: the grid over the adaptive share's coverage and margin gains; `--rules`: the shipped
 * fusion against the candidate rules of eval/fusion-rules.ts, each leg alone reported too; `--kinds`:
 * one set per kind of data, LoCoMo's conversations pooled, and the profiles' reworded questions
 * (tune half) as a fifth; `--held`: LongMemEval's check half and the profiles' held half instead of
 * the tune halves, every point reported and nothing chosen: run once, to report; `--only 'NAME|NAME'`:
 * only these points of the families)
 * (the stores of eval/longmemeval.ts --db and eval/locomo.ts --db-dir are reused when given; the
 * generated sets are loaded into temporary files).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../src/index.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { KEYWORD_EVIDENCE } from '../src/recall/context-evidence.js';
import { ADAPTIVE_DEFAULTS, FUSION_TRIAL, NORMALISATION_RANGE } from '../src/recall/fusion.js';
import { FAMILIES, type RulePoint, trialOf } from './fusion-rules.js';
import { CachingEmbedder } from './embed-cache.js';
import type { Dataset } from './gen-util.js';
import { defaultLocomoDir, loadLocomo, runLocomo } from './locomo.js';
import { defaultLmeDir, lmeHalf, loadLme, openLme, scoreLme } from './longmemeval.js';
import { score } from './metrics.js';
import { loadDataset } from './relevance-kinds.js';
import { loadProfiles, storeProfiles } from './profiles.js';

const here = new URL('.', import.meta.url).pathname;
const arg = (n: string): string | undefined => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

type S = { r5: number; r10: number; mrr: number };
interface Point {
  context: number;
  session: number;
  keywordWeight: number;
  /** The vector leg's smallest normalisation range (NORMALISATION_RANGE.vector). */
  vectorRange: number;
  /** The adaptive share's gains (ADAPTIVE_DEFAULTS.keywordGain, vectorGain). */
  keywordGain: number;
  vectorGain: number;
  /** A candidate fusion rule in place of the shipped one (eval/fusion-rules.ts), and its family. */
  rule?: RulePoint;
  family?: string;
}

/** The profiles' reworded questions of one half (eval/profiles.ts): R@5 / R@10 / MRR of the answer. */
async function loadProfileSet(dir: string, embedder: CachingEmbedder, half: string): Promise<(mode?: 'keyword' | 'vector') => Promise<S[]>> {
  const ps = loadProfiles().profiles.filter((p) => p.half === half);
  const mem = await openMemory({ path: join(dir, `profiles-${half}.db`), embedder });
  const { toData } = await storeProfiles(mem, ps);
  return async (mode) => {
    const out: S[] = [];
    for (const p of ps)
      for (const q of p.questions.filter((x) => x.kind === 'reworded')) {
        const hits = await mem.recall(q.query, { namespace: p.id, now: q.now, limit: 10, ...(mode ? { mode } : {}) });
        const i = hits.findIndex((h) => q.relevant.includes(toData.get(h.id)!));
        out.push({ r5: i >= 0 && i < 5 ? 1 : 0, r10: i >= 0 ? 1 : 0, mrr: i >= 0 ? 1 / (i + 1) : 0 });
      }
    return out;
  };
}

async function loadGenerated(name: string, dir: string, embedder: CachingEmbedder): Promise<(mode?: 'keyword' | 'vector') => Promise<S[]>> {
  const ds = JSON.parse(readFileSync(join(here, 'data', `${name}.json`), 'utf8')) as Dataset;
  const mem = await openMemory({ path: join(dir, `${name}.db`), embedder });
  const toEval = await loadDataset(mem, ds);
  const dupOf = new Map(ds.memories.filter((m) => m.duplicateOf).map((m) => [m.id, m.duplicateOf!]));
  const groupOf = (id: string): string => {
    let g = id;
    for (let n = 0; n < 5 && dupOf.has(g); n++) g = dupOf.get(g)!;
    return g;
  };
  return async (mode) => {
    const out: S[] = [];
    for (const q of ds.queries) {
      const hits = await mem.recall(q.query, {
        limit: 10,
        ...(q.namespace ? { namespace: q.namespace } : {}),
        ...(q.since ? { since: q.since } : {}),
        ...(q.until ? { until: q.until } : {}),
        ...(mode ? { mode } : {}),
      });
      const ranked = hits.map((h) => {
        const es = toEval.get(h.id) ?? [h.id];
        return es.reduce((b, e) => ((q.relevant[e] ?? 0) > (q.relevant[b] ?? 0) ? e : b), es[0]!);
      });
      const s = score(ranked, q.relevant, groupOf);
      out.push({ r5: s.r5, r10: s.r10, mrr: s.mrr });
    }
    return out;
  };
}

const mean = (xs: readonly S[]): S => ({
  r5: xs.reduce((a, x) => a + x.r5, 0) / xs.length,
  r10: xs.reduce((a, x) => a + x.r10, 0) / xs.length,
  mrr: xs.reduce((a, x) => a + x.mrr, 0) / xs.length,
});
const obj = (s: S): number => s.r5 + s.r10 + s.mrr;
const f3 = (s: S): string => `${s.r5.toFixed(3)} / ${s.r10.toFixed(3)} / ${s.mrr.toFixed(3)}`;

async function main(): Promise<void> {
  const embedder = new CachingEmbedder(new LocalEmbedder({ workers: 0 }), arg('--cache') ?? join(here, '..', 'bench', '.cache', 'eval'));
  const tmp = mkdtempSync(join(tmpdir(), 'mnemolite-rankcv-'));
  try {
    // The sets: a function from a recall mode to per-question scores, run with the constants as set.
    const sets = new Map<string, (mode?: 'keyword' | 'vector') => Promise<S[]>>();
    for (const n of ['facts', 'conversations']) sets.set(n, await loadGenerated(n, tmp, embedder));
    const lmeAll = loadLme(defaultLmeDir());
    const { mem: lmeMem, maps } = await openLme(lmeAll, embedder, arg('--lme-db') ?? join(tmp, 'lme.db'), () => {});
    const held = process.argv.includes('--held');
    const lmeTune = lmeAll.filter((q) => !q.abstention && lmeHalf(q.id) === (held ? 'check' : 'tune'));
    sets.set(held ? 'longmemeval (check half)' : 'longmemeval (tune half)', async (mode) => {
      const out: S[] = [];
      for (const q of lmeTune) {
        const hits = await lmeMem.recall(q.question, { namespace: q.id, limit: 50, now: q.date, ...(mode ? { mode } : {}) });
        const t = scoreLme(
          hits.map((h) => maps.get(q.id)!.get(h.id) ?? []),
          q,
        ).turn;
        out.push({ r5: t.r5, r10: t.r10, mrr: t.mrr });
      }
      return out;
    });
    const kinds = process.argv.includes('--kinds');
    if (kinds) sets.set(held ? 'profiles (held half)' : 'profiles (tune half)', await loadProfileSet(tmp, embedder, held ? 'held' : 'tune'));
    const convs = loadLocomo(defaultLocomoDir());
    const lRuns = async (mode?: 'keyword' | 'vector'): Promise<Map<string, S[]>> => {
      const rs = await runLocomo(defaultLocomoDir(), [{ name: 'x', recall: mode ? { mode } : {} }], ['conversation'], embedder, () => {}, arg('--locomo-db'));
      const per = rs[0]!.perQuestion;
      const out = new Map<string, S[]>();
      if (kinds) return out.set('locomo', per);
      let at = 0;
      for (const c of convs) {
        out.set(`locomo ${c.id}`, per.slice(at, at + c.questions.length));
        at += c.questions.length;
      }
      return out;
    };
    const grid: Point[] = [];
    const base = { ...KEYWORD_DEFAULT };
    if (process.argv.includes('--fusion'))
      for (const vectorRange of [0.15, 0.25, 0.35]) for (const keywordWeight of [0.7, 1]) grid.push({ ...base, keywordWeight, vectorRange });
    else if (arg('--rules')) {
      const fams = arg('--rules') === 'all' ? Object.keys(FAMILIES) : arg('--rules')!.split(',');
      const only = arg('--only')?.split('|');
      grid.push({ ...base });
      for (const f of fams) {
        if (!FAMILIES[f]) throw new Error(`no rule family ${f}: ${Object.keys(FAMILIES).join(', ')}`);
        for (const rule of FAMILIES[f]!) if (!only || only.includes(rule.name)) grid.push({ ...base, rule, family: f });
      }
    } else if (process.argv.includes('--gain'))
      for (const keywordGain of [0.5, 1, 1.5]) for (const vectorGain of [0.5, 1, 1.5, 2]) grid.push({ ...base, keywordGain, vectorGain });
    else
      for (const context of [0.35, 0.5, 0.7])
        for (const session of [0.3, 0.6, 0.9]) for (const keywordWeight of [0.7, 1, 1.4]) grid.push({ ...base, context, session, keywordWeight });
    const results: Map<string, S[]>[] = [];
    for (const p of grid) {
      KEYWORD_EVIDENCE.context = p.context;
      KEYWORD_EVIDENCE.session = p.session;
      ADAPTIVE_DEFAULTS.keywordWeight = p.keywordWeight;
      NORMALISATION_RANGE.vector = p.vectorRange;
      ADAPTIVE_DEFAULTS.keywordGain = p.keywordGain;
      ADAPTIVE_DEFAULTS.vectorGain = p.vectorGain;
      if (p.rule) FUSION_TRIAL.adaptive = trialOf(p.rule);
      else delete FUSION_TRIAL.adaptive;
      const r = new Map<string, S[]>();
      for (const [n, run] of sets) r.set(n, await run());
      for (const [n, xs] of await lRuns()) r.set(n, xs);
      results.push(r);
      process.stderr.write(`  ${label(p)}: ${[...r].map(([n, xs]) => `${n} ${f3(mean(xs))}`).join('; ')}\n`);
    }
    delete FUSION_TRIAL.adaptive;
    const names = [...results[0]!.keys()];
    if (arg('--rules')) {
      // Each leg alone, for "never worse than the better leg".
      const legs = new Map<string, { keyword: S; vector: S }>();
      const lk = await lRuns('keyword'),
        lv = await lRuns('vector');
      for (const [n, run] of sets) legs.set(n, { keyword: mean(await run('keyword')), vector: mean(await run('vector')) });
      for (const [n, xs] of lk) legs.set(n, { keyword: mean(xs), vector: mean(lv.get(n)!) });
      console.log('### Each leg alone (R@5 / R@10 / MRR)\n\n| set | keyword | vector |\n|:--|--:|--:|');
      for (const n of names) console.log(`| ${n} | ${f3(legs.get(n)!.keyword)} | ${f3(legs.get(n)!.vector)} |`);
      // Where the hybrid is below the better leg, per point: (set, metric) pairs.
      console.log('\n| point | below the better leg (set: metric) |\n|:--|:--|');
      results.forEach((r, i) => {
        const below = names.flatMap((n) => {
          const h = mean(r.get(n)!),
            l = legs.get(n)!;
          return (['r5', 'r10', 'mrr'] as const).filter((m) => h[m] < Math.max(l.keyword[m], l.vector[m]) - 1e-9).map((m) => `${n}: ${m}`);
        });
        console.log(`| ${label(grid[i]!)} | ${below.join(', ') || 'none'} |`);
      });
      // Leave one kind out within each family (the shipped rule always a candidate): the held-out
      // mean of the chosen points, and how many (kind, metric) pairs are below the better leg.
      const below = (i: number, n: string): number => {
        const h = mean(results[i]!.get(n)!),
          l = legs.get(n)!;
        return (['r5', 'r10', 'mrr'] as const).filter((m) => h[m] < Math.max(l.keyword[m], l.vector[m]) - 1e-9).length;
      };
      if (!held) {
        console.log(
          '\n| family | points | held out, chosen on the other kinds | held out, shipped | folds choosing a candidate | pairs below the better leg: chosen / shipped |',
        );
        console.log('|:--|--:|--:|--:|--:|--:|');
      }
      for (const f of held ? [] : [...new Set(grid.flatMap((p) => (p.family ? [p.family] : [])))]) {
        const idx = [0, ...grid.flatMap((p, i) => (p.family === f ? [i] : []))];
        const chosen: S[] = [],
          shipped: S[] = [];
        let moved = 0,
          bc = 0,
          bs = 0;
        for (const out of names) {
          let b = 0,
            bv = -Infinity;
          for (const i of idx) {
            const v = names.filter((n) => n !== out).reduce((a, n) => a + obj(mean(results[i]!.get(n)!)), 0);
            if (v > bv + 1e-12) [b, bv] = [i, v];
          }
          chosen.push(mean(results[b]!.get(out)!));
          shipped.push(mean(results[0]!.get(out)!));
          if (b !== 0) moved++;
          bc += below(b, out);
          bs += below(0, out);
        }
        console.log(`| ${f} | ${idx.length - 1} | ${f3(mean(chosen))} | ${f3(mean(shipped))} | ${moved} of ${names.length} | ${bc} / ${bs} |`);
      }
      console.log('');
    }
    if (held) {
      console.log(`| point | ${names.join(' | ')} |`);
      console.log(`|:--|${names.map(() => '--:|').join('')}`);
      results.forEach((r, i) => console.log(`| ${label(grid[i]!)} | ${names.map((n) => f3(mean(r.get(n)!))).join(' | ')} |`));
      await lmeMem.close();
      return;
    }
    console.log('### Keyword evidence and keyword share, leave one set out (hybrid R@5 / R@10 / MRR on the set left out)\n');
    console.log(
      `| set left out | chosen on the others${arg('--rules') ? '' : ' (context, session, keyword weight, vector range, coverage / margin gain)'} | chosen | current defaults |`,
    );
    console.log('|:--|:--|--:|--:|');
    const cur = grid.findIndex((p) => (Object.keys(KEYWORD_DEFAULT) as (keyof Point)[]).every((k) => p[k] === KEYWORD_DEFAULT[k]));
    const chosenAll: S[] = [],
      curAll: S[] = [];
    for (const out of names) {
      let best = 0,
        bestV = -Infinity;
      results.forEach((r, i) => {
        const v = names.filter((n) => n !== out).reduce((a, n) => a + obj(mean(r.get(n)!)), 0);
        if (v > bestV + 1e-12) [best, bestV] = [i, v];
      });
      const p = grid[best]!;
      const s = mean(results[best]!.get(out)!);
      chosenAll.push(s);
      if (cur >= 0) curAll.push(mean(results[cur]!.get(out)!));
      console.log(`| ${out} | ${label(p)} | ${f3(s)} | ${cur >= 0 ? f3(mean(results[cur]!.get(out)!)) : '–'} |`);
    }
    console.log(`| mean over sets | | ${f3(mean(chosenAll))} | ${curAll.length ? f3(mean(curAll)) : '–'} |`);
    let best = 0,
      bestV = -Infinity;
    results.forEach((r, i) => {
      const v = names.reduce((a, n) => a + obj(mean(r.get(n)!)), 0);
      if (v > bestV + 1e-12) [best, bestV] = [i, v];
    });
    const g = grid[best]!;
    console.log(`\nBest on every set together: ${label(g)}.`);
    console.log(`\n| point | ${names.join(' | ')} |`);
    console.log(`|:--|${names.map(() => '--:|').join('')}`);
    results.forEach((r, i) => {
      const p = grid[i]!;
      console.log(`| ${label(p)} | ${names.map((n) => f3(mean(r.get(n)!))).join(' | ')} |`);
    });
    await lmeMem.close();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A point as the tables name it: the rule's name, or the constants. */
const label = (p: Point): string =>
  p.rule ? p.rule.name : arg('--rules') ? 'shipped' : `${p.context}, ${p.session}, ${p.keywordWeight}, ${p.vectorRange}, ${p.keywordGain} / ${p.vectorGain}`;

/** The constants the library ships (read before the grid overwrites them). */
const KEYWORD_DEFAULT: Point = {
  context: KEYWORD_EVIDENCE.context,
  session: KEYWORD_EVIDENCE.session,
  keywordWeight: ADAPTIVE_DEFAULTS.keywordWeight,
  vectorRange: NORMALISATION_RANGE.vector,
  keywordGain: ADAPTIVE_DEFAULTS.keywordGain,
  vectorGain: ADAPTIVE_DEFAULTS.vectorGain,
};

await main();
