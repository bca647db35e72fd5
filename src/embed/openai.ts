import { MnemoliteError } from '../errors.js';
import type { Embedder } from './provider.js';
import { trimEndChars } from '../text/trim.js';

/** Options for {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions {
  /** Model name, e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  model: string;
  /** Base URL up to and including `/v1` (default `https://api.openai.com/v1`; Ollama: `http://localhost:11434/v1`). */
  baseURL?: string;
  /** API key. Default: the environment variable named by `apiKeyEnv`. */
  apiKey?: string;
  /** Environment variable holding the key (default `OPENAI_API_KEY`). Local servers need none. */
  apiKeyEnv?: string;
  /** Vector length. Required unless the model is a known OpenAI model. */
  dims?: number;
  /** Ask the server for shortened vectors (OpenAI `dimensions` parameter). */
  requestDimensions?: boolean;
  /** Per-request timeout in ms (default 30,000). */
  timeoutMs?: number;
  /** Retries on network errors, 429 and 5xx (default 3), with exponential backoff. */
  retries?: number;
  /** Texts per request (default 64). */
  batchSize?: number;
}

const KNOWN_DIMS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Any OpenAI-compatible `/v1/embeddings` endpoint: OpenAI, Ollama, LM Studio, vLLM,
 * llama.cpp server. Retries transient failures with exponential backoff.
 */
export class OpenAIEmbedder implements Embedder {
  readonly provider = 'openai';
  readonly id: string;
  readonly dims: number;
  private readonly opts: Required<Omit<OpenAIEmbedderOptions, 'apiKey' | 'dims'>> & { apiKey?: string };

  constructor(o: OpenAIEmbedderOptions) {
    if (!o.model) throw new MnemoliteError('INVALID_INPUT', 'The openai embedder needs a model name, e.g. { model: "text-embedding-3-small" }.');
    const dims = o.dims ?? KNOWN_DIMS[o.model];
    if (!dims || !Number.isInteger(dims) || dims <= 0) {
      throw new MnemoliteError('INVALID_INPUT', `Unknown vector length for model "${o.model}": pass dims (e.g. { dims: 768 }).`);
    }
    this.dims = dims;
    const baseURL = trimEndChars(o.baseURL ?? 'https://api.openai.com/v1', '/');
    this.opts = {
      model: o.model,
      baseURL,
      apiKeyEnv: o.apiKeyEnv ?? 'OPENAI_API_KEY',
      requestDimensions: o.requestDimensions ?? false,
      timeoutMs: o.timeoutMs ?? 30_000,
      retries: o.retries ?? 3,
      batchSize: o.batchSize ?? 64,
      ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
    };
    // The id names the model and length, not the host: the same model served elsewhere makes the same vectors.
    this.id = `${o.model}${o.requestDimensions ? `@${dims}` : ''}`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) {
      out.push(...(await this.request(texts.slice(i, i + this.opts.batchSize))));
    }
    return out;
  }

  private async request(input: string[]): Promise<number[][]> {
    const key = this.opts.apiKey ?? process.env[this.opts.apiKeyEnv];
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const body = JSON.stringify({ model: this.opts.model, input, ...(this.opts.requestDimensions ? { dimensions: this.dims } : {}) });
    let lastErr = '';
    for (let attempt = 0; attempt <= this.opts.retries; attempt++) {
      if (attempt > 0) await sleep(Math.min(8000, 250 * 2 ** (attempt - 1)) * (0.75 + Math.random() / 2));
      let res: Response;
      try {
        res = await fetch(`${this.opts.baseURL}/embeddings`, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.opts.timeoutMs) });
      } catch (err) {
        lastErr = (err as Error).name === 'TimeoutError' ? `timed out after ${this.opts.timeoutMs} ms` : (err as Error).message;
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        lastErr = `HTTP ${res.status}`;
        await res.body?.cancel();
        continue;
      }
      if (!res.ok) {
        const text = (await res.text()).slice(0, 300);
        const hint = res.status === 401 || res.status === 403 ? ` Set ${this.opts.apiKeyEnv} to a valid key.` : '';
        throw new MnemoliteError('EMBEDDER_FAILED', `Embedding request to ${this.opts.baseURL} failed: HTTP ${res.status} ${text}.${hint}`);
      }
      const json = (await res.json()) as { data?: { index?: number; embedding?: number[] }[] };
      const data = json.data;
      if (!Array.isArray(data) || data.length !== input.length) {
        throw new MnemoliteError(
          'EMBEDDER_FAILED',
          `Embedding server at ${this.opts.baseURL} returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} texts.`,
        );
      }
      return [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding ?? []);
    }
    throw new MnemoliteError(
      'EMBEDDER_FAILED',
      `Embedding server at ${this.opts.baseURL} did not answer after ${this.opts.retries + 1} attempts (${lastErr}). Check that it runs and the URL is right.`,
    );
  }
}

/** Preset for a local Ollama server (`ollama pull nomic-embed-text`). */
export function ollamaEmbedder(model = 'nomic-embed-text', opts: Omit<OpenAIEmbedderOptions, 'model'> = {}): OpenAIEmbedder {
  return new OpenAIEmbedder({ baseURL: 'http://127.0.0.1:11434/v1', ...opts, model });
}
