/**
 * Worker thread entry for {@link EmbedPool}: loads the bundled model once and embeds the batches
 * it is sent one at a time, in order, replying with the vectors flat in one transferred buffer.
 */
import { parentPort } from 'node:worker_threads';
import { LocalEmbedder } from './local.js';
import type { WorkerReply } from './pool.js';

const port = parentPort;
if (!port) throw new Error('embed-worker runs only as a worker thread');
// workers: 0, so a worker never starts workers of its own.
const model = new LocalEmbedder({ workers: 0 });
// The pool sends a second batch ahead; run them one after another, not interleaved.
let chain: Promise<void> = Promise.resolve();

// Batches received and not started yet; the calling thread may take one back (then it is skipped).
const waiting = new Set<number>();

async function handle(m: { id: number; texts: string[] }): Promise<void> {
  // A turn of the event loop first, so a take-back sent while the last batch ran is seen.
  await new Promise((r) => setImmediate(r));
  if (!waiting.delete(m.id)) return;
  try {
    const vecs = await model.embed(m.texts);
    const dims = model.dims;
    const flat = new Float32Array(vecs.length * dims);
    vecs.forEach((v, i) => flat.set(v, i * dims));
    const reply: WorkerReply = { id: m.id, vectors: flat, dims };
    port!.postMessage(reply, [flat.buffer]);
  } catch (err) {
    const reply: WorkerReply = { id: m.id, error: (err as Error)?.message ?? String(err) };
    port!.postMessage(reply);
  }
}

port.on('message', (m: { id: number; texts: string[] } | { cancel: number }) => {
  if ('cancel' in m) waiting.delete(m.cancel);
  else {
    waiting.add(m.id);
    chain = chain.then(() => handle(m));
  }
});
