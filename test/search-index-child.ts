// Child process for search-index.test.ts: forgets the given ids and adds one memory, through
// its own connection to the same file. Usage: search-index-child.ts <db> <json ids>
import { openMemory, type Embedder } from '../src/index.js';

const [path, idsJson] = process.argv.slice(2);
const dims = 32;
function vec(s: string): number[] {
  let a = [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261) >>> 0;
  const r = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: dims }, () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()));
}
const emb: Embedder = { provider: 'test', id: 'hashed-32', dims, embed: async (texts) => texts.map(vec) };
const mem = await openMemory({ path: path!, embedder: emb });
for (const id of JSON.parse(idsJson!) as string[]) await mem.forget(id);
await mem.add('pears from the child');
await mem.close();
