/**
 * A copy-free `Slice` / `SplitV` for TF.js's WASM backend, as bundled in `@energetic-ai/core` 0.2.0.
 *
 * Why: the bundled `Slice` kernel first copies its whole input out of the WASM heap
 * (`backend.readSync`), and `SplitV` calls it once per part. The bundled model splits a large
 * tensor several times per batch, so every 32-text batch copied about 87 MB into fresh
 * ArrayBuffers (measured, BENCHMARKS.md), which also made V8 collect garbage for the external
 * memory. These versions read the input through a view of the heap instead and copy only the
 * part asked for: the same bytes land in the output, so the vectors are bit-identical.
 */

/** The parts of a tensor a kernel sees. */
interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}

/** The parts of the WASM backend used here (`BackendWasm` of tfjs-backend-wasm 4.x). */
interface WasmBackend {
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(t: TensorInfo): Float32Array | Int32Array | Uint8Array;
}

interface KernelArgs {
  inputs: Record<string, TensorInfo>;
  attrs: Record<string, unknown>;
  backend: WasmBackend;
}

type KernelFunc = (args: KernelArgs) => TensorInfo | TensorInfo[];

/** The parts of `@energetic-ai/core` (TF.js core 4.x re-exported) used here. */
export interface TfCore {
  getKernel(name: string, backend: string): { kernelFunc: KernelFunc } | undefined;
  unregisterKernel(name: string, backend: string): void;
  registerKernel(config: { kernelName: string; backendName: string; kernelFunc: KernelFunc }): void;
  slice_util: {
    parseSliceParams(x: TensorInfo, begin: number | number[], size?: number | number[]): [number[], number[]];
    isSliceContinous(shape: number[], begin: number[], size: number[]): boolean;
    computeFlatOffset(begin: number[], strides: number[]): number;
  };
  util: {
    computeStrides(shape: number[]): number[];
    sizeFromShape(shape: number[]): number;
    parseAxisParam(axis: number | number[], shape: number[]): number[];
  };
  backend_util: { prepareSplitSize(x: TensorInfo, numOrSizeSplits: number | number[], axis: number): number[] };
}

const patched = new WeakSet<object>();

/** Copy `size` of `x` starting at `begin` (row-major), `rank` ≤ 4, from one heap view to another. */
function copyBlock(
  xVals: Float32Array | Int32Array | Uint8Array,
  xShape: number[],
  strides: number[],
  outVals: Float32Array | Int32Array | Uint8Array,
  begin: number[],
  size: number[],
): void {
  // Pad to rank 4 at the front: one loop nest for ranks 1 to 4.
  const pad = 4 - xShape.length;
  const b = [...Array(pad).fill(0), ...begin];
  const s = [...Array(pad).fill(1), ...size];
  const st = [...Array(pad).fill(0), ...strides, 1];
  let o = 0;
  for (let i = b[0]; i < b[0] + s[0]; i++)
    for (let j = b[1]; j < b[1] + s[1]; j++)
      for (let k = b[2]; k < b[2] + s[2]; k++) {
        const at = i * st[0] + j * st[1] + k * st[2] + b[3];
        outVals.set(xVals.subarray(at, at + s[3]), o);
        o += s[3];
      }
}

/**
 * Replace the WASM backend's `Slice` and `SplitV` kernels with copy-free ones (once per TF.js
 * instance). Strings and tensors of rank above 4 still go to the original kernel.
 */
export function patchWasmSlice(tf: TfCore): void {
  if (patched.has(tf)) return;
  const original = tf.getKernel('Slice', 'wasm')?.kernelFunc;
  if (!original || !tf.getKernel('SplitV', 'wasm')) return;
  patched.add(tf);

  const slice = (args: KernelArgs): TensorInfo => {
    const x = args.inputs.x!;
    if (x.dtype === 'string' || x.shape.length > 4 || x.shape.length === 0) return original(args) as TensorInfo;
    const backend = args.backend;
    const [begin, size] = tf.slice_util.parseSliceParams(x, args.attrs.begin as number[], args.attrs.size as number[]);
    // The output first: allocating it may grow the WASM memory, which detaches older views.
    const out = backend.makeOutput(size, x.dtype);
    if (tf.util.sizeFromShape(size) === 0) return out;
    const xVals = backend.typedArrayFromHeap(x);
    const outVals = backend.typedArrayFromHeap(out);
    const strides = tf.util.computeStrides(x.shape);
    if (tf.slice_util.isSliceContinous(x.shape, begin, size)) {
      const at = tf.slice_util.computeFlatOffset(begin, strides);
      outVals.set(xVals.subarray(at, at + tf.util.sizeFromShape(size)));
    } else copyBlock(xVals, x.shape, strides, outVals, begin, size);
    return out;
  };

  const splitV = (args: KernelArgs): TensorInfo[] => {
    const x = args.inputs.x!;
    const axis = tf.util.parseAxisParam(args.attrs.axis as number, x.shape)[0]!;
    const sizes = tf.backend_util.prepareSplitSize(x, args.attrs.numOrSizeSplits as number | number[], axis);
    const begin = new Array<number>(x.shape.length).fill(0);
    return sizes.map((s) => {
      const size = [...x.shape];
      size[axis] = s;
      const part = slice({ inputs: { x }, attrs: { begin: [...begin], size }, backend: args.backend });
      begin[axis]! += s;
      return part;
    });
  };

  tf.unregisterKernel('Slice', 'wasm');
  tf.registerKernel({ kernelName: 'Slice', backendName: 'wasm', kernelFunc: slice });
  tf.unregisterKernel('SplitV', 'wasm');
  tf.registerKernel({ kernelName: 'SplitV', backendName: 'wasm', kernelFunc: splitV });
}
