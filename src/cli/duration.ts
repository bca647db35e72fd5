/**
 * Strict duration flags for the CLI (`--ttl`, `--recency`). A bare number is refused: `--ttl 7 days`
 * unquoted reaches us as "7" (and "days" joins the content), so a unit is required.
 */
import { MnemoliteError } from '../index.js';

const UNITS: ReadonlyArray<[RegExp, number, string]> = [
  [/^(ms|msecs?|milliseconds?)$/, 1, 'ms'],
  [/^(s|secs?|seconds?)$/, 1000, 's'],
  [/^(m|mins?|minutes?)$/, 60_000, 'm'],
  [/^(h|hrs?|hours?)$/, 3_600_000, 'h'],
  [/^(d|days?)$/, 86_400_000, 'd'],
  [/^(w|wks?|weeks?)$/, 604_800_000, 'w'],
  [/^(y|yrs?|years?)$/, 31_536_000_000, 'y'],
];

const EXAMPLES = '90s, 15m, 12h, 7d, "7 days", 2w, 1y or 5000ms';

/**
 * Parser for a duration flag: `"7d"`, `"7 days"`, `"1.5h"`, `"500ms"` → milliseconds.
 * Refuses a missing unit and units of uncertain length (months), naming the flag.
 */
export function durationFlag(flag: string): (v: string) => number {
  return (v: string): number => {
    // Trimmed first: `\s*([a-z]*)\s*$` would try every split of a long blank run (quadratic).
    const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(v.trim());
    if (!m) throw new MnemoliteError('INVALID_INPUT', `${flag} must be a duration such as ${EXAMPLES}; got "${v}".`);
    const [, amount, rawUnit] = m;
    const unit = rawUnit!.toLowerCase();
    if (unit === '') {
      throw new MnemoliteError(
        'INVALID_INPUT',
        `${flag} ${v} has no unit. Write ${amount}d, ${amount}h or ${amount}ms (quote "${amount} days" if it has a space); nothing was changed.`,
      );
    }
    const found = UNITS.find(([re]) => re.test(unit));
    if (!found) {
      const hint = /^(mo|mon|months?)$/.test(unit) ? ' Months vary in length: use days or weeks.' : '';
      throw new MnemoliteError('INVALID_INPUT', `${flag} does not know the unit "${rawUnit}" in "${v}".${hint} Use one of ${EXAMPLES}.`);
    }
    const ms = Number(amount) * found[1];
    if (!(ms > 0)) throw new MnemoliteError('INVALID_INPUT', `${flag} must be longer than zero, got "${v}".`);
    return ms;
  };
}
