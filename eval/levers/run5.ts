import { feats, score, fmt } from './eval.js';
const show = (name: string, p: any) => console.log(name.padEnd(44), fmt(score(feats, p)));
const k = { mode: 0, win: 2, wc: 0.35, wsa: 0.6, N: 50, agg: 1 };
show('kw ctx+sess', k);
show('kw ctx+sess + date', { ...k, date: 1 });
for (const prf of [0.1, 0.2, 0.4]) show(`kw ctx+sess + prf ${prf}`, { ...k, prf });
const h = { ...k, mode: 2, alpha: 0.7, vm: 1 };
show('hyb', h);
show('hyb + date', { ...h, date: 1 });
for (const prf of [0.1, 0.2]) show(`hyb + prf ${prf}`, { ...h, prf });
show('hyb + date in ctx field', { ...h, cdate: 1 });
for (const wd of [0.35, 0.7, 1]) show(`hyb + date field w${wd}`, { ...h, wd });
import { convs } from './eval.js';
for (const c of convs) {
  const fs = feats.filter((f) => f.conv === c.id);
  console.log(c.id, fmt(score(fs, h)), '| date', fmt(score(fs, { ...h, date: 1 })), '| datefield .7', fmt(score(fs, { ...h, wd: 0.7 })));
}
const cats = [1, 2, 3, 4];
for (const cat of cats) {
  const fs = feats.filter((f) => f.cat === cat);
  console.log('cat', cat, fs.length, fmt(score(fs, h)), '| date', fmt(score(fs, { ...h, date: 1 })));
}
