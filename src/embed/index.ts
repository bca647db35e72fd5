import { MnemoliteError } from '../errors.js';
import { LocalEmbedder } from './local.js';
import type { Embedder } from './provider.js';

/** The largest vector accepted from a custom embedder (well above any known model). */
const MAX_DIMS = 65_536;

/** Why `e` is not a usable Embedder object, or null when it is. */
function embedderProblem(e: object): string | null {
  const o = e as Partial<Record<keyof Embedder, unknown>>;
  // Every field is checked here, not at the first write: a missing provider used to surface as
  // "NOT NULL constraint failed: meta.value" when the file recorded the model.
  if (typeof o.provider !== 'string' || !o.provider.trim()) return `provider must be a non-empty string (got ${describe(o.provider)})`;
  if (typeof o.id !== 'string' || !o.id.trim()) return `id must be a non-empty string (got ${describe(o.id)})`;
  if (typeof o.dims !== 'number' || !Number.isInteger(o.dims) || o.dims < 1 || o.dims > MAX_DIMS)
    return `dims must be a whole number from 1 to ${MAX_DIMS} (got ${describe(o.dims)})`;
  if (typeof o.embed !== 'function') return `embed must be a function embed(texts) returning one vector per text (got ${describe(o.embed)})`;
  if (o.close !== undefined && typeof o.close !== 'function') return `close, when present, must be a function (got ${describe(o.close)})`;
  return null;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.slice(0, 40));
  if (typeof v === 'number') return String(v);
  return typeof v;
}

/** Turn the `embedder` option into an embedder, or `null` for keyword-only. */
export function resolveEmbedder(e: 'local' | 'none' | Embedder | undefined, workers?: number | 'auto'): Embedder | null {
  if (workers !== undefined && workers !== 'auto' && !(Number.isInteger(workers) && workers >= 0 && workers <= 64))
    throw new MnemoliteError('INVALID_INPUT', `embedWorkers must be "auto" or a whole number from 0 to 64, not ${JSON.stringify(workers)}.`);
  if (workers !== undefined && e !== undefined && e !== 'local')
    throw new MnemoliteError(
      'INVALID_INPUT',
      'embedWorkers applies to the bundled model (embedder "local"); pass new LocalEmbedder({ workers }) instead, or leave embedWorkers out.',
    );
  if (e === undefined || e === 'local') return new LocalEmbedder(workers !== undefined ? { workers } : {});
  if (e === 'none') return null;
  if (typeof e === 'object' && e !== null) {
    const problem = embedderProblem(e);
    if (!problem) return e;
    throw new MnemoliteError('INVALID_INPUT', `The custom embedder is not usable: ${problem}. An Embedder is an object { provider, id, dims, embed(texts) }.`);
  }
  throw new MnemoliteError(
    'INVALID_INPUT',
    'embedder must be "local", "none", or an object { provider, id, dims, embed(texts) } with a non-empty id and a positive integer dims.',
  );
}
