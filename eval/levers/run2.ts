import { feats, score, fmt, convs } from './eval.js';
const show = (name: string, p: any) => console.log(name.padEnd(44), fmt(score(feats, p)));
for (const vm of [0.5, 1, 1.5, 2]) show(`vec ctxmean ${vm}`, { mode: 1, vm });
for (const ws of [0.2, 0.4, 0.6]) for (const wc of [0.35, 0.5]) show(`kw ctx2 x${wc} sess${ws}`, { mode: 0, win: 2, wc, ws });
const grid: any[] = [];
for (const a of [0.6, 0.7, 0.8, 0.9])
  for (const wc of [0.35, 0.5, 0.75])
    for (const ws of [0, 0.2, 0.4]) for (const vm of [0.5, 1]) for (const win of [2, 3]) grid.push({ mode: 2, alpha: a, wc, ws, vm, win });
const obj = (s: any) => s.r5 + s.r10 + s.mrr;
// leave one conversation out
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
  console.log('held', c.id, JSON.stringify(best), fmt(t));
  agg.r5 += t.r5 * test.length;
  agg.r10 += t.r10 * test.length;
  agg.mrr += t.mrr * test.length;
  n += test.length;
}
console.log('CV', fmt({ r5: agg.r5 / n, r10: agg.r10 / n, mrr: agg.mrr / n }));
