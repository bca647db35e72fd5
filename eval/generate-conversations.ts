/**
 * Generates eval/data/conversations.json: long multi-session chats between two friends, one
 * memory per turn ("Caroline: ..."), dated by session, with questions whose evidence is one
 * or two turns. It mirrors the shape of public conversational-memory benchmarks: small talk,
 * both names in every session, the friend's reaction echoing the topic words, and later
 * offhand mentions of the same things.
 *
 *   npx tsx eval/generate-conversations.ts
 */
import { addDays, cap, checkDataset, fill, iso, makeRng, type Dataset, type EvalMemory, type EvalQuery, type Rng } from './gen-util.js';
import { EVENTS, PAIRS, SMALL_TALK, type EventDef } from './vocab-conversations.js';

const SEED = 20251201;
const rng = makeRng(SEED);

export const KINDS: Record<string, string> = {
  single: 'one evidence turn: what happened, or a detail the speaker gave',
  temporal: '"when did ..." : the evidence turn (its session date answers it)',
  multi: 'two evidence turns in different sessions (e.g. two trips by the same person)',
};

interface Speaker {
  name: string;
  they: string;
  them: string;
  their: string;
}
const pron = (p: 'she' | 'he'): Omit<Speaker, 'name'> => (p === 'she' ? { they: 'she', them: 'her', their: 'her' } : { they: 'he', them: 'him', their: 'his' });

interface Happening {
  def: EventDef;
  who: Speaker;
  vars: Record<string, string>;
  shareId?: string;
  detailId?: string;
}

function slotVars(def: EventDef, r: Rng): Record<string, string> {
  const v: Record<string, string> = {};
  for (const [k, vals] of Object.entries(def.slots)) {
    const x = r.pick(vals);
    if (typeof x === 'string') v[k] = x;
    else
      x.forEach((s, i) => {
        v[`${k}${i}`] = s;
      });
  }
  return v;
}

/** Capitalised words of names and slot values: never lower-cased after a chatty lead-in. */
const PROPER = new Set<string>([
  ...PAIRS.flatMap(([a, b]) => [a[0], b[0]]),
  ...EVENTS.flatMap((e) => Object.values(e.slots).flat(2) as string[])
    .flatMap((v) => v.split(/\s+/))
    .filter((w) => /^[A-Z]/.test(w)),
]);

const memories: EvalMemory[] = [];
const queries: EvalQuery[] = [];
const CONVS = PAIRS.length;

for (let c = 0; c < CONVS; c++) {
  const ns = `conv${String(c + 1).padStart(2, '0')}`;
  const [[n1, p1], [n2, p2]] = PAIRS[c]!;
  const sp: Speaker[] = [
    { name: n1, ...pron(p1) },
    { name: n2, ...pron(p2) },
  ];
  const other = (s: Speaker): Speaker => (s === sp[0] ? sp[1]! : sp[0]!);
  const sessions = rng.int(24, 30);
  let day = new Date(Date.UTC(2023, rng.int(0, 3), rng.int(1, 28), rng.int(8, 20), rng.int(0, 59)));
  const happenings: Happening[] = [];
  const used = new Set<string>();

  for (let s = 1; s <= sessions; s++) {
    if (s > 1) day = addDays(day, rng.int(6, 24));
    const sessionId = `${ns}-s${String(s).padStart(2, '0')}`;
    let t = 0;
    let clock = day.getTime();
    /** Wrap a content turn in chit-chat, as real turns are (and as embeddings of real turns suffer from). */
    const chatty = (text: string, pLead: number, pTail: number): string => {
      const lead = rng.chance(pLead) ? `${rng.pick(SMALL_TALK.lead)} ` : '';
      const aside = rng.chance(0.35) ? ` ${rng.pick(SMALL_TALK.aside)}` : '';
      const tail = `${aside}${rng.chance(pTail) ? ` ${rng.pick(SMALL_TALK.tail)}` : ''}`;
      const first = text.split(/[\s,.!?:;']/)[0]!;
      const lower = lead.trim().endsWith(',') && first !== 'I' && !PROPER.has(first);
      return `${lead}${lower ? text.charAt(0).toLowerCase() + text.slice(1) : text}${tail}`;
    };
    const say = (who: Speaker, text: string, vars: Record<string, string> = {}): string => {
      t++;
      clock += rng.int(1, 4) * 60_000;
      const id = `${sessionId}-t${String(t).padStart(2, '0')}`;
      const body = fill(text, { A: who.name, B: other(who).name, they: who.they, them: who.them, their: who.their, ...vars });
      memories.push({ id, content: `${who.name}: ${cap(body)}`, createdAt: iso(new Date(clock)), namespace: ns, sessionId });
      return id;
    };
    const opener = rng.pick(sp);
    say(opener, rng.pick(SMALL_TALK.open), { A: opener.name, B: other(opener).name });
    say(other(opener), rng.pick(SMALL_TALK.reply), { A: opener.name });
    for (let f = rng.int(1, 3); f > 0; f--) say(rng.pick(sp), chatty(rng.pick(SMALL_TALK.filler), 0.3, 0.3));
    // Offhand mentions of earlier happenings.
    for (const h of rng.sample(happenings, Math.min(happenings.length, rng.int(1, 3)))) {
      say(h.who, chatty(rng.pick(h.def.callback), 0.4, 0.4), h.vars);
      say(other(h.who), chatty(rng.pick(SMALL_TALK.filler), 0.3, 0.3));
    }
    const nEvents = rng.int(2, 4);
    for (let e = 0; e < nEvents; e++) {
      const who = rng.pick(sp);
      let def = rng.pick(EVENTS);
      let vars = slotVars(def, rng);
      for (let tries = 0; tries < 20 && used.has(`${who.name}|${JSON.stringify(vars)}`); tries++) {
        def = rng.pick(EVENTS);
        vars = slotVars(def, rng);
      }
      used.add(`${who.name}|${JSON.stringify(vars)}`);
      const h: Happening = { def, who, vars };
      if (rng.chance(0.3))
        say(other(who), rng.pick(['What is new with you, {A}?', 'Okay, your turn, {A}. Any news?', 'So how have you been, {A}?']), { A: who.name });
      h.shareId = say(who, chatty(rng.pick(def.share), 0.6, 0.5), vars);
      say(other(who), chatty(rng.pick(def.react), 0.3, 0.5), { ...vars, A: who.name });
      if (rng.chance(0.2)) {
        say(who, chatty(rng.pick(SMALL_TALK.filler), 0.3, 0.3));
      }
      h.detailId = say(who, chatty(rng.pick(def.detail), 0.5, 0.6), vars);
      say(other(who), chatty(rng.pick(def.follow), 0.3, 0.5), { ...vars, A: who.name });
      if (rng.chance(0.3)) say(rng.pick(sp), chatty(rng.pick(SMALL_TALK.filler), 0.3, 0.3));
      happenings.push(h);
    }
    const closer = rng.pick(sp);
    say(closer, rng.pick(SMALL_TALK.close), { B: other(closer).name });
    say(other(closer), rng.pick(SMALL_TALK.closeReply), { A: closer.name });
  }

  // Questions: one candidate per happening and question template; ambiguous texts are dropped.
  const cands: { text: string; kind: string; ev: string[] }[] = [];
  for (const h of happenings) {
    for (const q of h.def.q) {
      const text = fill(q.t, { A: h.who.name, they: h.who.they, them: h.who.them, their: h.who.their, ...h.vars });
      cands.push({ text: fill(text, { A: h.who.name }), kind: q.temporal ? 'temporal' : 'single', ev: [q.ev === 'share' ? h.shareId! : h.detailId!] });
    }
  }
  for (const who of sp) {
    for (const def of EVENTS) {
      if (!def.agg) continue;
      const hs = happenings.filter((h) => h.who === who && h.def === def);
      if (hs.length !== 2) continue; // "one or two turns" of evidence
      cands.push({
        text: fill(def.agg.t, { A: who.name, their: who.their }),
        kind: 'multi',
        ev: hs.map((h) => (def.agg!.ev === 'share' ? h.shareId! : h.detailId!)),
      });
    }
  }
  const count = new Map<string, number>();
  for (const q of cands) count.set(q.text, (count.get(q.text) ?? 0) + 1);
  const unique = cands.filter((q) => count.get(q.text) === 1);
  const multi = rng.sample(
    unique.filter((q) => q.kind === 'multi'),
    6,
  );
  const temporal = rng.sample(
    unique.filter((q) => q.kind === 'temporal'),
    8,
  );
  const single = rng.sample(
    unique.filter((q) => q.kind === 'single'),
    38 - multi.length - temporal.length,
  );
  for (const q of [...single, ...temporal, ...multi]) {
    const relevant: Record<string, number> = {};
    for (const e of q.ev) relevant[e] = 2;
    queries.push({ id: '', kind: q.kind, query: q.text, relevant, namespace: ns });
  }
}

const order = Object.keys(KINDS);
queries.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.namespace!.localeCompare(b.namespace!));
const counters: Record<string, number> = {};
for (const q of queries) {
  counters[q.kind] = (counters[q.kind] ?? 0) + 1;
  q.id = `${q.kind}-${String(counters[q.kind]).padStart(3, '0')}`;
}

const ds: Dataset = {
  name: 'conversations',
  description:
    'Multi-session chats between two friends, one memory per speaker-prefixed turn, one namespace per conversation; questions with one or two evidence turns.',
  generator: 'npx tsx eval/generate-conversations.ts',
  seed: SEED,
  kinds: KINDS,
  memories,
  queries,
};
checkDataset(ds);
const { writeDataset } = await import('./gen-util.js');
writeDataset(new URL('./data/conversations.json', import.meta.url).pathname, ds);
console.log(
  `conversations.json: ${CONVS} conversations, ${memories.length} turns, ${queries.length} questions (${Object.entries(counters)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')})`,
);
