/**
 * Off-topic queries (issue 15): questions that neither data set answers, for calibrating recall's
 * `relevance` and its default threshold. Each query is run against the facts store and against one
 * conversation of the conversations set; a good threshold returns nothing for it.
 *
 * World knowledge, how-to requests and small tasks an agent is asked all day, none of which the
 * personal memories speak about. Deterministic: `npx tsx eval/generate-offtopic.ts` writes
 * eval/data/offtopic.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** The templates and their fillers (`|` separates the parts of a filler with two slots). */
export const templates: [string, string[]][] = [
  ['What is the capital of {}?', ['Australia', 'Mongolia', 'Peru', 'Kenya', 'Norway', 'Vietnam', 'Uruguay', 'Iceland', 'Morocco', 'Nepal', 'Chile', 'Finland']],
  [
    'Who wrote {}?',
    [
      'War and Peace',
      'Pride and Prejudice',
      'One Hundred Years of Solitude',
      'The Odyssey',
      'Moby-Dick',
      'Crime and Punishment',
      'Don Quixote',
      'The Divine Comedy',
      'Middlemarch',
      'Things Fall Apart',
    ],
  ],
  ['What is the chemical symbol for {}?', ['tungsten', 'potassium', 'mercury', 'sodium', 'antimony', 'lead', 'silver', 'tin', 'iron', 'gold']],
  [
    'How tall is {}?',
    ['Mount Kilimanjaro', 'the Eiffel Tower', 'Mount Everest', 'the Burj Khalifa', 'Denali', 'the Statue of Liberty', 'Aconcagua', 'Mont Blanc'],
  ],
  [
    'When did {} happen?',
    [
      'the fall of the Berlin Wall',
      'the French Revolution',
      'the Battle of Hastings',
      'the first Moon landing',
      'the signing of the Magna Carta',
      'the sinking of the Titanic',
      'the Meiji Restoration',
      'the Chernobyl disaster',
    ],
  ],
  [
    'How many {} are in a {}?',
    ['ounces|pound', 'feet|mile', 'teaspoons|tablespoon', 'milliliters|cup', 'seconds|day', 'acres|square mile', 'bytes|kilobyte', 'pints|gallon'],
  ],
  ['What is the boiling point of {}?', ['ethanol', 'liquid nitrogen', 'acetone', 'olive oil', 'sea water', 'mercury']],
  [
    'Translate "{}" into {}.',
    [
      'good morning|Japanese',
      'thank you very much|Portuguese',
      'where is the train station|German',
      'I would like a coffee|Italian',
      'happy birthday|Korean',
      'see you tomorrow|Turkish',
      'how much does it cost|Polish',
      'the weather is nice|Swedish',
    ],
  ],
  [
    'Explain how {} works.',
    [
      'photosynthesis',
      'a jet engine',
      'the immune system',
      'plate tectonics',
      'a nuclear reactor',
      'the electoral college',
      'compound interest',
      'a rainbow',
      'the tides',
      'a refrigerator',
    ],
  ],
  ['What is the population of {}?', ['Brazil', 'Lagos', 'Tokyo', 'Canada', 'Jakarta', 'Cairo', 'Bolivia', 'Ireland']],
  [
    'Who painted {}?',
    ['the Mona Lisa', 'The Starry Night', 'Guernica', 'The Birth of Venus', 'The Night Watch', 'The Persistence of Memory', 'Girl with a Pearl Earring'],
  ],
  ['What is {} times {}?', ['17|23', '144|12', '39|41', '250|16', '73|9', '88|11']],
  ['Give me a recipe for {}.', ['shakshuka', 'beef bourguignon', 'pad thai', 'tiramisu', 'gazpacho', 'chicken tikka masala', 'ratatouille', 'miso soup']],
  ['What are the rules of {}?', ['cricket', 'water polo', 'curling', 'rugby union', 'mahjong', 'backgammon', 'lacrosse', 'fencing']],
  ['Which planet has {}?', ['the most moons', 'the longest day', 'a great red spot', 'the strongest winds', 'rings made of ice']],
  ['What does the Latin phrase "{}" mean?', ['carpe diem', 'veni vidi vici', 'caveat emptor', 'in vino veritas', 'memento mori', 'alea iacta est']],
  ['Who discovered {}?', ['penicillin', 'radioactivity', 'the structure of DNA', 'the electron', 'oxygen', 'the law of gravitation', 'insulin']],
  ['What is the speed of {}?', ['sound in water', 'light in glass', 'a cheetah', 'the International Space Station', 'a hummingbird wing beat']],
  ['Summarise the plot of {}.', ['Hamlet', 'The Great Gatsby', 'Frankenstein', 'Macbeth', 'Les Misérables', 'Anna Karenina', 'The Tempest']],
  ['What is the longest {} in the world?', ['river', 'bridge', 'railway tunnel', 'mountain range', 'coastline', 'wall']],
  ['Write a haiku about {}.', ['autumn leaves', 'the ocean at night', 'a lighthouse', 'snow on bamboo', 'a desert wind']],
  ['What is the currency of {}?', ['Thailand', 'Hungary', 'South Africa', 'Switzerland', 'Egypt', 'Argentina', 'Malaysia']],
  ['How do {} reproduce?', ['jellyfish', 'ferns', 'starfish', 'mushrooms', 'octopuses', 'sea turtles']],
  ['What language is spoken in {}?', ['Suriname', 'Andorra', 'Mozambique', 'Bhutan', 'Madagascar', 'Estonia']],
];

/** Whether a filler's naming word (a capitalised word, or the filler itself when it is one word) is among `words` (lower case). */
export function collides(filler: string, words: ReadonlySet<string>): boolean {
  const ws = filler.split('|').flatMap((p) => p.match(/[A-Za-z]+/g) ?? []);
  const naming = ws.length === 1 ? ws : ws.filter((w) => /^[A-Z]/.test(w) && w.length >= 4);
  return naming.some((w) => words.has(w.toLowerCase()));
}

/** The filler a generated query was made from, or null. */
export function fillerOf(query: string): string | null {
  for (const [t, fillers] of templates)
    for (const f of fillers) {
      const parts = f.split('|');
      let i = 0;
      if (t.replace(/\{\}/g, () => parts[i++] ?? '') === query) return f;
    }
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // A query whose own words occur in a memory of either set is not off-topic (a memory about Lagos is
  // a fair answer to "population of Lagos"), so such fillers are dropped, and the file says how many.
  const memoryWords = new Set<string>();
  for (const name of ['facts', 'conversations']) {
    const ds = JSON.parse(readFileSync(new URL(`./data/${name}.json`, import.meta.url), 'utf8')) as { memories: { content: string }[] };
    for (const m of ds.memories) for (const w of m.content.toLowerCase().match(/[a-z]+/g) ?? []) memoryWords.add(w);
  }
  const queries: { id: string; query: string }[] = [];
  const dropped: string[] = [];
  for (const [t, fillers] of templates) {
    for (const f of fillers) {
      if (collides(f, memoryWords)) {
        dropped.push(f);
        continue;
      }
      const parts = f.split('|');
      let i = 0;
      const q = t.replace(/\{\}/g, () => parts[i++] ?? '');
      queries.push({ id: `off-${String(queries.length + 1).padStart(3, '0')}`, query: q });
    }
  }
  const ds = {
    name: 'offtopic',
    description:
      'Questions no memory of the facts or conversations sets answers (world knowledge, translations, recipes, arithmetic): recall with a relevance threshold should return nothing for them.',
    generator: 'npx tsx eval/generate-offtopic.ts',
    droppedFillers: dropped,
    queries,
  };
  writeFileSync(new URL('./data/offtopic.json', import.meta.url).pathname, `${JSON.stringify(ds, null, 1)}\n`);
  console.log(`offtopic.json: ${queries.length} queries (${dropped.length} fillers dropped: a word of theirs is in a memory)`);
}
