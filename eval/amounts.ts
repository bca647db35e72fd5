/**
 * Amount updates and look-alike amounts, written by hand (not LongMemEval, not the profiles set):
 * the check for current over stale's stated-amount evidence (src/recall/stated-value.ts) on a kind
 * of memory it was not fitted on. Each scenario stores an older and a newer memory among filler
 * facts, as notes (first and third person) or as turns of a user–assistant chat, and asks one
 * question through the public API (bundled model, every default). `update` scenarios: the newer
 * should rank above the older. `distinct` scenarios: the newer states an amount of something else
 * and must not move above the older one the question is about.
 *
 *   tsx eval/amounts.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../src/index.js';

interface Scenario {
  kind: 'update' | 'distinct';
  form: 'note' | 'chat';
  question: string;
  older: string;
  newer: string;
}

const S: Scenario[] = [
  {
    kind: 'update',
    form: 'note',
    question: 'How often do I go running?',
    older: 'I run 3 times a week, usually along the river.',
    newer: "These days I'm running 5 times a week to train for the half marathon.",
  },
  {
    kind: 'update',
    form: 'note',
    question: 'How many cats does Maya have?',
    older: 'Maya has two cats, Miso and Tofu.',
    newer: 'Maya adopted another kitten, so she has three cats at home.',
  },
  {
    kind: 'update',
    form: 'note',
    question: 'How many engineers are on our team?',
    older: 'Our team has 6 engineers.',
    newer: 'After the hiring round our team is 9 engineers strong.',
  },
  {
    kind: 'update',
    form: 'note',
    question: 'How much rent do I pay for my flat?',
    older: 'I pay 1200 euros rent for my flat in Alfama.',
    newer: 'The landlord raised the rent for my flat to 1350 euros.',
  },
  {
    kind: 'update',
    form: 'note',
    question: "How long is Tom's commute?",
    older: "Tom's commute is 40 minutes by bus.",
    newer: "Since the office moved, Tom's commute takes 15 minutes by bike.",
  },
  {
    kind: 'update',
    form: 'note',
    question: 'How many hours a night do I sleep?',
    older: 'I sleep about 6 hours a night.',
    newer: 'With the new routine I get 8 hours of sleep a night.',
  },
  {
    kind: 'update',
    form: 'note',
    question: 'How many languages does Priya speak?',
    older: 'Priya speaks three languages: English, Hindi and Tamil.',
    newer: 'Priya has picked up Spanish, so she speaks four languages now.',
  },
  {
    kind: 'update',
    form: 'chat',
    question: 'How many marathons have I run?',
    older:
      "Can you suggest a good stretching routine for after long runs? My calves are always tight. By the way, I've run two marathons so far, Berlin and Lisbon.",
    newer:
      "I need ideas for a vegetarian dinner for six people on Saturday, nothing too spicy. Oh, and I finished my third marathon last weekend, so that's three marathons now!",
  },
  {
    kind: 'update',
    form: 'chat',
    question: 'How many plants do I have on my balcony?',
    older: "What's a good way to keep pigeons off a balcony without hurting them? I have 4 plants on my balcony and they keep digging in the pots.",
    newer:
      "Could you explain how compound interest works for a savings account? I'm trying to plan for next year. Unrelated, but I now have 7 plants on my balcony after the market.",
  },
  {
    kind: 'update',
    form: 'chat',
    question: 'How many chapters of my novel have I written?',
    older: "I'm stuck on a character's motivation in my novel: why would a detective protect the suspect? I've written 5 chapters of my novel so far.",
    newer: "Which laptop would you recommend for writing and light photo editing under 1000 euros? By the way, I've written 9 chapters of my novel now.",
  },
  {
    kind: 'distinct',
    form: 'note',
    question: 'How many hours a week do I work at the bank?',
    older: 'I work 40 hours a week at the bank.',
    newer: 'I spent 12 hours on my pottery this week.',
  },
  { kind: 'distinct', form: 'note', question: 'How many kids does my brother have?', older: 'My brother has 3 kids.', newer: 'I have 2 kids.' },
  {
    kind: 'distinct',
    form: 'note',
    question: 'How many cats does Maya have?',
    older: 'Maya has two cats, Miso and Tofu.',
    newer: "Maya's sister has three dogs and a cat.",
  },
  {
    kind: 'distinct',
    form: 'note',
    question: 'How many engineers are on our team?',
    older: 'Our team has 6 engineers.',
    newer: 'The design team has 4 designers and 2 engineers.',
  },
  {
    kind: 'distinct',
    form: 'note',
    question: 'How much do I pay for my gym membership?',
    older: 'I pay 35 euros a month for my gym membership.',
    newer: 'I pay 12 euros a month for my music streaming subscription.',
  },
  {
    kind: 'distinct',
    form: 'chat',
    question: 'How many marathons have I run?',
    older: "Can you suggest a good stretching routine for after long runs? By the way, I've run two marathons so far, Berlin and Lisbon.",
    newer: 'How far is a marathon in miles? My friend has run 10 marathons and keeps teasing me about kilometres.',
  },
  {
    kind: 'distinct',
    form: 'chat',
    question: 'How many chapters of my novel have I written?',
    older: "I'm stuck on a character's motivation in my novel. I've written 5 chapters of my novel so far.",
    newer: 'I just read a novel with 40 chapters in one weekend, can you recommend something similar?',
  },
];

const FILLER = [
  'Maya is allergic to peanuts; even traces give her hives.',
  'I have a rescue greyhound called Biscuit.',
  'Tom plays padel with colleagues on Tuesday nights.',
  'My favourite author is Ursula K. Le Guin.',
  'Priya volunteers at the animal shelter on Saturdays.',
  'I take oat milk in my coffee, never cow milk.',
  "Our team's standup is at 9:30 on Mondays.",
  'I want to visit Patagonia next year.',
];

const dir = mkdtempSync(join(tmpdir(), 'mnemolite-amounts-'));
try {
  const mem = await openMemory({ path: join(dir, 'm.db'), embedder: 'local' });
  const tally = new Map<string, { ok: number; n: number }>();
  const lines: string[] = [];
  for (const [i, s] of S.entries()) {
    const namespace = `s${i}`;
    for (const f of FILLER) await mem.add(f, { namespace, createdAt: '2025-01-10T09:00:00Z' });
    const put = async (content: string, at: string): Promise<string> => {
      if (s.form === 'note') return (await mem.add(content, { namespace, createdAt: at })).id;
      const r = await mem.addConversation(
        [
          { speaker: 'user', content, at },
          { speaker: 'assistant', content: 'Happy to help with that. Here are a few ideas to start with.', at },
        ],
        { namespace, sessionId: `${namespace}-${at}` },
      );
      return r[0]!.id;
    };
    const older = await put(s.older, '2025-02-01T10:00:00Z');
    const newer = await put(s.newer, '2025-05-01T10:00:00Z');
    const hits = await mem.recall(s.question, { namespace, now: '2025-06-01T12:00:00Z' });
    const pos = (id: string): number => {
      const p = hits.findIndex((h) => h.id === id);
      return p < 0 ? Infinity : p;
    };
    const newerFirst = pos(newer) < pos(older);
    const ok = s.kind === 'update' ? newerFirst : !newerFirst;
    const key = `${s.kind} ${s.form}`;
    const t = tally.get(key) ?? { ok: 0, n: 0 };
    t.n++;
    if (ok) t.ok++;
    tally.set(key, t);
    lines.push(`${ok ? 'ok  ' : 'MISS'} ${key.padEnd(14)} older #${pos(older) + 1} newer #${pos(newer) + 1}  ${s.question}`);
  }
  await mem.close();
  console.log(lines.join('\n'));
  console.log('\n| kind | right |\n|:--|--:|');
  for (const [k, t] of tally) console.log(`| ${k} (update: newer above older; distinct: older stays above) | ${t.ok}/${t.n} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
