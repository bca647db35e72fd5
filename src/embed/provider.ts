/**
 * An embedding provider: turns texts into fixed-length vectors.
 *
 * Implement this to plug in any model. `id` must change whenever the vectors would
 * change (another model, another dimension), because the file records it and refuses
 * to mix vectors of two models.
 */
export interface Embedder {
  /** Provider family, e.g. `"local"`, `"openai"`. */
  readonly provider: string;
  /** Model identity recorded in the file, e.g. `"use-lite-512"` or `"text-embedding-3-small"`. */
  readonly id: string;
  /** Vector length. */
  readonly dims: number;
  /** Embed a batch of non-empty texts; must return one vector per input, in order. */
  embed(texts: string[]): Promise<Float32Array[] | number[][]>;
  /**
   * Optional: embed several batches in one call (e.g. on worker threads, several at a time).
   * Must return exactly what calling {@link Embedder.embed} on each batch in turn would return.
   * Bulk writes (`addMany`, `addConversation`, `import`, `reindex`) use it when present.
   */
  embedBatches?(batches: string[][]): Promise<(Float32Array | number[])[][]>;
  /**
   * Optional hint that about `texts` texts are about to be embedded in bulk, in calls that may
   * each be small (an importer writing many short conversations): a provider may start worker threads.
   */
  prepareBulk?(texts: number): void;
  /** Optional: release resources. */
  close?(): Promise<void> | void;
}
