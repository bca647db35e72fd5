/**
 * Current over stale without hints. When two recall candidates state different values
 * about the same thing ("Falcon's API listens on port 6985" / later "Changed the Falcon service port
 * to 8961"), the newer one ranks first, whether or not the agent said which memory it replaces.
 *
 * "The same thing" is judged from evidence a store has without labels, all of which must agree:
 * same namespace, category and speaker ("Name: …" prefix); the two memories are close in meaning
 * (cosine of their stored vectors, token overlap without vectors); and they match the same part of
 * the query (the older one's matched query words are mostly matched by the newer one too), so a
 * newer memory about another attribute of the same subject does not jump ahead. Exact restatements
 * are left alone (they say the same value). A newer memory clearly farther from the query (cosine)
 * than the older one is not moved (update evidence allows a wider gap): templated memories that
 * differ in a detail pass the other tests and would otherwise bury the one the question is about.
 *
 * The same judgement, with a stricter similarity, backs `supersede: 'auto'` on add
 * (src/lifecycle/auto-supersede.ts).
 */
import type { FusedHit } from './fusion.js';
import { STOP_WORDS } from '../text/stopwords.js';
import { stem, stems } from '../text/stems.js';
import { SPEAKER_PREFIX } from '../text/speaker.js';
import { dot } from '../lifecycle/dedup.js';
import { jaccard, jaccardSorted, tokenSet } from './mmr.js';
import { saysChange } from '../lifecycle/update-cues.js';
import { AUTO_MIN_COSINE } from '../lifecycle/auto-supersede.js';
import { LOCAL_MODEL_ID } from '../embed/local.js';
import { amountQuestion, inPassing, otherAmount, type StatedAmount, statedAmount } from './stated-value.js';

/** How many of the best candidates the rule looks at (a newer one may come from far down). */
export const CURRENT_POOL = 100;
/** Words by which a query asks for the present value: the attribute-overlap test is then waived. */
const CURRENT_INTENT = /\b(now|nowadays|current|currently|these days|at the moment|today|latest|still|anymore|most recent)\b/i;
/** Smallest cosine between two memories about the same thing (bundled model; EVAL.md "Current over stale"). */
export const SAME_THING_COSINE = 0.5;
/**
 * The embedder {@link SAME_THING_COSINE} was measured with. Other embedders have other cosine scales
 * (some rate most pairs above 0.5, and every pair would look like "the same thing"), so their
 * candidates are compared by token overlap instead.
 */
export const CALIBRATED_MODEL = LOCAL_MODEL_ID;
/** Token-overlap (Jaccard) stand-in when a memory has no vector. */
export const SAME_THING_JACCARD = 0.3;
/** Share of the older memory's matched query words the newer one must match too. */
export const SHARED_QUERY_TERMS = 0.6;
/** Smallest ratio of the newer memory's BM25 to the older one's. */
export const KEYWORD_RATIO = 0.6;
/** Shared words besides the query's names (query words count twice) for "the same attribute". */
export const MIN_ATTRIBUTE_OVERLAP = 3;
/**
 * Largest drop in cosine to the query from the older memory to the newer one: without update
 * evidence, and with some (the query asks for the present, the newer one says it changed). Chosen on
 * the facts set's tune half and the synthetic speed corpus (EVAL.md "Look-alike guard"); the scale is
 * the embedder's, so another model may need other values.
 */
export const QUERY_COSINE_GAP: readonly number[] = [0.1, 0.2];
/**
 * Largest drop in cosine to the query from the older memory to the newer one when the newer names
 * what it replaces and says it changed ("Petra left the company, so Jonas Weber runs our team now"
 * is far from "Who is my boss?" in the bundled model, 0.20 against 0.48). Profiles tune half (EVAL.md).
 */
export const NAMED_UPDATE_GAP = 0.35;

/** Stems of a text's capitalised words past the first word of each sentence (names, products), stop words aside. */
export function distinctive(text: string): Set<string> {
  const out = new Set<string>();
  for (const sentence of text.split(/[.!?;:\n]+/)) {
    const words = sentence.match(/[\p{L}\p{N}_]+/gu) ?? [];
    words.forEach((w, i) => {
      if (i > 0 && w.length >= 3 && /^\p{Lu}/u.test(w) && !STOP_WORDS.has(w.toLowerCase())) out.add(stem(w.toLowerCase()));
    });
  }
  return out;
}

/** Speakers that are the user of a chat with an assistant: their turns state facts about themselves. */
const USER_ROLES: ReadonlySet<string> = new Set(['user', 'human']);

/** Candidates looked at when the query does not ask for the present value. */
export const PLAIN_POOL = 20;

/** How many of the best candidates {@link preferCurrent} looks at for `query`: callers read only those rows and vectors. */
export function currentPoolSize(query: string): number {
  return CURRENT_INTENT.test(query) ? CURRENT_POOL : PLAIN_POOL;
}

/** What the rule reads about one candidate. */
export interface CurrentMeta {
  namespace: string;
  category: string | null;
  content: string;
  /** When the memory's statement was made (ms): its `eventAt` when set, else `createdAt`. */
  time: number;
  vector?: Float32Array;
  /**
   * Who said it, when the store knows (metadata `speaker` / `speakers`, as `addConversation` and the
   * importers write them, role names such as `user` included); else the "Name: " prefix counts.
   */
  speaker?: string;
}

/** What the pairwise loop asks of one candidate again and again, worked out once per candidate. */
interface Facts {
  /** Its metadata's speaker, else its "Name: " prefix; undefined for a note. */
  speaker: string | undefined;
  trimmed: string;
  /** A chat turn: it has a speaker. */
  turn: boolean;
  /** A turn of the user of a chat with an assistant. */
  user: boolean;
}
function factsOf(m: CurrentMeta): Facts {
  const speaker = m.speaker ?? SPEAKER_PREFIX.exec(m.content)?.[1];
  return { speaker, trimmed: m.content.trim(), turn: speaker !== undefined, user: USER_ROLES.has((speaker ?? '').toLowerCase()) };
}

/**
 * The query's naming words: names and identifiers (capitalised past the first word, ALL CAPS of five
 * letters or more, camelCase, or holding a digit or underscore). A candidate about another subject lacks them.
 */
export function namingTerms(query: string): Set<string> {
  const out = new Set<string>();
  const words = query.match(/[\p{L}\p{N}_]+/gu) ?? [];
  words.forEach((w, i) => {
    // Short acronyms ("API", "URL", "DB") name a kind of thing shared by many subjects, not a subject.
    const acronym = /^\p{Lu}{2,4}$/u.test(w);
    const naming = !acronym && (/[\d_]/.test(w) || /^\p{Lu}{5,}$/u.test(w) || /\p{Ll}\p{Lu}/u.test(w) || (i > 0 && /^\p{Lu}/u.test(w)));
    if (naming && !STOP_WORDS.has(w.toLowerCase())) out.add(stem(w.toLowerCase()));
  });
  return out;
}

/** Whether two memories are about the same thing, before looking at the query. */
export function sameSubject(a: CurrentMeta, b: CurrentMeta, minCosine = SAME_THING_COSINE, minJaccard = SAME_THING_JACCARD): boolean {
  return sameSubjectBy(a, factsOf(a), b, factsOf(b), minCosine, () => jaccard(tokenSet(a.content), tokenSet(b.content)) >= minJaccard);
}

/** {@link sameSubject}, with each memory's {@link Facts} and the token-overlap test (memories without vectors) given. */
function sameSubjectBy(a: CurrentMeta, fa: Facts, b: CurrentMeta, fb: Facts, minCosine: number, overlaps: () => boolean): boolean {
  if (a.namespace !== b.namespace || a.category !== b.category) return false;
  if (fa.trimmed === fb.trimmed) return false;
  // Two turns by different speakers are about different people ("Mel: …" / "Caroline: …"); a
  // prefix on one side only is a note label ("Update: …"), not a speaker.
  const sa = fa.speaker,
    sb = fb.speaker;
  if (sa !== undefined && sb !== undefined && sa !== sb) return false;
  if (a.vector && b.vector && a.vector.length === b.vector.length) return dot(a.vector, b.vector) >= minCosine;
  return overlaps();
}

/**
 * Move each newer candidate that states the same thing as a higher-ranked older one directly above
 * it. `meta` holds the best {@link currentPoolSize} candidates (others are left where they are);
 * `bm25` the keyword leg's scores (lower is better), when that leg ran; `cosine` each candidate's
 * cosine to the query, when the vector leg ran. Returns a new list.
 */
export function preferCurrent(
  fused: readonly FusedHit[],
  meta: ReadonlyMap<number, CurrentMeta>,
  query: string,
  bm25?: ReadonlyMap<number, number>,
  cosine?: ReadonlyMap<number, number>,
): FusedHit[] {
  const q = stems(query);
  const naming = namingTerms(query);
  const intent = CURRENT_INTENT.test(query);
  /** How many candidates of the pool hold each stem (made on first need: only a changed newer memory asks). */
  let poolDf: Map<string, number> | null = null;
  const common = (w: string): boolean => {
    if (!poolDf) {
      poolDf = new Map();
      for (const seq of meta.keys()) for (const t of contentStems(seq)) poolDf.set(t, (poolDf.get(t) ?? 0) + 1);
    }
    return (poolDf.get(w) ?? 0) > Math.max(3, 0.25 * meta.size);
  };
  /**
   * Whether `b` names a distinctive word of `a`: a capitalised word past the start of a sentence
   * ("Jazz", "Petra", "Fiesta"), neither a word of the question nor one many candidates share (the
   * person they are all about).
   */
  const named = new Map<number, Set<string>>();
  const refers = (a: number, b: number): boolean => {
    const cb = contentStems(b);
    let d = named.get(a);
    if (!d) {
      d = distinctive(meta.get(a)!.content);
      named.set(a, d);
    }
    for (const w of d) if (cb.has(w) && !q.has(w) && !common(w)) return true;
    return false;
  };
  const contents = new Map<number, Set<string>>();
  const contentStems = (seq: number): Set<string> => {
    let s = contents.get(seq);
    if (!s) {
      s = stems(meta.get(seq)!.content);
      contents.set(seq, s);
    }
    return s;
  };
  const matched = new Map<number, Set<string>>();
  const qTerms = (seq: number): Set<string> => {
    let s = matched.get(seq);
    if (!s) {
      const c = contentStems(seq);
      s = new Set([...q].filter((t) => c.has(t)));
      matched.set(seq, s);
    }
    return s;
  };
  const closeAsUpdate = (a: number, b: number): boolean => {
    const va = meta.get(a)!.vector,
      vb = meta.get(b)!.vector;
    return va !== undefined && vb !== undefined && va.length === vb.length && dot(va, vb) >= AUTO_MIN_COSINE;
  };
  // A question asking for an amount: two memories stating other amounts in sentences that match it,
  // the newer one in passing, are two values of the attribute asked about (src/recall/stated-value.ts).
  const amount = amountQuestion(query, q);
  const amounts = new Map<number, StatedAmount | null>();
  const amountOf = (seq: number): StatedAmount | null => {
    let v = amounts.get(seq);
    if (v === undefined) {
      v = statedAmount(meta.get(seq)!.content, amount!);
      amounts.set(seq, v);
    }
    return v;
  };
  const newAmount = (a: number, b: number): boolean => {
    if (!amount) return false;
    const x = amountOf(a);
    if (!x) return false;
    const y = amountOf(b);
    return y !== null && inPassing(y) && otherAmount(x, y);
  };
  const cues = new Map<number, boolean>();
  const cue = (seq: number): boolean => {
    let c = cues.get(seq);
    if (c === undefined) {
      c = saysChange(meta.get(seq)!.content);
      cues.set(seq, c);
    }
    return c;
  };
  /**
   * Whether the newer memory `b` matches the query where the older `a` does. Two kinds of evidence
   * lower the bar: the query asks for the present value ("now", "current"), and `b` says itself that
   * a value changed ("moved to", "now", "switched"). With both, the keyword test is waived; with
   * neither, the two must share {@link MIN_ATTRIBUTE_OVERLAP} words besides the names.
   */
  const matchesLike = (a: number, b: number, turns: boolean, valued: boolean): boolean => {
    const qa = qTerms(a),
      qb = qTerms(b);
    // Chat turns say "now" in passing ("I'm now into pottery"), so between two turns the cue is no evidence.
    const changed = cue(b) && !turns;
    const evidence = Math.min(2, (intent ? 1 : 0) + (changed ? 1 : 0) + (valued ? 1 : 0));
    const xa = cosine?.get(a),
      xb = cosine?.get(b);
    // The newer one names what it replaces ("sold the Jazz", "Petra left …") and says it changed:
    // it updates the older one whether or not it repeats the question's words (live / moved, boss / manager).
    const names = changed && refers(a, b);
    if (!qa.size) {
      // Neither shares a word with the question ("Who is my boss?" / "My manager is Petra …"): the
      // newer one names what it replaces, or both kinds of evidence speak for it.
      // One kind of evidence ("Picked up the new Skoda" / "I drive a VW Golf", asked "What car do I
      // have?") is enough when the newer one is about as close to the question as the older (the
      // no-evidence gap) and as close to the older as `supersede: 'auto'` asks (a friend and a new
      // partner are 0.52 apart, two cars 0.60): it needs the vectors.
      if (!names && evidence < 2) return changed && xa !== undefined && xb !== undefined && xb >= xa - QUERY_COSINE_GAP[0]! && closeAsUpdate(a, b);
      return xa === undefined || xb === undefined || xb >= xa - (names ? NAMED_UPDATE_GAP : QUERY_COSINE_GAP[1]!);
    }
    let shared = 0;
    for (const t of qa)
      if (qb.has(t)) shared++;
      else if (naming.has(t)) return false;
    // An update need not repeat the attribute's word ("I live in Berlin" / "I moved to Munich"):
    // with both kinds of evidence, or when it names what it replaces, no shared query word is needed.
    if (!shared && (evidence === 2 || names)) return xa === undefined || xb === undefined || xb >= xa - (names ? NAMED_UPDATE_GAP : QUERY_COSINE_GAP[1]!);
    // A query asking for the present value needs only a shared word besides the names.
    // So does one stating another amount (its sentence with the amount matches the question already).
    if (shared < (intent || valued ? 1 : Math.max(1, Math.ceil(SHARED_QUERY_TERMS * qa.size)))) return false;
    // Keyword evidence: the newer one must match the query's vocabulary about as strongly.
    const ba = bm25?.get(a),
      bb = bm25?.get(b);
    if (evidence < 2 && ba !== undefined && (bb === undefined || -bb < (evidence ? KEYWORD_RATIO / 2 : KEYWORD_RATIO) * -ba)) return false;
    // Same attribute, not only the same subject: the two share words besides the query's names
    // (a shared query word counts twice), so "Pebble runs on Heroku" does not replace "Pebble's CI is Buildkite".
    const ca = contentStems(a),
      cb = contentStems(b);
    const needed = [MIN_ATTRIBUTE_OVERLAP, 1, 0][evidence]!;
    let overlap = 0;
    for (const t of ca) {
      if (overlap >= needed) break;
      if (cb.has(t) && !naming.has(t)) overlap += q.has(t) ? 2 : 1;
    }
    if (overlap < needed) return false;
    // Look-alike guard: a newer memory clearly farther from the question than the older one is
    // another memory of the same shape ("The security team's standup is at … ; Rina runs it"), not
    // its update. Update evidence widens the gap allowed. (Even with both kinds: a templated family
    // that all say "moved … now" otherwise buries the memory asked about; BENCHMARKS.md.)
    // Two stated amounts: the sentence that holds the amount matches the question, not the whole turn,
    // so a newer one that matches the question's words as strongly is near enough whatever its vector.
    const close = valued && ba !== undefined && bb !== undefined && -bb >= KEYWORD_RATIO * -ba;
    if (!close && xa !== undefined && xb !== undefined && xb < xa - QUERY_COSINE_GAP[evidence ? 1 : 0]!) return false;
    return true;
  };
  // The verdict for a pair depends only on the two memories, not on where they stand: each pass after
  // a move asks again for every pair above it, so verdicts are kept (a family of look-alikes makes
  // dozens of moves, and recomputing cost ~100 ms per query at a pool of 100; BENCHMARKS.md).
  const n = Math.min(fused.length, currentPoolSize(query));
  // By position in the pool as it came in (`at` follows the moves): flat arrays, not maps keyed by seq.
  const at: number[] = new Array(n);
  for (let x = 0; x < n; x++) at[x] = x;
  const metaAt = fused.slice(0, n).map((h) => meta.get(h.seq));
  // A moved candidate's score and the seq it replaces, by position: its hit is made once, at the end.
  const scores = new Float64Array(n);
  for (let x = 0; x < n; x++) scores[x] = fused[x]!.score;
  const replaced: (number | undefined)[] = new Array(n);
  const facts: (Facts | undefined)[] = new Array(n);
  const factsAt = (x: number): Facts => (facts[x] ??= factsOf(metaAt[x]!));
  const verdicts = new Int8Array(n * n); // 0 unknown, 1 yes, 2 no
  // Token overlap between memories without vectors, by one merge of numbered sorted token arrays.
  const ids = new Map<string, number>();
  const numbered: (Int32Array | undefined)[] = new Array(n);
  // The arrays are views of shared blocks: one allocation per block, not one per candidate.
  let block = new Int32Array(0),
    used = 0;
  const tokensAt = (x: number): Int32Array => {
    let t = numbered[x];
    if (!t) {
      const words = tokenSet(metaAt[x]!.content);
      if (used + words.size > block.length) {
        block = new Int32Array(Math.max(words.size, 64 * n));
        used = 0;
      }
      t = block.subarray(used, used + words.size);
      used += words.size;
      let k = 0;
      for (const w of words) {
        let id = ids.get(w);
        if (id === undefined) {
          id = ids.size;
          ids.set(w, id);
        }
        t[k++] = id;
      }
      t.sort();
      numbered[x] = t;
    }
    return t;
  };
  const overlap = (x: number, y: number): boolean => {
    const tx = tokensAt(x),
      ty = tokensAt(y);
    // Jaccard is at most the smaller set over the larger: most pairs fail without a merge.
    if (Math.min(tx.length, ty.length) < SAME_THING_JACCARD * Math.max(tx.length, ty.length)) return false;
    return jaccardSorted(tx, ty) >= SAME_THING_JACCARD;
  };
  const updates = (x: number, a: CurrentMeta, fa: Facts, y: number, b: CurrentMeta, fb: Facts): boolean => {
    const v = verdicts[x * n + y]!;
    if (v) return v === 1;
    // Two memories stating other amounts in sentences that match the question, the newer one in
    // passing, are about the same thing whatever the rest of it says (its vector is about the rest).
    const valued = newAmount(fused[x]!.seq, fused[y]!.seq);
    const yes =
      (valued ? sameSubjectBy(a, fa, b, fb, -1, () => true) : sameSubjectBy(a, fa, b, fb, SAME_THING_COSINE, () => overlap(x, y))) &&
      matchesLike(fused[x]!.seq, fused[y]!.seq, fa.turn && fb.turn, valued);
    verdicts[x * n + y] = yes ? 1 : 2;
    return yes;
  };
  // Each move puts a strictly newer memory above an older one, so this terminates; the bound on
  // moves guards against odd data. After a move at row i the scan resumes at row i, not at the top:
  // rows above i see the same memories below them as before (in another order), and verdicts do not
  // depend on order, so none of them can move anything now.
  let moves = 0;
  for (let i = 0; i < n && moves < 2 * n; ) {
    const a = metaAt[at[i]!];
    let moved = false;
    for (let j = i + 1; a && j < n; j++) {
      const b = metaAt[at[j]!];
      // Chat turns repeat themselves ("have you read …?") without updating anything: between two
      // turns only a question about the present counts (EVAL.md: conversations fell otherwise).
      // Two turns of the user in a chat with an assistant are the user's own statements about their
      // life, compared as notes are ("I have 10 baseballs" / later "… my 15th"; LongMemEval's
      // knowledge updates). Checked first: it is cheap, and in a chat store it settles nearly every pair.
      if (!b || b.time <= a.time) continue;
      const fa = factsAt(at[i]!),
        fb = factsAt(at[j]!);
      if ((!intent && fa.turn && fb.turn && !(fa.user && fb.user)) || !updates(at[i]!, a, fa, at[j]!, b, fb)) continue;
      const x = at[i]!,
        y = at[j]!;
      scores[y] = Math.max(scores[y]!, scores[x]!);
      replaced[y] = fused[x]!.seq;
      at.splice(j, 1);
      at.splice(i, 0, y);
      moves++;
      moved = true;
      break;
    }
    // After a move, row i holds the moved memory: look below it again.
    if (!moved) i++;
  }
  if (!moves) return fused.slice();
  const out: FusedHit[] = new Array(fused.length);
  for (let k = 0; k < n; k++) {
    const x = at[k]!;
    const r = replaced[x];
    out[k] = r === undefined ? fused[x]! : { ...fused[x]!, score: scores[x]!, replaces: r };
  }
  for (let k = n; k < fused.length; k++) out[k] = fused[k]!;
  return out;
}
