import { z } from 'zod';

/** A Date or an ISO 8601 string within years 0000-9999, normalised to an ISO string (UTC). */
export const isoDate = z.union([z.date(), z.string()]).transform((v, ctx) => {
  const d = v instanceof Date ? v : new Date(v);
  const t = d.getTime();
  if (!Number.isFinite(t) || t < Date.UTC(0, 0, 1) || t > Date.UTC(9999, 11, 31)) {
    ctx.addIssue({ code: 'custom', message: 'must be a valid date (a Date or an ISO 8601 string such as 2026-03-01T12:00:00Z)' });
    return z.NEVER;
  }
  return d.toISOString();
});
