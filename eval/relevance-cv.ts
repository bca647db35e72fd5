/**
 * Relevance calibration, fitted and validated leaving one kind of memory out (issue 24).
 *
 *   npx tsx eval/relevance-cv.ts --dump [--kinds facts,conversations,profiles,locomo,longmemeval] [--out DIR] [--lme-db FILE]
 *       runs every kind's questions through the public API (eval/relevance-kinds.ts) and writes
 *       DIR/reldump-<kind>.json (default DIR /tmp/mnemolite-reldump)
 *   npx tsx eval/relevance-cv.ts [--out DIR]
 *       the held-out table of the library's relevance as dumped, at the agent surfaces' default
 *       threshold, per kind: answerable questions keeping their first relevant hit, off-topic
 *       questions returning nothing, LongMemEval's abstention and LoCoMo's category 5 apart;
 *       then the leave-one-kind-out fit of the candidate forms (eval/relevance-forms.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEmbedder } from '../src/embed/local.js';
import { DEFAULT_MIN_RELEVANCE } from '../src/recall/relevance.js';
import { CachingEmbedder } from './embed-cache.js';
import { buildKind, dumpKind, type DumpQuestion } from './relevance-kinds.js';

const here = new URL('.', import.meta.url).pathname;
const arg = (n: string): string | undefined => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
export const KINDS = ['facts', 'conversations', 'profiles', 'locomo', 'longmemeval'];

export function loadDumps(dir: string, kinds = KINDS): DumpQuestion[] {
  return kinds.flatMap((k) => {
    const f = join(dir, `reldump-${k}.json`);
    return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as DumpQuestion[]) : [];
  });
}

/** Share of answerable questions (with a relevant hit in the top 10) keeping their first relevant hit at `t`, and of the others returning nothing. */
export function keptAndEmpty(
  qs: readonly DumpQuestion[],
  rel: (q: DumpQuestion, i: number) => number,
  t: number,
): Record<string, { n: number; share: number }> {
  const out: Record<string, { n: number; share: number }> = {};
  const groups = [...new Set(qs.map((q) => q.group))];
  for (const g of groups) {
    const xs = qs.filter((q) => q.group === g);
    if (g === 'answerable') {
      const withRel = xs.filter((q) => q.hybrid.some((h) => h.rel));
      const ok = withRel.filter(
        (q) =>
          rel(
            q,
            q.hybrid.findIndex((h) => h.rel),
          ) >= t,
      ).length;
      out[g] = { n: withRel.length, share: ok / Math.max(1, withRel.length) };
    } else {
      const ok = xs.filter((q) => q.hybrid.every((_, i) => rel(q, i) < t)).length;
      out[g] = { n: xs.length, share: ok / Math.max(1, xs.length) };
    }
  }
  return out;
}

export function heldOutTable(qs: readonly DumpQuestion[], rel: (q: DumpQuestion, i: number) => number, t = DEFAULT_MIN_RELEVANCE): string {
  const lines = [
    `| kind | answerable keeping the first relevant hit | off-topic returning nothing | LongMemEval abstention / LoCoMo cat. 5 returning nothing |`,
    '|:--|--:|--:|--:|',
  ];
  const p = (x?: { n: number; share: number }): string => (x ? `${(100 * x.share).toFixed(1)}% (${x.n})` : '–');
  for (const k of KINDS) {
    const xs = qs.filter((q) => q.kind === k);
    if (!xs.length) continue;
    const r = keptAndEmpty(xs, rel, t);
    lines.push(`| ${k} | ${p(r.answerable)} | ${p(r.offtopic)} | ${p(r.abstention ?? r.cat5)} |`);
  }
  return lines.join('\n');
}

async function dump(): Promise<void> {
  const kinds = (arg('--kinds') ?? KINDS.join(',')).split(',');
  const out = arg('--out') ?? join(tmpdir(), 'mnemolite-reldump');
  mkdirSync(out, { recursive: true });
  const embedder = new CachingEmbedder(new LocalEmbedder({ workers: 0 }), arg('--cache') ?? join(here, '..', 'bench', '.cache', 'eval'));
  const dir = mkdtempSync(join(tmpdir(), 'mnemolite-relkinds-'));
  try {
    for (const k of kinds) {
      const t0 = performance.now();
      const { mem, questions } = await buildKind(k, dir, embedder, arg('--lme-db'));
      const d = await dumpKind(k, mem, questions);
      await mem.close();
      writeFileSync(join(out, `reldump-${k}.json`), JSON.stringify(d));
      process.stderr.write(`${k}: ${d.length} questions dumped in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--dump')) await dump();
  else {
    const dir = arg('--out') ?? join(tmpdir(), 'mnemolite-reldump');
    const qs = loadDumps(dir);
    console.log(`### The library's relevance as dumped, at ${DEFAULT_MIN_RELEVANCE}\n`);
    console.log(heldOutTable(qs, (q, i) => q.hybrid[i]!.relevance));
    const forms = await import('./relevance-forms.js');
    console.log(`\n${forms.crossValidate(qs)}`);
  }
}
