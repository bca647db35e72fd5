/**
 * WebAssembly SIMD kernels for the vector leg, assembled in memory at load time.
 *
 * There is no committed binary and no build step: the few functions below are written in a
 * small instruction DSL and encoded to wasm bytes when this module loads (~0.1 ms). Every
 * kernel has a plain-JS reference in the tests.
 *
 * Kernels (all pointers are byte offsets into the shared memory):
 * - `encode`: sign bits of `(v - centre)` for a range of slots;
 * - `hamming`: Hamming distance of every eligible slot's code to the query code, plus a
 *   histogram of distances (so the candidate cut-off is found without sorting);
 * - `select`: the slots under the cut-off;
 * - `quantise`: float rows to int8 rows of their difference from a centre, one scale each;
 * - `dotsI8x1`, `dotsI8x8`: int8 x int16 dot products for a list of slots (re-scoring), `x8`
 *   eight rows at a time (eight memory streams in flight: the rows are scattered cache misses);
 * - `scanI8`: the same for every slot (the `exact: true` path).
 */

// ---- a tiny wasm encoder ---------------------------------------------------

type Bytes = number[];

function uleb(n: number): Bytes {
  const out: Bytes = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): Bytes {
  const out: Bytes = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** The memory's maximum, 64 KiB pages: 4 GiB (a shared memory must declare one). */
export const MAX_PAGES = 65536;

const I32 = 0x7f,
  I64 = 0x7e,
  F32 = 0x7d,
  V128 = 0x7b;
const simd = (op: number, ...imm: number[]): Bytes => [0xfd, ...uleb(op), ...imm];
const mem = (align: number, offset = 0): Bytes => [...uleb(align), ...uleb(offset)];

/** Instruction helpers; each returns encoded bytes. */
const op = {
  get: (i: number): Bytes => [0x20, ...uleb(i)],
  set: (i: number): Bytes => [0x21, ...uleb(i)],
  tee: (i: number): Bytes => [0x22, ...uleb(i)],
  i32: (n: number): Bytes => [0x41, ...sleb(n)],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  shl: [0x74],
  shrU: [0x76],
  or: [0x72],
  and: [0x71],
  ltU: [0x49],
  geU: [0x4f],
  gtU: [0x4b],
  eq: [0x46],
  eqz: [0x45],
  load: (o = 0): Bytes => [0x28, ...mem(2, o)],
  store: (o = 0): Bytes => [0x36, ...mem(2, o)],
  load8: (o = 0): Bytes => [0x2d, ...mem(0, o)],
  store8: (o = 0): Bytes => [0x3a, ...mem(0, o)],
  load16: (o = 0): Bytes => [0x2f, ...mem(1, o)],
  store16: (o = 0): Bytes => [0x3b, ...mem(1, o)],
  f32store: (o = 0): Bytes => [0x38, ...mem(2, o)],
  f32add: [0x92],
  i64load: (o = 0): Bytes => [0x29, ...mem(3, o)],
  i64xor: [0x85],
  i64popcnt: [0x7b],
  i64add: [0x7c],
  wrap: [0xa7],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  ifI32: [0x04, 0x7f],
  else: [0x05],
  end: [0x0b],
  br: (d: number): Bytes => [0x0c, ...uleb(d)],
  brIf: (d: number): Bytes => [0x0d, ...uleb(d)],
  // SIMD
  vload: (o = 0): Bytes => simd(0x00, ...mem(0, o)),
  vzero: simd(0x0c, ...new Array<number>(16).fill(0)),
  i32x4extract: (lane: number): Bytes => simd(0x1b, lane),
  f32x4extract: (lane: number): Bytes => simd(0x1f, lane),
  f32x4gt: simd(0x44),
  vxor: simd(0x51),
  popcnt: simd(0x62),
  i32x4bitmask: simd(0xa4),
  i16x8splat: simd(0x10),
  i16x8narrowS: simd(0x85),
  i8x16narrowS: simd(0x65),
  i8x16bitmask: simd(0x64),
  i16x8leU: simd(0x34),
  anyTrue: simd(0x53),
  i16x8extaddU: simd(0x7d),
  i32x4extaddU: simd(0x7f),
  i16x8add: simd(0x8e),
  i8x16add: simd(0x6e),
  f32x4add: simd(0xe4),
  f32x4sub: simd(0xe5),
  f32x4mul: simd(0xe6),
  f32x4abs: simd(0xe0),
  f32x4max: simd(0xe9),
  f32x4splat: simd(0x13),
  i32x4splat: simd(0x11),
  i32x4sub: simd(0xb1),
  i16x8extendLowI8x16S: simd(0x87),
  i16x8extendHighI8x16S: simd(0x88),
  i32x4dotI16x8S: simd(0xba),
  i32x4add: simd(0xae),
  vstore: (o = 0): Bytes => simd(0x0b, ...mem(0, o)),
  f32load: (o = 0): Bytes => [0x2a, ...mem(2, o)],
  f32mul: [0x94],
  f32div: [0x95],
  f32max: [0x97],
  f32gt: [0x5e],
  f32const: (x: number): Bytes => [0x43, ...new Uint8Array(Float32Array.of(x).buffer)],
  f32convertI32S: [0xb2],
  select: [0x1b],
};

interface Fn {
  name: string;
  params: number[];
  results: number[];
  locals: number[];
  body: Bytes;
}

function section(id: number, content: Bytes): Bytes {
  return [id, ...uleb(content.length), ...content];
}

function vec(items: Bytes[]): Bytes {
  return [...uleb(items.length), ...items.flat()];
}

function str(s: string): Bytes {
  const b = [...Buffer.from(s, 'utf8')];
  return [...uleb(b.length), ...b];
}

function assemble(fns: Fn[]): Uint8Array {
  const types = section(1, vec(fns.map((f) => [0x60, ...vec(f.params.map((p) => [p])), ...vec(f.results.map((r) => [r]))])));
  // Import memory "env"."memory" (shared, min 1 page, max 65,536 pages = 4 GiB), so JS owns and
  // grows it and a worker thread can scan the same bytes (src/search/scan-worker.ts).
  const imports = section(2, vec([[...str('env'), ...str('memory'), 0x02, 0x03, 0x01, ...uleb(MAX_PAGES)]]));
  const funcs = section(3, vec(fns.map((_, i) => uleb(i))));
  const exports = section(7, vec(fns.map((f, i) => [...str(f.name), 0x00, ...uleb(i)])));
  const code = section(
    10,
    vec(
      fns.map((f) => {
        const locals = vec(f.locals.map((t) => [0x01, t]));
        const body = [...locals, ...f.body, 0x0b];
        return [...uleb(body.length), ...body];
      }),
    ),
  );
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...imports, ...funcs, ...exports, ...code]);
}

// ---- kernels -----------------------------------------------------------------

const { get, set, tee, i32, add, sub, mul, shl, ltU, geU, eq, load, store, load8, store8, load16, store16, f32store, block, loop, end, br, brIf } = op;
/**
 * Opens `for (i = 0; i < n; …)` over locals: block, loop, and the exit test (close with the caller's
 * step, `br(0)`, `end`, `end`).
 */
const upTo = (i: number, n: number): Bytes => [...i32(0), ...set(i), ...block, ...loop, ...get(i), ...get(n), ...geU, ...brIf(1)];
/** The address `base + (index << shift)` (locals), the kernels' one way to index an array. */
const at = (base: number, index: number, shift: number): Bytes => [...get(base), ...get(index), ...i32(shift), ...shl, ...add];

// encode(vecs, dp, codes, cb, centre, from, to)
// Sign bit j of slot s is (v[j] - centre[j] > 0). dp is a multiple of 8; cb a multiple of 16 >= dp/8.
const encode: Fn = (() => {
  const [vecs, dp, codes, cb, centre, from, to] = [0, 1, 2, 3, 4, 5, 6];
  const [slot, k, vp, cp, nb] = [7, 8, 9, 10, 11];
  // Lane mask (v - centre > 0) of the four floats at byte `o` of the 16 starting at float 8k.
  const cmp16 = (o: number): Bytes => [...at(vp, k, 5), ...op.vload(o), ...at(centre, k, 5), ...op.vload(o), ...op.f32x4sub, ...op.vzero, ...op.f32x4gt];
  return {
    name: 'encode',
    params: [I32, I32, I32, I32, I32, I32, I32],
    results: [],
    locals: [I32, I32, I32, I32, I32],
    body: [
      ...get(dp),
      ...i32(3),
      ...op.shrU,
      ...set(nb), // bytes carrying bits
      ...get(from),
      ...set(slot),
      ...block,
      ...loop,
      ...get(slot),
      ...get(to),
      ...geU,
      ...brIf(1),
      ...get(vecs),
      ...get(slot),
      ...get(dp),
      ...mul,
      ...i32(2),
      ...shl,
      ...add,
      ...set(vp),
      ...get(codes),
      ...get(slot),
      ...get(cb),
      ...mul,
      ...add,
      ...set(cp),
      ...i32(0),
      ...set(k),
      // Two bytes (16 floats) at a time: four lane masks narrowed to one i8x16, one bitmask.
      ...block,
      ...loop,
      ...get(k),
      ...i32(2),
      ...add,
      ...get(nb),
      ...op.gtU,
      ...brIf(1),
      ...get(cp),
      ...get(k),
      ...add,
      ...cmp16(0),
      ...cmp16(16),
      ...op.i16x8narrowS,
      ...cmp16(32),
      ...cmp16(48),
      ...op.i16x8narrowS,
      ...op.i8x16narrowS,
      ...op.i8x16bitmask,
      ...store16(),
      ...get(k),
      ...i32(2),
      ...add,
      ...set(k),
      ...br(0),
      ...end,
      ...end,
      // The rest one byte at a time (an odd last byte, then zero padding).
      ...block,
      ...loop,
      ...get(k),
      ...get(cb),
      ...geU,
      ...brIf(1),
      ...get(cp),
      ...get(k),
      ...add,
      ...get(k),
      ...get(nb),
      ...ltU,
      ...op.ifI32,
      // low nibble: floats 8k..8k+3; high nibble: 8k+4..8k+7
      ...at(vp, k, 5),
      ...op.vload(),
      ...at(centre, k, 5),
      ...op.vload(),
      ...op.f32x4sub,
      ...op.vzero,
      ...op.f32x4gt,
      ...op.i32x4bitmask,
      ...at(vp, k, 5),
      ...op.vload(16),
      ...at(centre, k, 5),
      ...op.vload(16),
      ...op.f32x4sub,
      ...op.vzero,
      ...op.f32x4gt,
      ...op.i32x4bitmask,
      ...i32(4),
      ...shl,
      ...op.or,
      ...op.else,
      ...i32(0),
      ...end,
      ...store8(),
      ...get(k),
      ...i32(1),
      ...add,
      ...set(k),
      ...br(0),
      ...end,
      ...end,
      ...get(slot),
      ...i32(1),
      ...add,
      ...set(slot),
      ...br(0),
      ...end,
      ...end,
    ],
  };
})();

// hamming(codes, nslots, cb, q, mask, dist, hist)
// dist[s] = popcount(code[s] ^ q) for slots with mask[s] != 0 (and hist[dist]++), else 0xFFFF.
const hamming: Fn = (() => {
  const [codes, nslots, cb, q, mask, dist, hist] = [0, 1, 2, 3, 4, 5, 6];
  const [slot, p, j, d, h] = [7, 8, 9, 10, 11];
  const acc = 12;
  return {
    name: 'hamming',
    params: [I32, I32, I32, I32, I32, I32, I32],
    results: [],
    locals: [I32, I32, I32, I32, I32, V128],
    body: [
      ...i32(0),
      ...set(slot),
      ...get(codes),
      ...set(p),
      ...block,
      ...loop,
      ...get(slot),
      ...get(nslots),
      ...geU,
      ...brIf(1),
      ...get(mask),
      ...get(slot),
      ...add,
      ...load8(),
      ...op.if,
      ...op.vzero,
      ...set(acc),
      ...i32(0),
      ...set(j),
      ...loop,
      ...get(p),
      ...get(j),
      ...add,
      ...op.vload(),
      ...get(q),
      ...get(j),
      ...add,
      ...op.vload(),
      ...op.vxor,
      ...op.popcnt,
      ...op.i16x8extaddU,
      ...get(acc),
      ...op.i16x8add,
      ...set(acc),
      ...get(j),
      ...i32(16),
      ...add,
      ...tee(j),
      ...get(cb),
      ...ltU,
      ...brIf(0),
      ...end,
      ...get(acc),
      ...op.i32x4extaddU,
      ...tee(acc),
      ...op.i32x4extract(0),
      ...get(acc),
      ...op.i32x4extract(1),
      ...add,
      ...get(acc),
      ...op.i32x4extract(2),
      ...add,
      ...get(acc),
      ...op.i32x4extract(3),
      ...add,
      ...set(d),
      ...at(dist, slot, 1),
      ...get(d),
      ...store16(),
      ...at(hist, d, 2),
      ...tee(h),
      ...get(h),
      ...load(),
      ...i32(1),
      ...add,
      ...store(),
      ...op.else,
      ...at(dist, slot, 1),
      ...i32(0xffff),
      ...store16(),
      ...end,
      ...get(p),
      ...get(cb),
      ...add,
      ...set(p),
      ...get(slot),
      ...i32(1),
      ...add,
      ...set(slot),
      ...br(0),
      ...end,
      ...end,
    ],
  };
})();

/**
 * hamming for a fixed code length of `chunks` x 16 bytes, unrolled, with the query code in
 * registers. Scalar 64-bit popcounts: one native instruction each and no horizontal sum, twice
 * as fast here as i8x16.popcnt (which V8 emulates with byte shuffles).
 */
function hammingFixed(chunks: number): Fn {
  const words = 2 * chunks;
  const [codes, nslots, , q, mask, dist, hist] = [0, 1, 2, 3, 4, 5, 6];
  const [slot, p, d, h] = [7, 8, 9, 10];
  const qw = Array.from({ length: words }, (_, c) => 11 + c);
  const body: Bytes = [];
  for (let c = 0; c < words; c++) body.push(...get(q), ...op.i64load(8 * c), ...set(qw[c]!));
  body.push(
    ...i32(0),
    ...set(slot),
    ...get(codes),
    ...set(p),
    ...block,
    ...loop,
    ...get(slot),
    ...get(nslots),
    ...geU,
    ...brIf(1),
    ...get(mask),
    ...get(slot),
    ...add,
    ...load8(),
    ...op.if,
  );
  for (let c = 0; c < words; c++) {
    body.push(...get(p), ...op.i64load(8 * c), ...get(qw[c]!), ...op.i64xor, ...op.i64popcnt);
    if (c > 0) body.push(...op.i64add);
  }
  body.push(
    ...op.wrap,
    ...set(d),
    ...at(dist, slot, 1),
    ...get(d),
    ...store16(),
    ...at(hist, d, 2),
    ...tee(h),
    ...get(h),
    ...load(),
    ...i32(1),
    ...add,
    ...store(),
    ...op.else,
    ...at(dist, slot, 1),
    ...i32(0xffff),
    ...store16(),
    ...end,
    ...get(p),
    ...i32(8 * words),
    ...add,
    ...set(p),
    ...get(slot),
    ...i32(1),
    ...add,
    ...set(slot),
    ...br(0),
    ...end,
    ...end,
  );
  return {
    name: `hamming${chunks}`,
    params: [I32, I32, I32, I32, I32, I32, I32],
    results: [],
    locals: [I32, I32, I32, I32, ...qw.map(() => I64)],
    body,
  };
}

/** Code lengths (in 16-byte chunks) with an unrolled Hamming kernel: 128..512 bits, 768, 1024, 1536 and 3072 dims. */
export const FIXED_CHUNKS = [1, 2, 3, 4, 6, 8, 12, 24] as const;

// select(dist, nslots, t, eqLeft, out) -> n
// Writes every slot with dist < t, and the first eqLeft slots with dist == t, to out (i32 each).
// Eight distances are compared at once; blocks with none <= t (nearly all) are skipped.
const select: Fn = (() => {
  const [dist, nslots, t, eqLeft, out] = [0, 1, 2, 3, 4];
  const [slot, n, d, stop, end8] = [5, 6, 7, 8, 9];
  const tv = 10;
  // One slot: take it if dist < t, or dist == t while eqLeft lasts.
  const one: Bytes = [
    ...at(dist, slot, 1),
    ...load16(),
    ...tee(d),
    ...get(t),
    ...ltU,
    ...op.if,
    ...at(out, n, 2),
    ...get(slot),
    ...store(),
    ...get(n),
    ...i32(1),
    ...add,
    ...set(n),
    ...op.else,
    ...get(d),
    ...get(t),
    ...eq,
    ...op.if,
    ...get(eqLeft),
    ...op.if,
    ...at(out, n, 2),
    ...get(slot),
    ...store(),
    ...get(n),
    ...i32(1),
    ...add,
    ...set(n),
    ...get(eqLeft),
    ...i32(1),
    ...sub,
    ...set(eqLeft),
    ...end,
    ...end,
    ...end,
    ...get(slot),
    ...i32(1),
    ...add,
    ...set(slot),
  ];
  return {
    name: 'select',
    params: [I32, I32, I32, I32, I32],
    results: [I32],
    locals: [I32, I32, I32, I32, I32, V128],
    body: [
      ...get(t),
      ...op.i16x8splat,
      ...set(tv),
      ...i32(0),
      ...set(slot),
      ...i32(0),
      ...set(n),
      ...get(nslots),
      ...i32(-8),
      ...op.and,
      ...set(end8),
      // Blocks of 8.
      ...block,
      ...loop,
      ...get(slot),
      ...get(end8),
      ...geU,
      ...brIf(1),
      ...at(dist, slot, 1),
      ...op.vload(),
      ...get(tv),
      ...op.i16x8leU,
      ...op.anyTrue,
      ...op.if,
      ...get(slot),
      ...i32(8),
      ...add,
      ...set(stop),
      ...block,
      ...loop,
      ...get(slot),
      ...get(stop),
      ...geU,
      ...brIf(1),
      ...one,
      ...br(0),
      ...end,
      ...end,
      ...op.else,
      ...get(slot),
      ...i32(8),
      ...add,
      ...set(slot),
      ...end,
      ...br(0),
      ...end,
      ...end,
      // The rest, one at a time.
      ...block,
      ...loop,
      ...get(slot),
      ...get(nslots),
      ...geU,
      ...brIf(1),
      ...one,
      ...br(0),
      ...end,
      ...end,
      ...get(n),
    ],
  };
})();

// quantise(src, dq, dst, scales, n, centre): row i of n float rows at src (dq floats each, dq a
// multiple of 16) becomes dq int8 at dst + i * dq: with r = v - centre, round(r * 127 / max|r|),
// and scales[i] = max|r| / 127 (0 for an all-zero r), so v ~ centre + int8 * scale.
const quantise: Fn = (() => {
  const [src, dq, dst, scales, n, centre] = [0, 1, 2, 3, 4, 5];
  const [i, j, rp, wp] = [6, 7, 8, 9];
  const [mx, sc] = [10, 11];
  const [acc, sv, magicF, magicI] = [12, 13, 14, 15];
  // Four floats of r at float j (+ o bytes).
  const r4 = (o: number): Bytes => [...at(rp, j, 2), ...op.vload(o), ...at(centre, j, 2), ...op.vload(o), ...op.f32x4sub];
  // ... scaled and rounded to nearest-even as an i32x4: adding 1.5 * 2^23 leaves the rounded
  // integer in the low mantissa bits (|x| <= 127 here), read back by subtracting the bit pattern
  // of 1.5 * 2^23 (V8 emulates i32x4.trunc_sat_f32x4_s with a long sequence; this is two instructions).
  const q4 = (o: number): Bytes => [...r4(o), ...get(sv), ...op.f32x4mul, ...get(magicF), ...op.f32x4add, ...get(magicI), ...op.i32x4sub];
  return {
    name: 'quantise',
    params: [I32, I32, I32, I32, I32, I32],
    results: [],
    locals: [I32, I32, I32, I32, F32, F32, V128, V128, V128, V128],
    body: [
      ...op.f32const(12582912),
      ...op.f32x4splat,
      ...set(magicF),
      ...i32(0x4b400000),
      ...op.i32x4splat,
      ...set(magicI),
      ...upTo(i, n),
      ...get(src),
      ...get(i),
      ...get(dq),
      ...mul,
      ...i32(2),
      ...shl,
      ...add,
      ...set(rp),
      ...get(dst),
      ...get(i),
      ...get(dq),
      ...mul,
      ...add,
      ...set(wp),
      // max |v|
      ...op.vzero,
      ...set(acc),
      ...upTo(j, dq),
      ...get(acc),
      ...r4(0),
      ...op.f32x4abs,
      ...r4(16),
      ...op.f32x4abs,
      ...op.f32x4max,
      ...r4(32),
      ...op.f32x4abs,
      ...r4(48),
      ...op.f32x4abs,
      ...op.f32x4max,
      ...op.f32x4max,
      ...op.f32x4max,
      ...set(acc),
      ...get(j),
      ...i32(16),
      ...add,
      ...set(j),
      ...br(0),
      ...end,
      ...end,
      ...get(acc),
      ...op.f32x4extract(0),
      ...get(acc),
      ...op.f32x4extract(1),
      ...op.f32max,
      ...get(acc),
      ...op.f32x4extract(2),
      ...op.f32max,
      ...get(acc),
      ...op.f32x4extract(3),
      ...op.f32max,
      ...set(mx),
      ...at(scales, i, 2),
      ...get(mx),
      ...op.f32const(127),
      ...op.f32div,
      ...f32store(),
      // scale = mx > 0 ? 127 / mx : 0
      ...op.f32const(127),
      ...get(mx),
      ...op.f32div,
      ...op.f32const(0),
      ...get(mx),
      ...op.f32const(0),
      ...op.f32gt,
      ...op.select,
      ...tee(sc),
      ...op.f32x4splat,
      ...set(sv),
      ...upTo(j, dq),
      ...get(wp),
      ...get(j),
      ...add,
      ...q4(0),
      ...q4(16),
      ...op.i16x8narrowS,
      ...q4(32),
      ...q4(48),
      ...op.i16x8narrowS,
      ...op.i8x16narrowS,
      ...op.vstore(),
      ...get(j),
      ...i32(16),
      ...add,
      ...set(j),
      ...br(0),
      ...end,
      ...end,
      ...get(i),
      ...i32(1),
      ...add,
      ...set(i),
      ...br(0),
      ...end,
      ...end,
    ],
  };
})();

/**
 * Integer dot products of int8 rows with an int16 query (i16x8.extend of the row, then
 * i32x4.dot_i16x8_s), scaled back to floats: out = f32(sum) * scales[slot] * qs.
 *
 * `dotsI8R(vecs, dq, q, slots, n, out, scales, qs)`: the rows in `slots` (R at a time, `n` a
 * multiple of R); `scanI8(vecs, dq, nslots, q, mask, out, scales, qs)`: every slot with
 * mask != 0. Each lane sums dq / 4 products, which the caller keeps below 2^31 by its query scale.
 */
function dotsRowsI8(R: number): Fn {
  const [vecs, dq, q, slots, n, out, scales, qs] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [i, j] = [8, 9];
  const s = Array.from({ length: R }, (_, r) => 10 + r);
  const b = Array.from({ length: R }, (_, r) => 10 + R + r);
  const a = Array.from({ length: R }, (_, r) => 10 + 2 * R + r);
  const [q0, q1, v, tmp] = [10 + 3 * R, 11 + 3 * R, 12 + 3 * R, 13 + 3 * R];
  const body: Bytes = [...i32(0), ...set(i), ...block, ...loop, ...get(i), ...get(n), ...geU, ...brIf(1)];
  for (let r = 0; r < R; r++) {
    body.push(...at(slots, i, 2), ...load(4 * r), ...tee(s[r]!), ...get(dq), ...mul, ...get(vecs), ...add, ...set(b[r]!));
    body.push(...op.vzero, ...set(a[r]!));
  }
  body.push(...i32(0), ...set(j), ...loop, ...at(q, j, 1), ...tee(tmp), ...op.vload(), ...set(q0), ...get(tmp), ...op.vload(16), ...set(q1));
  for (let r = 0; r < R; r++) {
    body.push(
      ...get(b[r]!),
      ...get(j),
      ...add,
      ...op.vload(),
      ...tee(v),
      ...op.i16x8extendLowI8x16S,
      ...get(q0),
      ...op.i32x4dotI16x8S,
      ...get(a[r]!),
      ...op.i32x4add,
      ...get(v),
      ...op.i16x8extendHighI8x16S,
      ...get(q1),
      ...op.i32x4dotI16x8S,
      ...op.i32x4add,
      ...set(a[r]!),
    );
  }
  body.push(...get(j), ...i32(16), ...add, ...tee(j), ...get(dq), ...ltU, ...brIf(0), ...end);
  for (let r = 0; r < R; r++) {
    body.push(...at(out, i, 2), ...get(a[r]!), ...hsumI32(v), ...op.f32convertI32S);
    body.push(...get(scales), ...get(s[r]!), ...i32(2), ...shl, ...add, ...op.f32load(), ...op.f32mul, ...get(qs), ...op.f32mul, ...f32store(4 * r));
  }
  body.push(...get(i), ...i32(R), ...add, ...set(i), ...br(0), ...end, ...end);
  return {
    name: `dotsI8x${R}`,
    params: [I32, I32, I32, I32, I32, I32, I32, F32],
    results: [],
    locals: [I32, I32, ...new Array<number>(2 * R).fill(I32), ...new Array<number>(R).fill(V128), V128, V128, V128, I32],
    body,
  };
}

/** Horizontal sum of the i32x4 on the stack. Needs a v128 scratch local. */
function hsumI32(t: number): Bytes {
  return [
    ...tee(t),
    ...op.i32x4extract(0),
    ...get(t),
    ...op.i32x4extract(1),
    ...add,
    ...get(t),
    ...op.i32x4extract(2),
    ...add,
    ...get(t),
    ...op.i32x4extract(3),
    ...add,
  ];
}

const scanI8: Fn = (() => {
  const [vecs, dq, nslots, q, mask, out, scales, qs] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [slot, base, j] = [8, 9, 10];
  const [acc, v] = [11, 12];
  return {
    name: 'scanI8',
    params: [I32, I32, I32, I32, I32, I32, I32, F32],
    results: [],
    locals: [I32, I32, I32, V128, V128],
    body: [
      ...i32(0),
      ...set(slot),
      ...get(vecs),
      ...set(base),
      ...block,
      ...loop,
      ...get(slot),
      ...get(nslots),
      ...geU,
      ...brIf(1),
      ...get(mask),
      ...get(slot),
      ...add,
      ...load8(),
      ...op.if,
      ...op.vzero,
      ...set(acc),
      ...i32(0),
      ...set(j),
      ...loop,
      ...get(base),
      ...get(j),
      ...add,
      ...op.vload(),
      ...tee(v),
      ...op.i16x8extendLowI8x16S,
      ...at(q, j, 1),
      ...op.vload(),
      ...op.i32x4dotI16x8S,
      ...get(acc),
      ...op.i32x4add,
      ...get(v),
      ...op.i16x8extendHighI8x16S,
      ...at(q, j, 1),
      ...op.vload(16),
      ...op.i32x4dotI16x8S,
      ...op.i32x4add,
      ...set(acc),
      ...get(j),
      ...i32(16),
      ...add,
      ...tee(j),
      ...get(dq),
      ...ltU,
      ...brIf(0),
      ...end,
      ...at(out, slot, 2),
      ...get(acc),
      ...hsumI32(v),
      ...op.f32convertI32S,
      ...at(scales, slot, 2),
      ...op.f32load(),
      ...op.f32mul,
      ...get(qs),
      ...op.f32mul,
      ...f32store(),
      ...end,
      ...get(base),
      ...get(dq),
      ...add,
      ...set(base),
      ...get(slot),
      ...i32(1),
      ...add,
      ...set(slot),
      ...br(0),
      ...end,
      ...end,
    ],
  };
})();

/** The kernel module's bytes (exported for tests and inspection). */
export const KERNEL_WASM: Uint8Array = assemble([encode, hamming, select, quantise, dotsRowsI8(1), dotsRowsI8(8), scanI8, ...FIXED_CHUNKS.map(hammingFixed)]);

/** Typed view of the kernel exports. Pointers are byte offsets; see the module comment. */
export interface Kernels {
  encode(vecs: number, dp: number, codes: number, cb: number, centre: number, from: number, to: number): void;
  hamming(codes: number, nslots: number, cb: number, q: number, mask: number, dist: number, hist: number): void;
  select(dist: number, nslots: number, t: number, eqLeft: number, out: number): number;
  /** int8 rows from float rows, with per-row scales (see the kernel comment). */
  quantise(src: number, dq: number, dst: number, scales: number, n: number, centre: number): void;
  /** Scaled int8 x int16 dot products for a list of slots. */
  dotsI8x1(vecs: number, dq: number, q: number, slots: number, n: number, out: number, scales: number, qs: number): void;
  /** `dotsI8x1` for `n` a multiple of 8, eight rows at a time (same sums). */
  dotsI8x8(vecs: number, dq: number, q: number, slots: number, n: number, out: number, scales: number, qs: number): void;
  /** Scaled int8 x int16 dot products for every slot with mask != 0. */
  scanI8(vecs: number, dq: number, nslots: number, q: number, mask: number, out: number, scales: number, qs: number): void;
  /** `hamming` specialised for `cb = 16 * N`, N in {@link FIXED_CHUNKS}. */
  [fixed: `hamming${number}`]: (codes: number, nslots: number, cb: number, q: number, mask: number, dist: number, hist: number) => void;
}

/** The parts of the WebAssembly JS API used here (the project's TS lib has no DOM types). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (d: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: unknown };
  validate(bytes: Uint8Array): boolean;
}
const WA = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null = null;

/** A new shared WebAssembly memory of `initial` 64 KiB pages, growable to 4 GiB. */
export function newMemory(initial: number): WasmMemory {
  if (!WA) throw new Error('WebAssembly is not available in this runtime');
  return new WA.Memory({ initial, maximum: MAX_PAGES, shared: true });
}

/** Whether this runtime has WebAssembly SIMD (Node >= 16.4 does). */
export function simdSupported(): boolean {
  try {
    return !!WA && WA.validate(KERNEL_WASM);
  } catch {
    return false;
  }
}

/** The compiled kernels (once per process), e.g. for a worker thread to instantiate over the same memory. */
export function kernelModule(): object {
  if (!WA) throw new Error('WebAssembly is not available in this runtime');
  compiled ??= new WA.Module(KERNEL_WASM);
  return compiled;
}

/** Instantiate the kernels over `memory` (synchronous; the module is compiled once per process). */
export function instantiateKernels(memory: WasmMemory): Kernels {
  const inst = new WA!.Instance(kernelModule(), { env: { memory } });
  return inst.exports as unknown as Kernels;
}
