/**
 * LangGraph search filters on top-level value fields: equality, or the operators
 * `$eq $ne $gt $gte $lt $lte $in $nin`, as LangGraph's own stores define them.
 *
 * Equality on a scalar is also handed to mnemolite (its metadata filter runs inside both recall
 * legs, so `limit` stays exact); every condition is then checked here, so the SQL only narrows.
 */
import { MnemoliteError } from '../../errors.js';

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);
// mnemolite's metadata filter takes these field names only.
const META_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** A scalar mnemolite can compare in SQL. */
type Scalar = string | number | boolean | null;

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => OPERATORS.has(k));
}

/** Structural JSON equality. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function check(actual: unknown, op: string, expected: unknown): boolean {
  switch (op) {
    case '$eq':
      return same(actual, expected);
    case '$ne':
      return !same(actual, expected);
    case '$gt':
      return Number(actual) > Number(expected);
    case '$gte':
      return Number(actual) >= Number(expected);
    case '$lt':
      return Number(actual) < Number(expected);
    case '$lte':
      return Number(actual) <= Number(expected);
    case '$in':
      return Array.isArray(expected) && expected.some((e) => same(actual, e));
    case '$nin':
      return !Array.isArray(expected) || !expected.some((e) => same(actual, e));
    default:
      return false;
  }
}

/** Validate a filter: a plain object. */
export function checkFilter(filter: unknown): Record<string, unknown> | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== 'object' || Array.isArray(filter))
    throw new MnemoliteError('INVALID_INPUT', 'search: filter must be an object such as { "type": "note" }.');
  return filter as Record<string, unknown>;
}

/** Does the value satisfy every condition of the filter? */
export function matches(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([field, cond]) => {
    const actual = value[field];
    if (isOperatorObject(cond)) return Object.entries(cond).every(([op, v]) => check(actual, op, v));
    return same(actual, cond);
  });
}

/** The part of a filter mnemolite can apply itself: scalar equality on plainly named fields. */
export function pushDown(filter: Record<string, unknown> | undefined): Record<string, Scalar> | undefined {
  if (!filter) return undefined;
  const out: Record<string, Scalar> = {};
  for (const [field, cond] of Object.entries(filter)) {
    const v = isOperatorObject(cond) && '$eq' in cond ? cond.$eq : cond;
    if (!META_KEY.test(field)) continue;
    if (typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))) out[field] = v;
  }
  return Object.keys(out).length ? out : undefined;
}
