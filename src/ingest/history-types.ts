/** What the history parsers (one file per export format) produce. */
import { trimEndChars } from '../text/trim.js';

/** One message of an imported conversation, already cleaned (no system/tool noise, not empty). */
export interface HistoryMessage {
  /** The message's id in the export (or its line). */
  id: string;
  /** Role or name, e.g. `user`, `assistant`, `human`. */
  speaker: string;
  content: string;
  /** ISO 8601, when the export has it. */
  at?: string;
}

/** One conversation of an export. */
export interface HistoryConversation {
  /** The conversation's id in the export. */
  id: string;
  title?: string;
  /** ISO 8601. */
  createdAt?: string;
  messages: HistoryMessage[];
  /** Where it is in the file (`$[3]`, `line 12`), for error messages. */
  where: string;
}

/** One memory of a memory export (mem0): not a conversation, a fact. */
export interface HistoryFact {
  id: string;
  content: string;
  /** ISO 8601. */
  createdAt?: string;
  metadata: Record<string, unknown>;
  where: string;
}

/** What a parser found, and what it left out on purpose. */
export interface ParsedHistory {
  conversations: HistoryConversation[];
  facts: HistoryFact[];
  /** Messages (or memories) left out: system and tool messages, hidden ones, empty ones. */
  skipped: number;
  /** Messages cut to fit the content limit. */
  truncated: number;
}

/** Longest message kept, in UTF-8 bytes; the rest is cut (a memory holds at most 100,000 bytes, and short turns may join it). */
export const MAX_MESSAGE_BYTES = 90_000;

/** A message's text made storable: NULs removed, trimmed, cut to {@link MAX_MESSAGE_BYTES}. */
export function cleanText(text: string): { text: string; truncated: boolean } {
  // eslint-disable-next-line no-control-regex
  let t = text.replace(/\u0000/g, '').trim();
  if (Buffer.byteLength(t, 'utf8') <= MAX_MESSAGE_BYTES) return { text: t, truncated: false };
  t = Buffer.from(t, 'utf8').subarray(0, MAX_MESSAGE_BYTES).toString('utf8');
  t = trimEndChars(t, '\uFFFD');
  return { text: `${t} […]`, truncated: true };
}

/** A speaker name storable as one: control characters become spaces, at most 200 characters. */
export function cleanSpeaker(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, 200);
}
