/** Seeded randomness shared by tests, fixtures and child processes (so a parent and its child agree). */

/** mulberry32: a small, fast, seeded PRNG returning numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal sample (Box–Muller). */
export function gauss(r: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
}

/** A deterministic gaussian vector for a text (FNV-1a of the text seeds the PRNG); not unit length. */
export function textVector(text: string, dims: number): Float32Array {
  const r = mulberry32([...text].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));
  return Float32Array.from({ length: dims }, () => gauss(r));
}
