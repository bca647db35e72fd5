/**
 * The recall pipeline, in order: validate → embed the query → both legs → conversational context
 * and session evidence → fusion → preferences → re-ranking → relevance → rows. Each step is a file
 * of this folder; this one only says the order and what flows between them. {@link Memory.recall}
 * calls it; both stores run it, through the {@link Backend} they implement.
 */
import type { Backend, LegResults } from '../backend/types.js';
import { toRecord } from '../backend/records.js';
import { DEFAULTS } from '../defaults.js';
import type { EmbeddingService } from '../embed/cache.js';
import { MnemoliteError } from '../errors.js';
import type { RecallHit, RecallMode, RecallOptions } from '../types/memory.js';
import type { RelevanceEvidence } from '../types/recall.js';
import { checkQuery, parseRecall, toRowFilter, type ParsedRecall } from '../validate.js';
import { KEYWORD_EVIDENCE, type KeywordCandidate, SESSION_EVIDENCE_DEPTH, type SessionShape, withContext, withSessionEvidence } from './context-evidence.js';
import { ROLES, speakersOf } from './speaker-preference.js';
import { storedMetadata } from '../backend/records.js';
import { ADAPTIVE_DEFAULTS, fuse, type FusedHit } from './fusion.js';
import { applyPreferences, timeWindows, windowTime } from './prefer.js';
import { hasTopic } from './time-preference.js';
import type { TimeExpression } from './time-expr.js';
import type { MemoryRow } from '../types/rows.js';
import { lifecycleRank } from './rank.js';
import { withoutSuperseded } from './current-only.js';
import { DEFAULT_RERANK_TOP, rerankTop } from './rerank.js';
import { neighboursOf } from './neighbours.js';
import { type RecallReads, readOnce } from './read-once.js';
import { LOW_CONFIDENCE_RELEVANCE, evidenceFor, relevanceOf } from './relevance.js';
import { lap, tick } from '../stage-timer.js';
import type { RelevanceBaseline } from './baseline.js';

/** What the pipeline needs from the {@link Memory} that runs it. */
export interface RecallContext {
  backend: Backend;
  /** The query embedder with its caches, or null when semantic recall is off. */
  embeddings: EmbeddingService | null;
  /** Relevance's baseline per namespace, or null when semantic recall is off. */
  baseline: RelevanceBaseline | null;
  /** The embedder's id (the model whose stored vectors count), or null. */
  model: string | null;
  /** Why semantic recall is off, for the error a vector or hybrid recall gets. */
  semanticOff: string | undefined;
  /** Throws `CLOSED` once the Memory is closed (checked after every await). */
  live: () => void;
}

/** Recall `query` with `options` (unvalidated: the first step checks them). */
export async function recall(c: RecallContext, query: string, options: RecallOptions): Promise<RecallHit[]> {
  const q = checkQuery(query);
  const o = parseRecall(options);
  const filter = toRowFilter('recall', o);
  const mode = modeOf(c, o);
  const limit = o.limit ?? DEFAULTS.recallLimit;
  const depth = Math.min(DEFAULTS.maxCandidates, Math.max(o.candidates ?? Math.max(DEFAULTS.recallCandidates, limit * 3), limit));
  // A query of one namespace looks its vector up in that namespace's caches only.
  const qvec = mode === 'keyword' ? null : await c.embeddings!.embedQuery(q, filter.namespace);
  c.live();
  let t = tick();
  const legs = await c.backend.legs({ text: mode === 'vector' ? null : q, vector: qvec, model: c.model, depth, filter, exact: o.exact === true });
  t = lap('legs', t);
  // Rows and vectors the later steps share are read once per recall.
  const reads = readOnce(c.backend);
  // The sharp signal (a memory's own words) and the broad one (its context), added; then a session
  // with a strong match lifts its other matches.
  const shapes = candidateShapes(reads);
  const withCtx = withContext(legs.keyword, legs.context, depth, undefined, await contextShape(shapes, legs.keyword, legs.context));
  const keyword = withSessionEvidence(withCtx, legs.sessions ?? new Map(), undefined, await sessionShape(shapes, withCtx, legs.sessions));
  const evidence = { keyword: mode === 'vector' ? null : keyword, vector: qvec ? legs.vector : null, qvec };
  t = lap('evidence', t);
  const windows = timeWindows(q, o);
  // Relevance's baseline for this namespace (worked out on its first semantic recall, then kept).
  const baseline =
    qvec && c.baseline
      ? await c.baseline.of(filter.namespace, legs.scopeSize).catch((err: unknown) => {
          c.live(); // closed meanwhile: say so rather than how the store failed
          throw err;
        })
      : undefined;
  c.live();
  let ranked = fuseLegs(mode, keyword, legs, o, baseline);
  t = lap('fusion', t);
  if (o.rerank) ranked = await rerankTop(ranked, q, o.rerank, o.rerankTop ?? DEFAULT_RERANK_TOP, (s) => reads.rowsBySeqs(s));
  ranked = await applyPreferences(reads, ranked, q, o, c.model, evidence, windows);
  t = lap('preferences', t);
  ranked = await lifecycleRank(c.backend, ranked, o, c.model, limit, legs.successors);
  if (o.excludeSuperseded === true) ranked = await withoutSuperseded(c.backend, ranked, legs.successors);
  t = lap('rerank', t);
  const judged = await withRelevance(
    reads,
    ranked.slice(0, limit),
    {
      ...evidence,
      ...(mode === 'vector' ? {} : { matched: legs.keyword }),
      idfMass: legs.idfMass,
      model: c.model,
      ...(baseline !== undefined ? { baseline } : {}),
    },
    windows.length ? { windows, topic: hasTopic(q, windows), timeOf: (r) => windowTime(r, o) } : null,
  );
  let kept: JudgedHit[] = judged.filter((h) => h.relevance >= (o.minRelevance ?? 0));
  if (!kept.length && o.bestMatch === true && judged.length) {
    // Nothing clears the bar: the most relevant candidate, marked, when it is not hopeless.
    const best = judged.reduce((b, h) => (h.relevance > b.relevance ? h : b), judged[0]!);
    if (best.relevance >= LOW_CONFIDENCE_RELEVANCE) kept = [{ ...best, lowConfidence: true }];
  }
  t = lap('relevance', t);
  const around = o.neighbours ? await neighboursOf(c.backend, reads, kept, o.neighbours, new Date().toISOString()) : null;
  const hits = await toHits(reads, kept, around);
  lap('rows', t);
  c.live();
  return hits;
}

function modeOf(c: RecallContext, o: ParsedRecall): RecallMode {
  const mode = o.mode ?? (c.embeddings ? 'hybrid' : 'keyword');
  if (mode !== 'keyword' && !c.embeddings) {
    throw new MnemoliteError(
      'SEMANTIC_DISABLED',
      `Semantic recall is off (${c.semanticOff ?? 'no embedder'}), so mode "${mode}" cannot run. Use mode "keyword", or open with an embedder.`,
    );
  }
  return mode;
}

/** One ranked list from the legs the mode runs: a leg's own order, or the fusion of both. */
function fuseLegs(mode: RecallMode, keyword: readonly KeywordCandidate[], legs: LegResults, o: ParsedRecall, baseline: number | undefined): FusedHit[] {
  if (mode === 'keyword') return keyword.map((h, i) => ({ seq: h.seq, score: -h.bm25, keywordRank: i + 1 }));
  if (mode === 'vector') return legs.vector.map((h, i) => ({ seq: h.seq, score: h.score, vectorRank: i + 1 }));
  return fuse(
    keyword.map((h) => ({ seq: h.seq, score: -h.bm25 })),
    legs.vector,
    {
      method: o.fusion ?? 'adaptive',
      weights: { keyword: o.weights?.keyword ?? 1, vector: o.weights?.vector ?? 1 },
      rrfK: o.rrfK ?? 60,
      adaptive: ADAPTIVE_DEFAULTS,
      signals: { keywordIdfMass: legs.idfMass, ...(baseline !== undefined ? { vectorBaseline: baseline } : {}) },
    },
  );
}

/** A ranked hit with its calibrated relevance and the raw evidence behind it. */
interface JudgedHit extends FusedHit {
  relevance: number;
  evidence: RelevanceEvidence;
  lowConfidence?: true;
}

/** The windows a query names, for relevance: whether it asks about anything besides them, and a row's time. */
interface TimeMatch {
  windows: readonly TimeExpression[];
  topic: boolean;
  timeOf: (r: MemoryRow) => number;
}

/** Calibrated relevance from each hit's raw leg evidence and, when the query names a window, its time (src/recall/relevance.ts). */
async function withRelevance(reads: RecallReads, hits: FusedHit[], e: Parameters<typeof evidenceFor>[2], time: TimeMatch | null): Promise<JudgedHit[]> {
  const evidence = await evidenceFor(reads, hits, e);
  if (time) {
    // Rows the time preference read already (read once per recall).
    const rows = await reads.rowsBySeqs(hits.map((h) => h.seq));
    for (const h of hits) {
      const r = rows.get(h.seq);
      if (!r) continue;
      const t = time.timeOf(r);
      evidence.get(h.seq)!.inWindow = time.windows.some((w) => t >= w.from.getTime() && t < w.to.getTime());
    }
  }
  const judged = hits.map((h) => {
    const ev = evidence.get(h.seq)!;
    return { ...h, relevance: relevanceOf(ev, time ? { topic: time.topic } : undefined), evidence: ev };
  });
  // An update moved above the memory it replaces answers what that one answered: at least as relevant.
  const bySeq = new Map(judged.map((h) => [h.seq, h]));
  for (const h of judged) {
    const old = h.replaces === undefined ? undefined : bySeq.get(h.replaces);
    if (old && old.relevance > h.relevance) h.relevance = old.relevance;
  }
  return judged;
}

/** The hits as records (rows already read by the preferences are not read again). */
async function toHits(reads: RecallReads, hits: JudgedHit[], around: Awaited<ReturnType<typeof neighboursOf>> | null): Promise<RecallHit[]> {
  const rows = await reads.rowsBySeqs(hits.map((h) => h.seq));
  const out: RecallHit[] = [];
  for (const h of hits) {
    const r = rows.get(h.seq);
    if (!r) continue; // deleted between the legs and this read
    const hit: RecallHit = { ...toRecord(r), score: h.score, relevance: h.relevance, evidence: h.evidence };
    if (h.keywordRank !== undefined) hit.keywordRank = h.keywordRank;
    if (h.vectorRank !== undefined) hit.vectorRank = h.vectorRank;
    if (h.lowConfidence) hit.lowConfidence = true;
    const n = around?.get(h.seq);
    if (n) hit.neighbours = n;
    out.push(hit);
  }
  return out;
}

/** Each candidate's length and whether a role said it, worked out once per recall (rows read once). */
type Shapes = (seqs: number[]) => Promise<SessionShape>;
function candidateShapes(reads: RecallReads): Shapes {
  const length = new Map<number, number>(),
    role = new Set<number>();
  return async (seqs) => {
    const rows = await reads.rowsBySeqs(seqs.filter((s) => !length.has(s)));
    for (const [seq, r] of rows) {
      length.set(seq, r.content.length);
      const sp = speakersOf({ metadata: storedMetadata(r), content: r.content, sessionId: r.session_id });
      if (sp.length && sp.every((x) => ROLES.has(x.toLowerCase()))) role.add(seq);
    }
    return { length, role };
  };
}

/** Candidates of each field whose speakers tell whether the store holds a chat with an assistant. */
const ROLE_PROBE = 10;

/**
 * Which context candidates a role said, when role turns weigh context differently: only those of
 * the best 50 whose context scores above their own words (the others gain nothing from it anyway),
 * and only when a role said one of the best few of either field (rows the later steps read anyway):
 * a chat between people pays nothing more.
 */
async function contextShape(shapes: Shapes, own: readonly KeywordCandidate[], context: readonly KeywordCandidate[]): Promise<Pick<SessionShape, 'role'>> {
  if (!context.length || KEYWORD_EVIDENCE.roleContext === 1) return {};
  const probe = await shapes([...own.slice(0, ROLE_PROBE), ...context.slice(0, ROLE_PROBE)].map((h) => h.seq));
  if (!probe.role?.size) return {};
  const mine = new Map(own.map((h) => [h.seq, h.bm25]));
  return shapes(
    context
      .slice(0, SESSION_EVIDENCE_DEPTH)
      .filter((h) => h.bm25 < (mine.get(h.seq) ?? 0))
      .map((h) => h.seq),
  );
}

/** What session evidence reads about the session candidates: their lengths and which a role said (rows read once, shared with the later steps). */
async function sessionShape(shapes: Shapes, kw: readonly KeywordCandidate[], sessions: ReadonlyMap<number, string> | undefined): Promise<SessionShape> {
  if (!sessions?.size || KEYWORD_EVIDENCE.roleLength === 0) return {};
  return shapes(
    kw
      .slice(0, SESSION_EVIDENCE_DEPTH)
      .filter((h) => sessions.has(h.seq))
      .map((h) => h.seq),
  );
}
