import { load } from './data.js';
import { BM25, tok, qtok, cacheVecs, h, dot, norm, topk, metrics } from './lib.js';
const convs = load();
const V = cacheVecs();
const vecOr = (t: string) => V.get(h(t)) ?? new Float32Array(512);
const vec = (t: string) => {
  const v = V.get(h(t));
  if (!v) throw new Error(`missing vec ${t.slice(0, 40)}`);
  return v;
};
interface QF {
  conv: string;
  ev: Set<number>;
  kTD: Float64Array;
  kCD: Float64Array;
  kD: Float64Array;
  kP: Float64Array;
  kT: Float64Array;
  kB: Float64Array;
  kSp: Float64Array;
  kC: Record<number, Float64Array>;
  kCd: Record<number, Float64Array>;
  kS: Float64Array;
  sess: Int32Array;
  gcos: Float64Array;
  vT: Float64Array;
  vC: Float64Array;
  vM: Float64Array;
  n: number;
  cat: number;
}
const W = [1, 2, 3, 4];
const feats: QF[] = [];
for (const c of convs) {
  const T = c.turns;
  const bare = T.map((t) => t.text + (T && (t as any) ? '' : '') + (t.full.match(/ \[.*\]$/) ?? [''])[0]);
  const bmT = new BM25(T.map((t) => tok(t.full)));
  const bmTD = new BM25(T.map((t) => tok(`${t.full} ${process.env.DUMMY ? 'zzqa zzqb zzqc' : t.date.replace(/^.* on /, '')}`)));
  const bmB = new BM25(bare.map(tok));
  const bmSp = new BM25(T.map((t) => tok(t.speaker)));
  const ctxDocs = (w: number, _decay = false) =>
    T.map((t, i) => {
      const out: string[] = [];
      for (let j = Math.max(0, i - w); j < i; j++) if (T[j]!.session === t.session) out.push(...tok(T[j]!.full));
      return out;
    });
  const bmC: Record<number, BM25> = {};
  for (const w of W) bmC[w] = new BM25(ctxDocs(w));
  const bmCD = new BM25(ctxDocs(2).map((d, i) => [...d, ...tok(T[i]!.date.replace(/^.* on /, ''))]));
  const bmD = new BM25(T.map((t) => tok(t.date.replace(/^.* on /, ''))));
  // session doc
  const sessTok = new Map<number, string[]>();
  T.forEach((t) => {
    const a = sessTok.get(t.session) ?? [];
    a.push(...tok(t.full));
    sessTok.set(t.session, a);
  });
  const sessIds = [...sessTok.keys()];
  const bmS = new BM25(sessIds.map((s) => sessTok.get(s)!));
  const vt = T.map((t) => vec(t.full));
  const vc = T.map((t, i) => {
    const prev = T.slice(Math.max(0, i - 2), i).filter((p) => p.session === t.session);
    return vecOr([...prev.map((p) => p.full), t.full].join('\n'));
  });
  const vm = T.map((t, i) => {
    const prev = T.slice(Math.max(0, i - 2), i).filter((p) => p.session === t.session);
    if (!prev.length) return vt[i]!;
    const m = new Float32Array(512);
    for (const p of prev) {
      const v = vec(p.full);
      for (let d = 0; d < 512; d++) m[d] += v[d]!;
    }
    return norm(m);
  });
  const gateCos = vm.map((m, i) => dot(m, vt[i]!));
  const diaIdx = new Map(T.map((t, i) => [t.dia, i]));
  for (const q of c.qs) {
    const qt = qtok(q.question);
    const qv = vec(q.question);
    const kS0 = bmS.scores(qt);
    const sIdx = new Map(sessIds.map((s, i) => [s, i]));
    const kC: Record<number, Float64Array> = {};
    for (const w of W) kC[w] = bmC[w]!.scores(qt);
    // PRF: expand with top terms of the top-3 turn+ctx docs (RM3-like, terms weighted by idf*tf)
    const base0 = bmT.scores(qt);
    const c2 = bmC[2]!.scores(qt);
    const comb = base0.map((x, i) => x + 0.35 * c2[i]!);
    const top3 = [...comb.keys()].sort((a, b) => comb[b]! - comb[a]!).slice(0, 3);
    const tw = new Map<string, number>();
    for (const i of top3) for (const [t, f] of bmT.tf[i]!) if (!qt.includes(t)) tw.set(t, (tw.get(t) ?? 0) + f * bmT.idf(t));
    const exp = [...tw]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map((e) => e[0]);
    const kP = bmT.scores(exp);
    feats.push({
      conv: c.id,
      kTD: bmTD.scores(qt),
      kCD: bmCD.scores(qt),
      kD: bmD.scores(qt),
      kP,
      cat: q.category,
      n: T.length,
      ev: new Set(q.evidence.map((e) => diaIdx.get(e)!)),
      kT: bmT.scores(qt),
      kB: bmB.scores(qt),
      kSp: bmSp.scores(qt),
      kC,
      kCd: {},
      kS: Float64Array.from(T.map((t) => kS0[sIdx.get(t.session)!]!)),
      sess: Int32Array.from(T.map((t) => t.session)),
      gcos: Float64Array.from(gateCos),
      vT: Float64Array.from(vt.map((v) => dot(v, qv))),
      vC: Float64Array.from(vc.map((v) => dot(v, qv))),
      vM: Float64Array.from(vm.map((v) => dot(v, qv))),
    });
  }
}
console.error('features', feats.length);
export type P = Record<string, number>;
function minmaxTop(s: ArrayLike<number>, k: number, present?: (i: number) => boolean): Map<number, number> {
  const t = topk(s, k, present);
  const m = new Map<number, number>();
  if (!t.length) return m;
  const mx = s[t[0]!]!,
    mn = s[t[t.length - 1]!]!;
  for (const i of t) m.set(i, mx > mn ? (s[i]! - mn) / (mx - mn) : 1);
  return m;
}
export function rank(f: QF, p: P): number[] {
  const n = f.n;
  const kw = new Float64Array(n);
  const useB = p.bare ? f.kB : p.date ? f.kTD : f.kT;
  const on = (i: number) => !p.gate || f.gcos[i]! >= p.gate;
  for (let i = 0; i < n; i++)
    kw[i] =
      useB[i]! +
      (p.sp ?? 0) * f.kSp[i]! +
      (on(i) ? (p.wc ?? 0) : 0) * (p.win ? (p.cdate ? f.kCD[i]! : f.kC[p.win]![i]!) : 0) +
      (p.prf ?? 0) * f.kP[i]! +
      (p.wd ?? 0) * f.kD[i]!;
  // session evidence lifts turns that already match
  if (p.ws) for (let i = 0; i < n; i++) if (kw[i]! > 0) kw[i] += p.ws * f.kS[i]!;
  if (p.wsa) {
    const top = topk(kw, p.N ?? 100);
    const agg = new Map<number, number>();
    const mx = kw[top[0] ?? 0] || 1;
    for (const i of top) {
      const s = f.sess[i]!;
      agg.set(s, p.agg === 1 ? Math.max(agg.get(s) ?? 0, kw[i]!) : (agg.get(s) ?? 0) + kw[i]!);
    }
    const base = Float64Array.from(kw);
    for (const i of top) kw[i] = base[i]! + (p.wsa * (agg.get(f.sess[i]!)! - (p.agg === 1 ? 0 : base[i]!))) / (p.normsa ? mx : 1);
  }
  if (p.mode === 0) return topk(kw, 50);
  const vs = new Float64Array(n);
  for (let i = 0; i < n; i++)
    vs[i] =
      (on(i) ? ((f.vT[i]! + (p.vm ?? 0) * f.vM[i]!) / Math.sqrt(2 + 2 * f.gcos[i]!)) * (p.vm ? 1 : Math.sqrt(2 + 2 * f.gcos[i]!)) : f.vT[i]!) +
      (p.vc ?? 0) * f.vC[i]!;
  if (p.mode === 1) return topk(vs, 50, () => true);
  const K = minmaxTop(kw, 50),
    Vn = minmaxTop(vs, 50, () => true);
  const s = new Map<number, number>();
  const a = p.alpha ?? 0.5;
  if (p.rrf) {
    [...K.keys()].forEach((i, r) => s.set(i, a / (p.rrf! + r + 1)));
    [...Vn.keys()].forEach((i, r) => s.set(i, (s.get(i) ?? 0) + (1 - a) / (p.rrf! + r + 1)));
  } else {
    for (const [i, x] of K) s.set(i, a * x);
    for (const [i, x] of Vn) s.set(i, (s.get(i) ?? 0) + (1 - a) * x);
  }
  return [...s.entries()]
    .sort((x, y) => y[1] - x[1] || x[0] - y[0])
    .slice(0, 50)
    .map((e) => e[0]);
}
export function score(fs: QF[], p: P) {
  let r5 = 0,
    r10 = 0,
    mrr = 0;
  for (const f of fs) {
    const m = metrics(rank(f, p), f.ev);
    r5 += m.r5;
    r10 += m.r10;
    mrr += m.mrr;
  }
  const n = fs.length;
  return { r5: r5 / n, r10: r10 / n, mrr: mrr / n };
}
export const fmt = (s: { r5: number; r10: number; mrr: number }) => `${s.r5.toFixed(3)} ${s.r10.toFixed(3)} ${s.mrr.toFixed(3)}`;
export { feats, convs };
