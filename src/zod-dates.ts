import { z } from 'zod';

const MESSAGE =
  'must be a valid date (a real calendar date between the years 0001 and 9999: a Date, or an ISO 8601 string such as 2026-03-01 or 2026-03-01T12:00:00Z)';

/** `YYYY-MM-DD`, optionally followed by a time `THH:MM[:SS[.fff]]` and a zone `Z` or `±HH[:]MM`. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))?)?$/;

const FIRST = new Date('0001-01-01T00:00:00Z').getTime();
const END = Date.UTC(10000, 0, 1);

function daysIn(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; setUTCFullYear keeps years 0-99 as they are.
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/**
 * Whether the written fields of an ISO string are a real date and time. `Date` itself rolls
 * `2026-02-30` over to March 2 and `T24:00` to the next day; a caller who wrote that made a mistake.
 */
export function realFields(s: string): boolean {
  const m = ISO.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 59))) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return true;
}

/** A Date or an ISO 8601 string within years 0001-9999, normalised to an ISO string (UTC). */
export const isoDate = z.union([z.date(), z.string()]).transform((v, ctx) => {
  const s = typeof v === 'string' ? v.trim() : null;
  const d = s === null ? (v as Date) : new Date(s);
  const t = d.getTime();
  if ((s !== null && !realFields(s)) || !Number.isFinite(t) || t < FIRST || t >= END) {
    ctx.addIssue({ code: 'custom', message: MESSAGE });
    return z.NEVER;
  }
  return d.toISOString();
});
