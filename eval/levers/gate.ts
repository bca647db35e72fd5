// How related is a memory to its context? cos(own, mean of the 2 before it in its session), chats vs facts noted per day.
import { readFileSync } from 'node:fs';
import { load } from './data.js';
import { cacheVecs, h, dot, norm } from './lib.js';
const V = cacheVecs();
const q = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return [0.1, 0.25, 0.5, 0.75, 0.9].map((p) => s[Math.floor(p * (s.length - 1))]!.toFixed(2)).join(' ');
};
const mean = (vs: Float32Array[]) => {
  const m = new Float32Array(512);
  for (const v of vs) for (let i = 0; i < 512; i++) m[i] += v[i]!;
  return norm(m);
};
const chat: number[] = [];
for (const c of load())
  c.turns.forEach((t, i) => {
    const prev = c.turns.slice(Math.max(0, i - 2), i).filter((p) => p.session === t.session);
    if (prev.length) chat.push(dot(V.get(h(t.full))!, mean(prev.map((p) => V.get(h(p.full))!))));
  });
const facts = JSON.parse(readFileSync(new URL('../data/facts.json', import.meta.url), 'utf8')).memories as { content: string; createdAt: string }[];
const fs: number[] = [];
facts.forEach((m, i) => {
  const prev = facts
    .slice(0, i)
    .filter((p) => p.createdAt.slice(0, 10) === m.createdAt.slice(0, 10))
    .slice(-2);
  const v = V.get(h(m.content));
  if (prev.length && v && prev.every((p) => V.get(h(p.content)))) fs.push(dot(v, mean(prev.map((p) => V.get(h(p.content))!))));
});
console.log('chat turns   n', chat.length, 'cos quantiles 10/25/50/75/90:', q(chat));
console.log('facts by day n', fs.length, 'cos quantiles 10/25/50/75/90:', q(fs));
