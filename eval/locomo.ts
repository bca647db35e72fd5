/**
 * Real conversations in the loop: the LoCoMo development half (`../shared/locomo-dev` beside the
 * repository, or `--locomo DIR`), measured with the protocol of its README, on both storage paths:
 *  - `conversation`: `addConversation()` once per session (sessionId `D<n>`), a memory standing for
 *    every turn it holds;
 *  - `turns`: one memory per turn through `addMany()` with `sessionId` `D<n>` and `force: true`.
 * Each conversation is its own namespace; every question (categories 1–4) runs through
 * `recall(question, { namespace, limit: 50, mode, ...variant })`; R@5, R@10 (share of the evidence
 * turns in the top k) and MRR (first evidence turn), per conversation and overall.
 *
 * The data is never copied into the repository: it is read where it lies.
 *   tsx eval/locomo.ts [--locomo DIR] [--paths conversation,turns] [--variants core|all] [--json FILE]
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openMemory, type Memory } from '../src/index.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { CachingEmbedder } from './embed-cache.js';
import { EXTRA_VARIANTS, LOCOMO_VARIANTS, type LocomoVariant } from './locomo-variants.js';

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface Question {
  question: string;
  evidence: string[];
  category: number;
}
/** One conversation as the protocol stores it. */
export interface LocomoConversation {
  id: string;
  speakers: string[];
  sessions: { n: number; date: Date | undefined; turns: { dia: string; speaker: string; text: string }[] }[];
  questions: Question[];
  adversarial: Question[];
}

/** "1:56 pm on 8 May, 2023" → Date (UTC). */
function sessionDate(s: string | undefined): Date | undefined {
  const m = s ? /(\d+):(\d+)\s*(am|pm)\s+on\s+(\d+)\s+(\w+),?\s+(\d{4})/i.exec(s) : null;
  if (!m) return undefined;
  const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
  const mon = months.indexOf(m[5]!.toLowerCase());
  if (mon < 0) return undefined;
  const h = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), mon, Number(m[4]), h, Number(m[2])));
}

/** Read the conversations of a LoCoMo folder (`conv-*.json`), evidence ids normalised as its README says. */
export function loadLocomo(dir: string): LocomoConversation[] {
  return readdirSync(dir)
    .filter((f) => /^conv-.*\.json$/.test(f))
    .sort()
    .map((f) => {
      const j = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
      const sessions: LocomoConversation['sessions'] = [];
      for (let n = 1; Array.isArray(j[`session_${n}`]); n++) {
        const turns = (j[`session_${n}`] as RawTurn[]).map((t) => ({
          dia: t.dia_id,
          speaker: t.speaker,
          text: `${t.text}${t.blip_caption ? ` [${t.blip_caption}]` : ''}`,
        }));
        sessions.push({ n, date: sessionDate(j[`session_${n}_date_time`] as string | undefined), turns });
      }
      const dias = new Set(sessions.flatMap((s) => s.turns.map((t) => t.dia)));
      const norm = (e: string): string => {
        const m = /^D:?(\d+):0*(\d+)$/.exec(e.trim());
        return m ? `D${Number(m[1])}:${Number(m[2])}` : e;
      };
      const qa = (j.qa as { question: string; evidence?: string[]; category: number }[]).map((q) => ({
        question: q.question,
        category: q.category,
        evidence: [...new Set((q.evidence ?? []).map(norm))].filter((e) => dias.has(e)),
      }));
      return {
        id: f.replace(/\.json$/, ''),
        speakers: [j.speaker_a as string, j.speaker_b as string],
        sessions,
        questions: qa.filter((q) => q.category >= 1 && q.category <= 4 && q.evidence.length > 0),
        adversarial: qa.filter((q) => q.category === 5),
      };
    });
}

/** Store one conversation; returns library id → the dia ids it stands for. */
export async function storeConversation(
  mem: Memory,
  c: LocomoConversation,
  path: 'conversation' | 'turns',
  write: { contextWindow?: number } = {},
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const s of c.sessions) {
    const sessionId = `D${s.n}`;
    if (path === 'conversation') {
      const res = await mem.addConversation(
        s.turns.map((t) => ({ speaker: t.speaker, content: t.text, ...(s.date ? { at: s.date } : {}) })),
        // The session's date is when its turns happened (their at sets it too; explicit for the protocol).
        { namespace: c.id, sessionId, ...(s.date ? { eventAt: s.date } : {}), ...write },
      );
      for (const r of res)
        out.set(
          r.id,
          s.turns.slice(r.turns[0], r.turns[1] + 1).map((t) => t.dia),
        );
    } else {
      const res = await mem.addMany(
        s.turns.map((t) => ({
          content: `${t.speaker}: ${t.text}`,
          namespace: c.id,
          sessionId,
          force: true,
          ...(s.date ? { createdAt: s.date, eventAt: s.date } : {}),
          ...write,
        })),
      );
      res.forEach((r, i) => out.set(r.id, [s.turns[i]!.dia]));
    }
  }
  return out;
}

/** R@5, R@10, MRR of one ranking (library ids) against a question's evidence. */
export function scoreQuestion(ranked: string[], toDia: Map<string, string[]>, evidence: string[]): { r5: number; r10: number; mrr: number } {
  const ev = new Set(evidence);
  const diasAt = (k: number): Set<string> => new Set(ranked.slice(0, k).flatMap((id) => toDia.get(id) ?? []));
  const r = (k: number): number => {
    const got = diasAt(k);
    return [...ev].filter((e) => got.has(e)).length / ev.size;
  };
  const first = ranked.findIndex((id) => (toDia.get(id) ?? []).some((d) => ev.has(d)));
  return { r5: r(5), r10: r(10), mrr: first < 0 ? 0 : 1 / (first + 1) };
}

type Scores = { r5: number; r10: number; mrr: number };
/** One variant on one storage path. `speaker`: over questions naming exactly one of the two people, the share of the top 5 hits that are that person's turns, and the same share among the evidence turns. */
export interface LocomoResult {
  path: string;
  variant: string;
  overall: Scores;
  byConversation: Record<string, Scores>;
  perQuestion: Scores[];
  speaker: { questions: number; top5: number; evidence: number };
}
const avg = (xs: Scores[]): Scores => ({
  r5: xs.reduce((a, x) => a + x.r5, 0) / xs.length,
  r10: xs.reduce((a, x) => a + x.r10, 0) / xs.length,
  mrr: xs.reduce((a, x) => a + x.mrr, 0) / xs.length,
});

/** Run every variant on every conversation and path; returns per-variant, per-path results (overall and per conversation). */
export async function runLocomo(
  dir: string,
  variants: LocomoVariant[],
  paths: ('conversation' | 'turns')[],
  embedder: CachingEmbedder,
  log = (s: string): void => {
    process.stderr.write(s);
  },
  /** A folder whose stores are kept and reused by later runs (recall-only changes); default: a temporary one. */
  keepDir?: string,
): Promise<LocomoResult[]> {
  const convs = loadLocomo(dir);
  const tmp = keepDir ?? mkdtempSync(join(tmpdir(), 'mnemolite-locomo-'));
  const results: LocomoResult[] = [];
  try {
    // Variants that write differently get a store of their own.
    const writes = [...new Set(variants.map((v) => JSON.stringify(v.write ?? {})))];
    for (const path of paths) {
      for (const w of writes) {
        const file = join(tmp, `${path}-${writes.indexOf(w)}.db`);
        const reuse = keepDir !== undefined && path === 'conversation' && existsSync(file);
        const mem = await openMemory({ path: file, embedder });
        const maps = new Map<string, Map<string, string[]>>();
        for (const c of convs) {
          maps.set(c.id, reuse ? await storedConversationMap(mem, c) : await storeConversation(mem, c, path, JSON.parse(w) as { contextWindow?: number }));
          log(`\r  locomo ${path} ${w}: stored ${c.id}   `);
        }
        log('\n');
        for (const v of variants.filter((x) => JSON.stringify(x.write ?? {}) === w)) {
          const per: Scores[] = [];
          const byConversation: Record<string, Scores> = {};
          const sp = { questions: 0, top5: 0, evidence: 0 };
          for (const c of convs) {
            const mine: Scores[] = [];
            const speakerOf = new Map(c.sessions.flatMap((s) => s.turns.map((t) => [t.dia, t.speaker] as const)));
            for (const q of c.questions) {
              const hits = await mem.recall(q.question, { namespace: c.id, limit: 50, ...v.recall });
              mine.push(
                scoreQuestion(
                  hits.map((h) => h.id),
                  maps.get(c.id)!,
                  q.evidence,
                ),
              );
              const named = c.speakers.filter((n) => new RegExp(`\\b${n}\\b`, 'i').test(q.question));
              if (named.length === 1) {
                const by = (dias: string[]): number => (dias.length ? dias.filter((d) => speakerOf.get(d) === named[0]).length / dias.length : 0);
                sp.questions++;
                sp.top5 += by(hits.slice(0, 5).map((h) => maps.get(c.id)!.get(h.id)?.[0] ?? ''));
                sp.evidence += by(q.evidence);
              }
            }
            byConversation[c.id] = avg(mine);
            per.push(...mine);
          }
          results.push({
            path,
            variant: v.name,
            overall: avg(per),
            byConversation,
            perQuestion: per,
            speaker: { questions: sp.questions, top5: sp.top5 / Math.max(1, sp.questions), evidence: sp.evidence / Math.max(1, sp.questions) },
          });
          log(`  locomo ${path}: ${v.name}\n`);
        }
        await mem.close();
      }
    }
  } finally {
    if (keepDir === undefined) rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}

/** The id → dia map of a conversation already stored by the `conversation` path (from each memory's session and turn metadata). */
async function storedConversationMap(mem: Memory, c: LocomoConversation): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const bySession = new Map(c.sessions.map((s) => [`D${s.n}`, s]));
  for (let off = 0; ; off += 1000) {
    const rows = await mem.list({ namespace: c.id, limit: 1000, offset: off, order: 'asc' });
    for (const r of rows) {
      const s = bySession.get(r.sessionId ?? '')!;
      const md = r.metadata as { turn?: number; turns?: [number, number] };
      const [a, b] = md.turns ?? [md.turn!, md.turn!];
      out.set(
        r.id,
        s.turns.slice(a, b + 1).map((t) => t.dia),
      );
    }
    if (rows.length < 1000) break;
  }
  return out;
}

/** Where the dev half is expected: `../shared/locomo-dev` beside the repository. */
export function defaultLocomoDir(): string {
  return resolve(new URL('.', import.meta.url).pathname, '..', '..', 'shared', 'locomo-dev');
}

export function locomoReport(rs: LocomoResult[], dir: string): string {
  const f = (x: number): string => x.toFixed(3);
  const out = [`### LoCoMo dev half (real conversations, ${dir}): categories 1–4, recall limit 50`, ''];
  for (const path of [...new Set(rs.map((r) => r.path))]) {
    out.push(`Storage path \`${path}\`:`, '', '| variant | R@5 | R@10 | MRR |', '|:--|--:|--:|--:|');
    for (const r of rs.filter((x) => x.path === path)) out.push(`| ${r.variant} | ${f(r.overall.r5)} | ${f(r.overall.r10)} | ${f(r.overall.mrr)} |`);
    const d = rs.find((x) => x.path === path && x.variant === 'hybrid (default)');
    if (d)
      out.push(
        '',
        `Speakers: on the ${d.speaker.questions} questions that name one of the two people, ${(100 * d.speaker.top5).toFixed(0)}% of the default's top 5 hits are that person's turns (${(100 * d.speaker.evidence).toFixed(0)}% of the evidence turns are).`,
      );
    out.push('');
  }
  return out.join('\n');
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = arg('--locomo') ?? defaultLocomoDir();
  if (!existsSync(dir)) {
    console.log(`LoCoMo dev half not found at ${dir}: skipped (give --locomo DIR).`);
  } else {
    const here = new URL('.', import.meta.url).pathname;
    const embedder = new CachingEmbedder(new LocalEmbedder(), arg('--cache') ?? join(here, '..', 'bench', '.cache', 'eval'));
    const paths = (arg('--paths') ?? 'conversation,turns').split(',') as ('conversation' | 'turns')[];
    const extra = EXTRA_VARIANTS;
    const variants = arg('--variants') === 'core' ? LOCOMO_VARIANTS : [...LOCOMO_VARIANTS, ...extra];
    const rs = await runLocomo(dir, variants, paths, embedder, undefined, arg('--db-dir'));
    console.log(locomoReport(rs, dir));
    const j = arg('--json');
    if (j)
      writeFileSync(
        j,
        JSON.stringify(
          rs.map(({ perQuestion: _p, ...r }) => r),
          null,
          1,
        ),
      );
  }
}
