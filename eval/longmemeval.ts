/**
 * A second kind of real chat: the LongMemEval development questions (`../shared/longmemeval-dev`
 * beside the repository, or `--lme DIR`), measured with the protocol of its README through the
 * public API:
 *  - one namespace per question; each of its ~50 sessions goes in with
 *    `addConversation(turns, { sessionId, namespace })`, turns `{ speaker: role, content, at: session date }`;
 *  - `recall(question, { namespace, limit: 50, mode, now: question date })` for `keyword`, `vector`
 *    and the default (hybrid); a hit counts for every turn its memory holds;
 *  - session level (sessions ranked by their first hit; relevant = `answer_session_ids`) and turn
 *    level (relevant = `has_answer` turns): R@5, R@10, NDCG@10, MRR.
 * Two outside baselines over the same turns (one row per turn, text `role: content`, the same
 * vectors): plain FTS5 BM25 (`porter unicode61`, quoted OR-joined words, `ORDER BY rank LIMIT 50`)
 * and FTS5 + exact cosine + RRF k=60.
 *
 * The 60 answerable questions are split into two fixed halves by a hash of the question id
 * (`tune` / `check`, {@link lmeHalf}); the 15 abstention questions (`*_abs`) have no evidence and
 * are used for "nothing relevant" only (eval/relevance-cv.ts).
 *
 * The data is never copied into the repository: it is read where it lies.
 *   tsx eval/longmemeval.ts --prepare                 embed every turn once into the vector cache (slow; resumable)
 *   tsx eval/longmemeval.ts [--half tune|check|all] [--variants core|all] [--db FILE] [--json FILE] [--dump FILE]
 * `--db FILE` keeps the ingested store and reuses it on the next run (recall-only changes).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { openMemory, type Memory } from '../src/index.js';
import type { RecallHit, RecallOptions } from '../src/types/memory.js';
import { LocalEmbedder } from '../src/embed/local.js';
import { conversationItems } from '../src/memory/conversation.js';
import { toMatchExpression } from '../src/search/keyword.js';
import { rrf } from '../src/recall/fusion.js';
import { CachingEmbedder } from './embed-cache.js';
import { fnv1a } from './split.js';

/** One LongMemEval question as the protocol stores it. */
export interface LmeQuestion {
  id: string;
  type: string;
  abstention: boolean;
  question: string;
  date: Date;
  answer: string;
  sessions: { id: string; date: Date; turns: { role: string; content: string; hasAnswer: boolean }[] }[];
  answerSessions: string[];
}

/** "2023/05/30 (Tue) 16:24" → Date (UTC). */
export function lmeDate(s: string): Date {
  const m = /^(\d{4})\/(\d\d)\/(\d\d)\s*(?:\(\w+\))?\s*(\d\d):(\d\d)/.exec(s.trim());
  if (!m) throw new Error(`unparsed LongMemEval date ${s}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])));
}

/** Read the questions of a LongMemEval folder (`q-*.json`), sorted by id. */
export function loadLme(dir: string): LmeQuestion[] {
  return readdirSync(dir)
    .filter((f) => /^q-.*\.json$/.test(f))
    .sort()
    .map((f) => {
      const j = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        question_id: string;
        question_type: string;
        question: string;
        question_date: string;
        answer: unknown;
        haystack_sessions: { role: string; content: string; has_answer?: boolean }[][];
        haystack_dates: string[];
        haystack_session_ids: string[];
        answer_session_ids: string[];
      };
      return {
        id: j.question_id,
        type: j.question_type,
        abstention: j.question_id.endsWith('_abs'),
        question: j.question,
        date: lmeDate(j.question_date),
        answer: String(j.answer),
        sessions: j.haystack_sessions.map((turns, i) => ({
          id: j.haystack_session_ids[i]!,
          date: lmeDate(j.haystack_dates[i]!),
          turns: turns.map((t) => ({ role: t.role, content: t.content, hasAnswer: t.has_answer === true })),
        })),
        answerSessions: j.answer_session_ids,
      };
    });
}

/** The fixed half of a question: tune on `tune`, report on `check` (never both on one half). */
export function lmeHalf(id: string): 'tune' | 'check' {
  return fnv1a(`lme:${id}`) % 2 === 0 ? 'tune' : 'check';
}

/** The turns of one session as the protocol passes them to addConversation. */
function protocolTurns(s: LmeQuestion['sessions'][number]): { speaker: string; content: string; at: Date }[] {
  // A few turns of the release are empty or whitespace; addConversation refuses those (as a user would see).
  return s.turns.map((t) => ({ speaker: t.role, content: t.content, at: s.date })).filter((t) => t.content.trim() !== '');
}

/** Indexes (into session.turns) of the turns protocolTurns keeps, in order. */
function keptTurns(s: LmeQuestion['sessions'][number]): number[] {
  return s.turns.flatMap((t, i) => (t.content.trim() !== '' ? [i] : []));
}

/** Every text the library will embed for these questions (memory contents, as addConversation builds them, and the questions). */
export function lmeTexts(qs: readonly LmeQuestion[]): string[] {
  const out = new Set<string>();
  for (const q of qs) {
    out.add(q.question);
    for (const s of q.sessions) for (const it of conversationItems(protocolTurns(s), { sessionId: s.id, namespace: q.id }).items) out.add(it.content);
    // The baselines embed each turn on its own.
    for (const s of q.sessions) for (const t of protocolTurns(s)) out.add(`${t.speaker}: ${t.content}`);
  }
  return [...out];
}

/** Library memory id → the turn keys ("s03:4") it holds, for one question. */
export type TurnMap = Map<string, string[]>;

/** Store one question's haystack in its own namespace; returns memory id → turn keys. */
export async function storeQuestion(mem: Memory, q: LmeQuestion): Promise<TurnMap> {
  const out: TurnMap = new Map();
  for (const s of q.sessions) {
    const turns = protocolTurns(s);
    if (!turns.length) continue;
    const kept = keptTurns(s);
    const res = await mem.addConversation(turns, { sessionId: s.id, namespace: q.id });
    for (const r of res)
      out.set(
        r.id,
        kept.slice(r.turns[0], r.turns[1] + 1).map((i) => `${s.id}:${i}`),
      );
  }
  return out;
}

/** The turn map of an already stored question, rebuilt from the stored memories (for `--db` reuse). */
async function turnMapOf(mem: Memory, q: LmeQuestion): Promise<TurnMap> {
  const out: TurnMap = new Map();
  const kept = new Map(q.sessions.map((s) => [s.id, keptTurns(s)]));
  for (let off = 0; ; off += 1000) {
    const rows = await mem.list({ namespace: q.id, limit: 1000, offset: off, order: 'asc' });
    for (const r of rows) {
      const k = kept.get(r.sessionId ?? '')!;
      const md = r.metadata as { turn?: number; turns?: [number, number] };
      const [a, b] = md.turns ?? [md.turn!, md.turn!];
      out.set(
        r.id,
        k.slice(a, b + 1).map((i) => `${r.sessionId}:${i}`),
      );
    }
    if (rows.length < 1000) break;
  }
  return out;
}

/** Scores of one ranking. */
export interface LmeScores {
  turn: { r5: number; r10: number; ndcg10: number; mrr: number };
  session: { r5: number; r10: number; ndcg10: number; mrr: number };
}

function dcgAt(ranks: number[], k: number): number {
  return ranks.filter((r) => r <= k).reduce((s, r) => s + 1 / Math.log2(r + 1), 0);
}

/**
 * Score a ranking (each entry: the turn keys one hit holds, best first). Turn level: a relevant turn's
 * rank is that of the first hit holding it; R@k = share of relevant turns at rank ≤ k; NDCG@10 with
 * gain 1 per relevant turn; MRR = 1/rank of the first hit holding one. Session level: sessions in the
 * order of their first hit.
 */
export function scoreLme(ranked: readonly (readonly string[])[], q: LmeQuestion): LmeScores {
  const relTurns = new Set(q.sessions.flatMap((s) => s.turns.flatMap((t, i) => (t.hasAnswer ? [`${s.id}:${i}`] : []))));
  const relSessions = new Set(q.answerSessions);
  const turnRank = new Map<string, number>();
  ranked.forEach((keys, i) => {
    for (const k of keys) if (!turnRank.has(k)) turnRank.set(k, i + 1);
  });
  const sessions: string[] = [];
  for (const keys of ranked) for (const k of keys) if (!sessions.includes(k.split(':')[0]!)) sessions.push(k.split(':')[0]!);
  const level = (rel: Set<string>, rankOf: (x: string) => number | undefined, firstRank: number): LmeScores['turn'] => {
    const ranks = [...rel].map(rankOf).filter((r): r is number => r !== undefined);
    const r = (k: number): number => ranks.filter((x) => x <= k).length / Math.max(1, rel.size);
    const ideal = Array.from({ length: Math.min(rel.size, 10) }, (_, i) => i + 1);
    return { r5: r(5), r10: r(10), ndcg10: rel.size ? dcgAt(ranks, 10) / dcgAt(ideal, 10) : 0, mrr: firstRank > 0 ? 1 / firstRank : 0 };
  };
  const firstTurnHit = ranked.findIndex((keys) => keys.some((k) => relTurns.has(k))) + 1;
  const firstSession = sessions.findIndex((s) => relSessions.has(s)) + 1;
  return {
    turn: level(relTurns, (k) => turnRank.get(k), firstTurnHit),
    session: level(
      relSessions,
      (s) => {
        const i = sessions.indexOf(s);
        return i < 0 ? undefined : i + 1;
      },
      firstSession,
    ),
  };
}

export interface LmeVariant {
  name: string;
  recall: RecallOptions;
}
export const LME_VARIANTS: LmeVariant[] = [
  { name: 'keyword', recall: { mode: 'keyword' } },
  { name: 'vector', recall: { mode: 'vector' } },
  { name: 'hybrid (default)', recall: {} },
];
export const LME_EXTRA: LmeVariant[] = [
  { name: 'hybrid preferCurrent off', recall: { preferCurrent: false } },
  { name: 'hybrid timePreference off', recall: { timePreference: false } },
  { name: 'hybrid rrf', recall: { fusion: 'rrf' } },
  { name: 'keyword preferCurrent off', recall: { mode: 'keyword', preferCurrent: false } },
  { name: 'vector preferCurrent off', recall: { mode: 'vector', preferCurrent: false } },
];

/** One question's result for one method. */
export interface LmeRun {
  id: string;
  type: string;
  scores: LmeScores;
  /** The hits (turn keys per hit), for offline study. */
  ranked: string[][];
}

/**
 * Outside baselines over the same turns: plain FTS5 BM25, and FTS5 + exact cosine + RRF k=60. Each
 * question's turns are a table of their own, so BM25's statistics are that haystack's (as the
 * library's per-namespace statistics are).
 */
export class Baselines {
  private readonly db = new Database(':memory:');
  private keys: string[] = [];
  private vecs: Float32Array[] = [];
  /** Index one question's turns (replacing the previous question's). */
  async add(q: LmeQuestion, embedder: CachingEmbedder): Promise<void> {
    this.db.exec("DROP TABLE IF EXISTS t; CREATE VIRTUAL TABLE t USING fts5(content, tokenize='porter unicode61 remove_diacritics 2')");
    const ins = this.db.prepare('INSERT INTO t(rowid, content) VALUES (?, ?)');
    const keys: string[] = [];
    const texts: string[] = [];
    for (const s of q.sessions) {
      const kept = keptTurns(s);
      protocolTurns(s).forEach((t, j) => {
        keys.push(`${s.id}:${kept[j]}`);
        texts.push(`${t.speaker}: ${t.content}`);
      });
    }
    this.vecs = (await embedder.embed(texts)).map((v) => unit(Float32Array.from(v)));
    this.keys = keys;
    this.db.transaction(() => texts.forEach((t, i) => ins.run(i + 1, t)))();
  }
  bm25(q: LmeQuestion): string[] {
    const m = toMatchExpression(q.question);
    if (!m) return [];
    const ids = this.db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT 50').pluck().all(m) as number[];
    return ids.map((i) => this.keys[i - 1]!);
  }
  cosine(qvec: Float32Array): string[] {
    return this.vecs
      .map((x, i) => ({ i, s: dot(x, qvec) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 50)
      .map((x) => this.keys[x.i]!);
  }
  rrf(q: LmeQuestion, qvec: Float32Array): string[] {
    const kw = this.bm25(q),
      vec = this.cosine(qvec);
    const all = [...new Set([...kw, ...vec])];
    const idx = new Map(all.map((k, i) => [k, i]));
    return rrf(
      kw.map((k) => idx.get(k)!),
      vec.map((k) => idx.get(k)!),
      60,
    )
      .slice(0, 50)
      .map((h) => all[h.seq]!);
  }
  close(): void {
    this.db.close();
  }
}

function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = s > 0 ? 1 / Math.sqrt(s) : 0;
  return v.map((x) => x * n);
}
function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Where the dev set is expected: `../shared/longmemeval-dev` beside the repository. */
export function defaultLmeDir(): string {
  const beside = resolve(new URL('.', import.meta.url).pathname, '..', '..', 'shared', 'longmemeval-dev');
  return existsSync(beside) ? beside : '/work/shared/longmemeval-dev';
}

export interface LmeResult {
  method: string;
  runs: LmeRun[];
}

/** Open (or reuse) the ingested store of every question; returns the Memory and the turn maps. */
export async function openLme(
  qs: readonly LmeQuestion[],
  embedder: CachingEmbedder,
  dbPath: string,
  log: (s: string) => void = (s) => process.stderr.write(s),
): Promise<{ mem: Memory; maps: Map<string, TurnMap> }> {
  const reuse = existsSync(dbPath);
  const mem = await openMemory({ path: dbPath, embedder });
  const maps = new Map<string, TurnMap>();
  let n = 0;
  for (const q of qs) {
    const stored = reuse ? await mem.count({ namespace: q.id }) : 0;
    maps.set(q.id, stored > 0 ? await turnMapOf(mem, q) : await storeQuestion(mem, q));
    log(`\r  longmemeval: ${reuse ? 'opened' : 'stored'} ${++n}/${qs.length} (model calls so far ${embedder.misses})   `);
  }
  log('\n');
  return { mem, maps };
}

/** Run the library variants and the baselines over the given questions. */
export async function runLme(
  qs: readonly LmeQuestion[],
  mem: Memory,
  maps: Map<string, TurnMap>,
  variants: LmeVariant[],
  embedder: CachingEmbedder,
  baselines = true,
): Promise<LmeResult[]> {
  const out: LmeResult[] = [];
  for (const v of variants) {
    const runs: LmeRun[] = [];
    for (const q of qs) {
      const hits: RecallHit[] = await mem.recall(q.question, { namespace: q.id, limit: 50, now: q.date, ...v.recall });
      const ranked = hits.map((h) => maps.get(q.id)!.get(h.id) ?? []);
      runs.push({ id: q.id, type: q.type, scores: scoreLme(ranked, q), ranked });
    }
    out.push({ method: v.name, runs });
    process.stderr.write(`  longmemeval: ${v.name}\n`);
  }
  if (baselines) {
    const b = new Baselines();
    const bm: LmeRun[] = [],
      rr: LmeRun[] = [];
    for (const q of qs) {
      await b.add(q, embedder);
      const qvec = unit(Float32Array.from((await embedder.embed([q.question]))[0]!));
      const a = b.bm25(q).map((k) => [k]);
      const c = b.rrf(q, qvec).map((k) => [k]);
      bm.push({ id: q.id, type: q.type, scores: scoreLme(a, q), ranked: a });
      rr.push({ id: q.id, type: q.type, scores: scoreLme(c, q), ranked: c });
    }
    b.close();
    out.push({ method: 'plain FTS5 BM25 over the same turns', runs: bm }, { method: 'FTS5 + cosine + RRF k=60', runs: rr });
  }
  return out;
}

const f3 = (x: number): string => x.toFixed(3);

/**
 * For a knowledge-update question: whether the newest evidence session ranks above every older one
 * (by each session's first hit; a session missing from the ranking counts as below).
 */
export function newerAbove(ranked: readonly (readonly string[])[], q: LmeQuestion): boolean {
  const date = new Map(q.sessions.map((s) => [s.id, s.date.getTime()]));
  const ev = [...q.answerSessions].sort((a, b) => date.get(a)! - date.get(b)!);
  const first = (s: string): number => {
    const i = ranked.findIndex((keys) => keys.some((k) => k.startsWith(`${s}:`)));
    return i < 0 ? Infinity : i;
  };
  const newest = first(ev[ev.length - 1]!);
  return Number.isFinite(newest) && ev.slice(0, -1).every((s) => first(s) > newest);
}
function meanScores(rs: readonly LmeRun[]): LmeScores {
  const z = (): LmeScores['turn'] => ({ r5: 0, r10: 0, ndcg10: 0, mrr: 0 });
  const m: LmeScores = { turn: z(), session: z() };
  for (const r of rs)
    for (const l of ['turn', 'session'] as const) for (const k of ['r5', 'r10', 'ndcg10', 'mrr'] as const) m[l][k] += r.scores[l][k] / rs.length;
  return m;
}

/** The report table: turn and session level per method, then turn R@10 / MRR per question type. */
export function lmeReport(rs: readonly LmeResult[], label: string, questions?: ReadonlyMap<string, LmeQuestion>): string {
  const out = [`### LongMemEval dev (${label}): ${rs[0]?.runs.length ?? 0} answerable questions, recall limit 50`, ''];
  out.push('| method | turn R@5 | turn R@10 | turn NDCG@10 | turn MRR | session R@5 | session R@10 | session MRR |', '|:--|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rs) {
    const m = meanScores(r.runs);
    out.push(
      `| ${r.method} | ${f3(m.turn.r5)} | ${f3(m.turn.r10)} | ${f3(m.turn.ndcg10)} | ${f3(m.turn.mrr)} | ${f3(m.session.r5)} | ${f3(m.session.r10)} | ${f3(m.session.mrr)} |`,
    );
  }
  const ku = rs[0]?.runs.filter((r) => r.type === 'knowledge-update') ?? [];
  if (ku.length && questions) {
    out.push(
      '',
      `Knowledge-update questions (${ku.length}): the newest evidence session's first hit above the older evidence sessions' (both in the top 50):`,
      '',
    );
    out.push(`| method | newer above older |`, '|:--|--:|');
    for (const r of rs) {
      const xs = r.runs.filter((x) => x.type === 'knowledge-update');
      const ok = xs.filter((x) => newerAbove(x.ranked, questions.get(x.id)!)).length;
      out.push(`| ${r.method} | ${ok}/${xs.length} |`);
    }
  }
  const types = [...new Set(rs[0]?.runs.map((r) => r.type) ?? [])].sort();
  out.push(
    '',
    'Turn R@10 / MRR per question type:',
    '',
    `| method | ${types.map((t) => `${t} (${rs[0]!.runs.filter((r) => r.type === t).length})`).join(' | ')} |`,
  );
  out.push(`|:--|${types.map(() => '--:').join('|')}|`);
  for (const r of rs)
    out.push(
      `| ${r.method} | ${types
        .map((t) => {
          const m = meanScores(r.runs.filter((x) => x.type === t));
          return `${f3(m.turn.r10)} / ${f3(m.turn.mrr)}`;
        })
        .join(' | ')} |`,
    );
  return out.join('\n');
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = arg('--lme') ?? defaultLmeDir();
  if (!existsSync(dir)) {
    console.log(`LongMemEval dev set not found at ${dir}: skipped (give --lme DIR).`);
  } else {
    const here = new URL('.', import.meta.url).pathname;
    const all = loadLme(dir);
    const workers = Number(arg('--workers') ?? 1);
    const embedder = new CachingEmbedder(new LocalEmbedder({ workers }), arg('--cache') ?? join(here, '..', 'bench', '.cache', 'eval'));
    if (process.argv.includes('--prepare')) {
      const texts = lmeTexts(all);
      const t0 = performance.now();
      await embedder.prefill(texts, 1024, (d, n) =>
        process.stderr.write(`\r  embedded ${d}/${n} new texts, ${((performance.now() - t0) / 1000).toFixed(0)} s   `),
      );
      process.stderr.write(`\n  ${texts.length} texts; cache holds ${embedder.size}\n`);
      await embedder.close();
    } else {
      const half = arg('--half') ?? 'check';
      const qs = all.filter((q) => !q.abstention && (half === 'all' || lmeHalf(q.id) === half));
      const tmp = mkdtempSync(join(tmpdir(), 'mnemolite-lme-'));
      const dbPath = arg('--db') ?? join(tmp, 'lme.db');
      try {
        const { mem, maps } = await openLme(all, embedder, dbPath);
        const variants = arg('--variants') === 'all' ? [...LME_VARIANTS, ...LME_EXTRA] : LME_VARIANTS;
        const rs = await runLme(qs, mem, maps, variants, embedder);
        console.log(lmeReport(rs, `${half} half, ${dir}`, new Map(all.map((q) => [q.id, q]))));
        const j = arg('--json');
        if (j) writeFileSync(j, JSON.stringify(rs.map((r) => ({ method: r.method, runs: r.runs.map(({ ranked: _r, ...x }) => x) }))));
        const d = arg('--dump');
        if (d) writeFileSync(d, JSON.stringify(rs));
        await mem.close();
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  }
}
