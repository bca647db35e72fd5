/** Variants of the LoCoMo run: the three modes, and each lever on and off (EVAL.md, "Conversational context"). */
import type { RecallOptions } from '../src/index.js';

/** One way to write and recall the conversations. */
export interface LocomoVariant {
  name: string;
  recall: RecallOptions & Record<string, unknown>;
  write?: { contextWindow?: number };
}

/** The default run: each mode with its defaults. */
export const LOCOMO_VARIANTS: LocomoVariant[] = [
  { name: 'keyword', recall: { mode: 'keyword' } },
  { name: 'vector', recall: { mode: 'vector' } },
  { name: 'hybrid (default)', recall: {} },
];

/** Further variants (`--variants all`). */
export const EXTRA_VARIANTS: LocomoVariant[] = [
  { name: 'keyword, no context (window 0)', recall: { mode: 'keyword' }, write: { contextWindow: 0 } },
  { name: 'vector, no context (window 0)', recall: { mode: 'vector' }, write: { contextWindow: 0 } },
  { name: 'hybrid, no context (window 0)', recall: {}, write: { contextWindow: 0 } },
  { name: 'hybrid rrf', recall: { fusion: 'rrf' } },
  { name: 'hybrid convex 0.5', recall: { fusion: 'convex' } },
  { name: 'hybrid convex 0.7', recall: { fusion: 'convex', weights: { keyword: 0.7, vector: 0.3 } } },
  { name: 'hybrid adaptive', recall: { fusion: 'adaptive' } },
  ...[0.5, 0.7, 1.4, 2].map((w) => ({ name: `hybrid adaptive kw×${w}`, recall: { fusion: 'adaptive' as const, weights: { keyword: w, vector: 1 } } })),
  { name: 'hybrid convex 0.6', recall: { fusion: 'convex', weights: { keyword: 0.6, vector: 0.4 } } },
];
