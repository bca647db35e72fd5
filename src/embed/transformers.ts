import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { MnemoliteError } from '../errors.js';
import type { Embedder } from './provider.js';

/** The optional package this provider runs on. */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

/** How to install it (the CUDA download of `onnxruntime-node`'s install script fails without network access to it). */
export const TRANSFORMERS_INSTALL = `ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install ${TRANSFORMERS_PACKAGE}`;

/** Options for {@link TransformersEmbedder} and {@link transformersEmbedder}. */
export interface TransformersEmbedderOptions {
  /**
   * A local model folder laid out like a transformers.js model (`config.json`, `tokenizer.json`,
   * `tokenizer_config.json`, `onnx/model.onnx`), or a Hugging Face hub id such as
   * `Xenova/all-MiniLM-L6-v2` (downloaded only with `allowDownload`, then cached).
   */
  model: string;
  /**
   * How token vectors become one vector: `mean` over the real tokens, or the first (`cls`) token.
   * Default: what a sentence-transformers folder declares in `1_Pooling/config.json`, else `mean`.
   */
  pooling?: 'mean' | 'cls';
  /** L2-normalise each vector (default true; the file stores unit vectors either way). */
  normalize?: boolean;
  /** Vector length. Default: read from the model's `config.json` (or, with {@link transformersEmbedder}, measured). */
  dims?: number;
  /** ONNX weights variant, e.g. `fp32`, `fp16`, `q8` (`onnx/model_quantized.onnx`), `q4`. Default: the library's choice (fp32 on CPU). */
  dtype?: string;
  /** Where hub downloads are cached (default `$XDG_CACHE_HOME/mnemolite/models` or `~/.cache/mnemolite/models`). */
  cacheDir?: string;
  /** Let a hub id that is not cached yet be downloaded (default false: never touch the network). */
  allowDownload?: boolean;
  /** Name recorded as the embedding identity (default: the hub id, or a folder's `config.json` `_name_or_path`, else its folder name). */
  name?: string;
  /** Texts per model call (default 16). */
  batchSize?: number;
  /** Longest token sequence; longer texts are truncated (default: the smaller of the tokenizer's and the model's limits, at most 512). */
  maxTokens?: number;
}

/** Minimal view of the parts of `@huggingface/transformers` used here (the package is optional, so its types are not imported). */
interface TxTensor {
  readonly dims: number[];
  readonly type: string;
  readonly data: ArrayLike<number | bigint>;
  to?(type: string): TxTensor;
}
interface TxTokenizer {
  (texts: string[], o: { padding: boolean; truncation: boolean; max_length?: number }): Record<string, TxTensor> & { attention_mask: TxTensor };
  readonly model_max_length?: number;
}
interface TxModel {
  (inputs: Record<string, TxTensor>): Promise<Record<string, TxTensor | undefined>>;
  readonly config?: Record<string, unknown>;
  dispose?(): Promise<unknown>;
}
interface TxEnv {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  cacheDir: string | null;
}
interface TxModule {
  env: TxEnv;
  AutoTokenizer: { from_pretrained(id: string, o: Record<string, unknown>): Promise<TxTokenizer> };
  AutoModel: { from_pretrained(id: string, o: Record<string, unknown>): Promise<TxModel> };
}

interface Loaded {
  tokenizer: TxTokenizer;
  model: TxModel;
  maxTokens: number;
}

/** File name suffix of each weights variant (onnx/model<suffix>.onnx), as transformers.js names them. */
const DTYPE_SUFFIX: Record<string, string> = {
  fp32: '',
  fp16: '_fp16',
  int8: '_int8',
  uint8: '_uint8',
  q8: '_quantized',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

/** Keys under which model configs give the hidden size. */
const HIDDEN_KEYS = ['hidden_size', 'dim', 'd_model', 'n_embd', 'embed_dim'];

function defaultCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mnemolite', 'models');
}

/** Does the string look like a filesystem path rather than a hub id (`name` or `owner/name`)? */
function looksLikePath(s: string): boolean {
  return isAbsolute(s) || s.startsWith('.') || s.startsWith('~') || s.includes('\\') || s.split('/').length > 2;
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

function readConfig(file: string): Record<string, unknown> | null {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return c && typeof c === 'object' && !Array.isArray(c) ? (c as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function hiddenSize(config: Record<string, unknown> | null | undefined): number | undefined {
  for (const k of HIDDEN_KEYS) {
    const v = config?.[k];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}

/** The pooling a sentence-transformers folder declares in 1_Pooling/config.json, if it is one we support. */
function stPooling(file: string): 'mean' | 'cls' | undefined {
  const c = readConfig(file);
  if (c?.pooling_mode_cls_token === true) return 'cls';
  if (c?.pooling_mode_mean_tokens === true) return 'mean';
  return undefined;
}

/** A finite positive limit from a config value, else undefined (tokenizers often say 1e30 for "none"). */
const limit = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1e6 ? Math.floor(v) : undefined);

async function loadPackage(): Promise<TxModule> {
  let mod: unknown;
  try {
    mod = await import(TRANSFORMERS_PACKAGE as string);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const missing = (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && String(e.message).includes(TRANSFORMERS_PACKAGE);
    throw new MnemoliteError(
      'EMBEDDER_FAILED',
      missing
        ? `The transformers embedder needs the optional package ${TRANSFORMERS_PACKAGE}, which is not installed. Install it with: ${TRANSFORMERS_INSTALL}`
        : `Could not load ${TRANSFORMERS_PACKAGE} (${e?.message ?? String(err)}). Reinstall it with: ${TRANSFORMERS_INSTALL}`,
      { package: TRANSFORMERS_PACKAGE, install: TRANSFORMERS_INSTALL },
      { cause: err },
    );
  }
  const m = ((mod as { AutoModel?: unknown }).AutoModel ? mod : (mod as { default?: unknown }).default) as TxModule | undefined;
  if (!m?.AutoModel || !m.AutoTokenizer || !m.env) {
    throw new MnemoliteError(
      'EMBEDDER_FAILED',
      `${TRANSFORMERS_PACKAGE} does not export AutoModel/AutoTokenizer: install a 4.x release with: ${TRANSFORMERS_INSTALL}`,
    );
  }
  return m;
}

/** Validated options plus where the model lives. */
interface Spec {
  source: string;
  local: boolean;
  config: Record<string, unknown> | null;
  name: string;
  pooling: 'mean' | 'cls';
  normalize: boolean;
  dtype: string | undefined;
  cacheDir: string;
  allowDownload: boolean;
  batchSize: number;
  maxTokens: number | undefined;
}

function resolveSpec(o: TransformersEmbedderOptions): Spec {
  if (!o || typeof o.model !== 'string' || !o.model.trim()) {
    throw new MnemoliteError(
      'INVALID_INPUT',
      'The transformers embedder needs a model: a local model folder or a hub id, e.g. { model: "./models/all-MiniLM-L6-v2" }.',
    );
  }
  if (o.pooling !== undefined && o.pooling !== 'mean' && o.pooling !== 'cls')
    throw new MnemoliteError('INVALID_INPUT', `pooling must be "mean" or "cls", got ${JSON.stringify(o.pooling)}.`);
  for (const [k, v] of [
    ['dims', o.dims],
    ['batchSize', o.batchSize],
    ['maxTokens', o.maxTokens],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v <= 0))
      throw new MnemoliteError('INVALID_INPUT', `${k} must be a positive whole number, got ${String(v)}.`);
  }
  if (o.dtype !== undefined && (typeof o.dtype !== 'string' || !/^[a-z0-9_]+$/i.test(o.dtype)))
    throw new MnemoliteError('INVALID_INPUT', `dtype must be a name such as "fp32" or "q8", got ${JSON.stringify(o.dtype)}.`);
  const cacheDir = resolve(o.cacheDir ?? defaultCacheDir());
  const allowDownload = o.allowDownload ?? false;

  const model = o.model.trim();
  const folder = resolve(model.startsWith('~/') ? join(homedir(), model.slice(2)) : model);
  let local: boolean;
  let source: string;
  let config: Record<string, unknown> | null;
  if (isDir(folder)) {
    local = true;
    source = folder;
    config = readConfig(join(folder, 'config.json'));
    if (!config) {
      throw new MnemoliteError(
        'INVALID_INPUT',
        `${folder} is not a transformers.js model folder: config.json is missing or not JSON. A model folder holds config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx.`,
        { model },
      );
    }
    const missing = ['tokenizer.json', 'tokenizer_config.json'].filter((f) => !existsSync(join(folder, f)));
    if (missing.length) {
      throw new MnemoliteError(
        'INVALID_INPUT',
        `${folder} is not a complete transformers.js model folder: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing. A model folder holds config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx.`,
        { model, missing },
      );
    }
  } else if (looksLikePath(model)) {
    throw new MnemoliteError(
      'INVALID_INPUT',
      `Model folder ${folder} does not exist. Pass a folder holding config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx, or a hub id such as Xenova/all-MiniLM-L6-v2 with allowDownload.`,
      { model },
    );
  } else {
    local = false;
    source = model;
    config = readConfig(join(cacheDir, model, 'config.json'));
    if (!config && !allowDownload) {
      throw new MnemoliteError(
        'INVALID_INPUT',
        `"${model}" is neither a folder here nor a model in the cache (${cacheDir}). Pass a local model folder, or allow a one-time download from the Hugging Face hub (allowDownload: true; CLI --allow-download).`,
        { model },
      );
    }
  }
  const pooling = o.pooling ?? stPooling(local ? join(folder, '1_Pooling', 'config.json') : join(cacheDir, model, '1_Pooling', 'config.json')) ?? 'mean';
  const nameOrPath = typeof config?._name_or_path === 'string' ? config._name_or_path.trim() : '';
  const name = o.name?.trim() || (local ? (nameOrPath && !looksLikePath(nameOrPath) ? nameOrPath : basename(folder)) : model);
  return {
    source,
    local,
    config,
    name,
    pooling,
    normalize: o.normalize ?? true,
    dtype: o.dtype,
    cacheDir,
    allowDownload,
    batchSize: o.batchSize ?? 16,
    maxTokens: o.maxTokens,
  };
}

/** Loads run one at a time, because they set the library's process-wide `env` for their duration. */
let loadQueue: Promise<unknown> = Promise.resolve();

async function loadSpec(spec: Spec): Promise<Loaded> {
  const tx = await loadPackage();
  const run = loadQueue.then(() => loadWithEnv(tx, spec));
  loadQueue = run.catch(() => undefined);
  return run;
}

async function loadWithEnv(tx: TxModule, spec: Spec): Promise<Loaded> {
  // The per-call options below are not enough on their own: some of the library's file lookups
  // (e.g. the tokenizer's) ignore them and read the global env. So for the duration of the load,
  // remote files are allowed only for a hub id with allowDownload, and the cache is ours; the
  // previous settings are restored afterwards for any other user of the library in this process.
  const saved = { allowRemoteModels: tx.env.allowRemoteModels, allowLocalModels: tx.env.allowLocalModels, cacheDir: tx.env.cacheDir };
  const remote = !spec.local && spec.allowDownload;
  tx.env.allowRemoteModels = remote;
  tx.env.allowLocalModels = true;
  tx.env.cacheDir = spec.cacheDir;
  const opts: Record<string, unknown> = { local_files_only: !remote, cache_dir: spec.cacheDir };
  let tokenizer: TxTokenizer;
  let model: TxModel;
  try {
    tokenizer = await tx.AutoTokenizer.from_pretrained(spec.source, opts);
    model = await tx.AutoModel.from_pretrained(spec.source, { ...opts, device: 'cpu', ...(spec.dtype ? { dtype: spec.dtype } : {}) });
  } catch (err) {
    const msg = String((err as Error)?.message ?? err).replace(/\.$/, '');
    const hint = spec.local
      ? `Check that ${spec.source} holds onnx/model${spec.dtype ? (DTYPE_SUFFIX[spec.dtype] ?? `_${spec.dtype}`) : ''}.onnx beside config.json, tokenizer.json and tokenizer_config.json.`
      : spec.allowDownload
        ? 'Check the model id and the network connection (the first use downloads the model).'
        : 'It is not in the cache: allow a one-time download (allowDownload: true; CLI --allow-download), or pass a local folder.';
    throw new MnemoliteError(
      'EMBEDDER_FAILED',
      `Could not load the transformers model "${spec.source}": ${msg}. ${hint}`,
      { model: spec.source },
      { cause: err },
    );
  } finally {
    Object.assign(tx.env, saved);
  }
  const cfg = model.config ?? {};
  const maxTokens = Math.min(spec.maxTokens ?? 512, limit(tokenizer.model_max_length) ?? Infinity, limit(cfg.max_position_embeddings) ?? Infinity);
  return { tokenizer, model, maxTokens };
}

/** Pool token vectors ([batch, tokens, hidden]) into one vector per text, or take a pooled [batch, hidden] output as is. */
function pool(spec: Spec, res: Record<string, TxTensor | undefined>, mask: TxTensor, n: number): Float32Array[] {
  let h = res.last_hidden_state ?? res.token_embeddings ?? res.sentence_embedding ?? res.logits;
  if (!h)
    throw new MnemoliteError(
      'EMBEDDER_FAILED',
      `The transformers model "${spec.source}" returned none of last_hidden_state, token_embeddings or sentence_embedding (it returned ${Object.keys(res).join(', ') || 'nothing'}).`,
    );
  if (h.type !== 'float32' && h.to) h = h.to('float32');
  const data = h.data as ArrayLike<number>;
  const vecs: Float32Array[] = [];
  if (h.dims.length === 2) {
    const [b, d] = h.dims as [number, number];
    for (let i = 0; i < b; i++) vecs.push(Float32Array.from({ length: d }, (_, j) => data[i * d + j]!));
  } else if (h.dims.length === 3) {
    const [b, seq, d] = h.dims as [number, number, number];
    const m = mask.data;
    for (let i = 0; i < b; i++) {
      const v = new Float32Array(d);
      if (spec.pooling === 'cls') {
        for (let j = 0; j < d; j++) v[j] = data[i * seq * d + j]!;
      } else {
        let count = 0;
        for (let t = 0; t < seq; t++) {
          if (!Number(m[i * seq + t])) continue;
          count++;
          const base = (i * seq + t) * d;
          for (let j = 0; j < d; j++) v[j]! += data[base + j]!;
        }
        if (count) for (let j = 0; j < d; j++) v[j]! /= count;
      }
      vecs.push(v);
    }
  } else {
    throw new MnemoliteError(
      'EMBEDDER_FAILED',
      `The transformers model "${spec.source}" returned an output of shape [${h.dims.join(', ')}]; expected [batch, tokens, hidden].`,
    );
  }
  if (vecs.length !== n) throw new MnemoliteError('EMBEDDER_FAILED', `The transformers model "${spec.source}" returned ${vecs.length} vectors for ${n} texts.`);
  if (spec.normalize) {
    for (const v of vecs) {
      let s = 0;
      for (const x of v) s += x * x;
      const norm = Math.sqrt(s);
      if (norm > 0) for (let j = 0; j < v.length; j++) v[j]! /= norm;
    }
  }
  return vecs;
}

async function run(spec: Spec, l: Loaded, texts: string[]): Promise<Float32Array[]> {
  const out = new Array<Float32Array>(texts.length);
  // Batch texts of similar length together: less padding to compute.
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  for (let s = 0; s < order.length; s += spec.batchSize) {
    const idx = order.slice(s, s + spec.batchSize);
    const batch = idx.map((i) => (texts[i]!.trim() ? texts[i]! : '.'));
    let vecs: Float32Array[];
    try {
      const inputs = l.tokenizer(batch, { padding: true, truncation: true, max_length: l.maxTokens });
      vecs = pool(spec, await l.model(inputs), inputs.attention_mask, batch.length);
    } catch (err) {
      if (err instanceof MnemoliteError) throw err;
      throw new MnemoliteError('EMBEDDER_FAILED', `The transformers model "${spec.source}" failed: ${(err as Error)?.message ?? String(err)}`, undefined, {
        cause: err,
      });
    }
    idx.forEach((i, k) => {
      out[i] = vecs[k]!;
    });
  }
  return out;
}

/**
 * Sentence embeddings from an ONNX encoder model (BERT, MiniLM, MPNet, BGE, E5, GTE, …) run
 * in-process by `@huggingface/transformers`, an optional dependency:
 * `ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install @huggingface/transformers`.
 *
 * The constructor does not load anything (the model loads on the first `embed`), so it needs the
 * vector length up front: `dims`, or the `config.json` of a local folder (or of a hub model already
 * in the cache). {@link transformersEmbedder} loads the model first and measures it instead.
 *
 * A local folder is read fully offline. A hub id is fetched only with `allowDownload: true`, into
 * `cacheDir`, and read from there, offline, on every later run.
 */
export class TransformersEmbedder implements Embedder {
  readonly provider = 'transformers';
  /** `<model name>:<pooling>[:<dtype>]`: changes whenever the vectors would. */
  readonly id: string;
  readonly dims: number;
  /** Absolute folder path of a local model, else the hub id. */
  readonly source: string;
  private readonly spec: Spec;
  private loaded: Promise<Loaded> | null = null;

  constructor(o: TransformersEmbedderOptions, /** @internal */ preloaded?: { dims: number; loaded: Loaded; spec: Spec }) {
    const spec = preloaded?.spec ?? resolveSpec(o);
    const dims = o.dims ?? preloaded?.dims ?? hiddenSize(spec.config);
    if (!dims) {
      throw new MnemoliteError(
        'INVALID_INPUT',
        `The vector length of "${spec.source}" is not known before it is ${spec.local ? 'loaded' : 'downloaded'}: pass dims, or use await transformersEmbedder({ model, ... }), which loads the model and measures it.`,
        { model: spec.source, reason: 'dims-unknown' },
      );
    }
    this.spec = spec;
    this.source = spec.source;
    this.dims = dims;
    this.id = `${spec.name}:${spec.pooling}${spec.dtype ? `:${spec.dtype}` : ''}`;
    if (preloaded) this.loaded = Promise.resolve(preloaded.loaded);
  }

  /** Load the tokenizer and the ONNX model now rather than on the first `embed` (a failed load is retried on the next call). */
  load(): Promise<void> {
    return this.session().then(() => undefined);
  }

  private session(): Promise<Loaded> {
    if (!this.loaded) {
      this.loaded = loadSpec(this.spec).catch((err: unknown) => {
        this.loaded = null;
        throw err;
      });
    }
    return this.loaded;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out = await run(this.spec, await this.session(), texts);
    const bad = out.find((v) => v.length !== this.dims);
    if (bad) {
      throw new MnemoliteError(
        'EMBEDDER_FAILED',
        `The transformers model "${this.source}" makes ${bad.length}-dimensional vectors, but dims is ${this.dims}. Pass dims: ${bad.length}, or leave dims out.`,
      );
    }
    return out;
  }

  /** Release the ONNX session (the next `embed` loads it again). */
  async close(): Promise<void> {
    const l = this.loaded;
    this.loaded = null;
    if (!l) return;
    try {
      await (await l).model.dispose?.();
    } catch {
      // a failed load has nothing to release
    }
  }
}

/**
 * Load a transformers model (downloading a hub id first when `allowDownload` is set) and return an
 * embedder for it, with `dims` measured from one probe embedding unless given.
 *
 * ```ts
 * const embedder = await transformersEmbedder({ model: './models/all-MiniLM-L6-v2' });
 * const mem = await openMemory({ path: 'memory.db', embedder });
 * ```
 */
export async function transformersEmbedder(o: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  const spec = resolveSpec(o);
  const loaded = await loadSpec(spec);
  const dims = o.dims ?? (await run(spec, loaded, ['dimension probe']))[0]!.length;
  return new TransformersEmbedder(o, { dims, loaded, spec });
}
