/**
 * Candidate forms of recall's relevance, fitted and judged leaving one kind of memory out
 * (eval/relevance-cv.ts runs it on the dumps of eval/relevance-kinds.ts).
 *
 * A form is a linear score over per-hit features; relevance = σ(scale · (score − cut)), so the
 * default threshold 0.5 sits at score = cut. For each held-out kind, the weights and the cut are
 * chosen on the other kinds: a grid over the weights, and for each weight vector the cut that
 * minimises the training kinds' total shortfall below the targets, Σ min(0, kept − 0.95) +
 * min(0, empty − 0.85), where kept is the share of answerable questions whose first relevant hit
 * reaches the cut and empty the share of off-topic questions none of whose hits does. The held-out
 * kind is then scored with those weights and cut.
 */
import type { DumpHit, DumpQuestion } from './relevance-kinds.js';

/** Per-hit features a form can weigh (all cheap to compute inside recall). */
export interface Features {
  cos: number;
  cov: number;
  qc: number;
  /** Share of the query's idf mass whose terms the memory contains. */
  terms: number;
  /** The hit's cosine minus the median cosine of the vector leg's candidates. */
  lift: number;
  /** The hit's cosine minus the best cosine among the other vector candidates (negative unless it is the best). */
  gap: number;
  /** The store's null: the median best cosine of eval/probes.ts's unrelated questions in the question's namespace (0 when not dumped). */
  nul: number;
  /** The same, their 75th percentile. */
  nul75: number;
  /** The baseline the library computed for the hit's namespace (src/recall/baseline.ts). */
  base: number;
  /** The median best cosine of the first `k` probes only. */
  firstK: (k: number) => number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return !s.length ? 0 : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function features(q: DumpQuestion, h: DumpHit): Features {
  const cos = h.cosine ?? 0;
  const v = q.vecTop;
  const sorted = [...v].sort((a, b) => a - b);
  const med = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
  // The best other candidate: the top one unless it is this hit.
  let other = 0;
  for (const c of v)
    if (Math.abs(c - cos) > 1e-6) {
      other = c;
      break;
    }
  if (v.length && Math.abs(v[0]! - cos) > 1e-6) other = v[0]!;
  const probes = [...(q.probeTop ?? [])].sort((a, b) => a - b);
  const at = (p: number): number => (probes.length ? probes[Math.min(probes.length - 1, Math.floor(p * probes.length))]! : 0);
  return {
    cos,
    cov: h.coverage ?? 0,
    qc: h.queryCoverage ?? 0,
    terms: h.terms ?? 0,
    lift: cos - med,
    gap: cos - other,
    nul: at(0.5),
    nul75: at(0.75),
    base: h.baseline ?? 0,
    firstK: (k) => median((q.probeTop ?? []).slice(0, k)),
  };
}

export interface Form {
  name: string;
  /** Which dumped recall the form judges: the default hybrid (default) or keyword-only. */
  mode?: 'hybrid' | 'keyword';
  /** Feature names and the grid of each weight. */
  terms: { f: (x: Features) => number; label: string; grid: number[] }[];
}

const grid = (lo: number, hi: number, n: number): number[] => Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));

/** The form `cos − null + w·terms` for one way of measuring a namespace's null. */
function aboveNull(name: string, label: string, nul: (x: Features) => number): Form {
  return {
    name,
    terms: [
      { f: (x) => x.cos - nul(x), label, grid: [1] },
      { f: (x) => x.terms, label: 'terms', grid: grid(0, 0.8, 17) },
    ],
  };
}

export const FORMS: Form[] = [
  {
    name: 'keyword-only recall: terms + w·cov + w·qc',
    mode: 'keyword',
    terms: [
      { f: (x) => x.terms, label: 'terms', grid: [1] },
      { f: (x) => x.cov, label: 'cov', grid: grid(0, 1, 11) },
      { f: (x) => x.qc, label: 'qc', grid: grid(0, 1, 11) },
    ],
  },
  {
    name: 'vector-only evidence: cos',
    terms: [{ f: (x) => x.cos, label: 'cos', grid: [1] }],
  },
  {
    name: 'cos + w·terms',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.terms, label: 'terms', grid: grid(0, 0.8, 17) },
    ],
  },
  {
    name: 'vector-only evidence: cos − baseline (the library)',
    terms: [{ f: (x) => x.cos - x.base, label: 'cos−baseline', grid: [1] }],
  },
  aboveNull('cos − baseline + w·terms (the library)', 'cos−baseline', (x) => x.base),
  ...[6, 8, 12, 16].map((k) => aboveNull(`cos − median of the first ${k} probes + w·terms (fewer probes)`, 'cos−null', (x) => x.firstK(k))),
  ...[0.2, 0.25, 0.3, 0.35].map((floor) =>
    aboveNull(`cos − max(baseline, ${floor}) + w·terms (the library, floored)`, 'cos−baseline', (x) => Math.max(x.base, floor)),
  ),
  {
    name: 'vector-only evidence: cos − null',
    terms: [{ f: (x) => x.cos - x.nul, label: 'cos−null', grid: [1] }],
  },
  aboveNull('cos − null + w·terms (the store null: the median best cosine of unrelated questions)', 'cos−null', (x) => x.nul),
  {
    name: 'cos + w·null + w·terms',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.nul, label: 'null', grid: grid(-1.5, 0, 7) },
      { f: (x) => x.terms, label: 'terms', grid: grid(0, 0.8, 17) },
    ],
  },
  aboveNull('cos − null75 + w·terms', 'cos−null75', (x) => x.nul75),
  {
    name: 'cos + w·terms + w·cov·cos',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.terms, label: 'terms', grid: grid(0, 0.8, 9) },
      { f: (x) => x.cov * x.cos, label: 'cov·cos', grid: grid(0, 2, 9) },
    ],
  },
  {
    name: 'cos + w·terms·cos + w·cov·cos',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.terms * x.cos, label: 'terms·cos', grid: grid(0, 2, 9) },
      { f: (x) => x.cov * x.cos, label: 'cov·cos', grid: grid(0, 2, 9) },
    ],
  },
  {
    name: 'cos + w·terms + w·terms·cos',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.terms, label: 'terms', grid: grid(0, 0.8, 9) },
      { f: (x) => x.terms * x.cos, label: 'terms·cos', grid: grid(0, 2, 9) },
    ],
  },
  {
    name: 'cos + w·terms + w·max(gap, 0)',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.terms, label: 'terms', grid: grid(0, 0.8, 9) },
      { f: (x) => Math.max(0, x.gap), label: 'gap+', grid: grid(0, 3, 13) },
    ],
  },
  {
    name: 'cos + w·terms + w·lift',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.terms, label: 'terms', grid: grid(0, 0.8, 9) },
      { f: (x) => x.lift, label: 'lift', grid: grid(0, 2, 9) },
    ],
  },
  {
    name: 'cos + w·cov·cos + w·qc (the library form)',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.cov * x.cos, label: 'cov·cos', grid: grid(0, 2, 9) },
      { f: (x) => x.qc, label: 'qc', grid: grid(0, 0.8, 9) },
    ],
  },
  {
    name: 'cos + w·cov·cos + w·cov',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.cov * x.cos, label: 'cov·cos', grid: grid(0, 2, 9) },
      { f: (x) => x.cov, label: 'cov', grid: grid(0, 0.8, 9) },
    ],
  },
  {
    name: 'cos + w·cov + w·lift',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.cov, label: 'cov', grid: grid(0, 0.8, 9) },
      { f: (x) => x.lift, label: 'lift', grid: grid(0, 2, 9) },
    ],
  },
  {
    name: 'cos + w·cov + w·max(gap, 0)',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.cov, label: 'cov', grid: grid(0, 0.8, 9) },
      { f: (x) => Math.max(0, x.gap), label: 'gap+', grid: grid(0, 3, 13) },
    ],
  },
  {
    name: 'cos + w·cov + w·lift + w·max(gap, 0)',
    terms: [
      { f: (x) => x.cos, label: 'cos', grid: [1] },
      { f: (x) => x.cov, label: 'cov', grid: grid(0, 0.8, 9) },
      { f: (x) => x.lift, label: 'lift', grid: grid(0, 2, 9) },
      { f: (x) => Math.max(0, x.gap), label: 'gap+', grid: grid(0, 3, 7) },
    ],
  },
];

/** Per question: the scores the threshold decision depends on, for one weight vector. */
interface Prepared {
  kind: string;
  group: string;
  /** Feature vectors of the hits that matter: the first relevant hit (answerable) or every hit (others). */
  xs: number[][];
}

function prepare(qs: readonly DumpQuestion[], form: Form): Prepared[] {
  const out: Prepared[] = [];
  for (const q of qs) {
    const hits = form.mode === 'keyword' ? q.keyword : q.hybrid;
    if (q.group === 'answerable') {
      const i = hits.findIndex((h) => h.rel);
      if (i < 0) continue;
      const f = features(q, hits[i]!);
      out.push({ kind: q.kind, group: q.group, xs: [form.terms.map((t) => t.f(f))] });
    } else {
      out.push({
        kind: q.kind,
        group: q.group,
        xs: hits.map((h) => {
          const f = features(q, h);
          return form.terms.map((t) => t.f(f));
        }),
      });
    }
  }
  return out;
}

const lin = (w: readonly number[], x: readonly number[]): number => x.reduce((s, v, i) => s + v * w[i]!, 0);
/** The decision value of a question: first relevant hit's score, or the best hit's score (empty list: −∞). */
const value = (p: Prepared, w: readonly number[]): number => (p.xs.length ? Math.max(...p.xs.map((x) => lin(w, x))) : -Infinity);

/** Count of sorted values ≥ c (binary search). */
function atLeast(sorted: readonly number[], c: number): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < c) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/** The worst kind's slack at the best cut, and that cut. */
function bestCut(ps: readonly Prepared[], w: readonly number[]): { cut: number; slack: number } {
  const byKind = new Map<string, { a: number[]; o: number[] }>();
  const all: number[] = [];
  for (const p of ps) {
    const v = value(p, w);
    const e = byKind.get(p.kind) ?? { a: [], o: [] };
    if (p.group === 'answerable') e.a.push(v);
    else if (p.group === 'offtopic') e.o.push(v);
    else continue;
    byKind.set(p.kind, e);
    if (Number.isFinite(v)) all.push(v);
  }
  for (const e of byKind.values()) {
    e.a.sort((x, y) => x - y);
    e.o.sort((x, y) => x - y);
  }
  all.sort((x, y) => x - y);
  let best = { cut: 0, slack: -Infinity };
  const step = Math.max(1, Math.floor(all.length / 600));
  for (let i = 0; i + 1 < all.length; i += step) {
    const c = (all[i]! + all[i + 1]!) / 2;
    // Total shortfall below the two targets over the training kinds (each kind counts once), plus a
    // small share of the surplus so that among cuts meeting every target the middle one wins.
    let slack = 0;
    for (const e of byKind.values()) {
      const dk = e.a.length ? atLeast(e.a, c) / e.a.length - 0.95 : 0;
      const de = e.o.length ? 1 - atLeast(e.o, c) / e.o.length - 0.85 : 0;
      slack += Math.min(0, dk) + Math.min(0, de) + 0.01 * (Math.max(0, dk) + Math.max(0, de));
    }
    if (slack > best.slack) best = { cut: c, slack };
  }
  return best;
}

function* weightVectors(form: Form): Generator<number[]> {
  const rec = function* (i: number, acc: number[]): Generator<number[]> {
    if (i === form.terms.length) {
      yield acc;
      return;
    }
    for (const v of form.terms[i]!.grid) yield* rec(i + 1, [...acc, v]);
  };
  yield* rec(0, []);
}

/** Fit a form on some questions: the weights and cut with the best worst-kind slack. */
export function fitForm(qs: readonly DumpQuestion[], form: Form): { w: number[]; cut: number; slack: number } {
  const ps = prepare(qs, form);
  let best = { w: [] as number[], cut: 0, slack: -Infinity };
  for (const w of weightVectors(form)) {
    const b = bestCut(ps, w);
    if (b.slack > best.slack + 1e-9) best = { w, ...b };
  }
  return best;
}

/** Shares of one kind's questions under a fitted form, apart groups included. */
export function judge(qs: readonly DumpQuestion[], form: Form, w: readonly number[], cut: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of ['answerable', 'offtopic', 'abstention', 'cat5']) {
    const ps = prepare(
      qs.filter((q) => q.group === g),
      form,
    );
    if (!ps.length) continue;
    out[g] = ps.filter((p) => (g === 'answerable' ? value(p, w) >= cut : value(p, w) < cut)).length / ps.length;
  }
  return out;
}

/** The leave-one-kind-out table of every form. */
export function crossValidate(qs: readonly DumpQuestion[]): string {
  const kinds = [...new Set(qs.map((q) => q.kind))];
  const out: string[] = ['### Leave one kind out: fitted on the other kinds, scored on the one left out', ''];
  const pct = (x: number | undefined): string => (x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
  const only = process.env.FORMS_MATCH;
  for (const form of FORMS.filter((f) => !only || f.name.includes(only))) {
    out.push(
      `**${form.name}**`,
      '',
      '| held-out kind | weights (fitted on the others) | kept | off-topic empty | abstention / cat. 5 empty |',
      '|:--|:--|--:|--:|--:|',
    );
    for (const k of kinds) {
      const fit = fitForm(
        qs.filter((q) => q.kind !== k),
        form,
      );
      const j = judge(
        qs.filter((q) => q.kind === k),
        form,
        fit.w,
        fit.cut,
      );
      const ws = form.terms.map((t, i) => `${t.label} ${fit.w[i]!.toFixed(2)}`).join(', ');
      out.push(`| ${k} | ${ws}, cut ${fit.cut.toFixed(3)} | ${pct(j.answerable)} | ${pct(j.offtopic)} | ${pct(j.abstention ?? j.cat5)} |`);
    }
    const all = fitForm(qs, form);
    out.push(
      '',
      `Fitted on all kinds: ${form.terms.map((t, i) => `${t.label} ${all.w[i]!.toFixed(2)}`).join(', ')}, cut ${all.cut.toFixed(3)} (training objective ${all.slack.toFixed(3)}).`,
      '',
    );
  }
  return out.join('\n');
}
