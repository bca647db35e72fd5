// Child process for search-index.test.ts: forgets the given ids and adds one memory, through
// its own connection to the same file. Usage: search-index-child.ts <db> <json ids>
import { openMemory, type Embedder } from '../src/index.js';
import { textVector } from './rng.js';

const [path, idsJson] = process.argv.slice(2);
const dims = 32;
const emb: Embedder = { provider: 'test', id: 'hashed-32', dims, embed: async (texts) => texts.map((t) => textVector(t, dims)) };
const mem = await openMemory({ path: path!, embedder: emb });
for (const id of JSON.parse(idsJson!) as string[]) await mem.forget(id);
await mem.add('pears from the child');
await mem.close();
