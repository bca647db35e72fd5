/**
 * `supersede: 'auto'` on add: link a new memory to the older one it updates, when the
 * evidence is strong, as if the caller had passed `supersedes`. Opt-in and precision-first: a wrong
 * link ranks a true memory below another one (nothing is ever deleted), so every signal must agree:
 *
 * - the new text reads as an update ("now", "moved", "changed", "new …:", "switched", "took over",
 *   "upgraded", "promoted", "no longer", "(was …)");
 * - same namespace and category, same speaker when both have one, an older memory not already
 *   superseded, with different content;
 * - the older memory is not about one occasion that was over before the new one was said
 *   ("moved to Friday", "Standup 2025-02-17: …"; src/lifecycle/occasion.ts);
 * - they name the same subject (the names of one all occur in the other) or, with no names, share two content words;
 * - they share a content word besides the names (the attribute: "port", "team", "phone");
 * - they are close in meaning (cosine ≥ {@link AUTO_MIN_COSINE} when vectors exist).
 *
 * The best such candidate (highest cosine) among the new text's top recall hits is linked.
 */
import type { RecallHit } from '../types/memory.js';
import { STOP_WORDS } from '../text/stopwords.js';
import type { RecallOptions } from '../types/memory.js';
import { SPEAKER_PREFIX } from '../text/speaker.js';
import { stems } from '../text/stems.js';
import { trimEndChars } from '../text/trim.js';
import { occasionPassed } from './occasion.js';
import { UPDATE_CUE, saysUpdate, statedAt } from './update-cues.js';

/** Smallest cosine between an update and the memory it replaces (bundled model; EVAL.md). */
export const AUTO_MIN_COSINE = 0.55;

/** Words that open a note rather than name its subject. */
const STARTERS = new Set(['met', 'released', 'shipped', 'decided', 'note', 'reminder', 'update', 'user', 'heads-up', 'fyi', 'todo']);

/**
 * The names a text is about, in order: capitalised words and identifiers, without short acronyms
 * ("API", "HTTP": shared by unrelated notes), stop words, update cues and note openers.
 */
function names(text: string, dropSpeaker: boolean): string[] {
  const out: string[] = [];
  for (const w of (dropSpeaker ? text.replace(SPEAKER_PREFIX, '') : text).match(/[\p{L}\p{N}_-]+/gu) ?? []) {
    const x = trimEndChars(w, '-');
    const lower = x.toLowerCase();
    if (x.length < 2 || /^\p{Lu}{2,4}$/u.test(x) || STOP_WORDS.has(lower) || STARTERS.has(lower) || UPDATE_CUE.test(x)) continue;
    if ((/_/.test(x) || /\p{Ll}\p{Lu}/u.test(x) || /^\p{Lu}/u.test(x)) && !out.includes(lower)) out.push(lower);
  }
  return out;
}

/**
 * Whether two memories name the same subject: one's names all occur in the other. "Amara Eze took
 * over Pebble from Zoe Fischer" names all that "Pebble is owned by Zoe Fischer" does; "Postgres for
 * Heron bumped to 15" and "Postgres for Magpie bumped to 15" each name something the other does not.
 */
function nested(a: readonly string[], b: readonly string[]): boolean {
  return a.every((x) => b.includes(x)) || b.every((x) => a.includes(x));
}

/** What the rule knows about the memory being added. */
export interface NewMemory {
  content: string;
  namespace: string;
  category: string | null;
  /** ms since epoch. */
  time: number;
}

/** The candidate `content` most likely updates, or undefined. `hits` come from recalling `content` itself. */
export function pickSuperseded(m: NewMemory, hits: readonly RecallHit[]): RecallHit | undefined {
  if (!saysUpdate(m.content)) return undefined;
  const nStems = stems(m.content);
  const speaker = SPEAKER_PREFIX.exec(m.content)?.[1];
  let best: RecallHit | undefined;
  for (const h of hits) {
    if (h.namespace !== m.namespace || h.category !== m.category || h.supersededBy) continue;
    if (statedAt(h) >= m.time || h.content.trim() === m.content.trim()) continue;
    // A note about one occasion ("moved to Friday") that has passed is not a value a new note updates.
    if (occasionPassed(h.content, statedAt(h), m.time)) continue;
    const hs = SPEAKER_PREFIX.exec(h.content)?.[1];
    if (speaker !== undefined && hs !== undefined && speaker !== hs) continue;
    const cos = h.evidence.cosine;
    if (cos !== undefined && cos < AUTO_MIN_COSINE) continue;
    // A "Name: …" prefix is a speaker only when both have one (checked equal above); on one side
    // only it is a label that holds the subject ("Met Diego Alvarez today: staff engineer …").
    const both = speaker !== undefined && hs !== undefined;
    const nNames = names(m.content, both),
      hNames = names(h.content, both);
    const hStems = stems(h.content);
    const namesAsStems = new Set([...nNames, ...hNames].map((x) => stems(x)).flatMap((s) => [...s]));
    const sharedWords = [...nStems].filter((x) => hStems.has(x) && !namesAsStems.has(x));
    // The same subject: one's names all occur in the other ("Postgres for Heron…" is not about
    // "Postgres for Magpie…"), or neither names anything and they share two words.
    const subject = nNames.length && hNames.length ? nested(nNames, hNames) : !nNames.length && !hNames.length && sharedWords.length >= 2;
    if (!subject || sharedWords.length < 1) continue;
    if (!best || (cos ?? 0) > (best.evidence.cosine ?? 0)) best = h;
  }
  return best;
}

/** One parsed add, as `resolveAutoSupersede` reads and amends it. */
export interface AutoItem {
  content: string;
  opts: {
    namespace?: string | undefined;
    category?: string | undefined;
    createdAt?: string | undefined;
    eventAt?: string | undefined;
    supersedes?: string | undefined;
    supersede?: 'auto' | undefined;
  };
}

/**
 * For each item asking for `supersede: 'auto'` (and naming no `supersedes` itself), recall its
 * content among the stored memories and link it to the memory it updates. Items of one batch do not
 * see each other. Returns the links made, by item index; sets `opts.supersedes` on those items.
 */
export async function resolveAutoSupersede(recall: (q: string, o: RecallOptions) => Promise<RecallHit[]>, items: AutoItem[]): Promise<Map<number, string>> {
  const links = new Map<number, string>();
  for (const [i, it] of items.entries()) {
    if (it.opts.supersede !== 'auto' || it.opts.supersedes !== undefined) continue;
    const ns = it.opts.namespace ?? 'default';
    const stated = it.opts.eventAt ?? it.opts.createdAt; // when it was said, as current over stale orders
    const at = stated ? Date.parse(stated) : Date.now();
    const hits = await recall(it.content, {
      namespace: ns,
      limit: 10,
      preferCurrent: false,
      timePreference: false,
      preferSpeaker: false,
      ...(it.opts.category !== undefined ? { category: it.opts.category } : {}),
    });
    const pick = pickSuperseded({ content: it.content, namespace: ns, category: it.opts.category ?? null, time: at }, hits);
    if (pick) {
      it.opts.supersedes = pick.id;
      links.set(i, pick.id);
    }
  }
  return links;
}
