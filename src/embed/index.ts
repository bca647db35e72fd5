import { MnemoliteError } from '../errors.js';
import { LocalEmbedder } from './local.js';
import type { Embedder } from './provider.js';

/** Turn the `embedder` option into an embedder, or `null` for keyword-only. */
export function resolveEmbedder(e: 'local' | 'none' | Embedder | undefined): Embedder | null {
  if (e === undefined || e === 'local') return new LocalEmbedder();
  if (e === 'none') return null;
  if (typeof e === 'object' && e !== null && typeof e.embed === 'function' && typeof e.id === 'string' && e.id && Number.isInteger(e.dims) && e.dims > 0) {
    return e;
  }
  throw new MnemoliteError('INVALID_INPUT', 'embedder must be "local", "none", or an object { provider, id, dims, embed(texts) } with a non-empty id and a positive integer dims.');
}
