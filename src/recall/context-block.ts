/**
 * Prompt-ready memory: `mem.context(query, { maxTokens })` turns a recall into a compact
 * text block for a system prompt. Only memories above the relevance threshold, each with its date;
 * current facts first (recall's current-over-stale order), superseded memories left out; cut to a
 * token budget (whole memories only, best first).
 */
import { MnemoliteError } from '../errors.js';
import { estimateTokens } from '../text/words.js';
import { DEFAULT_MIN_RELEVANCE } from './relevance.js';
import type { RecallHit, RecallOptions } from '../types/memory.js';

/** Options of {@link buildContext} / `Memory.context`. */
export interface ContextOptions extends Omit<RecallOptions, 'limit' | 'mmr'> {
  /** Token budget of the whole block, header included (estimated as in chunking; default 500, 20..100000). */
  maxTokens?: number;
  /** Candidates recalled before the budget cut (default 20, 1..200). */
  limit?: number;
  /** First line of the block (default "Relevant memories (most relevant first):"); `""` for none. */
  header?: string;
  /** Put the namespace's profile (working memory, `mem.profile`) in full at the top (default true). */
  profile?: boolean;
}

/** One memory in the block. */
export interface ContextItem {
  id: string;
  content: string;
  /** The date shown: `eventAt` when set, else `createdAt`, as YYYY-MM-DD. */
  date: string;
  relevance: number;
}

/** Result of `Memory.context`. */
export interface ContextResult {
  /** The block ("" when nothing is relevant). */
  text: string;
  /** The memories in the block, in order. */
  memories: ContextItem[];
  /** Estimated tokens of `text`. */
  tokens: number;
  /** Relevant memories left out by the budget. */
  omitted: number;
  /** The profile version at the top of the block, when there is one. */
  profileVersion?: number;
  /**
   * With `bestMatch: true`, when no memory reached the threshold: the block holds the closest one
   * under the header "Possibly related (low confidence):" and this is true.
   */
  lowConfidence?: true;
}

/** Default token budget. */
export const DEFAULT_CONTEXT_TOKENS = 500;
const DEFAULT_HEADER = 'Relevant memories (most relevant first):';
/** Header of the profile section at the top of a block. */
export const PROFILE_HEADER = 'Profile (always current):';
/** Header of a block holding only a below-threshold best match (`bestMatch: true`). */
export const LOW_CONFIDENCE_HEADER = 'Possibly related (low confidence):';

function checkInt(v: unknown, name: string, lo: number, hi: number): void {
  if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)) {
    throw new MnemoliteError('INVALID_INPUT', `${name} must be an integer from ${lo} to ${hi}, got ${String(v)}.`, { field: name });
  }
}

/** The date a memory is shown with. */
function dateOf(h: RecallHit): string {
  return (h.eventAt ?? h.createdAt).toISOString().slice(0, 10);
}

/**
 * Build the block from a `recall` function (the Memory's). Validation of the recall options is the
 * recall's own; the context options are checked here first, so bad input changes nothing.
 */
export async function buildContext(
  recall: (q: string, o: RecallOptions) => Promise<RecallHit[]>,
  query: string,
  options: ContextOptions = {},
  profile?: { content: string; version: number },
): Promise<ContextResult> {
  if (options === null || typeof options !== 'object') throw new MnemoliteError('INVALID_INPUT', 'context options must be an object.');
  const { maxTokens, limit, header, profile: _withProfile, ...recallOpts } = options;
  checkInt(maxTokens, 'maxTokens', 20, 100_000);
  checkInt(limit, 'limit', 1, 200);
  if (header !== undefined && typeof header !== 'string') throw new MnemoliteError('INVALID_INPUT', 'header must be a string.', { field: 'header' });
  const budget = maxTokens ?? DEFAULT_CONTEXT_TOKENS;
  const hits = await recall(query, { ...recallOpts, minRelevance: recallOpts.minRelevance ?? DEFAULT_MIN_RELEVANCE, limit: limit ?? 20 });
  const relevant = hits.filter((h) => !h.supersededBy);
  const low = relevant.length > 0 && relevant.every((h) => h.lowConfidence);
  const head = low ? LOW_CONFIDENCE_HEADER : (header ?? DEFAULT_HEADER);
  // The profile goes in whole, first; memories fill what is left of the budget.
  const top = profile?.content.trim() ? `${PROFILE_HEADER}\n${profile.content.trim()}\n` : '';
  const lines: string[] = head ? [head] : [];
  let tokens = estimateTokens(top) + estimateTokens(lines.join('\n'));
  const memories: ContextItem[] = [];
  for (const h of relevant) {
    const date = dateOf(h);
    // A whitespace run holding a line break becomes one space (one match per run: linear).
    const line = `- [${date}] ${h.content.replace(/\s+/g, (ws) => (ws.includes('\n') ? ' ' : ws))}`;
    const cost = estimateTokens(line) + 1;
    if (tokens + cost > budget) break; // best first: a lower hit never displaces a better one
    lines.push(line);
    tokens += cost;
    memories.push({ id: h.id, content: h.content, date, relevance: h.relevance });
  }
  const withProfile = top ? { profileVersion: profile!.version } : {};
  if (!memories.length) return { text: top.trimEnd(), memories, tokens: top ? estimateTokens(top) : 0, omitted: relevant.length, ...withProfile };
  const text = top + lines.join('\n');
  return {
    text,
    memories,
    tokens: estimateTokens(text),
    omitted: relevant.length - memories.length,
    ...(low ? { lowConfidence: true as const } : {}),
    ...withProfile,
  };
}
