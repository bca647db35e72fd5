/**
 * Worker thread entry for {@link EmbedPool}: loads the bundled model once and embeds the batches
 * it is sent, one at a time, replying with the vectors flat in one transferred buffer.
 */
import { parentPort } from 'node:worker_threads';
import { LocalEmbedder } from './local.js';
import type { WorkerReply } from './pool.js';

const port = parentPort;
if (!port) throw new Error('embed-worker runs only as a worker thread');
// workers: 0, so a worker never starts workers of its own.
const model = new LocalEmbedder({ workers: 0 });

port.on('message', (m: { id: number; texts: string[] }) => {
  model.embed(m.texts).then(
    (vecs) => {
      const dims = model.dims;
      const flat = new Float32Array(vecs.length * dims);
      vecs.forEach((v, i) => flat.set(v, i * dims));
      const reply: WorkerReply = { id: m.id, vectors: flat, dims };
      port.postMessage(reply, [flat.buffer]);
    },
    (err: unknown) => {
      const reply: WorkerReply = { id: m.id, error: (err as Error)?.message ?? String(err) };
      port.postMessage(reply);
    },
  );
});
