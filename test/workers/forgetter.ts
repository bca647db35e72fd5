/**
 * Writes a secret into a file in every place a text can land (content, an earlier version, the
 * context of the next turns, a cached query vector), forgets it, says so, and waits to be killed.
 * Usage: forgetter.ts --db PATH --secret TEXT --old TEXT. Prints {"op":"forgotten"}.
 */
import { openMemory } from '../../src/index.js';
import { WorkerEmbedder, args, emit } from './common.js';

const a = args();
const mem = await openMemory({ path: a.db!, embedder: new WorkerEmbedder() });
for (let i = 0; i < 50; i++) await mem.add(`an earlier turn ${i} about the weather and the garden`, { sessionId: 's' });
const { id } = await mem.add(a.old!, { sessionId: 's', key: 'secret' });
await mem.update(id, { content: a.secret! });
for (let i = 0; i < 4; i++) await mem.add(`a later turn ${i} about the weather and the garden`, { sessionId: 's' });
await mem.recall(a.secret!);
await mem.forget(id);
emit({ op: 'forgotten' });
// Killed here, before close: nothing after the forget may be needed to erase the text.
setInterval(() => {}, 1000);
