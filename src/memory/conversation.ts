/**
 * Conversation ingest: chat turns become memories, one per turn, with very short turns
 * ("ok", "haha yes") merged into a neighbour so they keep their context.
 */
import { MnemoliteError, invalid } from '../errors.js';
import type { AddInput, AddResult, Metadata } from '../types/memory.js';
import { wordCount } from '../text/words.js';
import { isoDate } from '../zod-dates.js';
import { type ChatMessageInput, type ChatMessageOptions, chatTurns } from './chat-messages.js';

/** One chat turn. */
export interface ConversationTurn {
  /** Who spoke, e.g. "Caroline" or "user". */
  speaker: string;
  /** What they said. */
  content: string;
  /** When it was said (Date or ISO 8601); becomes the memory's `eventAt` (when it happened) and its `createdAt`. */
  at?: Date | string;
}

/** Options for {@link Memory.addConversation}; `keepSystem`, `keepTools` and `speakers` apply to chat messages ({@link ChatMessageOptions}). */
export interface ConversationOptions extends ChatMessageOptions {
  /** Conversation id stored as every memory's `sessionId`. */
  sessionId?: string;
  /** Namespace (default `"default"`). */
  namespace?: string;
  /** Category of every memory. */
  category?: string;
  /**
   * When the conversation took place (e.g. the session's date): the `eventAt` of every memory whose
   * turns have no `at` of their own (a turn's `at` wins). Unlike `at`, it leaves `createdAt` alone.
   */
  eventAt?: Date | string;
  /** Extra metadata merged into every memory's metadata. */
  metadata?: Metadata;
  /** Turns with fewer words are merged with a neighbour (default 5; 0 never merges). */
  minWords?: number;
  /** Number of the first turn (default 0), for adding a session in several calls. */
  firstTurn?: number;
  /**
   * How many memories before each one in the session are indexed with it as its conversational
   * context (default 2; 0 turns it off). Needs `sessionId`; a session added in several calls keeps
   * its context across calls.
   */
  contextWindow?: number;
}

/** One stored memory of a conversation. */
export interface ConversationMemory extends AddResult {
  /** First and last turn number the memory holds (equal unless short turns were merged in). */
  turns: [number, number];
}

/** At most this many short turns join one longer turn (a run of only short turns is cut into groups of one more). */
const MAX_MERGED = 3;
const CONTROL = /[\u0000-\u001f\u007f]/;

interface Group {
  turns: number[];
  short: number;
  main: number | undefined;
}

/** Group turn indexes: each group is one memory. Short turns join the previous group, or the next one at the start. */
export function groupTurns(words: number[], minWords: number): number[][] {
  const groups: Group[] = [];
  let pending: number[] = [];
  words.forEach((w, i) => {
    const short = minWords > 0 && w < minWords;
    const last = groups[groups.length - 1];
    if (!short) {
      groups.push({ turns: [...pending, i], short: pending.length, main: i });
      pending = [];
    } else if (last && !pending.length && last.short < MAX_MERGED) {
      last.turns.push(i);
      last.short++;
    } else {
      pending.push(i);
      if (pending.length > MAX_MERGED) {
        groups.push({ turns: pending, short: pending.length, main: undefined });
        pending = [];
      }
    }
  });
  if (pending.length) groups.push({ turns: pending, short: pending.length, main: undefined });
  return groups.map((g) => g.turns);
}

function checkTurns(input: unknown, chat: ChatMessageOptions): { speaker: string; content: string; at: string | undefined }[] {
  if (!Array.isArray(input)) throw invalid('addConversation expects an array of turns { speaker, content, at? } or chat messages { role, content }.');
  for (const k of ['keepSystem', 'keepTools'] as const) if (chat[k] !== undefined && typeof chat[k] !== 'boolean') throw invalid(`${k} must be true or false.`);
  if (chat.speakers !== undefined && (chat.speakers === null || typeof chat.speakers !== 'object' || Array.isArray(chat.speakers)))
    throw invalid('speakers must be an object such as { "user": "Caroline", "assistant": "Assistant" }.');
  for (const [k, v] of Object.entries(chat.speakers ?? {})) if (typeof v !== 'string') throw invalid(`speakers.${k} must be a name (a string).`);
  // Chat messages become turns; skipped ones (system, tools, reasoning only) drop out.
  const turns = chatTurns(input, chat).filter((t) => t !== null);
  return turns.map((t: unknown, i) => {
    if (t === null || typeof t !== 'object') throw invalid(`turn ${i} must be an object { speaker, content, at? }.`);
    const { speaker, content, at, ...rest } = t as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length) throw invalid(`turn ${i} has unknown field(s): ${extra.join(', ')}. A turn is { speaker, content, at? }.`);
    if (typeof speaker !== 'string' || !speaker.trim() || speaker.length > 200 || CONTROL.test(speaker)) {
      throw invalid(`turn ${i}: speaker must be a short non-empty name without control characters, e.g. "Caroline".`);
    }
    if (typeof content !== 'string' || !content.trim()) throw invalid(`turn ${i}: content must be a non-empty string.`);
    let when: string | undefined;
    if (at !== undefined && at !== null) {
      // The one date check (real calendar dates, years 0001-9999): `new Date` alone rolls Feb 30 into March.
      const d = isoDate.safeParse(at);
      if (!d.success) throw invalid(`turn ${i}: at must be a Date or an ISO 8601 string of a real date, such as 2026-03-01T12:00:00Z.`);
      when = d.data;
    }
    return { speaker: speaker.trim(), content: content.trim(), at: when };
  });
}

/** Build the addMany items for a conversation (exported for testing). @internal */
export function conversationItems(
  turns: readonly (ConversationTurn | ChatMessageInput)[],
  options: ConversationOptions = {},
): { items: AddInput[]; groups: number[][] } {
  if (options === null || typeof options !== 'object') throw invalid('addConversation options must be an object.');
  const minWords = options.minWords ?? 5;
  const first = options.firstTurn ?? 0;
  if (!Number.isInteger(minWords) || minWords < 0) throw invalid('minWords must be a whole number ≥ 0.');
  if (!Number.isInteger(first) || first < 0) throw invalid('firstTurn must be a whole number ≥ 0.');
  if (options.metadata !== undefined && (options.metadata === null || typeof options.metadata !== 'object' || Array.isArray(options.metadata))) {
    throw invalid('metadata must be a plain object such as { "source": "chat" }.');
  }
  const { keepSystem, keepTools, speakers } = options;
  const ts = checkTurns(turns, {
    ...(keepSystem !== undefined ? { keepSystem } : {}),
    ...(keepTools !== undefined ? { keepTools } : {}),
    ...(speakers !== undefined ? { speakers } : {}),
  });
  const groups = groupTurns(
    ts.map((t) => wordCount(t.content)),
    minWords,
  );
  const items = groups.map((g): AddInput => {
    const main = g.find((i) => minWords === 0 || wordCount(ts[i]!.content) >= minWords) ?? g[0]!;
    const speakers = [...new Set(g.map((i) => ts[i]!.speaker))];
    const metadata: Metadata = { ...(options.metadata ?? {}), speaker: ts[main]!.speaker, turn: first + main };
    if (g.length > 1) {
      metadata.turns = [first + g[0]!, first + g[g.length - 1]!];
      metadata.speakers = speakers;
    }
    const at = g.map((i) => ts[i]!.at).find((a) => a !== undefined);
    const eventAt = at ?? options.eventAt;
    return {
      content: g.map((i) => `${ts[i]!.speaker}: ${ts[i]!.content}`).join('\n'),
      metadata,
      ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
      ...(options.category !== undefined ? { category: options.category } : {}),
      ...(at !== undefined ? { createdAt: at } : {}),
      // Validated by addMany like any eventAt (a bad conversation-level date is refused there, before any write).
      ...(eventAt !== undefined ? { eventAt } : {}),
      // Every turn is its own event: a turn repeating earlier words is still stored (no dedup).
      force: true,
    };
  });
  return { items, groups };
}

/**
 * Store chat turns as memories in one transaction: content is speaker-prefixed
 * ("Caroline: ..."), metadata holds `speaker` and `turn`, `eventAt` and `createdAt` come from
 * `at` (`eventAt` from the conversation's `eventAt` for turns without one).
 */
export async function addConversation(
  mem: { addMany(items: AddInput[]): Promise<AddResult[]> },
  turns: readonly (ConversationTurn | ChatMessageInput)[],
  options: ConversationOptions = {},
): Promise<ConversationMemory[]> {
  const { items, groups } = conversationItems(turns, options ?? {});
  if (!items.length) return [];
  let results: AddResult[];
  try {
    results = await mem.addMany(items);
  } catch (err) {
    // addMany names items; say which turns they were.
    if (err instanceof MnemoliteError && err.code === 'INVALID_INPUT') {
      const m = /^item (\d+) content/.exec(err.message);
      const g = m ? groups[Number(m[1])] : groups.length === 1 ? groups[0] : undefined;
      if (g && (m || err.message.startsWith('content '))) {
        const first = options.firstTurn ?? 0;
        const which = `the memory of turn${g.length > 1 ? 's' : ''} ${g.map((i) => i + first).join(', ')}`;
        throw new MnemoliteError('INVALID_INPUT', err.message.replace(/^(item \d+ )?content/, which), err.details, { cause: err });
      }
    }
    throw err;
  }
  const first = options.firstTurn ?? 0;
  return results.map((r, i) => ({ ...r, turns: [first + groups[i]![0]!, first + groups[i]![groups[i]!.length - 1]!] }));
}
