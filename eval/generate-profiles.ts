/**
 * Profiles: what an assistant keeps about one person, written by hand (not templated), in the
 * shapes agents actually store (issue 24). Four people, each in a namespace of their own, facts
 * added over about nine months, two told in the third person ("Maya is allergic to peanuts") and
 * two in the person's own words ("I'm lactose intolerant"). Questions of five kinds:
 *
 * - `reworded`: answerable, sharing no word with the answer ("Who looks after my teeth?" →
 *   "My dentist is Dr. Okonkwo in Eimsbüttel"); `npx tsx eval/generate-profiles.ts` refuses to write
 *   the set when a reworded question matches its answer through the library's keyword leg.
 * - `update`: an older and a newer statement of one attribute that does not repeat the attribute's
 *   word (live / moved, manager / boss, drive / car, a job change, a new partner); the newer one is
 *   relevant, the older `stale`.
 * - `time`: a question naming a window ("last week", "yesterday", "in March") with its `now`; the
 *   memories whose `eventAt` lies in the window are relevant, and for the "in <month>" questions an
 *   equally good match outside the window is the distractor.
 * - `offtopic-world` (world knowledge) and `offtopic-personal` (about the person, but nothing stored
 *   answers it): nothing should come back.
 *
 * Halves: Maya and Tom are the `tune` half, Priya and Leo the `held` half. Rules are tuned by looking
 * at the tune half only; the held half is reported.
 *
 *   npx tsx eval/generate-profiles.ts   writes eval/data/profiles.json (deterministic)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { toMatchExpression } from '../src/search/keyword.js';

/** One memory of a profile. */
export interface ProfileMemory {
  id: string;
  content: string;
  /** When the assistant stored it (ISO). */
  createdAt: string;
  /** When it happened, for events (ISO). */
  eventAt?: string;
}
/** One question of a profile. */
export interface ProfileQuestion {
  id: string;
  kind: 'reworded' | 'update' | 'time' | 'offtopic-world' | 'offtopic-personal';
  query: string;
  /** The `now` the question is asked at (ISO). */
  now: string;
  relevant: string[];
  stale?: string[];
  /** Time questions naming a month: the equally good match outside the window. */
  distractor?: string[];
}
export interface Profile {
  id: string;
  person: string;
  voice: 'third' | 'first';
  half: 'tune' | 'held';
  memories: ProfileMemory[];
  questions: ProfileQuestion[];
}
export interface ProfileSet {
  name: string;
  description: string;
  generator: string;
  profiles: Profile[];
}

type Fact = [id: string, date: string, content: string, eventAt?: string];
type Q = [kind: ProfileQuestion['kind'], query: string, relevant: string[], extra?: { stale?: string[]; now?: string; distractor?: string[] }];

function profile(id: string, person: string, voice: Profile['voice'], half: Profile['half'], now: string, facts: Fact[], qs: Q[]): Profile {
  const iso = (d: string): string => (d.length === 10 ? `${d}T18:30:00.000Z` : new Date(d).toISOString());
  const memories = facts.map(([mid, date, content, ev]) => ({
    id: `${id}-${mid}`,
    content,
    createdAt: iso(date),
    ...(ev ? { eventAt: `${ev}T12:00:00.000Z` } : {}),
  }));
  const ids = new Set(memories.map((m) => m.id));
  const ref = (x: string): string => {
    const full = `${id}-${x}`;
    if (!ids.has(full)) throw new Error(`${id}: unknown memory ${x}`);
    return full;
  };
  const questions = qs.map(([kind, query, rel, extra], i) => ({
    id: `${id}-q${String(i + 1).padStart(2, '0')}`,
    kind,
    query,
    now: iso(extra?.now ?? now),
    relevant: rel.map(ref),
    ...(extra?.stale ? { stale: extra.stale.map(ref) } : {}),
    ...(extra?.distractor ? { distractor: extra.distractor.map(ref) } : {}),
  }));
  return { id, person, voice, half, memories, questions };
}

const maya = profile(
  'maya',
  'Maya Okafor',
  'third',
  'tune',
  '2025-09-29',
  [
    ['job1', '2025-01-08', 'Maya works as a product designer at Fernleaf, a health-tech startup in Lisbon.'],
    ['boss1', '2025-01-08', "Dana Whitfield manages Maya's team at Fernleaf."],
    ['peanut', '2025-01-15', 'Maya is allergic to peanuts; even traces give her hives.'],
    ['sister', '2025-01-20', "Maya's sister Ines lives in Porto and is a nurse."],
    ['home1', '2025-01-22', 'Maya rents a flat in Alfama, near the castle.'],
    ['dog', '2025-02-02', 'Maya has a rescue greyhound called Biscuit.'],
    ['japanese', '2025-02-05', 'Maya started Japanese lessons in January; class is every Thursday evening.'],
    ['partner1', '2025-02-14', "Maya's boyfriend is Rui, a sound engineer."],
    ['car1', '2025-02-20', 'Maya drives a 2019 Honda Jazz.'],
    ['hike-feb', '2025-02-09', 'Maya went hiking in Arrábida with Rui.', '2025-02-08'],
    ['birthday', '2025-03-01', "Maya's birthday is on 14 August."],
    ['dinner-mar', '2025-03-15', "Dinner at Lucia's with the whole design team.", '2025-03-14'],
    ['oatmilk', '2025-03-18', 'Maya takes oat milk in her coffee, never cow milk.'],
    ['author', '2025-03-25', "Maya's favourite author is Ursula K. Le Guin."],
    ['diabetes', '2025-04-02', 'Maya has type 1 diabetes and wears a glucose monitor on her arm.'],
    ['shelter', '2025-04-10', 'Maya volunteers at the animal shelter in Marvila on Saturdays.'],
    ['horror', '2025-04-18', "Maya can't stand horror films."],
    ['padel', '2025-04-22', 'Maya plays padel with colleagues on Tuesday nights.'],
    ['deposit', '2025-05-03', 'Maya is saving for a deposit and puts aside 600 euros a month.'],
    ['hike-may', '2025-05-11', 'Maya went hiking in Arrábida with Ines.', '2025-05-10'],
    ['breakup', '2025-05-20', 'Maya and Rui split up after three years.'],
    ['doctor', '2025-05-28', "Maya's doctor is Dr. Helena Sousa at the Estrela clinic."],
    ['home2', '2025-06-12', 'Maya moved to Campo de Ourique and signed a two-year lease.'],
    ['dinner-jun', '2025-06-21', "Dinner at Lucia's with Maya's family.", '2025-06-20'],
    ['vegetarian', '2025-06-25', 'Maya is vegetarian but has fish now and then.'],
    ['car2', '2025-07-09', 'Maya sold the Jazz and bought a used Tesla Model 3.'],
    ['partner2', '2025-07-30', 'Maya has been seeing Carla, an architect, since July.'],
    ['job2', '2025-08-18', 'Maya accepted an offer from Northwind Health and starts there as lead designer in September.'],
    ['boss2', '2025-09-02', 'At Northwind, Sofia Brandt heads the design group Maya joined.'],
    ['wedding', '2025-08-25', 'Her old school friend Tiago is getting married in Sintra on 20 September.'],
    ['patagonia', '2025-08-28', 'Maya wants to visit Patagonia next year.'],
    ['figma', '2025-09-03', 'Maya uses Figma for design work and Notion for notes.'],
    ['tooth', '2025-09-22', 'Maya had a wisdom tooth out and is off until Wednesday.', '2025-09-22'],
    ['board', '2025-09-25', 'Maya presented the Northwind onboarding prototype to the board.', '2025-09-25'],
    ['jazz', '2025-09-28', 'Maya and Carla went to a jazz concert at the Hot Clube.', '2025-09-28'],
  ],
  [
    ['reworded', 'What food should I avoid cooking for her?', ['peanut']],
    ['reworded', 'What does her sibling do for work?', ['sister']],
    ['reworded', "What's the name of her pet?", ['dog']],
    ['reworded', 'Which language is she studying?', ['japanese']],
    ['reworded', 'When was she born?', ['birthday']],
    ['reworded', 'What does she put in her espresso?', ['oatmilk']],
    ['reworded', 'Which writer does she love most?', ['author']],
    ['reworded', 'Does she have a chronic health condition?', ['diabetes']],
    ['reworded', 'What unpaid work does she do at weekends?', ['shelter']],
    ['reworded', 'Which movies should we not pick for a night in?', ['horror']],
    ['reworded', 'Which racket game is she into?', ['padel']],
    ['reworded', 'Who is her GP?', ['doctor']],
    ['reworded', 'Whose wedding is she going to?', ['wedding']],
    ['reworded', 'What part of South America does she hope to see?', ['patagonia']],
    ['reworded', 'Does she eat meat?', ['vegetarian']],
    ['update', 'Where is her home these days?', ['home2'], { stale: ['home1'] }],
    ['update', 'Who is she dating?', ['partner2'], { stale: ['partner1'] }],
    ['update', 'What car does she have?', ['car2'], { stale: ['car1'] }],
    ['update', 'Where is she employed?', ['job2'], { stale: ['job1'] }],
    ['update', 'Who is her boss?', ['boss2'], { stale: ['boss1'] }],
    ['time', "Who did she have dinner at Lucia's with in March?", ['dinner-mar'], { now: '2025-06-28', distractor: ['dinner-jun'] }],
    ['time', 'Who did she go hiking with in February?', ['hike-feb'], { distractor: ['hike-may'] }],
    ['time', 'What happened to her last week?', ['tooth', 'board', 'jazz']],
    ['time', 'What did she do yesterday?', ['jazz']],
    ['offtopic-world', 'How many moons does Mars have?', []],
    ['offtopic-world', 'What is the boiling point of water at altitude?', []],
    ['offtopic-world', 'Who painted the Sistine Chapel ceiling?', []],
    ['offtopic-world', 'Translate "good luck" into Italian.', []],
    ['offtopic-personal', 'What is her blood type?', []],
    ['offtopic-personal', 'Which university did she graduate from?', []],
    ['offtopic-personal', "What's her shoe size?", []],
    ['offtopic-personal', 'Does she have any tattoos?', []],
  ],
);

const tom = profile(
  'tom',
  'Tom Becker',
  'first',
  'tune',
  '2025-09-24',
  [
    ['job', '2025-01-06', 'I work as a backend developer at Kesselhaus Logistics in Hamburg.'],
    ['home1', '2025-01-07', 'I live in a shared flat in St. Pauli with two roommates.'],
    ['car1', '2025-01-12', "I drive my dad's old VW Golf."],
    ['boss1', '2025-02-03', 'My manager is Petra Lindqvist.'],
    ['partner1', '2025-02-10', 'My girlfriend Lena is a vet.'],
    ['lactose', '2025-02-11', "I'm lactose intolerant."],
    ['brother', '2025-02-16', 'My brother Felix studies medicine in Leipzig.'],
    ['concert-feb', '2025-02-23', 'Went to the Elbphilharmonie for a Brahms concert with Lena.', '2025-02-22'],
    ['cat', '2025-03-01', 'I have a cat named Mochi.'],
    ['lunch-mar', '2025-03-07', 'Lunch at Fischereihafen with the Kesselhaus team.', '2025-03-07'],
    ['bass', '2025-03-09', 'I play bass in a cover band called The Late Trains.'],
    ['marathon', '2025-03-15', "I'm training for the Hamburg marathon in April."],
    ['labskaus', '2025-03-22', "My favourite food is my grandmother's Labskaus."],
    ['flying', '2025-04-04', "I'm scared of flying, so I take the train whenever I can."],
    ['coffee', '2025-04-08', 'I take my coffee black, no sugar.'],
    ['wasp', '2025-04-19', "I'm allergic to wasp stings and carry an EpiPen."],
    ['aylin', '2025-05-02', 'My best friend is Aylin; we met at university in Bremen.'],
    ['stpauli', '2025-05-10', 'I support FC St. Pauli and have a season ticket.'],
    ['boss2', '2025-06-02', 'Petra left the company, so Jonas Weber runs our team now.'],
    ['lunch-jun', '2025-06-15', 'Lunch at Fischereihafen with my parents.', '2025-06-15'],
    ['sailing', '2025-06-18', "I'm learning to sail at the Alster sailing school on Sundays."],
    ['dentist', '2025-06-30', 'My dentist is Dr. Okonkwo in Eimsbüttel.'],
    ['home2', '2025-07-14', 'We finally got the keys to our own place in Ottensen!'],
    ['denmark', '2025-07-20', 'I want to do a cycling trip across Denmark next summer.'],
    ['coriander', '2025-07-28', 'I hate coriander.'],
    ['car2', '2025-08-09', 'Picked up the new Skoda Enyaq today, an electric SUV.'],
    ['scifi', '2025-08-12', 'I read mostly science fiction.'],
    ['keyboard', '2025-08-14', 'I use a mechanical keyboard with brown switches.'],
    ['concert-aug', '2025-08-31', 'Went to the Elbphilharmonie for a jazz night with Sam.', '2025-08-30'],
    ['partner2', '2025-09-03', "Lena and I broke up in the spring; I've been with Sam since August."],
    ['ankle', '2025-09-16', 'I sprained my ankle at five-a-side football.', '2025-09-16'],
    ['party', '2025-09-21', "Went to Aylin's birthday party in Altona.", '2025-09-20'],
    ['pipeline', '2025-09-23', 'Fixed the flaky deploy pipeline with Jonas, finally green.', '2025-09-23'],
  ],
  [
    ['reworded', 'What do I do for a living?', ['job']],
    ['reworded', 'Which foods upset my stomach?', ['lactose']],
    ['reworded', 'What is my sibling training to become?', ['brother']],
    ['reworded', 'What pet do I own?', ['cat']],
    ['reworded', 'Which instrument do I perform with?', ['bass']],
    ['reworded', 'What race am I preparing for?', ['marathon']],
    ['reworded', 'What dish do I love most?', ['labskaus']],
    ['reworded', 'How do I feel about air travel?', ['flying']],
    ['reworded', 'How should you make my espresso?', ['coffee']],
    ['reworded', 'What insect could send me to hospital?', ['wasp']],
    ['reworded', 'Who is my closest mate?', ['aylin']],
    ['reworded', 'Which football club do I cheer for?', ['stpauli']],
    ['reworded', 'Who looks after my teeth?', ['dentist']],
    ['reworded', 'Where am I planning a bike tour?', ['denmark']],
    ['reworded', 'Which herb should be left out of my dinner?', ['coriander']],
    ['reworded', 'What genre of books do I enjoy?', ['scifi']],
    ['update', 'Who is my boss?', ['boss2'], { stale: ['boss1'] }],
    ['update', 'Where is my home now?', ['home2'], { stale: ['home1'] }],
    ['update', 'What car do I have?', ['car2'], { stale: ['car1'] }],
    ['update', 'Who is my partner?', ['partner2'], { stale: ['partner1'] }],
    ['time', 'Who did I have lunch at Fischereihafen with in March?', ['lunch-mar'], { now: '2025-06-25', distractor: ['lunch-jun'] }],
    ['time', 'Who went to the Elbphilharmonie with me in February?', ['concert-feb'], { distractor: ['concert-aug'] }],
    ['time', 'What happened to me last week?', ['ankle', 'party']],
    ['time', 'What did I get done yesterday?', ['pipeline']],
    ['offtopic-world', 'What is the capital of Canada?', []],
    ['offtopic-world', 'How long does it take light to reach Earth from the Sun?', []],
    ['offtopic-world', 'Who composed The Four Seasons?', []],
    ['offtopic-world', 'Give me a recipe for pancakes.', []],
    ['offtopic-personal', "What's my blood type?", []],
    ['offtopic-personal', 'Which gym am I a member of?', []],
    ['offtopic-personal', 'What is my shoe size?', []],
    ['offtopic-personal', 'Where did I grow up?', []],
  ],
);

const priya = profile(
  'priya',
  'Priya Raman',
  'third',
  'held',
  '2025-09-16',
  [
    ['job1', '2025-01-09', 'Priya is a data scientist at the Co-op head office in Manchester.'],
    ['boss1', '2025-01-09', "Priya's line manager is Graham Holt."],
    ['home1', '2025-01-13', 'Priya rents a terraced house in Levenshulme.'],
    ['car1', '2025-01-20', 'Priya drives a 2012 Ford Fiesta.'],
    ['swim', '2025-01-27', 'Priya swims at the Levenshulme baths twice a week.'],
    ['gluten', '2025-02-04', "Priya can't eat gluten; she has coeliac disease."],
    ['mum', '2025-02-12', "Priya's mum lives in Leicester and visits every other Sunday."],
    ['sitar', '2025-02-20', 'Priya plays the sitar and performs at a Diwali festival each year.'],
    ['elbow', '2025-03-02', "Priya's favourite band is Elbow."],
    ['colour', '2025-03-10', 'Priya is colour-blind (red-green).'],
    ['crossword', '2025-03-19', 'Priya does the cryptic crossword in the Guardian every morning.'],
    ['baby', '2025-04-06', 'Priya is expecting her first baby in November.'],
    ['dinner-apr', '2025-04-12', 'Priya had dinner at Mughli with her university friends.', '2025-04-11'],
    ['portuguese', '2025-04-20', 'Priya wants to learn Portuguese before a trip to Brazil.'],
    ['hannah', '2025-04-28', "Priya's best friend from school, Hannah, lives in Glasgow."],
    ['heating', '2025-05-05', 'Priya hates the cold and keeps the heating at 22 degrees.'],
    ['run-may', '2025-05-18', 'Priya ran a 10k at Heaton Park in 52 minutes.', '2025-05-17'],
    ['pickle', '2025-05-25', 'Priya’s cat Pickle is fourteen and on kidney medication.'],
    ['united', '2025-06-03', 'Priya is a Manchester United season ticket holder.'],
    ['car2', '2025-06-14', 'Priya traded in the Fiesta for a Kia Niro hybrid.'],
    ['climb', '2025-06-22', 'Priya gave up the pool and goes bouldering at the Depot now.'],
    ['job2', '2025-07-08', 'Priya accepted a role at the BBC in Salford and starts in August.'],
    ['tamil', '2025-07-10', 'Priya speaks Tamil with her family.'],
    ['dinner-jul', '2025-07-20', "Priya had dinner at Mughli with Arjun's parents.", '2025-07-19'],
    ['boss2', '2025-08-11', 'At the BBC, Priya reports to Aisha Karim.'],
    ['run-aug', '2025-08-17', 'Priya ran a 10k at Heaton Park in 49 minutes.', '2025-08-16'],
    ['home2', '2025-08-24', 'Priya and her husband bought a semi in Sale and moved in last weekend.'],
    ['python', '2025-08-30', 'Priya uses R for most of her analysis but is switching to Python.'],
    ['dentist', '2025-09-02', "Priya's dentist appointment got moved to 12 November."],
    ['antenatal', '2025-09-09', "Priya's antenatal classes started at Wythenshawe hospital.", '2025-09-09'],
    ['talk', '2025-09-11', 'Priya gave a talk on forecasting at the PyData Manchester meetup.', '2025-09-11'],
    ['nursery', '2025-09-15', 'Priya and Arjun painted the nursery.', '2025-09-15'],
  ],
  [
    ['reworded', 'What should she avoid in bread and pasta?', ['gluten']],
    ['reworded', 'Where is her mother based?', ['mum']],
    ['reworded', 'Which instrument is she good at?', ['sitar']],
    ['reworded', 'What music group does she like best?', ['elbow']],
    ['reworded', 'Does she have any issue with her eyesight?', ['colour']],
    ['reworded', 'What puzzle is part of her daily routine?', ['crossword']],
    ['reworded', 'When is she having a child?', ['baby']],
    ['reworded', 'Which language would she like to study?', ['portuguese']],
    ['reworded', 'Who is her oldest mate?', ['hannah']],
    ['reworded', 'What temperature does she set the thermostat to?', ['heating']],
    ['reworded', 'How old is her pet?', ['pickle']],
    ['reworded', 'Which football team does she follow?', ['united']],
    ['reworded', 'What is her mother tongue?', ['tamil']],
    ['reworded', 'Which programming languages does she code in?', ['python']],
    ['update', 'Where does she work now?', ['job2'], { stale: ['job1'] }],
    ['update', 'Who is her boss?', ['boss2'], { stale: ['boss1'] }],
    ['update', 'Where does she live?', ['home2'], { stale: ['home1'] }],
    ['update', 'What car does she have?', ['car2'], { stale: ['car1'] }],
    ['update', 'What exercise does she do these days?', ['climb'], { stale: ['swim'] }],
    ['time', 'Who did she eat at Mughli with in April?', ['dinner-apr'], { now: '2025-08-01', distractor: ['dinner-jul'] }],
    ['time', 'How fast was her Heaton Park 10k in May?', ['run-may'], { distractor: ['run-aug'] }],
    ['time', 'What did she do last week?', ['antenatal', 'talk']],
    ['time', 'What did she get up to yesterday?', ['nursery']],
    ['offtopic-world', 'What is the tallest mountain in Africa?', []],
    ['offtopic-world', 'How do you say thank you in Japanese?', []],
    ['offtopic-world', 'Who discovered penicillin?', []],
    ['offtopic-world', 'What is 17 times 23?', []],
    ['offtopic-personal', 'What is her blood type?', []],
    ['offtopic-personal', 'Which car insurance company is she with?', []],
    ['offtopic-personal', 'What was her first job out of school?', []],
    ['offtopic-personal', 'Is she afraid of spiders?', []],
  ],
);

const leo = profile(
  'leo',
  'Leo Martins',
  'first',
  'held',
  '2025-09-10',
  [
    ['job', '2025-01-05', "I'm an ICU nurse at Toronto General."],
    ['boss1', '2025-01-05', 'My unit manager is Karen Dubois.'],
    ['home1', '2025-01-11', 'I rent a basement apartment in Leslieville.'],
    ['car1', '2025-01-18', 'My car is a 2010 Mazda 3.'],
    ['partner1', '2025-01-25', 'My boyfriend is Daniel.'],
    ['volley', '2025-02-01', 'I play in a rec volleyball league on Wednesdays.'],
    ['penicillin', '2025-02-09', "I'm allergic to penicillin."],
    ['sister', '2025-02-15', 'My sister Ana is a lawyer in Montreal.'],
    ['guinea', '2025-02-22', 'I have two guinea pigs, Churro and Bean.'],
    ['brunch-mar', '2025-03-09', 'Brunch at Lady Marmalade with my coworkers.', '2025-03-09'],
    ['nights', '2025-03-12', 'I work night shifts three times a week.'],
    ['bacalhau', '2025-03-20', "My favourite dish is my avó's bacalhau."],
    ['ukulele', '2025-04-02', "I'm learning the ukulele."],
    ['water', '2025-04-14', "I'm afraid of deep water."],
    ['latte', '2025-04-21', 'I take oat milk lattes, extra hot.'],
    ['porto', '2025-05-03', 'I was born in Porto and came to Canada at nine.'],
    ['island-may', '2025-05-25', 'Went to Toronto Island with Daniel.', '2025-05-24'],
    ['jess', '2025-05-30', 'My best friend is Jess from nursing school.'],
    ['brunch-jun', '2025-06-08', 'Brunch at Lady Marmalade with my parents.', '2025-06-08'],
    ['boss2', '2025-06-16', 'Karen retired last month and Omar Haddad is in charge of the unit now.'],
    ['trail', '2025-06-20', 'I want to hike the West Coast Trail next August.'],
    ['raptors', '2025-06-28', "I'm a huge Raptors fan."],
    ['car2', '2025-07-05', 'Sold the Mazda; I take the TTC everywhere now.'],
    ['partner2', '2025-07-19', "Daniel and I ended things; I'm seeing Marcus now."],
    ['home2', '2025-08-02', 'Got the keys to my condo in Liberty Village!'],
    ['doctor', '2025-08-06', 'My doctor is Dr. Singh at the Queen St clinic.'],
    ['climb', '2025-08-12', 'I quit volleyball and joined a bouldering gym instead.'],
    ['island-aug', '2025-08-24', 'Went to Toronto Island with Marcus.', '2025-08-23'],
    ['japan', '2025-08-27', "I'm saving up for a trip to Japan in the spring."],
    ['acls', '2025-09-03', 'Did my ACLS recertification course at the hospital.', '2025-09-03'],
    ['engagement', '2025-09-07', "Went to Jess's engagement party in Kensington Market.", '2025-09-06'],
    ['game', '2025-09-09', 'Watched the Raptors preseason game with Marcus.', '2025-09-09'],
  ],
  [
    ['reworded', 'What is my profession?', ['job']],
    ['reworded', 'Which antibiotic can I not take?', ['penicillin']],
    ['reworded', 'What does my sibling do?', ['sister']],
    ['reworded', 'What pets do I keep?', ['guinea']],
    ['reworded', 'How often am I on overnights?', ['nights']],
    ['reworded', 'What meal do I like best?', ['bacalhau']],
    ['reworded', 'What instrument am I picking up?', ['ukulele']],
    ['reworded', 'What am I scared of?', ['water']],
    ['reworded', 'How do I order my coffee?', ['latte']],
    ['reworded', 'Where am I originally from?', ['porto']],
    ['reworded', 'Who is my closest buddy?', ['jess']],
    ['reworded', 'What trek am I planning on Vancouver Island?', ['trail']],
    ['reworded', 'Which basketball team do I follow?', ['raptors']],
    ['reworded', 'Who is my family physician?', ['doctor']],
    ['update', 'Who do I report to?', ['boss2'], { stale: ['boss1'] }],
    ['update', 'Where do I live these days?', ['home2'], { stale: ['home1'] }],
    ['update', 'What do I drive?', ['car2'], { stale: ['car1'] }],
    ['update', 'Who is my partner?', ['partner2'], { stale: ['partner1'] }],
    ['update', 'What sport do I do at the moment?', ['climb'], { stale: ['volley'] }],
    ['time', 'Who did I have brunch at Lady Marmalade with in March?', ['brunch-mar'], { now: '2025-06-20', distractor: ['brunch-jun'] }],
    ['time', 'Who did I go to Toronto Island with in May?', ['island-may'], { distractor: ['island-aug'] }],
    ['time', 'What did I do last week?', ['acls', 'engagement']],
    ['time', 'What did I do yesterday?', ['game']],
    ['offtopic-world', 'What is the population of Brazil?', []],
    ['offtopic-world', 'How many bones are in the human body?', []],
    ['offtopic-world', 'Who wrote The Handmaid’s Tale?', []],
    ['offtopic-world', 'Convert 30 degrees Celsius to Fahrenheit.', []],
    ['offtopic-personal', "What's my blood type?", []],
    ['offtopic-personal', 'Which bank do I use?', []],
    ['offtopic-personal', 'What did I study at university?', []],
    ['offtopic-personal', 'Do I have any tattoos?', []],
  ],
);

const set: ProfileSet = {
  name: 'profiles',
  description:
    'Hand-written profiles of four people (facts over nine months, third and first person), with reworded questions sharing no word with the answer, updates that do not repeat the attribute word, time-window questions and off-topic questions (issue 24).',
  generator: 'npx tsx eval/generate-profiles.ts',
  profiles: [maya, tom, priya, leo],
};

/** Reworded questions must share no keyword-leg term with their answer: checked with an FTS5 table of the library's tokenizer. */
function checkNoSharedWords(s: ProfileSet): string[] {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(content, tokenize='porter unicode61 remove_diacritics 2')");
  const bad: string[] = [];
  for (const p of s.profiles) {
    const byId = new Map(p.memories.map((m) => [m.id, m.content]));
    for (const q of p.questions.filter((x) => x.kind === 'reworded')) {
      for (const r of q.relevant) {
        db.exec('DELETE FROM t');
        db.prepare('INSERT INTO t(content) VALUES (?)').run(byId.get(r)!);
        const m = toMatchExpression(q.query);
        if (m && db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck().get(m)) bad.push(`${q.id} "${q.query}" shares a word with "${byId.get(r)}"`);
      }
    }
  }
  db.close();
  return bad;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bad = checkNoSharedWords(set);
  if (bad.length) {
    console.error(bad.join('\n'));
    process.exit(1);
  }
  const out = join(new URL('.', import.meta.url).pathname, 'data', 'profiles.json');
  writeFileSync(out, `${JSON.stringify(set, null, 1)}\n`);
  const n = set.profiles.reduce((a, p) => a + p.questions.length, 0);
  console.log(`wrote ${out}: ${set.profiles.length} profiles, ${set.profiles.reduce((a, p) => a + p.memories.length, 0)} memories, ${n} questions`);
}
