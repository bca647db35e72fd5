import { feats, score, fmt } from './eval.js';
const show = (name: string, p: any) => console.log(name.padEnd(44), fmt(score(feats, p)));
const b = { mode: 0, win: 2, wc: 0.35 };
show('kw ctx2', b);
show('kw ctx2 sessBM25 .4', { ...b, ws: 0.4 });
for (const N of [50, 100])
  for (const agg of [0, 1]) for (const wsa of [0.05, 0.1, 0.2, 0.4]) show(`kw ctx2 sessagg N${N} agg${agg} w${wsa}`, { ...b, wsa, N, agg });
const h = { mode: 2, alpha: 0.7, win: 2, wc: 0.35, vm: 1 };
show('hyb no sess', h);
show('hyb sessBM25', { ...h, ws: 0.4 });
for (const wsa of [0.05, 0.1, 0.2]) show(`hyb sessagg sum w${wsa}`, { ...h, wsa, N: 100, agg: 0 });
