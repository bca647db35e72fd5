/**
 * English time expressions in a recall query ("yesterday", "last week", "in March 2023",
 * "two days ago", "since Monday") turned into time windows, so recall can prefer memories
 * from that window and, optionally, drop the time words from the keyword query.
 *
 * A pure function: no clock (the caller passes `now`), no store, no time zone. All calendar
 * arithmetic is in UTC, because memories' timestamps are stored in UTC and the library does
 * not know the user's zone; a window is off by at most the user's UTC offset, which is harmless
 * for a soft preference. The grammar, and what deliberately does not parse, is in docs/time.md.
 */
import { invalid } from '../errors.js';
import { STOP_WORDS } from '../text/stopwords.js';

/** One time expression found in a query. */
export interface TimeExpression {
  /** Start of the window (inclusive). */
  from: Date;
  /** End of the window (exclusive). */
  to: Date;
  /** The matched phrase, exactly as written in the query (`query.slice(start, end)`). */
  text: string;
  /** Offset of the phrase's first character in the query (UTF-16 units). */
  start: number;
  /** Offset just after the phrase's last character. */
  end: number;
}

/** Options of {@link parseTimeExpressions}. */
export interface ParseTimeOptions {
  /** The reference instant that "today", "last week" and "ago" count from. Default: the clock. */
  now?: Date;
  /** First day of a week, 0 = Sunday … 6 = Saturday, for "this/last/next week". Default 1 (Monday). */
  weekStartsOn?: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

const MONTHS: ReadonlyMap<string, number> = new Map([
  ['january', 0],
  ['february', 1],
  ['march', 2],
  ['april', 3],
  ['may', 4],
  ['june', 5],
  ['july', 6],
  ['august', 7],
  ['september', 8],
  ['october', 9],
  ['november', 10],
  ['december', 11],
]);
/** Abbreviations are names or words too ("Jan", "Mar", "Dec"), so they parse only beside a number. */
const MONTH_ABBR: ReadonlyMap<string, number> = new Map([
  ['jan', 0],
  ['feb', 1],
  ['mar', 2],
  ['apr', 3],
  ['jun', 5],
  ['jul', 6],
  ['aug', 7],
  ['sep', 8],
  ['sept', 8],
  ['oct', 9],
  ['nov', 10],
  ['dec', 11],
]);
const WEEKDAYS: ReadonlyMap<string, number> = new Map([
  ['sunday', 0],
  ['monday', 1],
  ['tuesday', 2],
  ['wednesday', 3],
  ['thursday', 4],
  ['friday', 5],
  ['saturday', 6],
]);
const SMALL_NUMBERS: ReadonlyMap<string, number> = new Map([
  ['a', 1],
  ['an', 1],
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
]);
type Unit = 'day' | 'week' | 'month' | 'year';
const UNITS: ReadonlyMap<string, Unit> = new Map([
  ['day', 'day'],
  ['days', 'day'],
  ['week', 'week'],
  ['weeks', 'week'],
  ['month', 'month'],
  ['months', 'month'],
  ['year', 'year'],
  ['years', 'year'],
]);
/** Meteorological seasons of the northern hemisphere: [first month, months long]. */
const SEASONS: ReadonlyMap<string, number> = new Map([
  ['spring', 2],
  ['summer', 5],
  ['autumn', 8],
  ['fall', 8],
  ['winter', 11],
]);
/** Parts of a day as [start hour, end hour) of that day; night runs into the next morning. */
const PARTS: ReadonlyMap<string, readonly [number, number]> = new Map([
  ['morning', [5, 12]],
  ['afternoon', [12, 18]],
  ['evening', [18, 24]],
  ['night', [18, 30]],
]);
/** Words that, before a bare month, year, season or weekday, make it a date and not a name or a verb. */
const MONTH_PREPS = new Set(['in', 'during', 'since', 'throughout']);
const WEEKDAY_PREPS = new Set(['on', 'since']);
const SEASON_PREPS = new Set(['in', 'during', 'over', 'since', 'throughout']);
/** Prepositions that belong to the time phrase (so a caller removing it removes them too). */
const ABSORBED_PREPS = new Set(['in', 'on', 'during', 'over', 'within', 'at', 'throughout']);
/** "recently" and "lately" mean the last 14 days, today included. */
const RECENT_DAYS = 14;

type Kind = 'word' | 'num' | 'iso' | 'comma' | 'break';
interface Tok {
  kind: Kind;
  /** Lower case, possessive "'s" removed. */
  low: string;
  raw: string;
  start: number;
  end: number;
  /** First letter upper case. */
  cap: boolean;
  /** First token of a sentence (capitals there say nothing about proper nouns). */
  initial: boolean;
  possessive: boolean;
  /** For `num`: the value; for `iso`: unused. */
  value: number;
  /** For `num`: written as an ordinal ("5th"). */
  ordinal: boolean;
  /** For `num`: written as a decade ("1990s", "90s"). */
  decade: boolean;
  /** For `num`: number of digits. */
  digits: number;
}

interface Match {
  /** Index just after the last token of the match. */
  end: number;
  from: number;
  to: number;
}

// A number starts only where no digit precedes it, and takes its digits whole (`(?=(\d+))\4`, an
// atomic group): a run of 100,000 digits followed by a letter fails once, not once per digit with
// a rescan from each (quadratic: 103 s).
const TOKEN_RE =
  /(\d{4})-(\d{2})(?:-(\d{2}))?(?![\w-])|'?(?<!\d)(?=(\d+))\4(st|nd|rd|th|s)?(?![A-Za-z\d])|([A-Za-z]+(?:['’][A-Za-z]+)?)|(,)|([.!?;:()"[\]{}])/g;

/**
 * Tokens read of a query: time words come early in a question, and a 100 kB query of digits or
 * dots must cost what a long question costs, not 100,000 tokens per recall.
 */
export const MAX_TIME_TOKENS = 1000;

function tokenize(query: string): Tok[] {
  const toks: Tok[] = [];
  let initial = true;
  for (const m of query.matchAll(TOKEN_RE)) {
    if (toks.length >= MAX_TIME_TOKENS) break;
    const raw = m[0];
    const start = m.index;
    if (start < (toks[toks.length - 1]?.end ?? 0)) continue; // the period a month abbreviation took
    const base = {
      raw,
      start,
      end: start + raw.length,
      cap: false,
      initial,
      possessive: false,
      value: 0,
      ordinal: false,
      decade: false,
      digits: 0,
    };
    if (m[1] !== undefined) {
      toks.push({ ...base, kind: 'iso', low: raw });
    } else if (m[4] !== undefined) {
      const suffix = m[5]?.toLowerCase();
      toks.push({
        ...base,
        kind: 'num',
        low: raw.toLowerCase(),
        value: Number(m[4]),
        digits: m[4].length,
        ordinal: suffix !== undefined && suffix !== 's',
        decade: suffix === 's',
      });
    } else if (m[6] !== undefined) {
      let low = raw.toLowerCase().replace('’', "'");
      const possessive = low.endsWith("'s");
      if (possessive) low = low.slice(0, -2);
      // "Sept. 5": the period of a month abbreviation is part of the word, not a sentence end.
      let end = base.end;
      if (MONTH_ABBR.has(low) && query[end] === '.') end++;
      toks.push({ ...base, end, raw: query.slice(start, end), kind: 'word', low, possessive, cap: /^[A-Z]/.test(raw) });
    } else if (m[7] !== undefined) {
      toks.push({ ...base, kind: 'comma', low: ',' });
    } else {
      toks.push({ ...base, kind: 'break', low: raw });
    }
    const last = toks[toks.length - 1]!;
    initial = last.kind === 'break' && raw !== ')' && raw !== '"';
  }
  return toks;
}

// ---- UTC calendar arithmetic --------------------------------------------------

function dayStart(ms: number): number {
  return ms - (((ms % DAY) + DAY) % DAY);
}
function ymd(ms: number): { y: number; m: number; d: number; dow: number } {
  const t = new Date(ms);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth(), d: t.getUTCDate(), dow: t.getUTCDay() };
}
function monthStart(y: number, m: number): number {
  return Date.UTC(y, m, 1);
}
function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
}
/** A calendar year as a timestamp, with years 0–99 not shifted to 1900–1999 as Date.UTC would. */
function yearStart(y: number): number {
  return new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(y);
}

class Parser {
  private readonly today: number;
  private readonly tomorrow: number;
  private readonly cal: { y: number; m: number; d: number; dow: number };
  private readonly namesVisible: boolean;

  constructor(
    private readonly toks: readonly Tok[],
    private readonly now: number,
    private readonly weekStartsOn: number,
  ) {
    // In a Title Case Or ALL CAPS query capitals say nothing about names.
    this.namesVisible = toks.some((t) => t.kind === 'word' && !t.initial && /^[a-z]/.test(t.raw));
    this.today = dayStart(now);
    this.tomorrow = this.today + DAY;
    this.cal = ymd(now);
  }

  /** Every expression, left to right, longest match first, never overlapping. */
  all(): { first: number; match: Match }[] {
    const out: { first: number; match: Match }[] = [];
    for (let i = 0; i < this.toks.length; ) {
      const match = this.expr(i);
      if (match && this.plausible(i, match.end)) {
        out.push({ first: i, match });
        i = match.end;
      } else i++;
    }
    return out;
  }

  // ---- token helpers ----

  private w(i: number): string | undefined {
    const t = this.toks[i];
    return t?.kind === 'word' ? t.low : undefined;
  }
  private num(i: number): Tok | undefined {
    const t = this.toks[i];
    return t?.kind === 'num' && !t.decade ? t : undefined;
  }
  /** A plain word (no possessive) equal to one of `words`. */
  private is(i: number, ...words: string[]): boolean {
    const t = this.toks[i];
    return t?.kind === 'word' && !t.possessive && words.includes(t.low);
  }

  /**
   * A number followed by a content word is a quantity ("in 2000 steps", "may 5 people"), not a
   * date. Stop words and time words after it are fine ("in 2023 we moved", "May 5 morning").
   */
  private quantityAt(j: number): boolean {
    const t = this.toks[j];
    if (t?.kind !== 'word' || t.cap) return false;
    return !STOP_WORDS.has(t.low) && !PARTS.has(t.low) && !UNITS.has(t.low) && t.low !== 'ago';
  }

  /**
   * Rejects a match that is part of a proper noun: a capitalised phrase glued to another
   * capitalised word ("March Madness", "USA Today", "In March We Rise").
   */
  private plausible(first: number, end: number): boolean {
    if (!this.namesVisible) return true;
    const isName = (t: Tok | undefined): boolean => t?.kind === 'word' && t.cap && t.raw !== 'I' && !MONTHS.has(t.low) && !WEEKDAYS.has(t.low);
    const last = this.toks[end - 1]!;
    const after = this.toks[end];
    if (last.kind === 'word' && last.cap && isName(after) && !after!.initial) return false;
    const head = this.toks[first]!;
    const before = this.toks[first - 1];
    if (head.kind === 'word' && head.cap && !head.initial && isName(before)) return false;
    return true;
  }

  // ---- grammar ----

  /** A phrase with an optional leading preposition ("since" changes the window). */
  private expr(i: number): Match | null {
    const p = this.w(i);
    if (p === 'since') {
      const m = this.basic(i + 1, 'since');
      // "since" reaches up to today; "since next week" is nonsense.
      if (m && m.from <= this.now) return { end: m.end, from: m.from, to: Math.max(m.to, this.tomorrow) };
      return null;
    }
    if (p !== undefined && ABSORBED_PREPS.has(p) && !this.toks[i]!.possessive) {
      const m = this.basic(i + 1, p);
      if (m) return m;
    }
    return this.basic(i, undefined);
  }

  /** The longest phrase starting at token i; `prep` is the preposition before it, if any. */
  private basic(i: number, prep: string | undefined): Match | null {
    const candidates = [
      this.relativeDay(i),
      this.partOfToday(i),
      this.thisLastNext(i),
      this.ago(i),
      this.rolling(i),
      this.recently(i),
      this.earlier(i),
      this.beforeLast(i),
      this.weekday(i, prep),
      this.monthPhrase(i, prep),
      this.dayMonth(i),
      this.iso(i),
      this.year(i, prep),
      this.decade(i, prep),
      this.season(i, prep),
      this.weekend(i, prep),
    ];
    let best: Match | null = null;
    for (const c of candidates) if (c && (!best || c.end > best.end)) best = c;
    return best ? this.withPartOfDay(best) : null;
  }

  /** "yesterday" + "morning" → that morning. Only after a one-day window. */
  private withPartOfDay(m: Match): Match {
    const part = PARTS.get(this.w(m.end) ?? '');
    if (!part || m.to - m.from !== DAY || dayStart(m.from) !== m.from) return m;
    return { end: m.end + 1, from: m.from + part[0] * HOUR, to: m.from + part[1] * HOUR };
  }

  private day(end: number, offset: number): Match {
    const from = this.today + offset * DAY;
    return { end, from, to: from + DAY };
  }

  private relativeDay(i: number): Match | null {
    if (this.is(i, 'today')) return this.day(i + 1, 0);
    if (this.is(i, 'yesterday')) return this.day(i + 1, -1);
    if (this.is(i, 'tomorrow')) return this.day(i + 1, 1);
    if (this.is(i, 'tonight')) return this.part(i + 1, 0, 'night');
    if (this.is(i, 'the') && this.is(i + 1, 'day') && this.is(i + 2, 'before') && this.is(i + 3, 'yesterday')) return this.day(i + 4, -2);
    if (this.is(i, 'the') && this.is(i + 1, 'day') && this.is(i + 2, 'after') && this.is(i + 3, 'tomorrow')) return this.day(i + 4, 2);
    if (this.is(i, 'the') && this.is(i + 1, 'other') && this.is(i + 2, 'day')) {
      return { end: i + 3, from: this.today - 7 * DAY, to: this.today - DAY };
    }
    if (this.is(i, 'last') && this.is(i + 1, 'night')) return this.part(i + 2, -1, 'night');
    return null;
  }

  private part(end: number, dayOffset: number, name: string): Match {
    const [a, b] = PARTS.get(name)!;
    const d = this.today + dayOffset * DAY;
    return { end, from: d + a * HOUR, to: d + b * HOUR };
  }

  /** "this morning", "this evening". */
  private partOfToday(i: number): Match | null {
    const p = this.w(i + 1);
    if (this.is(i, 'this') && p && p !== 'night' && PARTS.has(p) && !this.toks[i + 1]!.possessive) return this.part(i + 2, 0, p);
    return null;
  }

  /** The calendar unit `unit` shifted by `k` units from the one containing now. */
  private unit(unit: Unit, k: number): { from: number; to: number } {
    const { y, m } = this.cal;
    switch (unit) {
      case 'day':
        return { from: this.today + k * DAY, to: this.today + (k + 1) * DAY };
      case 'week': {
        const start = this.today - ((this.cal.dow - this.weekStartsOn + 7) % 7) * DAY + k * 7 * DAY;
        return { from: start, to: start + 7 * DAY };
      }
      case 'month':
        return { from: monthStart(y, m + k), to: monthStart(y, m + k + 1) };
      case 'year':
        return { from: yearStart(y + k), to: yearStart(y + k + 1) };
    }
  }

  /** this/last/next (or "this past") + week, month, year, weekend, a weekday, a month or a season. */
  private thisLastNext(i: number): Match | null {
    let k: number;
    let j = i + 1;
    if (this.is(i, 'this') && this.is(i + 1, 'past')) {
      k = -1;
      j = i + 2;
    } else if (this.is(i, 'this')) k = 0;
    else if (this.is(i, 'last')) k = -1;
    else if (this.is(i, 'next')) k = 1;
    else return null;
    const word = this.w(j);
    // "the last week of June", "the next month": an ordinal position, not a date relative to now.
    if (word === undefined || this.is(i - 1, 'the') || this.is(j + 1, 'of')) return null;
    const u = UNITS.get(word);
    if (u && u !== 'day' && !word.endsWith('s')) return { end: j + 1, ...this.unit(u, k) };
    if (word === 'weekend') return { end: j + 1, ...this.weekendAt(k) };
    const wd = WEEKDAYS.get(word);
    if (wd !== undefined) {
      const dow = this.cal.dow;
      let offset: number;
      if (k === 0) offset = ((wd - this.weekStartsOn + 7) % 7) - ((dow - this.weekStartsOn + 7) % 7);
      else if (k < 0) offset = -((dow - wd + 7) % 7 || 7);
      else offset = (wd - dow + 7) % 7 || 7;
      return this.day(j + 1, offset);
    }
    const mo = MONTHS.get(word);
    if (mo !== undefined) {
      const { y, m } = this.cal;
      // last March: the latest March already over; next March: the first one not yet begun.
      const year = k === 0 ? y : k < 0 ? (mo < m ? y : y - 1) : mo > m ? y : y + 1;
      return { end: j + 1, from: monthStart(year, mo), to: monthStart(year, mo + 1) };
    }
    const s = SEASONS.get(word);
    if (s !== undefined) return { end: j + 1, ...this.seasonRelative(s, k) };
    return null;
  }

  /** The weekend (Saturday 00:00 to Monday 00:00) of this week: the current one, else the coming one. */
  private weekendAt(k: number): { from: number; to: number } {
    const dow = this.cal.dow;
    const sat = this.today + (dow === 0 ? -1 : 6 - dow) * DAY + k * 7 * DAY;
    return { from: sat, to: sat + 2 * DAY };
  }

  /** A count: digits, one..twelve, "a", "a couple of"; "a few" and "several" are ranges. */
  private count(i: number): { end: number; lo: number; hi: number } | null {
    const n = this.num(i);
    if (n && !n.ordinal && n.value >= 1 && n.value <= 1000) return { end: i + 1, lo: n.value, hi: n.value };
    if (this.is(i, 'a') && this.is(i + 1, 'couple')) return { end: this.is(i + 2, 'of') ? i + 3 : i + 2, lo: 2, hi: 2 };
    if (this.is(i, 'couple') && this.is(i + 1, 'of')) return { end: i + 2, lo: 2, hi: 2 };
    if (this.is(i, 'a') && this.is(i + 1, 'few')) return { end: i + 2, lo: 2, hi: 4 };
    if (this.is(i, 'few')) return { end: i + 1, lo: 2, hi: 4 };
    if (this.is(i, 'several')) return { end: i + 1, lo: 3, hi: 7 };
    const v = SMALL_NUMBERS.get(this.w(i) ?? '');
    if (v !== undefined && !this.toks[i]!.possessive) return { end: i + 1, lo: v, hi: v };
    return null;
  }

  /** "N days/weeks/months/years ago": the calendar day, week, month or year N units back. */
  private ago(i: number): Match | null {
    const c = this.count(i);
    if (!c) return null;
    const u = UNITS.get(this.w(c.end) ?? '');
    if (!u || !this.is(c.end + 1, 'ago')) return null;
    return { end: c.end + 2, from: this.unit(u, -c.hi).from, to: this.unit(u, -c.lo).to };
  }

  /**
   * "the past 3 days", "the last two weeks", "past month", "last 10 days": from that long
   * before today's start up to the end of today (rolling, not calendar, units).
   */
  private rolling(i: number): Match | null {
    let j = i;
    const the = this.is(j, 'the');
    if (the) j++;
    if (!this.is(j, 'past', 'last')) return null;
    const lastWithoutThe = !the && this.is(j, 'last');
    j++;
    let c = this.count(j);
    if (c) j = c.end;
    const word = this.w(j);
    const u = UNITS.get(word ?? '');
    // "the last day of school", "the past year of college": a part of something else.
    if (!u || this.toks[j]!.possessive || this.is(j + 1, 'of') || (!c && u === 'day')) return null;
    const plural = word!.endsWith('s');
    if (c && (c.hi > 1 || c.lo !== c.hi) !== plural) return null;
    // "last week" (no "the", no count) is the calendar week: thisLastNext handles it.
    if (!c && (plural || lastWithoutThe)) return null;
    c ??= { end: j, lo: 1, hi: 1 };
    const { y, m, d } = this.cal;
    const back = c.hi;
    const from =
      u === 'day'
        ? this.today - back * DAY
        : u === 'week'
          ? this.today - back * 7 * DAY
          : u === 'month'
            ? Date.UTC(y, m - back, Math.min(d, daysInMonth(y, m - back)))
            : Date.UTC(y - back, m, Math.min(d, daysInMonth(y - back, m)));
    return { end: j + 1, from, to: this.tomorrow };
  }

  private recently(i: number): Match | null {
    if (this.is(i, 'recently', 'lately')) return { end: i + 1, from: this.today - RECENT_DAYS * DAY, to: this.tomorrow };
    return null;
  }

  /** "earlier today", "earlier this week|month|year": from the unit's start to the end of today. */
  private earlier(i: number): Match | null {
    if (!this.is(i, 'earlier')) return null;
    if (this.is(i + 1, 'today')) return { end: i + 2, from: this.today, to: this.tomorrow };
    const u = UNITS.get(this.w(i + 2) ?? '');
    if (this.is(i + 1, 'this') && u && u !== 'day' && !this.w(i + 2)!.endsWith('s')) {
      return { end: i + 3, from: this.unit(u, 0).from, to: this.tomorrow };
    }
    return null;
  }

  /** "the week|month|year before last". */
  private beforeLast(i: number): Match | null {
    const u = UNITS.get(this.w(i + 1) ?? '');
    if (this.is(i, 'the') && u && u !== 'day' && this.is(i + 2, 'before') && this.is(i + 3, 'last')) {
      return { end: i + 4, ...this.unit(u, -2) };
    }
    return null;
  }

  /**
   * A bare weekday is a date only after "on"/"since" or before a part of the day
   * ("Monday morning"); it means the latest such day, today included. "Sunday best", "Cyber
   * Monday" and "on Mondays" (a habit, not a date) do not parse.
   */
  private weekday(i: number, prep: string | undefined): Match | null {
    const wd = WEEKDAYS.get(this.w(i) ?? '');
    if (wd === undefined || this.toks[i]!.possessive) return null;
    const triggered = (prep !== undefined && WEEKDAY_PREPS.has(prep)) || PARTS.has(this.w(i + 1) ?? '');
    if (!triggered) return null;
    return this.day(i + 1, -((this.cal.dow - wd + 7) % 7));
  }

  private month(i: number): number | undefined {
    const t = this.toks[i];
    if (t?.kind !== 'word') return undefined;
    return MONTHS.get(t.low) ?? MONTH_ABBR.get(t.low);
  }

  /** A four-digit year 1000–2999 at token i, not followed by a content word. */
  private yearAt(i: number): number | undefined {
    const t = this.num(i);
    if (!t || t.ordinal || t.digits !== 4 || t.value < 1000 || t.value > 2999 || this.quantityAt(i + 1)) return undefined;
    return t.value;
  }

  /**
   * [early|mid|late] <Month> [<year>], and <Month> <day>[,] [<year>] / <Month> the <day>th.
   * A month needs date context to parse: a number beside it, early/mid/late, or a preposition.
   */
  private monthPhrase(i: number, prep: string | undefined): Match | null {
    let j = i;
    let third: number | undefined;
    const q = this.w(j);
    if (q === 'early' || q === 'mid' || q === 'late') {
      third = q === 'early' ? 0 : q === 'mid' ? 1 : 2;
      j++;
    }
    const mo = this.month(j);
    if (mo === undefined || this.toks[j]!.possessive) return null;
    const abbr = !MONTHS.has(this.w(j)!);
    j++;
    // <Month> <day>
    if (third === undefined) {
      let k = j;
      if (this.is(k, 'the') && this.num(k + 1)?.ordinal) k++;
      const d = this.num(k);
      if (d && d.value >= 1 && d.value <= 31 && d.digits <= 2) {
        const after = k + 1;
        let yk = after;
        if (this.toks[yk]?.kind === 'comma') yk++;
        const y = this.yearAt(yk);
        if (y !== undefined) return this.dateMatch(yk + 1, y, mo, d.value);
        if (this.quantityAt(after)) return null;
        return this.dateMatch(after, undefined, mo, d.value);
      }
    }
    // <Month> [,] <year>
    let yk = j;
    if (this.toks[yk]?.kind === 'comma') yk++;
    const y = this.yearAt(yk);
    const triggered = y !== undefined || third !== undefined || (prep !== undefined && MONTH_PREPS.has(prep));
    if (!triggered || (abbr && y === undefined)) return null;
    const year = y ?? (mo <= this.cal.m ? this.cal.y : this.cal.y - 1);
    const end = y !== undefined ? yk + 1 : j;
    if (third === undefined) return { end, from: monthStart(year, mo), to: monthStart(year, mo + 1) };
    const s = monthStart(year, mo);
    const dayFrom = [0, 10, 20][third]!;
    const dayTo = [10, 20, daysInMonth(year, mo)][third]!;
    return { end, from: s + dayFrom * DAY, to: s + dayTo * DAY };
  }

  /** One calendar day; without a year, the occurrence nearest to today (ties: the past one). */
  private dateMatch(end: number, year: number | undefined, mo: number, d: number): Match | null {
    if (year !== undefined) {
      if (d > daysInMonth(year, mo)) return null;
      const from = Date.UTC(year, mo, d);
      return { end, from, to: from + DAY };
    }
    let best: number | undefined;
    for (const y of [this.cal.y - 1, this.cal.y, this.cal.y + 1]) {
      if (d > daysInMonth(y, mo)) continue;
      const t = Date.UTC(y, mo, d);
      if (best === undefined || Math.abs(t - this.today) < Math.abs(best - this.today)) best = t;
    }
    return best === undefined ? null : { end, from: best, to: best + DAY };
  }

  /** <day> [of] <Month> [<year>], "the 5th of May". */
  private dayMonth(i: number): Match | null {
    let j = i;
    if (this.is(j, 'the') && this.num(j + 1)?.ordinal) j++;
    const d = this.num(j);
    if (!d || d.value < 1 || d.value > 31 || d.digits > 2) return null;
    j++;
    if (this.is(j, 'of')) j++;
    const mo = this.month(j);
    if (mo === undefined || this.toks[j]!.possessive) return null;
    const lowerVerb = this.toks[j]!.raw === 'may' || this.toks[j]!.raw === 'march';
    j++;
    let yk = j;
    if (this.toks[yk]?.kind === 'comma') yk++;
    const y = this.yearAt(yk);
    // "2 may be enough", "we 3 march": lower-case May/March after a number is a verb unless a year follows.
    if (lowerVerb && y === undefined) return null;
    return this.dateMatch(y !== undefined ? yk + 1 : j, y, mo, d.value);
  }

  /** 2023-05-08 (a day) or 2023-05 (a month). */
  private iso(i: number): Match | null {
    const t = this.toks[i];
    if (t?.kind !== 'iso') return null;
    const [y, m, d] = t.raw.split('-').map(Number) as [number, number, number | undefined];
    if (m < 1 || m > 12) return null;
    if (d === undefined) return { end: i + 1, from: monthStart(y, m - 1), to: monthStart(y, m) };
    if (d < 1 || d > daysInMonth(y, m - 1)) return null;
    const from = Date.UTC(y, m - 1, d);
    return { end: i + 1, from, to: from + DAY };
  }

  /** in|during|since <year>, "the year 2020", early|mid|late <year> (thirds of the year). */
  private year(i: number, prep: string | undefined): Match | null {
    let j = i;
    const q = this.w(j);
    const third = q === 'early' ? 0 : q === 'mid' ? 1 : q === 'late' ? 2 : undefined;
    if (third !== undefined) j++;
    const theYear = this.is(j, 'the') && this.is(j + 1, 'year');
    if (theYear) j += 2;
    const y = this.yearAt(j);
    if (y === undefined) return null;
    if (!theYear && third === undefined && !(prep !== undefined && MONTH_PREPS.has(prep))) return null;
    if (third === undefined) return { end: j + 1, from: yearStart(y), to: yearStart(y + 1) };
    return { end: j + 1, from: Date.UTC(y, third * 4, 1), to: Date.UTC(y, third * 4 + 4, 1) };
  }

  /** in|during the 1990s. Two-digit decades ("the 90s") do not parse: ages, temperatures, bands. */
  private decade(i: number, prep: string | undefined): Match | null {
    const t = this.toks[i + 1];
    if (prep === undefined || !MONTH_PREPS.has(prep) || !this.is(i, 'the') || t?.kind !== 'num') return null;
    if (!t.decade || t.digits !== 4 || t.value % 10 !== 0 || t.raw.startsWith("'")) return null;
    return { end: i + 2, from: yearStart(t.value), to: yearStart(t.value + 10) };
  }

  /** The season with first month `s` starting in year y. */
  private seasonOf(s: number, y: number): { from: number; to: number } {
    return { from: monthStart(y, s), to: monthStart(y, s + 3) };
  }

  /**
   * this <season>: the one going on, else the one starting this calendar year; last: the latest
   * already over; next: the first not yet begun.
   */
  private seasonRelative(s: number, k: number): { from: number; to: number } {
    const { y } = this.cal;
    const candidates = [y - 2, y - 1, y, y + 1].map((yy) => this.seasonOf(s, yy));
    if (k < 0) return candidates.filter((c) => c.to <= this.now).pop()!;
    if (k > 0) return candidates.find((c) => c.from > this.now)!;
    return candidates.find((c) => c.from <= this.now && this.now < c.to) ?? this.seasonOf(s, y);
  }

  /**
   * [the] <season> [of] <year>; after in/during/over/since: "the summer", "summer" = the latest
   * one begun. A bare season ("summer camp") does not parse.
   */
  private season(i: number, prep: string | undefined): Match | null {
    let j = i;
    const the = this.is(j, 'the');
    if (the) j++;
    const s = SEASONS.get(this.w(j) ?? '');
    if (s === undefined || this.toks[j]!.possessive) return null;
    j++;
    let yk = j;
    if (this.is(yk, 'of')) yk++;
    const y = this.yearAt(yk);
    if (y !== undefined) return { end: yk + 1, ...this.seasonOf(s, y) };
    if (prep === undefined || !SEASON_PREPS.has(prep)) return null;
    // "in fall" without "the" is too often the verb; "in the fall" is the season.
    if (!the && this.w(j - 1) === 'fall') return null;
    const { y: cy } = this.cal;
    const begun = [cy - 1, cy]
      .map((yy) => this.seasonOf(s, yy))
      .filter((c) => c.from <= this.now)
      .pop()!;
    return { end: j, ...begun };
  }

  /** over|at|on the weekend: the latest weekend begun (the current one on a Saturday or Sunday). */
  private weekend(i: number, prep: string | undefined): Match | null {
    if (prep === undefined || !['over', 'at', 'on'].includes(prep) || !this.is(i, 'the') || !this.is(i + 1, 'weekend')) return null;
    const w = this.weekendAt(0);
    return { end: i + 2, ...(w.from <= this.now ? w : this.weekendAt(-1)) };
  }
}

/**
 * Finds English time expressions in a query and the window each one means, relative to `now`.
 * Windows are half-open `[from, to)` in UTC calendar terms. Returns `null` when the query has
 * none. Words that are only sometimes dates ("May I ask", "March Madness", "the 90s band",
 * "last one") do not parse; see docs/time.md for the grammar.
 *
 * @throws MnemoliteError `INVALID_INPUT` when `query` is not a string, `now` is not a valid
 *   Date, or `weekStartsOn` is not an integer 0–6.
 */
export function parseTimeExpressions(query: string, options: ParseTimeOptions = {}): TimeExpression[] | null {
  if (typeof query !== 'string') throw invalid(`The query must be a string, got ${query === null ? 'null' : typeof query}.`);
  const now = options.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw invalid('options.now must be a valid Date.', { field: 'now' });
  }
  const weekStartsOn = options.weekStartsOn ?? 1;
  if (!Number.isInteger(weekStartsOn) || weekStartsOn < 0 || weekStartsOn > 6) {
    throw invalid(`options.weekStartsOn must be an integer from 0 (Sunday) to 6 (Saturday), got ${String(weekStartsOn)}.`, {
      field: 'weekStartsOn',
    });
  }
  if (!mayNameTime(query)) return null;
  return parseUnfiltered(query, now, weekStartsOn);
}

/**
 * Words one of which every time phrase holds, when it holds no digit: months, weekdays, units, seasons,
 * parts of a day and the words that are windows on their own. Most questions have none, and parsing
 * them costs ~0.1 ms a recall.
 */
const ANCHORS: ReadonlySet<string> = new Set([
  ...MONTHS.keys(),
  ...MONTH_ABBR.keys(),
  ...WEEKDAYS.keys(),
  ...UNITS.keys(),
  ...SEASONS.keys(),
  ...PARTS.keys(),
  'today',
  'yesterday',
  'tomorrow',
  'tonight',
  'recently',
  'lately',
  'ago',
  'earlier',
  'weekend',
]);

/**
 * @internal Whether `query` can name a time at all: the parser's quick exit. Without an anchor word
 * only a four-digit number can (a year, "the 1990s", an ISO date): a count needs a unit, a day needs a
 * month, and the tokenizer takes each run of digits whole, so "(3)" or "port 80" is never a time.
 */
export function mayNameTime(query: string): boolean {
  if (/(?<!\d)\d{4}(?!\d)/.test(query)) return true;
  // Each run of ASCII letters (the tokenizer's words), as written or without a plural "s".
  for (let i = 0; i < query.length; ) {
    if (!isLetter(query.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < query.length && isLetter(query.charCodeAt(j))) j++;
    if (j - i <= 10) {
      const w = query.slice(i, j).toLowerCase();
      if (ANCHORS.has(w) || (w.endsWith('s') && ANCHORS.has(w.slice(0, -1)))) return true;
    }
    i = j;
  }
  return false;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** @internal The parse without the quick exit (tests check the exit never drops a phrase this finds). */
export function parseUnfiltered(query: string, now: Date, weekStartsOn = 1): TimeExpression[] | null {
  const toks = tokenize(query);
  const found = new Parser(toks, now.getTime(), weekStartsOn).all();
  if (found.length === 0) return null;
  return found.map(({ first, match }) => {
    const start = toks[first]!.start;
    const end = toks[match.end - 1]!.end;
    return { from: new Date(match.from), to: new Date(match.to), text: query.slice(start, end), start, end };
  });
}
