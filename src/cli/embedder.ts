import { MnemoliteError, OpenAIEmbedder, ollamaEmbedder, type Embedder } from '../index.js';

/** CLI flags that choose the embedder. */
export interface EmbedderFlags {
  embedder: string;
  model?: string;
  baseUrl?: string;
  dims?: string;
}

/** Build the `embedder` open option from CLI flags / environment. */
export function embedderFromFlags(f: EmbedderFlags): 'local' | 'none' | Embedder {
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
    default:
      throw new MnemoliteError('INVALID_INPUT', `Unknown --embedder "${f.embedder}". Use local, none, openai or ollama.`);
  }
}
