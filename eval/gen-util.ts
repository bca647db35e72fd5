/**
 * Shared helpers for the data-set generators: a seeded RNG, picking, dates, the
 * "no shared content words" check used for paraphrase queries, and the data-set types.
 *
 * Everything here is deterministic given the seed, so `tsx eval/generate-*.ts` always
 * writes byte-identical files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One memory of a data set. `id` is the data set's own id (the library assigns its own). */
export interface EvalMemory {
  id: string;
  content: string;
  /** ISO 8601 creation time, passed to `addMany` as `createdAt`. */
  createdAt: string;
  namespace?: string;
  category?: string;
  sessionId?: string;
  /** Id of an earlier memory whose value this one replaces (a superseded fact). */
  supersedes?: string;
  /** Id of the memory this one restates (a near-duplicate): recall counts the pair as one answer. */
  duplicateOf?: string;
}

/** One labelled query. */
export interface EvalQuery {
  id: string;
  /** Query kind, used to break the metrics down. */
  kind: string;
  query: string;
  /** Relevant memory ids with a grade: 2 = answers the query, 1 = partly / supporting. */
  relevant: Record<string, number>;
  /** Recall filters. */
  since?: string;
  until?: string;
  namespace?: string;
  /** For "latest value" queries: older, superseded versions of the answer (not relevant). */
  stale?: string[];
}

export interface Dataset {
  name: string;
  description: string;
  generator: string;
  seed: number;
  kinds: Record<string, string>;
  memories: EvalMemory[];
  queries: EvalQuery[];
}

/** mulberry32: small, fast, good enough for test data. */
export function makeRng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => {
    if (!xs.length) throw new Error('pick from an empty list');
    return xs[Math.floor(next() * xs.length)]!;
  };
  const chance = (p: number): boolean => next() < p;
  const shuffle = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  const sample = <T>(xs: readonly T[], n: number): T[] => shuffle(xs).slice(0, n);
  return { next, int, pick, chance, shuffle, sample };
}
export type Rng = ReturnType<typeof makeRng>;

/** Fill `{name}` slots; throws on a slot without a value (catches template typos). */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = vars[k];
    if (v === undefined) throw new Error(`template slot {${k}} has no value in: ${template}`);
    return String(v);
  });
}

/** Capitalise the first letter. */
export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const DAY = 86_400_000;
/** A random instant between two dates (inclusive days), during waking hours, UTC. */
export function randomTime(rng: Rng, from: Date, to: Date): Date {
  const days = Math.max(0, Math.round((to.getTime() - from.getTime()) / DAY));
  const d = new Date(from.getTime() + rng.int(0, days) * DAY);
  d.setUTCHours(rng.int(7, 21), rng.int(0, 59), rng.int(0, 59), 0);
  return d;
}
export const addDays = (d: Date, n: number): Date => new Date(d.getTime() + n * DAY);
export const iso = (d: Date): string => d.toISOString();
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const monthName = (m: number): string => MONTHS[m]!;
/** "14 March 2025" */
export const longDate = (d: Date): string => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
/** "2025-03-14" */
export const ymd = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * Words that do not count as "content" when checking that a paraphrase query shares no
 * content word with its answer. Deliberately small: everything else counts.
 */
const FUNCTION_WORDS = new Set(
  `a an the and or but if of to in on at by for with from into onto about as is are was were be been being am do does did
  done have has had having i me my we our us you your he him his she her it its they them their this that these those
  what which who whom whose when where why how there here not no nor so too very can could should would will shall may might
  must just also than then any some all each every both either neither own same such only up down out over under again
  one s t d ll re ve m`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lower-cased letter/digit tokens minus function words. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !FUNCTION_WORDS.has(w));
}

/**
 * Whether two tokens could match in a keyword index with stemming: equal, or sharing a
 * prefix of 5 letters (4 when one is that short), or one a prefix of the other. Stricter than
 * Porter stemming on purpose, so "no shared word" really means no keyword overlap.
 */
function related(a: string, b: string): boolean {
  if (a === b) return true;
  const n = Math.min(a.length, b.length);
  if (n >= 4 && (a.startsWith(b) || b.startsWith(a))) return true;
  const p = Math.min(5, n);
  return p >= 4 && a.slice(0, p) === b.slice(0, p);
}

/** Content words of `query` that also occur (or nearly) in `doc`. */
export function sharedWords(query: string, doc: string): string[] {
  const d = contentWords(doc);
  return contentWords(query).filter((q) => d.some((w) => related(q, w)));
}

export function writeDataset(path: string, ds: Dataset): void {
  mkdirSync(dirname(path), { recursive: true });
  // One memory / query per line: readable diffs, small file.
  const lines = [
    '{',
    `  "name": ${JSON.stringify(ds.name)},`,
    `  "description": ${JSON.stringify(ds.description)},`,
    `  "generator": ${JSON.stringify(ds.generator)},`,
    `  "seed": ${ds.seed},`,
    `  "kinds": ${JSON.stringify(ds.kinds)},`,
    '  "memories": [',
    ds.memories.map((m) => `    ${JSON.stringify(m)}`).join(',\n'),
    '  ],',
    '  "queries": [',
    ds.queries.map((q) => `    ${JSON.stringify(q)}`).join(',\n'),
    '  ]',
    '}',
    '',
  ];
  writeFileSync(path, lines.join('\n'));
}

/** Sanity checks every generator runs before writing. */
export function checkDataset(ds: Dataset): void {
  const ids = new Set<string>();
  for (const m of ds.memories) {
    if (ids.has(m.id)) throw new Error(`duplicate memory id ${m.id}`);
    ids.add(m.id);
    if (!m.content.trim()) throw new Error(`empty memory ${m.id}`);
    if (Number.isNaN(Date.parse(m.createdAt))) throw new Error(`bad createdAt on ${m.id}`);
    if (/\{\w+\}/.test(m.content)) throw new Error(`unfilled slot in ${m.id}: ${m.content}`);
  }
  const qids = new Set<string>();
  for (const q of ds.queries) {
    if (qids.has(q.id)) throw new Error(`duplicate query id ${q.id}`);
    qids.add(q.id);
    if (!ds.kinds[q.kind]) throw new Error(`query ${q.id} has unknown kind ${q.kind}`);
    const rel = Object.keys(q.relevant);
    if (!rel.length) throw new Error(`query ${q.id} has no relevant memory`);
    for (const r of [...rel, ...(q.stale ?? [])]) if (!ids.has(r)) throw new Error(`query ${q.id} names unknown memory ${r}`);
    if (/\{\w+\}/.test(q.query)) throw new Error(`unfilled slot in query ${q.id}: ${q.query}`);
  }
}
