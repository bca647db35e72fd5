/**
 * The vector index's quantised rows kept in the file (table `vector_codes`, schema 8): what
 * {@link VectorIndex} computes from a memory's float32 vector (int8 row, scale, sign code) relative
 * to its model's stored centre (`vector_centres`), so an open copies them instead of reading and
 * quantising the floats. A cache that can always be rebuilt: the float32 `embedding` stays the
 * source of truth, triggers drop a memory's row whenever its vectors or model change, this file's
 * writer stores a fresh one in the same transaction, and an open quantises (and writes back) the
 * memories that have none. A row with a NULL centre records that the memory has no vector.
 */
import { blendedBytes } from '../lifecycle/context.js';
import type { Store, VectorCentre } from '../store/store.js';
import { CENTRE_SAMPLE, VectorIndex, blobToVector, meanCentre, vectorToBlob } from './vector-index.js';

/** A row of `vector_codes`: `centre` null (and no bytes) when the memory has no vector. */
export type CodeRow = [seq: number, centre: number | null, q: Buffer | null, scale: Buffer | null, sign: Buffer | null];

/** Rows per write-back transaction at open: keeps the write lock short for other processes. */
export const WRITE_BACK_CHUNK = 20_000;

/**
 * The centre a model's codes are made with: the mean of its first {@link CENTRE_SAMPLE} vectors in
 * seq order (what the index chose from its first rows before codes were stored), or null while it
 * has fewer (its vectors are then quantised around zero, and nothing is stored).
 */
export function chooseCentre(store: Store, model: string, dims: number): Float32Array | null {
  const first = store.firstVectors(model, dims * 4, CENTRE_SAMPLE);
  if (first.n < CENTRE_SAMPLE || !first.blob || first.blob.byteLength !== first.n * dims * 4) return null;
  return meanCentre(new Uint8Array(first.blob.buffer, first.blob.byteOffset, first.blob.byteLength), first.n, dims);
}

/** Whether a stored centre fits an index of `dims`. */
export function usableCentre(c: VectorCentre | undefined, dims: number): c is VectorCentre {
  return !!c && c.dims === dims && c.centre.byteLength === dims * 4;
}

/**
 * The writer's half: after a memory's vector columns were written (inside that write transaction),
 * store the memory's code, computed exactly as the index computes it from the floats. Vectors of a
 * model without a stored centre get no row (an open quantises them, chooses the centre and writes
 * the codes back); a memory without a vector gets a marker row.
 */
export class CodeWriter {
  private readonly store: Store;
  /** One small quantiser per model, with the centre (id and bytes) it was made for. */
  private readonly codecs = new Map<string, { id: number; centre: Buffer; vi: VectorIndex }>();

  /** Vectors written per model (without a centre) until the next look at whether it can have one. */
  private readonly untilCheck = new Map<string, number>();

  constructor(store: Store) {
    this.store = store;
  }

  /** Stored centres read in the current write transaction (no other connection can change them until it ends). */
  private readonly centres = new Map<string, { serial: number; c: VectorCentre | undefined }>();

  private centreOf(model: string): VectorCentre | undefined {
    const serial = this.store.db.inTransaction ? this.store.writeSerial : -1;
    const hit = this.centres.get(model);
    if (hit && serial >= 0 && hit.serial === serial) return hit.c;
    const c = this.store.vectorCentre(model);
    this.centres.set(model, { serial, c });
    return c;
  }

  /** Whether to look for a centre now: at the first vector of a model, then every {@link CENTRE_SAMPLE} (each look reads the file). */
  private due(model: string): boolean {
    const left = this.untilCheck.get(model) ?? 0;
    this.untilCheck.set(model, left > 0 ? left - 1 : CENTRE_SAMPLE - 1);
    return left === 0;
  }

  /**
   * Store the code of memory `seq` from its columns as just written (`context` undefined: read
   * it, the write kept the stored one).
   */
  write(seq: number, embedding: Buffer | null, model: string | null, context: Buffer | null | undefined): void {
    if (!embedding || model === null) {
      this.store.putCodes([[seq, null, null, null, null]]);
      return;
    }
    if (embedding.byteLength % 4) return;
    const dims = embedding.byteLength / 4;
    let stored = this.centreOf(model);
    if (!stored && this.due(model)) {
      // The model's first vectors are in: choose its centre now, so every later write stores a code.
      const c = chooseCentre(this.store, model, dims);
      if (c) {
        this.store.putVectorCentre(model, dims, vectorToBlob(c));
        this.centres.delete(model);
        stored = this.centreOf(model);
      }
    }
    if (!usableCentre(stored, dims)) return;
    let codec = this.codecs.get(model);
    if (!codec || codec.id !== stored.id || !codec.centre.equals(stored.centre)) {
      const vi = new VectorIndex(stored.dims);
      vi.useCentre(blobToVector(stored.centre));
      codec = { id: stored.id, centre: stored.centre, vi };
      this.codecs.set(model, codec);
    }
    const ctx = context === undefined ? this.store.contextVectors([seq]).get(seq) : context;
    const own = new Uint8Array(embedding.buffer, embedding.byteOffset, embedding.byteLength);
    codec.vi.set(0, ctx && ctx.byteLength === own.byteLength ? blendedBytes(own, ctx) : own);
    const c = codec.vi.codesOf(0)!;
    codec.vi.clear(0);
    this.store.putCodes([[seq, stored.id, c.q, c.scale, c.sign]]);
  }
}
