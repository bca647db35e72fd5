/**
 * A memory whose value is one coming weekday ("Dentist appointment moved to Friday at 13:00") is
 * about a single occasion: once that day has passed, a later note naming another day is about
 * another occasion, not an update of this one. `supersede: 'auto'` uses this so it does not chain
 * every appointment note to the previous one (EVAL.md "supersede: 'auto'").
 *
 * Occasions: a single weekday after "on/to/for/until/by" (plural days, "on Tuesdays", recur and never
 * pass) and a calendar date written as YYYY-MM-DD (a dated log entry).
 */

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const ONE_WEEKDAY = /\b(?:on|to|for|until|till|by)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b(?!s)/i;
const DAY = 86_400_000;

const ISO_DAY = /\b(\d{4})-(\d{2})-(\d{2})\b/;

/** The day (ms, UTC midnight) of the occasion a memory stated at `statedAt` names, or undefined. */
export function occasionDay(content: string, statedAt: number): number | undefined {
  // A dated note ("Standup 2025-02-17: …") records what happened on that day.
  const iso = ISO_DAY.exec(content);
  if (iso) {
    const t = Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
    if (Number.isFinite(t)) return t;
  }
  const m = ONE_WEEKDAY.exec(content);
  if (!m) return undefined;
  const want = WEEKDAYS.indexOf(m[1]!.toLowerCase());
  const day = Math.floor(statedAt / DAY) * DAY;
  // The named weekday on or after the day it was said (1970-01-01 was a Thursday: weekday 4).
  const today = (Math.floor(statedAt / DAY) + 4) % 7;
  return day + (((want - today + 7) % 7) * DAY);
}

/** Whether `content`, stated at `statedAt`, names one occasion that was over before `at`. */
export function occasionPassed(content: string, statedAt: number, at: number): boolean {
  const d = occasionDay(content, statedAt);
  return d !== undefined && d + DAY <= at;
}
