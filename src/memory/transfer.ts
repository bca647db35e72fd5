/**
 * Moving memories in and out: export as plain records (JSON Lines), import them back (validated
 * and embedded before the first write). Moving between two stores is src/memory/migrate.ts.
 */
import type { Backend, ExportRow, ImportItem } from '../backend/types.js';
import { type EmbeddingService, contentHash } from '../embed/cache.js';
import type { Embedder } from '../embed/provider.js';
import { MnemoliteError, invalid } from '../errors.js';
import { uuidv7 } from '../ids.js';
import type { ExportRecord, Filter } from '../types/memory.js';
import { namespaceFor } from '../namespaces.js';
import { checkDuplicateIds, checkKnownFields } from './import-checks.js';
import { DEFAULT_NAMESPACE, MAX_CONTEXT_WINDOW, checkContent, checkId, parseAdd, parseList, toRowFilter, type ParsedAdd } from '../validate.js';
import { storedContext, storedMetadata } from '../backend/records.js';
import { contextVectorsOf, meanVector } from '../lifecycle/context.js';
import type { ProfileExportRecord } from '../types/profile.js';
import { checkProfileRecord, isProfileRecord, profileRecords, type ParsedProfileRecord } from './profile-transfer.js';

/** Options for {@link Memory.export}. */
export interface ExportOptions extends Filter {
  /** Include vectors (default false: they are re-made on import). */
  vectors?: boolean;
  /** Include expired memories not yet pruned (default true: an export is a backup). */
  includeExpired?: boolean;
  /**
   * Also write each exported namespace's profile (working memory) with its kept versions, one
   * {@link ProfileExportRecord} per namespace after the memories (default false; the CLI's export
   * turns it on). Only the namespace filter applies to profiles.
   */
  profiles?: boolean;
}

/** Options for {@link Memory.import}. */
export interface ImportOptions {
  /** What to do when a record's id (or namespace+key) already exists: `skip` (default) or `replace`. */
  onConflict?: 'skip' | 'replace';
  /** Records per transaction (default 500). All records are validated before the first is written. */
  batchSize?: number;
  /** Called after each batch. */
  onProgress?: (done: number) => void;
}

/** Result of {@link Memory.import}. */
export interface ImportResult {
  imported: number;
  replaced: number;
  skipped: number;
  /** Profiles (one per namespace) written, replaced or left alone; present when the records held any. */
  profiles?: { imported: number; replaced: number; skipped: number };
}

/**
 * What {@link Memory.export} returns: iterate with `for await` (any store) or `for` (the SQLite
 * file). Memory records, then (with `profiles: true`) profile records.
 */
export interface MemoryExport<R = ExportRecord> extends AsyncIterable<R>, Iterable<R> {}

function exportRecord(r: ExportRow): ExportRecord {
  const rec: ExportRecord = {
    id: r.id,
    content: r.content,
    key: r.key,
    namespace: r.namespace,
    category: r.category,
    sessionId: r.session_id,
    metadata: storedMetadata(r),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.event_at) rec.eventAt = r.event_at;
  if (r.expires_at) rec.expiresAt = r.expires_at;
  if (r.pinned) rec.pinned = true;
  if (r.importance !== null && r.importance !== undefined) rec.importance = r.importance;
  if (r.superseded_by) rec.supersededBy = r.superseded_by;
  if (r.context) rec.context = storedContext(r);
  if (r.vector && r.embedding_model) {
    rec.embedding = Array.from(r.vector);
    rec.embeddingModel = r.embedding_model;
    if (r.contextVector && rec.context) rec.contextEmbedding = Array.from(r.contextVector);
  }
  return rec;
}

/** What an import writes through: the store, the embedder, and the open check of its {@link Memory}. */
export interface ImportTarget {
  backend: Backend;
  embedder: Embedder | null;
  embeddings: EmbeddingService | null;
  /** Throws `CLOSED` once the memory is closed (checked before each write). */
  live(): void;
}

/** The records of `backend` matching `options` ({@link Memory.export}). */
export function exportMemories(backend: Backend, options: ExportOptions): MemoryExport<ExportRecord | ProfileExportRecord> {
  const { vectors, profiles, ...filter } = options ?? {};
  if (profiles !== undefined && typeof profiles !== 'boolean') throw invalid('export: profiles must be true or false.', { field: 'profiles' });
  const f = toRowFilter('export', parseList({ includeExpired: true, ...filter }));
  const withVectors = vectors === true;
  return {
    [Symbol.asyncIterator]: async function* () {
      for await (const r of backend.exportRows(f, withVectors)) yield exportRecord(r);
      if (profiles) yield* profileRecords(await backend.profileExport(f.namespace));
    },
    [Symbol.iterator]: function* () {
      if (!backend.exportRowsSync || !backend.profileExportSync) {
        throw new MnemoliteError('UNSUPPORTED', `Export from ${backend.kind} is asynchronous: iterate it with "for await (const record of memory.export())".`);
      }
      for (const r of backend.exportRowsSync(f, withVectors)) yield exportRecord(r);
      if (profiles) yield* profileRecords(backend.profileExportSync(f.namespace));
    },
  };
}

/** Validate, embed, then write `records` in batches ({@link Memory.import}). */
export async function importRecords(m: ImportTarget, records: Iterable<unknown> | AsyncIterable<unknown>, options: ImportOptions): Promise<ImportResult> {
  if (options.batchSize !== undefined && !(Number.isInteger(options.batchSize) && options.batchSize >= 1))
    throw invalid('batchSize must be a whole number, 1 or more.');
  const batchSize = Math.max(1, Math.min(10_000, options.batchSize ?? 500));
  const onConflict = options.onConflict ?? 'skip';
  if (onConflict !== 'skip' && onConflict !== 'replace') throw invalid('onConflict must be "skip" or "replace".');
  const it = records as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown } | null;
  if (it === null || typeof it !== 'object' || (typeof it[Symbol.iterator] !== 'function' && typeof it[Symbol.asyncIterator] !== 'function')) {
    throw invalid('import expects an array or other iterable of records, e.g. the output of export() or parsed JSON Lines.');
  }
  const res: ImportResult = { imported: 0, replaced: 0, skipped: 0 };
  // Validate everything before writing anything: a bad record on line 10,000 must not leave a half import.
  const all: ExportRecord[] = [];
  const profiles: ParsedProfileRecord[] = [];
  let line = 0;
  for await (const rec of records as AsyncIterable<unknown>) {
    line++;
    if (isProfileRecord(rec)) {
      const p = checkProfileRecord(rec as Record<string, unknown>, line);
      if (profiles.some((q) => q.namespace === p.namespace))
        throw invalid(`import record ${line}: a second profile of namespace "${p.namespace}"; a file holds one per namespace. Nothing was imported.`, {
          record: line,
        });
      profiles.push(p);
    } else all.push(checkRecord(rec, line));
  }
  checkDuplicateIds(all.map((r) => r.id));
  await checkNamespaces(m.backend, all, onConflict);
  // Embed everything before writing anything, too: a model failure on record 10,000 must not leave a half import.
  const blobs = await importVectors(m, all);
  for (let i = 0; i < all.length; i += batchSize) {
    await importBatch(m, all.slice(i, i + batchSize), blobs.slice(i, i + batchSize), onConflict, res);
    options.onProgress?.(res.imported + res.replaced + res.skipped);
  }
  if (profiles.length) {
    const counts = { imported: 0, replaced: 0, skipped: 0 };
    for (const p of profiles) {
      m.live();
      counts[await m.backend.profileImport(p.namespace, p.rows, onConflict)]++;
    }
    res.profiles = counts;
  }
  return res;
}

/** One import record, validated as an add would be (ids and timestamps kept). */
function checkRecord(rec: unknown, line: number): ExportRecord {
  const at = `import record ${line}`;
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) throw invalid(`${at} is not an object.`);
  const r = rec as Record<string, unknown>;
  checkKnownFields(r, line);
  const out: ExportRecord = {
    id: r.id === undefined ? uuidv7() : checkId(r.id),
    content: checkContent(r.content, `${at} content`),
    key: null,
    namespace: DEFAULT_NAMESPACE,
    category: null,
    sessionId: null,
    metadata: {},
    createdAt: '',
    updatedAt: '',
  };
  let o: ParsedAdd;
  try {
    o = parseAdd({
      ...(r.namespace != null ? { namespace: r.namespace } : {}),
      ...(r.key != null ? { key: r.key } : {}),
      ...(r.category != null ? { category: r.category } : {}),
      ...(r.sessionId != null ? { sessionId: r.sessionId } : {}),
      ...(r.metadata != null ? { metadata: r.metadata } : {}),
      ...(r.createdAt != null ? { createdAt: r.createdAt } : {}),
      ...(r.eventAt != null ? { eventAt: r.eventAt } : {}),
      ...(r.expiresAt != null ? { expiresAt: r.expiresAt } : {}),
      ...(r.pinned != null ? { pinned: r.pinned } : {}),
      ...(r.importance != null ? { importance: r.importance } : {}),
    });
    if (r.supersededBy != null) out.supersededBy = checkId(r.supersededBy);
  } catch (err) {
    throw invalid(`${at}: ${(err as Error).message}`);
  }
  if (o.eventAt !== undefined) out.eventAt = o.eventAt;
  if (o.expiresAt !== undefined) out.expiresAt = o.expiresAt;
  if (o.pinned) out.pinned = true;
  if (o.importance !== undefined) out.importance = o.importance;
  out.namespace = namespaceFor('import', o.namespace);
  out.key = o.key ?? null;
  out.category = o.category ?? null;
  out.sessionId = o.sessionId ?? null;
  out.metadata = JSON.parse(o.metadata ?? '{}') as Record<string, unknown>;
  const now = new Date().toISOString();
  out.createdAt = o.createdAt ?? now;
  out.updatedAt = r.updatedAt != null ? parseAdd({ createdAt: r.updatedAt }).createdAt! : out.createdAt;
  if (r.context != null) {
    if (!Array.isArray(r.context) || r.context.length > MAX_CONTEXT_WINDOW || !r.context.every((c) => typeof c === 'string' && c.length > 0)) {
      throw invalid(`${at}: context must be a list of at most ${MAX_CONTEXT_WINDOW} non-empty texts (the memories before it in its session).`);
    }
    if (out.sessionId === null) throw invalid(`${at}: context needs a sessionId (it lists the memories before this one in its session).`);
    out.context = r.context.map((c: unknown, i) => checkContent(c, `${at} context ${i}`));
  }
  if (Array.isArray(r.embedding) && typeof r.embeddingModel === 'string') {
    out.embedding = checkVector(r.embedding, `${at} embedding`);
    out.embeddingModel = r.embeddingModel;
    if (Array.isArray(r.contextEmbedding) && out.context) out.contextEmbedding = checkVector(r.contextEmbedding, `${at} contextEmbedding`);
  }
  return out;
}

/**
 * A vector from a file, L2-normalised. A stored vector is trusted by recall (cosine is a dot
 * product), so one of norm 1e31 would top every query: refuse anything that is not a list of
 * finite numbers with a norm above zero, and normalise the rest (in float64, scaled, so huge
 * finite values do not overflow).
 */
function checkVector(v: unknown[], what: string): number[] {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x))
      throw invalid(
        `${what}[${i}] is ${x === null ? 'null' : typeof x === 'number' ? String(x) : typeof x}; vectors must hold finite numbers. Fix the file, or drop "embedding" to have the text embedded again. Nothing was imported.`,
      );
    const a = Math.abs(x);
    if (a > max) max = a;
  }
  if (!v.length || max === 0)
    throw invalid(
      `${what} is ${v.length ? 'all zeros' : 'empty'}; a vector needs a norm above zero. Fix the file, or drop "embedding" to have the text embedded again. Nothing was imported.`,
    );
  let sum = 0;
  for (const x of v as number[]) sum += (x / max) ** 2;
  const norm = max * Math.sqrt(sum);
  const out = (v as number[]).map((x) => x / norm);
  // Values far below float32's range underflow to zero when stored: refuse what would be stored as zeros.
  if (!Float32Array.from(out).some((x) => x !== 0)) throw invalid(`${what} has no component left in float32 after normalising. Nothing was imported.`);
  return out;
}

/**
 * Links and replacements stay inside a namespace: a record may not supersede a memory of
 * another namespace (its history would then show that memory's text to readers of this one), and
 * `replace` may not move another namespace's memory into the record's. Checked before writing.
 */
async function checkNamespaces(backend: Backend, all: ExportRecord[], onConflict: 'skip' | 'replace'): Promise<void> {
  const inFile = new Map(all.map((r) => [r.id, r.namespace]));
  const stored = new Map<string, string | null>();
  const nsOf = async (id: string): Promise<string | null> => {
    if (!stored.has(id)) stored.set(id, (await backend.getById(id))?.namespace ?? null);
    return stored.get(id)!;
  };
  for (let i = 0; i < all.length; i++) {
    const r = all[i]!;
    if (r.supersededBy !== undefined) {
      const target = inFile.get(r.supersededBy) ?? (await nsOf(r.supersededBy));
      if (target !== null && target !== r.namespace) {
        throw invalid(
          `import record ${i + 1}: supersededBy ${r.supersededBy} is a memory of another namespace; links stay inside one namespace. Nothing was imported.`,
        );
      }
    }
    if (onConflict === 'replace') {
      const ns = await nsOf(r.id);
      if (ns !== null && ns !== r.namespace) {
        throw invalid(
          `import record ${i + 1}: id ${r.id} belongs to a memory of another namespace; replace never moves a memory between namespaces. Give the record a new id. Nothing was imported.`,
        );
      }
    }
  }
}

/** An import record's vectors: its own, and its context's (null when it has none). */
interface RecordVectors {
  vector: Float32Array | null;
  contextVector: Float32Array | null;
}

/**
 * Vectors for import records: their own when they come from the current model, else embedded;
 * context vectors likewise, else the mean of the context texts' vectors (as when first written).
 */
async function importVectors(m: ImportTarget, batch: ExportRecord[]): Promise<RecordVectors[]> {
  const model = m.embedder?.id ?? null;
  const out: RecordVectors[] = batch.map(() => ({ vector: null, contextVector: null }));
  const embeddings = m.embeddings;
  if (embeddings) {
    const dims = m.embedder!.dims;
    // Records were checked (finite, norm > 0, normalised) in checkRecord; a vector of the current
    // model with another length cannot be this model's output.
    batch.forEach((r, i) => {
      if (r.embedding && r.embeddingModel === model && r.embedding.length !== dims) {
        throw invalid(
          `import record ${i + 1} embedding has ${r.embedding.length} numbers but model "${model}" makes ${dims}. Fix the file, or drop "embedding". Nothing was imported.`,
        );
      }
    });
    const usable = (v: number[] | undefined, from: string | undefined): v is number[] => !!v && from === model && v.length === dims;
    const embed = (texts: string[]): Promise<Float32Array[]> => embeddings.embedMany(texts.map((t) => ({ text: t, hash: contentHash(t) })));
    const need: number[] = [];
    const needCtx: number[] = [];
    batch.forEach((r, i) => {
      if (usable(r.embedding, r.embeddingModel)) out[i]!.vector = Float32Array.from(r.embedding);
      else need.push(i);
      if (!r.context) return;
      if (out[i]!.vector && usable(r.contextEmbedding, r.embeddingModel)) out[i]!.contextVector = meanVector([Float32Array.from(r.contextEmbedding)]);
      else needCtx.push(i);
    });
    if (need.length) {
      const vecs = await embed(need.map((i) => batch[i]!.content));
      need.forEach((i, k) => {
        out[i]!.vector = vecs[k]!;
      });
    }
    const ctx = await contextVectorsOf(
      needCtx.map((i) => batch[i]!.context!),
      embed,
    );
    needCtx.forEach((i, k) => {
      out[i]!.contextVector = ctx[k]!;
    });
  }
  return out;
}

/** Write one batch in one transaction, counting what happened to each record. */
async function importBatch(m: ImportTarget, batch: ExportRecord[], vecs: RecordVectors[], onConflict: 'skip' | 'replace', res: ImportResult): Promise<void> {
  m.live();
  const items: ImportItem[] = batch.map((r, i) => ({
    id: r.id,
    content: r.content,
    key: r.key,
    namespace: r.namespace,
    category: r.category,
    sessionId: r.sessionId,
    metadata: JSON.stringify(r.metadata),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    eventAt: r.eventAt ?? null,
    expiresAt: r.expiresAt ?? null,
    pinned: r.pinned === true,
    importance: r.importance ?? null,
    supersededBy: r.supersededBy ?? null,
    hash: contentHash(r.content),
    vector: vecs[i]?.vector ?? null,
    context: r.context ?? null,
    contextVector: vecs[i]?.contextVector ?? null,
  }));
  const n = await m.backend.importBatch(items, m.embedder?.id ?? null, onConflict);
  res.imported += n.imported;
  res.replaced += n.replaced;
  res.skipped += n.skipped;
}
