import { feats, score, fmt } from './eval.js';
const show = (name: string, p: any) => console.log(name.padEnd(44), fmt(score(feats, p)));
const h = { mode: 2, alpha: 0.7, win: 2, wc: 0.35, vm: 1, wsa: 0.6, N: 50, agg: 1 };
for (const gate of [0, 0.4, 0.5, 0.55]) {
  show(`hyb gate ${gate}`, { ...h, gate });
  show(`  kw gate ${gate}`, { ...h, mode: 0, gate });
  show(`  vec gate ${gate}`, { ...h, mode: 1, gate });
}
