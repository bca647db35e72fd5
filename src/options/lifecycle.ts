/**
 * Validation of the lifecycle options. The shapes are spread into the add / update / recall
 * schemas of src/validate.ts, so unknown or malformed options fail there with one message.
 */
import { z } from 'zod';
import { invalid } from '../errors.js';
import { isoDate as date } from '../zod-dates.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w|y)\s*$/i;
/** Longest duration accepted: 1,000 years. */
const MAX_DURATION_MS = 1000 * UNIT_MS.y!;

/** Parse a duration (ms number, or `"30s"`, `"15m"`, `"12h"`, `"7d"`, `"2w"`, `"1y"`) to ms; `null` if malformed. */
export function durationMs(v: unknown): number | null {
  let ms: number;
  if (typeof v === 'number') ms = v;
  else if (typeof v === 'string') {
    const m = DURATION.exec(v);
    if (!m) return null;
    ms = Number(m[1]) * UNIT_MS[m[2]!.toLowerCase()]!;
  } else return null;
  return Number.isFinite(ms) && ms > 0 && ms <= MAX_DURATION_MS ? ms : null;
}

const duration = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ms = durationMs(v);
  if (ms === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a positive duration: milliseconds, or a string such as "90s", "15m", "12h", "7d", "2w", "1y"' });
    return z.NEVER;
  }
  return ms;
});

const unit = z
  .number()
  .refine(Number.isFinite, 'must be finite')
  .refine((n) => n >= 0 && n <= 1, 'must be between 0 and 1');
const idString = z.string().min(1, 'must be a memory id').max(200, 'must be a memory id');

/** Lifecycle fields of the add schema. */
export const lifecycleAddShape = {
  expiresAt: date.optional(),
  ttl: duration.optional(),
  pinned: z.boolean().optional(),
  importance: unit.optional(),
  supersedes: idString.optional(),
  force: z.boolean().optional(),
  nearDuplicates: z.enum(['off', 'report', 'merge'], { message: 'must be "off", "report" or "merge"' }).optional(),
  dedupThreshold: z
    .number()
    .refine((n) => Number.isFinite(n) && n > 0 && n <= 1, 'must be in (0, 1]')
    .optional(),
  /** Link the new memory to the older one it updates, when the evidence is strong (src/lifecycle/auto-supersede.ts). */
  supersede: z.literal('auto', { message: 'must be "auto"' }).optional(),
};

/** Lifecycle fields of the update schema. */
export const lifecycleUpdateShape = {
  expiresAt: date.nullable().optional(),
  ttl: duration.optional(),
  pinned: z.boolean().optional(),
  importance: unit.nullable().optional(),
};

/** Lifecycle fields of the recall schema. */
export const lifecycleRecallShape = {
  recency: z
    .object({
      halfLife: duration,
      weight: unit.optional(),
      asOf: date.optional(),
    })
    .strict()
    .optional(),
  importanceWeight: z
    .number()
    .refine((n) => Number.isFinite(n) && n >= 0 && n <= 10, 'must be between 0 and 10')
    .optional(),
  mmr: z.union([z.boolean(), z.object({ lambda: unit.optional() }).strict()]).optional(),
};

/** Lifecycle part of parsed add options. */
export interface ParsedLifecycleAdd {
  expiresAt?: string;
  ttl?: number;
  pinned?: boolean;
  importance?: number;
  supersedes?: string;
  force?: boolean;
  nearDuplicates?: 'off' | 'report' | 'merge';
  dedupThreshold?: number;
}

/** Lifecycle part of parsed update input. */
export interface ParsedLifecycleUpdate {
  expiresAt?: string | null;
  ttl?: number;
  pinned?: boolean;
  importance?: number | null;
}

/** Lifecycle part of parsed recall options. */
export interface ParsedLifecycleRecall {
  recency?: { halfLife: number; weight?: number; asOf?: string };
  importanceWeight?: number;
  mmr?: boolean | { lambda?: number };
}

/** Clamp an ISO time computed from a base and a duration to the supported date range. */
function plus(baseIso: string, ms: number): string {
  return new Date(Math.min(Date.parse(baseIso) + ms, Date.UTC(9999, 11, 31))).toISOString();
}

/** The `expires_at` of a new memory: `expiresAt`, or `createdAt` (default now) + `ttl`, or null. */
export function expiryOnAdd(o: ParsedLifecycleAdd & { createdAt?: string }, nowIso: string): string | null {
  if (o.expiresAt !== undefined && o.ttl !== undefined) throw invalid('Give either expiresAt or ttl, not both.');
  if (o.expiresAt !== undefined) return o.expiresAt;
  if (o.ttl !== undefined) return plus(o.createdAt ?? nowIso, o.ttl);
  return null;
}

/** The new `expires_at` from an update (`undefined` = unchanged); a ttl counts from now. */
export function expiryOnUpdate(o: ParsedLifecycleUpdate, nowIso: string): string | null | undefined {
  if (o.expiresAt !== undefined && o.ttl !== undefined) throw invalid('Give either expiresAt or ttl, not both.');
  if (o.ttl !== undefined) return plus(nowIso, o.ttl);
  return o.expiresAt;
}

/** Default near-duplicate threshold (cosine). */
export const DEFAULT_DEDUP_THRESHOLD = 0.92;
/** Default MMR λ. */
export const DEFAULT_MMR_LAMBDA = 0.7;

/** Validate the dedup defaults of `openMemory` (`nearDuplicates`, `dedupThreshold`). */
export function parseOpenDedup(o: { nearDuplicates?: unknown; dedupThreshold?: unknown }): {
  nearDuplicates?: 'off' | 'report' | 'merge';
  dedupThreshold?: number;
} {
  const r = z
    .object({ nearDuplicates: lifecycleAddShape.nearDuplicates, dedupThreshold: lifecycleAddShape.dedupThreshold })
    .safeParse({ nearDuplicates: o.nearDuplicates, dedupThreshold: o.dedupThreshold });
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw invalid(`openMemory: ${issue.path.join('.')} ${issue.message}.`);
  }
  const out: { nearDuplicates?: 'off' | 'report' | 'merge'; dedupThreshold?: number } = {};
  if (r.data.nearDuplicates !== undefined) out.nearDuplicates = r.data.nearDuplicates;
  if (r.data.dedupThreshold !== undefined) out.dedupThreshold = r.data.dedupThreshold;
  return out;
}
