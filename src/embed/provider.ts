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
  /** Optional: release resources. */
  close?(): Promise<void> | void;
}
