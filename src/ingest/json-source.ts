/**
 * Reading an export file for an importer: decode, parse JSON with a line:column on a syntax error,
 * and name every problem by its JSON path (`$[3].mapping["n1"].message`) so the user can find it.
 */
import { invalid } from '../errors.js';
import type { MnemoliteError } from '../errors.js';
import { realFields } from '../zod-dates.js';

/** File contents (text or bytes) or an already parsed value. */
export type HistoryData = string | Uint8Array | unknown;

/** Text of `data` when it is a string or UTF-8 bytes, else `undefined` (already parsed). */
export function dataText(data: HistoryData, file: string): string | undefined {
  if (typeof data === 'string') return data.replace(/^\uFEFF/, '');
  if (data instanceof Uint8Array) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(data).replace(/^\uFEFF/, '');
    } catch {
      throw invalid(`${file} is not UTF-8 text. Nothing was imported.`);
    }
  }
  return undefined;
}

/** Line and column (1-based) of a character offset. */
function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return `line ${line}, column ${pos - before.lastIndexOf('\n')}`;
}

/** JSON.parse, with the line and column of a syntax error in the message. */
export function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /at position (\d+)/.exec(msg);
    const at = pos ? ` at ${lineCol(text, Number(pos[1]))}` : '';
    throw invalid(`${where} is not valid JSON${at} (${msg}). Nothing was imported.`);
  }
}

/** A JSON path step appended to `path`: `.name` for identifiers, `["…"]` otherwise, `[i]` for indexes. */
export function step(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** An INVALID_INPUT error naming the file and the JSON path of the problem. */
export function bad(file: string, path: string, problem: string): MnemoliteError {
  return invalid(`${file}: ${path} ${problem}. Nothing was imported.`, { file, path });
}

/** Reads fields of one JSON object, reporting wrong types by path. */
export class Obj {
  constructor(
    readonly value: Record<string, unknown>,
    readonly path: string,
    readonly file: string,
  ) {}

  /** `value` at `path` as an object, or an error. */
  static of(value: unknown, path: string, file: string, what = 'an object'): Obj {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad(file, path, `must be ${what}`);
    return new Obj(value as Record<string, unknown>, path, file);
  }

  at(key: string): string {
    return step(this.path, key);
  }

  /** A string field; `undefined` when absent or null. */
  str(key: string, required = false): string | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) {
      if (required) throw bad(this.file, this.at(key), 'is missing (a string is required)');
      return undefined;
    }
    if (typeof v !== 'string') throw bad(this.file, this.at(key), `must be a string, not ${Array.isArray(v) ? 'an array' : typeof v}`);
    return v;
  }

  /** A finite number field; `undefined` when absent or null. */
  num(key: string): number | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(this.file, this.at(key), 'must be a number');
    return v;
  }

  /** A nested object; `undefined` when absent or null. */
  obj(key: string, required = false): Obj | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) {
      if (required) throw bad(this.file, this.at(key), 'is missing (an object is required)');
      return undefined;
    }
    return Obj.of(v, this.at(key), this.file);
  }

  /** An array field; `[]` when absent or null. */
  arr(key: string, required = false): unknown[] {
    const v = this.value[key];
    if (v === undefined || v === null) {
      if (required) throw bad(this.file, this.at(key), 'is missing (an array is required)');
      return [];
    }
    if (!Array.isArray(v)) throw bad(this.file, this.at(key), 'must be an array');
    return v;
  }

  /** A date field (ISO 8601 string, or a number of seconds since 1970: the exports' epoch); `undefined` when absent. */
  date(key: string): string | undefined {
    const v = this.value[key];
    if (v === undefined || v === null || v === '') return undefined;
    const d = toDate(v);
    if (!d) throw bad(this.file, this.at(key), 'must be a date (ISO 8601 text or seconds since 1970)');
    return d;
  }
}

/** ISO 8601 of a date given as text or epoch seconds (milliseconds when ≥ 10^11), or `undefined`. */
export function toDate(v: unknown): string | undefined {
  let d: Date | undefined;
  if (typeof v === 'number' && Number.isFinite(v)) d = new Date(Math.abs(v) >= 1e11 ? v : v * 1000);
  else if (typeof v === 'string' && v.trim()) {
    // ISO text must be a real calendar date ("2026-02-30" is a mistake, not March 2), as everywhere else.
    if (/^\d{4}-\d{2}-\d{2}/.test(v.trim()) && !realFields(v.trim())) return undefined;
    d = new Date(/^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) * (Number(v) >= 1e11 ? 1 : 1000) : v);
  }
  if (!d || !Number.isFinite(d.getTime())) return undefined;
  return d.toISOString();
}
