import { feats, score, fmt, convs } from './eval.js';
const show = (name: string, p: any) => console.log(name.padEnd(44), fmt(score(feats, p)));
const h = { mode: 2, alpha: 0.7, win: 2, wc: 0.35, vm: 1 };
show('hyb no sess', h);
for (const wsa of [0.2, 0.3, 0.4, 0.6]) for (const N of [50]) show(`hyb sessagg max w${wsa} N${N}`, { ...h, wsa, N, agg: 1 });
for (const a of [0.6, 0.8]) show(`hyb a${a} sessagg max w0.4`, { ...h, alpha: a, wsa: 0.4, N: 50, agg: 1 });
const grid: any[] = [];
for (const a of [0.5, 0.6, 0.7, 0.8]) for (const wsa of [0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5]) grid.push({ ...h, alpha: a, wsa, N: 50, agg: 1 });
const obj = (s: any) => s.r5 + s.r10 + s.mrr;
const agg = { r5: 0, r10: 0, mrr: 0 };
let n = 0;
for (const c of convs) {
  const train = feats.filter((f) => f.conv !== c.id),
    test = feats.filter((f) => f.conv === c.id);
  let best: any = null,
    bs = -1;
  for (const p of grid) {
    const s = obj(score(train, p));
    if (s > bs) {
      bs = s;
      best = p;
    }
  }
  const t = score(test, best);
  console.log('held', c.id, best.alpha, best.wsa, fmt(t));
  agg.r5 += t.r5 * test.length;
  agg.r10 += t.r10 * test.length;
  agg.mrr += t.mrr * test.length;
  n += test.length;
}
console.log('CV', fmt({ r5: agg.r5 / n, r10: agg.r10 / n, mrr: agg.mrr / n }));
