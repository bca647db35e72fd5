/**
 * The kinds of memory the relevance calibration is fitted and checked on (issue 24), each built
 * through the public API into a store of its own, each with answerable and off-topic questions:
 *
 * | kind | store | answerable | off-topic | reported apart |
 * |:--|:--|:--|:--|:--|
 * | facts | eval/data/facts.json | its 411 queries | eval/data/offtopic.json | – |
 * | conversations | eval/data/conversations.json (generated chats) | its 380 questions | offtopic.json, one conversation each | – |
 * | profiles | eval/data/profiles.json (hand-written) | reworded, update, time questions | its world and personal off-topic questions | – |
 * | locomo | ../shared/locomo-dev, `addConversation` per session | categories 1–4 | offtopic.json, one conversation each (one that does not mention the question's subject) | category 5 |
 * | longmemeval | ../shared/longmemeval-dev, `addConversation` per session | the 60 answerable questions | offtopic.json, one question's haystack each (likewise) | the 15 abstention questions |
 *
 * For every question the dump keeps the default recall's top 10 (hybrid, limit 10) with each hit's
 * evidence and label, the keyword-only recall's top 10 likewise, and the vector leg's top-50
 * cosines (the candidate distribution the library sees), so relevance functions can be tried
 * offline (eval/relevance-cv.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openMemory, type Memory } from '../src/index.js';
import type { RecallHit, RecallOptions } from '../src/types/memory.js';
import type { CachingEmbedder } from './embed-cache.js';
import type { Dataset } from './gen-util.js';
import { defaultLocomoDir, loadLocomo, storeConversation } from './locomo.js';
import { defaultLmeDir, loadLme, openLme } from './longmemeval.js';
import { loadProfiles, storeProfiles } from './profiles.js';
import { collides, fillerOf } from './generate-offtopic.js';
import { PROBES } from '../src/recall/probes.js';

const here = new URL('.', import.meta.url).pathname;

export type Group = 'answerable' | 'offtopic' | 'abstention' | 'cat5';

/** One question of a kind, as the dump runs it. */
export interface KindQuestion {
  id: string;
  group: Group;
  /** Sub-kind (facts' query kind, a profile question's kind, LoCoMo's category, LongMemEval's type). */
  sub: string;
  query: string;
  opts: RecallOptions;
  /** Whether a library memory id is relevant (answerable questions only). */
  rel?: (id: string) => boolean;
}

/** One hit in the dump. */
export interface DumpHit {
  rel: boolean;
  relevance: number;
  coverage?: number;
  cosine?: number;
  /** The namespace's baseline cosine the library used (src/recall/baseline.ts). */
  baseline?: number;
  queryCoverage?: number;
  terms?: number;
  score: number;
  keywordRank?: number;
  vectorRank?: number;
}
export interface DumpQuestion {
  kind: string;
  id: string;
  group: Group;
  sub: string;
  query: string;
  hybrid: DumpHit[];
  keyword: DumpHit[];
  /** The vector leg's top-50 cosines, best first. */
  vecTop: number[];
  /** The keyword leg's top-50 scores (negated BM25 with context and session evidence), best first. */
  kwTop: number[];
  /** The best cosine each of eval/probes.ts's unrelated questions gets in the question's namespace (the store's null). */
  probeTop?: number[];
}

const off = (): { id: string; query: string }[] =>
  (JSON.parse(readFileSync(join(here, 'data', 'offtopic.json'), 'utf8')) as { queries: { id: string; query: string }[] }).queries;

/** Lower-case words of some texts. */
function wordsOf(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) out.add(w);
  return out;
}

/**
 * Each off-topic question is asked of one store (namespace), round robin, skipping a store that holds
 * the question's own naming word (a chat that mentions Kenya fairly answers "the capital of Kenya"), by
 * the rule eval/generate-offtopic.ts applies to the generated sets. A question every store mentions is
 * dropped. Returns [question, namespace index].
 */
function offtopicFor(stores: readonly Set<string>[]): { q: { id: string; query: string }; at: number }[] {
  const out: { q: { id: string; query: string }; at: number }[] = [];
  off().forEach((q, i) => {
    const f = fillerOf(q.query);
    for (let k = 0; k < stores.length; k++) {
      const at = (i + k) % stores.length;
      if (!f || !collides(f, stores[at]!)) {
        out.push({ q, at });
        return;
      }
    }
  });
  return out;
}

/** Store a generated data set (batches of 500, its times, namespaces, categories, sessions); returns library id → data-set ids. */
export async function loadDataset(mem: Memory, ds: Dataset): Promise<Map<string, string[]>> {
  const toEval = new Map<string, string[]>();
  for (let i = 0; i < ds.memories.length; i += 500) {
    const chunk = ds.memories.slice(i, i + 500);
    const res = await mem.addMany(
      chunk.map((m) => ({
        content: m.content,
        createdAt: m.createdAt,
        ...(m.namespace ? { namespace: m.namespace } : {}),
        ...(m.category ? { category: m.category } : {}),
        ...(m.sessionId ? { sessionId: m.sessionId } : {}),
      })),
    );
    res.forEach((r, j) => toEval.set(r.id, [...(toEval.get(r.id) ?? []), chunk[j]!.id]));
  }
  return toEval;
}

/** Build one kind's store (under `dir`) and list its questions. */
export async function buildKind(
  kind: string,
  dir: string,
  embedder: CachingEmbedder,
  lmeDb = join(dir, 'lme.db'),
): Promise<{ mem: Memory; questions: KindQuestion[] }> {
  const qs: KindQuestion[] = [];
  if (kind === 'facts' || kind === 'conversations') {
    const ds = JSON.parse(readFileSync(join(here, 'data', `${kind}.json`), 'utf8')) as Dataset;
    const mem = await openMemory({ path: join(dir, `${kind}.db`), embedder });
    const toEval = await loadDataset(mem, ds);
    for (const q of ds.queries) {
      const opts: RecallOptions = {};
      if (q.namespace) opts.namespace = q.namespace;
      if (q.since) opts.since = q.since;
      if (q.until) opts.until = q.until;
      qs.push({ id: q.id, group: 'answerable', sub: q.kind, query: q.query, opts, rel: (id) => (toEval.get(id) ?? []).some((e) => (q.relevant[e] ?? 0) > 0) });
    }
    const nss = [...new Set(ds.memories.map((m) => m.namespace).filter((x): x is string => !!x))];
    off().forEach((q, i) =>
      qs.push({ id: q.id, group: 'offtopic', sub: 'world', query: q.query, opts: nss.length ? { namespace: nss[i % nss.length]! } : {} }),
    );
    return { mem, questions: qs };
  }
  if (kind === 'profiles') {
    const set = loadProfiles();
    const mem = await openMemory({ path: join(dir, 'profiles.db'), embedder });
    const { toData } = await storeProfiles(mem, set.profiles);
    for (const p of set.profiles)
      for (const q of p.questions) {
        const offtopic = q.kind.startsWith('offtopic');
        qs.push({
          id: q.id,
          group: offtopic ? 'offtopic' : 'answerable',
          sub: q.kind,
          query: q.query,
          opts: { namespace: p.id, now: q.now },
          ...(offtopic ? {} : { rel: (id: string) => q.relevant.includes(toData.get(id) ?? '') }),
        });
      }
    return { mem, questions: qs };
  }
  if (kind === 'locomo') {
    const ldir = defaultLocomoDir();
    const convs = existsSync(ldir) ? loadLocomo(ldir) : loadLocomo('/work/shared/locomo-dev');
    const mem = await openMemory({ path: join(dir, 'locomo.db'), embedder });
    for (const c of convs) {
      const toDia = await storeConversation(mem, c, 'conversation');
      for (const [i, q] of c.questions.entries()) {
        const ev = new Set(q.evidence);
        qs.push({
          id: `${c.id}-${i}`,
          group: 'answerable',
          sub: `cat${q.category}`,
          query: q.question,
          opts: { namespace: c.id },
          rel: (id) => (toDia.get(id) ?? []).some((d) => ev.has(d)),
        });
      }
      c.adversarial.forEach((q, i) => qs.push({ id: `${c.id}-adv${i}`, group: 'cat5', sub: 'cat5', query: q.question, opts: { namespace: c.id } }));
    }
    const words = convs.map((c) => wordsOf(c.sessions.flatMap((x) => x.turns.map((t) => `${t.speaker} ${t.text}`))));
    for (const { q, at } of offtopicFor(words)) qs.push({ id: q.id, group: 'offtopic', sub: 'world', query: q.query, opts: { namespace: convs[at]!.id } });
    return { mem, questions: qs };
  }
  if (kind === 'longmemeval') {
    const all = loadLme(defaultLmeDir());
    const { mem, maps } = await openLme(all, embedder, lmeDb);
    for (const q of all) {
      const rel = new Set(q.sessions.flatMap((s) => s.turns.flatMap((t, i) => (t.hasAnswer ? [`${s.id}:${i}`] : []))));
      const map = maps.get(q.id)!;
      qs.push({
        id: q.id,
        group: q.abstention ? 'abstention' : 'answerable',
        sub: q.type,
        query: q.question,
        opts: { namespace: q.id, now: q.date },
        ...(q.abstention ? {} : { rel: (id: string) => (map.get(id) ?? []).some((k) => rel.has(k)) }),
      });
    }
    const ans = all.filter((q) => !q.abstention);
    off().forEach((q, i) =>
      qs.push({ id: q.id, group: 'offtopic', sub: 'world', query: q.query, opts: { namespace: ans[i % ans.length]!.id, now: ans[i % ans.length]!.date } }),
    );
    return { mem, questions: qs };
  }
  throw new Error(`unknown kind ${kind}`);
}

function dumpHits(hits: RecallHit[], rel: ((id: string) => boolean) | undefined): DumpHit[] {
  return hits.map((h) => ({
    rel: rel ? rel(h.id) : false,
    relevance: h.relevance,
    score: h.score,
    ...h.evidence,
    ...(h.keywordRank !== undefined ? { keywordRank: h.keywordRank } : {}),
    ...(h.vectorRank !== undefined ? { vectorRank: h.vectorRank } : {}),
  }));
}

/** Run every question of a kind and keep what the relevance study needs. */
export async function dumpKind(kind: string, mem: Memory, questions: KindQuestion[]): Promise<DumpQuestion[]> {
  const out: DumpQuestion[] = [];
  const nulls = new Map<string, number[]>();
  for (const q of questions) {
    const ns = JSON.stringify(q.opts.namespace ?? '');
    let probeTop = nulls.get(ns);
    if (!probeTop) {
      probeTop = [];
      for (const p of PROBES) {
        const [h] = await mem.recall(p, {
          ...(q.opts.namespace ? { namespace: q.opts.namespace } : {}),
          limit: 1,
          mode: 'vector',
          preferCurrent: false,
          timePreference: false,
        });
        probeTop.push(h?.evidence.cosine ?? 0);
      }
      nulls.set(ns, probeTop);
    }
    const hybrid = await mem.recall(q.query, { ...q.opts, limit: 10 });
    const keyword = await mem.recall(q.query, { ...q.opts, limit: 10, mode: 'keyword' });
    const vec = await mem.recall(q.query, { ...q.opts, limit: 50, mode: 'vector' });
    const kw = await mem.recall(q.query, { ...q.opts, limit: 50, mode: 'keyword' });
    out.push({
      kind,
      id: q.id,
      group: q.group,
      sub: q.sub,
      query: q.query,
      hybrid: dumpHits(hybrid, q.rel),
      keyword: dumpHits(keyword, q.rel),
      vecTop: vec.map((h) => h.score),
      kwTop: kw.map((h) => h.score),
      probeTop,
    });
  }
  return out;
}
