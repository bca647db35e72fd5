import { MnemoliteError, OpenAIEmbedder, ollamaEmbedder, TransformersEmbedder, transformersEmbedder, type Embedder } from '../index.js';

/** CLI flags that choose the embedder. */
export interface EmbedderFlags {
  embedder: string;
  model?: string;
  baseUrl?: string;
  dims?: string;
  /** --allow-download: let --embedder transformers fetch a hub model id on first use (then cached). */
  allowDownload?: boolean;
}

/** Build the `embedder` open option from CLI flags / environment (async: a transformers model of unknown dims is loaded to measure them). */
export async function embedderFromFlags(f: EmbedderFlags): Promise<'local' | 'none' | Embedder> {
  const dims = f.dims !== undefined ? Number(f.dims) : undefined;
  if (dims !== undefined && (!Number.isInteger(dims) || dims <= 0)) throw new MnemoliteError('INVALID_INPUT', '--dims must be a positive whole number.');
  switch (f.embedder) {
    case 'local':
    case 'none':
      return f.embedder;
    case 'openai':
      if (!f.model) throw new MnemoliteError('INVALID_INPUT', '--embedder openai needs --model (or MNEMOLITE_MODEL), e.g. --model text-embedding-3-small.');
      return new OpenAIEmbedder({ model: f.model, ...(f.baseUrl ? { baseURL: f.baseUrl } : {}), ...(dims ? { dims } : {}) });
    case 'ollama':
      return ollamaEmbedder(f.model ?? 'nomic-embed-text', { ...(f.baseUrl ? { baseURL: f.baseUrl } : {}), ...(dims ? { dims } : {}) });
    case 'transformers': {
      if (!f.model)
        throw new MnemoliteError(
          'INVALID_INPUT',
          '--embedder transformers needs --model (or MNEMOLITE_MODEL): a local model folder, or a hub id with --allow-download, e.g. --model ./models/all-MiniLM-L6-v2.',
        );
      const o = { model: f.model, ...(dims ? { dims } : {}), ...(f.allowDownload ? { allowDownload: true } : {}) };
      // Lazy when the vector length is known (--dims, or the model's config.json): commands that
      // never embed do not load the model. Otherwise load it now and measure it.
      try {
        return new TransformersEmbedder(o);
      } catch (err) {
        if (err instanceof MnemoliteError && err.details?.reason === 'dims-unknown') return transformersEmbedder(o);
        throw err;
      }
    }
    default:
      throw new MnemoliteError('INVALID_INPUT', `Unknown --embedder "${f.embedder}". Use local, none, openai, ollama or transformers.`);
  }
}
