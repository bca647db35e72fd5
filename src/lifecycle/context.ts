/**
 * Conversational context, the write side: a memory of a session is also found through the memories
 * just before it ("What did you paint?" → "A sunset over the lake."). What is stored and indexed
 * with a memory; the same for every store. Measured on real chats (EVAL.md, "Conversational context").
 *
 * - Keyword: the context's words are a field of their own, so BM25 scores the sharp signal (the
 *   memory's own words) and the broad one (its context) separately; recall weighs them
 *   (src/recall/context-evidence.ts).
 * - Vector: the context vector is the normalised mean of the context memories' own vectors (no
 *   extra model call); the index searches `normalise(own + CONTEXT_VECTOR_WEIGHT · context)`.
 *
 * The context is fixed when a memory is written: later memories never change it.
 */
import { LOCAL_MODEL_ID } from '../embed/local.js';
import { MAX_CONTEXT_WINDOW } from '../validate.js';

/** Memories of the same session before a new one that form its context, unless the caller says otherwise. */
export const DEFAULT_CONTEXT_WINDOW = 2;
/** Weight of the context vector added to the memory's own before normalising. */
export const CONTEXT_VECTOR_WEIGHT = 1;
/**
 * A memory takes its context only when its own vector is this similar (cosine) to the context's:
 * consecutive chat turns are (bundled model: median 0.70, 10th percentile 0.55 on real chats), facts
 * noted one after another in a session mostly are not (median 0.29, 90th percentile 0.47), and there
 * context would mix unrelated memories (EVAL.md). Without vectors there is no gate.
 */
export const CONTEXT_MIN_SIMILARITY = 0.45;
/** The embedder that threshold was measured with (src/embed/local.ts); other embedders' cosines have other scales, so they get no gate. */
const GATED_MODEL = LOCAL_MODEL_ID;

/** The relatedness gate for an embedder: {@link CONTEXT_MIN_SIMILARITY} for the bundled model, none (−1) otherwise. */
export function contextGate(model: string | null): number {
  return model === GATED_MODEL ? CONTEXT_MIN_SIMILARITY : -1;
}

/** L2-normalised mean of some vectors, or null when there are none. */
export function meanVector(vectors: readonly Float32Array[]): Float32Array | null {
  if (!vectors.length) return null;
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i]! += v[i]!;
  return normalised(out);
}

function normalised(v: Float32Array): Float32Array | null {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (!(s > 0) || !Number.isFinite(s)) return null;
  const n = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i]! *= n;
  return v;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let d = 0,
    na = 0,
    nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? d / Math.sqrt(na * nb) : 0;
}

/** The vector the index searches for a memory with context. */
export function blendedVector(own: Float32Array, context: Float32Array): Float32Array {
  const out = new Float32Array(own.length);
  for (let i = 0; i < out.length; i++) out[i] = own[i]! + CONTEXT_VECTOR_WEIGHT * context[i]!;
  return normalised(out) ?? own;
}

/** {@link blendedVector} over little-endian float32 bytes (as stored). */
export function blendedBytes(own: Uint8Array, context: Uint8Array): Float32Array {
  const f = (b: Uint8Array): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  return blendedVector(f(own), f(context));
}

/** Context vectors of some context lists: the mean of their texts' vectors (`embed` finds them by hash or embeds them). */
export async function contextVectorsOf(lists: readonly string[][], embed: (texts: string[]) => Promise<Float32Array[]>): Promise<(Float32Array | null)[]> {
  if (!lists.length) return [];
  const texts = [...new Set(lists.flat())];
  const vecs = await embed(texts);
  const byText = new Map(texts.map((t, i) => [t, vecs[i]!]));
  return lists.map((l) => meanVector(l.map((t) => byText.get(t)!)));
}

/** A memory to be written, as far as its context is concerned. */
export interface ContextItem {
  namespace: string;
  sessionId: string | null;
  window: number /** A key upsert replaces its own earlier version, which is not its context. */;
  key?: string;
}

/** The last memories of a session already stored (newest last), with their vectors when they have one. */
export type SessionTail = (namespace: string, sessionId: string, n: number) => Promise<{ content: string; vector: Float32Array | null; key: string | null }[]>;

/**
 * The context of each item of a batch: the `window` memories before it in its session, from the
 * store and from earlier items of the same batch. `null` for items without a session or window.
 */
export async function batchContexts(
  items: readonly ContextItem[],
  contents: readonly string[],
  vectors: readonly (Float32Array | null)[] | null,
  tail: SessionTail,
  minSimilarity = -1,
): Promise<{ texts: string[] | null; vector: Float32Array | null }[]> {
  const sessions = new Map<string, { content: string; vector: Float32Array | null; key: string | null }[]>();
  const out: { texts: string[] | null; vector: Float32Array | null }[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.sessionId === null) {
      out.push({ texts: null, vector: null });
      continue;
    }
    const key = JSON.stringify([it.namespace, it.sessionId]);
    let prev = sessions.get(key);
    if (!prev) {
      prev = await tail(it.namespace, it.sessionId, 2 * MAX_CONTEXT_WINDOW);
      sessions.set(key, prev);
    }
    const before = it.key === undefined ? prev : prev.filter((p) => p.key !== it.key);
    const ctx = it.window > 0 ? before.slice(-it.window) : [];
    if (!ctx.length) out.push({ texts: null, vector: null });
    else {
      const vs = ctx.map((c) => c.vector).filter((v): v is Float32Array => v !== null);
      const mean = vectors && vs.length === ctx.length ? meanVector(vs) : null;
      const own = vectors?.[i] ?? null;
      if (own && mean && cosine(own, mean) < minSimilarity)
        out.push({ texts: null, vector: null }); // unrelated: no context
      else out.push({ texts: ctx.map((c) => c.content), vector: mean });
    }
    if (it.key !== undefined) prev.splice(0, prev.length, ...prev.filter((p) => p.key !== it.key));
    prev.push({ content: contents[i]!, vector: vectors ? (vectors[i] ?? null) : null, key: it.key ?? null });
  }
  return out;
}
