import { LocalEmbedder } from '../../src/embed/local.js';
import { CachingEmbedder } from '../embed-cache.js';
import { load } from './data.js';
const convs = load();
const emb = new CachingEmbedder(new LocalEmbedder(), new URL('../../bench/.cache/eval/', import.meta.url).pathname);
const texts: string[] = [];
for (const c of convs) {
  for (const t of c.turns) texts.push(t.full);
  for (const q of [...c.qs, ...c.cat5]) texts.push(q.question);
}
console.log('texts', texts.length, 'cached', emb.size);
for (let i = 0; i < texts.length; i += 256) {
  await emb.embed(texts.slice(i, i + 256));
  console.log(i);
}
// context windows (prev 2 turns + turn)
const ctx: string[] = [];
for (const c of convs)
  c.turns.forEach((t, i) => {
    const prev = c.turns.slice(Math.max(0, i - 2), i).filter((p) => p.session === t.session);
    ctx.push([...prev.map((p) => p.full), t.full].join('\n'));
  });
for (let i = 0; i < ctx.length; i += 256) {
  await emb.embed(ctx.slice(i, i + 256));
  console.log('ctx', i);
}
console.log('done', emb.size, emb.modelMs);
process.exit(0);
