import { Option } from 'commander';
import { MnemoliteError, type OpenOptions } from '../index.js';

/** Most worker threads the CLI accepts: each holds its own model copy (about 260–300 MB). */
export const MAX_CLI_EMBED_WORKERS = 16;

/** `--embed-workers N` as parsed by commander (absent: the library's `'auto'`). */
export interface EmbedWorkersFlags {
  embedWorkers?: number;
  embedder: string;
}

/** Parse `--embed-workers`: a whole number from 0 to {@link MAX_CLI_EMBED_WORKERS}, else a typed error. */
export function parseEmbedWorkers(v: string): number {
  // Number('') is 0 and Number(' 2 ') is 2: only plain digits are a worker count.
  const n = /^\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_CLI_EMBED_WORKERS)
    throw new MnemoliteError('INVALID_INPUT', `--embed-workers must be a whole number from 0 to ${MAX_CLI_EMBED_WORKERS}, got "${v}".`);
  return n;
}

/** The `--embed-workers` option of the commands that embed in bulk (import, reindex). */
export function embedWorkersOption(): Option {
  return new Option(
    '--embed-workers <n>',
    `worker threads embedding with the bundled model, 0 to ${MAX_CLI_EMBED_WORKERS} (0: this thread only; default: one fewer than the cores, or env MNEMOLITE_EMBED_WORKERS)`,
  ).argParser(parseEmbedWorkers);
}

/** The `embedWorkers` open option from the flags; refused with an embedder other than the bundled one. */
export function embedWorkersOpen(f: EmbedWorkersFlags): Pick<OpenOptions, 'embedWorkers'> {
  if (f.embedWorkers === undefined) return {};
  if (f.embedder !== 'local')
    throw new MnemoliteError('INVALID_INPUT', `--embed-workers applies to the bundled model (--embedder local), not --embedder ${f.embedder}.`);
  return { embedWorkers: f.embedWorkers };
}
