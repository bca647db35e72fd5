/**
 * `mem.profile`: working memory, one small document per namespace that is always current
 * (src/types/profile.ts). Validation here; each store keeps the versions (src/backend/profile.ts,
 * src/pg/profile.ts) under the shared optimistic-update rule (src/lifecycle/profile.ts).
 */
import type { Backend } from '../backend/types.js';
import { MnemoliteError, invalid } from '../errors.js';
import { namespaceFor } from '../namespaces.js';
import { PROFILE_MAX_BYTES, type Profile, type ProfileHistory, type ProfileHistoryOptions, type ProfileRow, type ProfileSetOptions } from '../types/profile.js';
import { ALL_NAMESPACES, parseScope } from '../validate.js';

const HISTORY_PAGE = 20;
const HISTORY_PAGE_MAX = 50;
const UPDATE_ATTEMPTS = 3;

function options(v: unknown, allowed: readonly string[], what: string): Record<string, unknown> {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalid(`${what} must be an object.`);
  const unknown = Object.keys(v).filter((k) => !allowed.includes(k));
  if (unknown.length) throw invalid(`${what} has unknown option(s): ${unknown.join(', ')}. Check the spelling.`);
  return v as Record<string, unknown>;
}

/** One concrete namespace (the default when none is given); never `"*"`. */
export function profileNamespace(ns: unknown): string {
  const n = namespaceFor('add', parseScope(ns === undefined ? {} : { namespace: ns }).namespace);
  if (n === ALL_NAMESPACES) throw invalid('A profile belongs to one namespace, not "*". Name the namespace.', { field: 'namespace' });
  return n;
}

function wholeNumber(v: unknown, name: string, lo: number, hi: number): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
    throw invalid(`${name} must be a whole number from ${lo} to ${hi}, got ${String(v)}.`, { field: name });
  return v;
}

/** Validate a profile document: a string (empty clears it) of at most {@link PROFILE_MAX_BYTES} UTF-8 bytes. */
export function checkProfile(content: unknown): string {
  if (typeof content !== 'string') throw invalid(`The profile must be a string, got ${content === null ? 'null' : typeof content}.`, { field: 'content' });
  if (content.includes('\u0000')) throw invalid('The profile contains a NUL character (\\u0000). Remove it.', { field: 'content' });
  if (!(content as string & { isWellFormed(): boolean }).isWellFormed())
    throw invalid('The profile is not valid Unicode (it has a lone surrogate).', { field: 'content' });
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > PROFILE_MAX_BYTES)
    throw invalid(
      `The profile is ${bytes} bytes; the limit is ${PROFILE_MAX_BYTES}. Keep it to the facts that must always be in the prompt; store the rest as memories.`,
      {
        field: 'content',
        bytes,
        limit: PROFILE_MAX_BYTES,
      },
    );
  return content;
}

function toProfile(namespace: string, r: ProfileRow | undefined): Profile {
  return r ? { namespace, content: r.content, version: r.version, updatedAt: new Date(r.saved_at) } : { namespace, content: '', version: 0, updatedAt: null };
}

/** Working memory of a {@link Memory}: `mem.profile.get/set/update/history`. */
export class ProfileApi {
  /** @internal Built by Memory. */
  constructor(
    private readonly backend: Backend,
    private readonly live: () => void,
    private readonly writable: () => void,
  ) {}

  /** The namespace's profile (`version` 0 and `content` "" when none was written). */
  async get(opts: { namespace?: string } = {}): Promise<Profile> {
    this.live();
    const namespace = profileNamespace(options(opts, ['namespace'], 'profile options').namespace);
    return toProfile(namespace, await this.backend.profileGet(namespace));
  }

  /**
   * Replace the profile with `content` (free Markdown or a filled-in template; "" clears it). With
   * `expectedVersion`, writes only if the stored version is still that one, else throws `CONFLICT`.
   */
  async set(content: string, opts: ProfileSetOptions = {}): Promise<Profile> {
    this.writable();
    const o = options(opts, ['namespace', 'expectedVersion'], 'profile options');
    const namespace = profileNamespace(o.namespace);
    const expected = wholeNumber(o.expectedVersion, 'expectedVersion', 0, Number.MAX_SAFE_INTEGER);
    const text = checkProfile(content);
    return toProfile(namespace, await this.backend.profileSet(namespace, text, expected, new Date().toISOString()));
  }

  /**
   * Read, change and write back: `change` gets the current document and returns the new one. The
   * write expects the version read, so a concurrent writer's change is never lost: on `CONFLICT`
   * it reads again and calls `change` again (up to 3 times).
   */
  async update(change: (current: string) => string, opts: { namespace?: string } = {}): Promise<Profile> {
    this.writable();
    if (typeof change !== 'function') throw invalid('profile.update needs a function from the current document to the new one.');
    const namespace = profileNamespace(options(opts, ['namespace'], 'profile options').namespace);
    for (let attempt = 1; ; attempt++) {
      const cur = toProfile(namespace, await this.backend.profileGet(namespace));
      const text = checkProfile(change(cur.content));
      try {
        return toProfile(namespace, await this.backend.profileSet(namespace, text, cur.version, new Date().toISOString()));
      } catch (err) {
        if (!(err instanceof MnemoliteError && err.code === 'CONFLICT') || attempt >= UPDATE_ATTEMPTS) throw err;
      }
    }
  }

  /** Kept versions, newest first, paged (`limit` default 20, at most 50). */
  async history(opts: ProfileHistoryOptions = {}): Promise<ProfileHistory> {
    this.live();
    const o = options(opts, ['namespace', 'offset', 'limit'], 'profile history options');
    const namespace = profileNamespace(o.namespace);
    const offset = wholeNumber(o.offset, 'offset', 0, 1_000_000) ?? 0;
    const limit = wholeNumber(o.limit, 'limit', 1, HISTORY_PAGE_MAX) ?? HISTORY_PAGE;
    const { rows, total } = await this.backend.profileHistory(namespace, offset, limit);
    return { namespace, total, versions: rows.map((r) => ({ version: r.version, content: r.content, savedAt: new Date(r.saved_at) })) };
  }
}
