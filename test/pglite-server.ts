/**
 * A PGlite server in a process of its own (started by `startPgliteProcess` in test/pg-servers.ts):
 * sends `{ url }` over the IPC channel once it listens, stops on SIGTERM/SIGINT or when the parent
 * goes away (stdin closes).
 */
import { startPglite } from './pg-servers.js';

const server = await startPglite();
let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  try {
    await server.stop();
  } finally {
    process.exit(0);
  }
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.on('error', () => void stop());
process.stdin.resume();
process.send?.({ url: server.url });
