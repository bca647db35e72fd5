/**
 * Generates eval/data/facts.json: agent-style long-term memories about a user, their team and
 * their projects, with labelled queries of seven kinds.
 *
 *   npx tsx eval/generate-facts.ts
 *
 * Deterministic: the same seed writes the same file. See EVAL.md for what each kind tests.
 */
import {
  addDays,
  cap,
  checkDataset,
  fill,
  iso,
  longDate,
  makeRng,
  monthName,
  randomTime,
  sharedWords,
  writeDataset,
  ymd,
  type Dataset,
  type EvalMemory,
  type EvalQuery,
} from './gen-util.js';
import {
  ATTR,
  CADENCES,
  CIS,
  CITIES,
  DBS,
  EXPERTISE,
  HANDLE_T,
  HOSTS,
  LANGS,
  MANAGER_T,
  PARAPHRASE,
  PEOPLE,
  PREFS,
  PROJECT_BASE,
  QUEUES,
  REGIONS,
  ROLES,
  ROLE_T,
  TEAMS,
  CITY_T,
  WORKSTYLE,
  type Project,
} from './vocab-facts.js';

const SEED = 20251130;
const rng = makeRng(SEED);
const START = new Date('2024-10-01T00:00:00Z');
const END = new Date('2025-11-15T00:00:00Z');
const MID = new Date('2025-04-15T00:00:00Z');

export const KINDS: Record<string, string> = {
  keyword: 'exact identifiers, error strings, commands and config keys that appear verbatim in the answer',
  paraphrase: 'the answer shares no content word with the query (semantic match only)',
  partial: 'the query shares a name (project) with many memories but asks about an attribute in other words',
  latest: 'the answer is the newest of several versions of a fact; older versions are listed as stale',
  time: 'a topic restricted to a date window with since/until',
  name: 'questions about a person by name',
  number: 'questions keyed on a number: incident and ticket ids, amounts, latencies, codes',
};

// ---- drafts --------------------------------------------------------------------------

interface Draft {
  content: string;
  at: Date;
  category: string;
  supersedes?: Draft;
  duplicateOf?: Draft;
  id?: string;
}
interface QDraft {
  kind: string;
  query: string;
  relevant: [Draft, number][];
  since?: Date;
  until?: Date;
  stale?: Draft[];
}
const drafts: Draft[] = [];
const queries: QDraft[] = [];

function mem(content: string, at: Date, category: string, extra: Partial<Draft> = {}): Draft {
  const d: Draft = { content, at, category, ...extra };
  drafts.push(d);
  return d;
}
const anyTime = (): Date => randomTime(rng, START, END);
const after = (d: Date, minDays: number, maxDays: number): Date => {
  const t = randomTime(rng, addDays(d, minDays), addDays(d, maxDays));
  return t > END ? randomTime(rng, addDays(d, 1), END) : t;
};
/** Subject for a memory about the user: varies like real agent notes do. */
const userSubject = (): string => rng.pick(['User', 'User', 'The user', 'Dana', '']);
const aboutUser = (phrase: string): string => {
  const s = userSubject();
  return s ? `${s} ${phrase}.` : `${cap(phrase)}.`;
};
const article = (w: string): string => (/^[aeiou]/i.test(w) ? `an ${w}` : `a ${w}`);

/** Near-duplicate: a restatement stored later. */
function duplicate(of: Draft, content: string): Draft {
  return mem(content, after(of.at, 3, 120), of.category, { duplicateOf: of });
}

// ---- people ----------------------------------------------------------------------------

interface Person {
  first: string;
  last: string;
  full: string;
  role: string;
  team: string;
  city: string;
  tz: string;
  handle: string;
  manager?: Person;
  facts: Record<string, Draft>;
}
const people: Person[] = PEOPLE.map(([first, last], i) => {
  const [city, tz] = rng.pick(CITIES);
  return {
    first,
    last,
    full: `${first} ${last}`,
    role: rng.pick(ROLES),
    team: rng.pick(TEAMS),
    city,
    tz,
    handle: i % 2 ? `${first.toLowerCase()}.${last.toLowerCase()}` : `${first[0]!.toLowerCase()}${last.toLowerCase()}`,
    facts: {},
  };
});
for (const p of people) p.manager = rng.pick(people.filter((o) => o !== p));

const chainedPeople = new Set(rng.sample(people, 10));
const roleChain = [...chainedPeople].slice(0, 6);
const cityChain = [...chainedPeople].slice(6);

for (const p of people) {
  const v = {
    full: p.full,
    first: p.first,
    last: p.last,
    role: p.role,
    arole: article(p.role),
    team: p.team,
    topic: rng.pick(EXPERTISE),
    city: p.city,
    tz: p.tz,
    handle: p.handle,
    mfull: p.manager!.full,
  };
  p.facts.role = mem(fill(rng.pick(ROLE_T), v), randomTime(rng, START, MID), 'person');
  p.facts.city = mem(fill(rng.pick(CITY_T), v), randomTime(rng, START, MID), 'person');
  p.facts.handle = mem(fill(rng.pick(HANDLE_T), v), anyTime(), 'person');
  if (rng.chance(0.7)) p.facts.manager = mem(fill(rng.pick(MANAGER_T), v), anyTime(), 'person');
  if (rng.chance(0.6)) mem(`${p.full} ${rng.pick(WORKSTYLE)}.`, anyTime(), 'person');
  if (rng.chance(0.25)) duplicate(p.facts.handle, `${p.first}'s Slack is @${p.handle}.`);
  if (rng.chance(0.2)) duplicate(p.facts.role, `${p.full}, ${p.role} (${p.team}).`);
}

// Superseded: roles and cities.
for (const p of roleChain) {
  let prev = p.facts.role!;
  const stale: Draft[] = [];
  const steps = rng.int(1, 2);
  for (let s = 0; s < steps; s++) {
    const role = rng.pick(ROLES.filter((r) => r !== p.role));
    const team = rng.chance(0.5) ? p.team : rng.pick(TEAMS);
    const t = rng.pick(['{full} was promoted to {role}.', '{full} moved to the {team} team as {arole}.', 'Update: {full} is now {arole} on {team}.']);
    stale.push(prev);
    prev = mem(fill(t, { full: p.full, role, team, arole: article(role) }), after(prev.at, 30, 160), 'person', { supersedes: prev });
    p.role = role;
    p.team = team;
  }
  queries.push({
    kind: 'latest',
    query: fill(rng.pick(["What is {full}'s current role?", 'What does {full} do these days?', 'Which team is {full} on now?']), { full: p.full }),
    relevant: [[prev, 2]],
    stale,
  });
}
for (const p of cityChain) {
  const old = p.city;
  const [city] = rng.pick(CITIES.filter(([c]) => c !== old));
  const d = mem(
    fill(rng.pick(['{full} relocated to {city}.', '{full} has moved from {old} to {city}.', '{full} now lives in {city}.']), { full: p.full, city, old }),
    after(p.facts.city!.at, 40, 200),
    'person',
    { supersedes: p.facts.city },
  );
  p.city = city;
  queries.push({
    kind: 'latest',
    query: fill(rng.pick(['Where does {full} live now?', 'Which city is {full} in at the moment?']), { full: p.full }),
    relevant: [[d, 2]],
    stale: [p.facts.city!],
  });
}

// Name queries.
const dupsOf = (d: Draft): Draft[] => drafts.filter((x) => x.duplicateOf === d);
for (const p of rng.sample(
  people.filter((x) => !chainedPeople.has(x)),
  40,
)) {
  const f = p.facts;
  const form = rng.int(0, 4);
  let q: string;
  let rel: [Draft, number][];
  if (form === 0 || (form === 4 && !f.manager)) {
    q = `Who is ${p.full}?`;
    rel = [
      [f.role!, 2],
      [f.city!, 1],
      [f.handle!, 1],
    ];
    if (f.manager) rel.push([f.manager, 1]);
  } else if (form === 1) {
    q = rng.pick(['What does {full} do?', 'Which team is {full} on?', "What's {full}'s job?"]);
    q = fill(q, { full: p.full });
    rel = [[f.role!, 2]];
  } else if (form === 2) {
    q = fill(rng.pick(['How can I contact {full}?', 'Best way to reach {full}?']), { full: p.full });
    rel = [[f.handle!, 2]];
  } else if (form === 3) {
    q = fill(rng.pick(['Where is {full} located?', 'Which time zone is {full} in?']), { full: p.full });
    rel = [[f.city!, 2]];
  } else {
    q = fill(rng.pick(["Who is {full}'s manager?", 'Who does {full} report to?']), { full: p.full });
    rel = [[f.manager!, 2]];
  }
  queries.push({ kind: 'name', query: q, relevant: rel });
}

// ---- projects --------------------------------------------------------------------------

const projects: Project[] = PROJECT_BASE.map(([name, what, key]) => {
  const [lang, fws, ext] = rng.pick(LANGS);
  return {
    name,
    what,
    key,
    lang,
    fw: rng.pick(fws),
    ext,
    db: rng.pick(DBS),
    queue: rng.pick(QUEUES),
    host: rng.pick(HOSTS),
    region: rng.pick(REGIONS),
    ci: rng.pick(CIS),
    cadence: rng.pick(CADENCES),
    chan: `${name.toLowerCase()}-${rng.pick(['oncall', 'alerts', 'incidents'])}`,
    repo: `${name.toLowerCase()}${rng.pick(['', '-service', '-api', '-core'])}`,
    port: rng.int(3000, 9999),
  };
});
const H = projects.find((p) => p.name === 'Heron')!;
H.lang = 'Swift and Kotlin';
H.fw = 'SwiftUI and Jetpack Compose';
const O = projects.find((p) => p.name === 'Orchid')!;
O.lang = 'TypeScript';
O.fw = 'Next.js';
O.ext = 'ts';
const Pb = projects.find((p) => p.name === 'Pebble')!;
Pb.lang = 'Rust';
Pb.fw = 'clap';
Pb.ext = 'rs';

// Which attributes change over time (latest kind), per project.
const chainAttrs = new Map<string, Set<string>>();
const chainPick = (attr: string, n: number): Project[] => {
  const ps = rng.sample(projects, n);
  for (const p of ps) {
    if (!chainAttrs.has(p.name)) chainAttrs.set(p.name, new Set());
    chainAttrs.get(p.name)!.add(attr);
  }
  return ps;
};
const portChain = chainPick('port', 8);
const dbChain = chainPick('db', 5);
const ownerChain = chainPick('owner', 6);
const hostChain = chainPick('host', 4);
const releaseChain = chainPick('release', 6);
const costChain = chainPick('cost', 4);
for (const p of dbChain) p.db = 'PostgreSQL 13';

const attrFacts = new Map<string, Draft>(); // `${project}:${attr}` -> memory
for (const p of projects) {
  for (const attr of Object.keys(ATTR)) {
    if (attr === 'db' && chainAttrs.get(p.name)?.has('db')) continue; // written by the chain below
    if (attr === 'host' && chainAttrs.get(p.name)?.has('host')) continue;
    if (attr === 'port' && chainAttrs.get(p.name)?.has('port')) continue;
    const templates = ATTR[attr]!.mem;
    const vars = {
      P: p.name,
      what: p.what,
      lang: p.lang,
      fw: p.fw,
      db: p.db,
      queue: p.queue,
      host: p.host,
      region: p.region,
      ci: p.ci,
      mins: rng.int(6, 40),
      cadence: p.cadence,
      chan: p.chan,
      repo: p.repo,
      port: p.port,
    };
    const i = rng.int(0, templates.length - 1);
    const d = mem(fill(templates[i]!, vars), randomTime(rng, START, MID), 'project');
    attrFacts.set(`${p.name}:${attr}`, d);
    if (rng.chance(0.3)) duplicate(d, fill(templates[(i + 1) % templates.length]!, vars));
    else if (rng.chance(0.06)) duplicate(d, `Reminder: ${d.content}`);
  }
}

// Project owners (stable ones; the chained ones get a chain).
const owners = new Map<string, Person>();
for (const p of projects) {
  const o = rng.pick(people);
  owners.set(p.name, o);
  if (chainAttrs.get(p.name)?.has('owner')) continue;
  const d = mem(
    fill(rng.pick(['{o} owns {P}.', '{P} is owned by {o}.', '{o} is the tech lead for {P}.', 'Questions about {P} go to {o}.']), { o: o.full, P: p.name }),
    anyTime(),
    'project',
  );
  attrFacts.set(`${p.name}:owner`, d);
}

// Partial queries: ask about an attribute in other words.
{
  const pairs: [Project, string][] = [];
  for (const p of projects) for (const attr of [...Object.keys(ATTR), 'owner']) if (attrFacts.has(`${p.name}:${attr}`)) pairs.push([p, attr]);
  const OWNER_Q = ['Who is responsible for {P}?', 'Who should I ask about {P}?'];
  for (const [p, attr] of rng.sample(pairs, 50)) {
    const d = attrFacts.get(`${p.name}:${attr}`)!;
    const q = fill(rng.pick(attr === 'owner' ? OWNER_Q : ATTR[attr]!.q), { P: p.name });
    queries.push({ kind: 'partial', query: q, relevant: [[d, 2]] });
  }
}

// ---- superseded chains (latest kind) -----------------------------------------------------

function chain(first: Draft, nexts: ((prev: Draft, i: number) => string)[], category: string, query: string): void {
  let prev = first;
  const stale: Draft[] = [];
  nexts.forEach((make, i) => {
    stale.push(prev);
    prev = mem(make(prev, i), after(prev.at, 20, 150), category, { supersedes: prev });
  });
  queries.push({ kind: 'latest', query, relevant: [[prev, 2]], stale });
}
const early = (): Date => randomTime(rng, START, new Date('2025-02-01T00:00:00Z'));

for (const p of portChain) {
  const ports = [p.port, rng.int(3000, 9999), rng.int(3000, 9999)];
  const n = rng.int(1, 2);
  const first = mem(
    fill(rng.pick(['The {P} API listens on port {port}.', '{P} serves HTTP on port {port}.']), { P: p.name, port: ports[0]! }),
    early(),
    'project',
  );
  chain(
    first,
    Array.from(
      { length: n },
      (_, i) => () =>
        fill(
          rng.pick([
            '{P} API moved to port {port} after the ingress rework.',
            'Heads-up: {P} now listens on port {port} (was {old}).',
            'Changed the {P} service port to {port}.',
          ]),
          { P: p.name, port: ports[i + 1]!, old: ports[i]! },
        ),
    ),
    'project',
    fill(rng.pick(['Which port is the {P} API on now?', 'What port should I call {P} on today?', 'current {P} port']), { P: p.name }),
  );
}
for (const p of dbChain) {
  const vs = ['13', '15', '16'];
  const first = mem(`${p.name} runs on PostgreSQL 13.`, early(), 'project');
  const n = rng.int(1, 2);
  chain(
    first,
    Array.from(
      { length: n },
      (_, i) => () =>
        fill(
          rng.pick([
            "Upgraded {P}'s database to PostgreSQL {v} this weekend.",
            '{P} is now on Postgres {v} after the maintenance window.',
            'Postgres for {P} bumped to {v}.',
          ]),
          { P: p.name, v: vs[i + 1]! },
        ),
    ),
    'project',
    fill(rng.pick(['Which Postgres version does {P} use now?', 'What database version is {P} on?']), { P: p.name }),
  );
}
for (const p of ownerChain) {
  const a = owners.get(p.name)!;
  const b = rng.pick(people.filter((x) => x !== a));
  const first = mem(fill(rng.pick(['{a} owns {P}.', '{P} is owned by {a}.', '{a} is the tech lead for {P}.']), { a: a.full, P: p.name }), early(), 'project');
  chain(
    first,
    [
      () =>
        fill(rng.pick(['{P} ownership moved to {b}; {a} switched teams.', '{b} took over {P} from {a}.', 'New owner for {P}: {b}.']), {
          P: p.name,
          a: a.full,
          b: b.full,
        }),
    ],
    'project',
    fill(rng.pick(['Who owns {P} at the moment?', 'Who is the current lead for {P}?']), { P: p.name }),
  );
}
for (const p of hostChain) {
  const h0 = p.host;
  const h1 = rng.pick(HOSTS.filter((h) => h !== h0));
  const first = mem(`${p.name} runs on ${h0}.`, early(), 'project');
  chain(
    first,
    [() => fill(rng.pick(['{P} finished moving from {h0} to {h1}.', 'Migration done: {P} is served from {h1} now.']), { P: p.name, h0, h1 })],
    'project',
    fill(rng.pick(['Where is {P} hosted today?', 'Which platform runs {P} now?']), { P: p.name }),
  );
}
const FEATURES = [
  'Apple Pay support',
  'a faster checkout',
  'dark mode',
  'SAML login',
  'bulk export',
  'webhook retries',
  'a new onboarding flow',
  'per-seat pricing',
  'offline sync',
  'audit logs',
  'typo-tolerant search',
  'CSV import',
];
for (const p of releaseChain) {
  const major = rng.int(1, 4);
  let minor = rng.int(0, 8);
  const first = mem(`Current ${p.name} release is v${major}.${minor}.0.`, early(), 'project');
  const n = rng.int(1, 3);
  chain(
    first,
    Array.from({ length: n }, () => () => {
      minor++;
      return fill(rng.pick(['Released {P} v{v} today.', 'Shipped {P} v{v} with {f}.', '{P} v{v} is out.']), {
        P: p.name,
        v: `${major}.${minor}.0`,
        f: rng.pick(FEATURES),
      });
    }),
    'project',
    fill(rng.pick(['What is the latest {P} version?', 'Newest release of {P}?', 'Which {P} version is live?']), { P: p.name }),
  );
}
for (const p of costChain) {
  const c0 = rng.int(20, 90) * 100;
  const first = mem(`${p.name}'s monthly cloud bill is about $${c0.toLocaleString('en-US')}.`, early(), 'project');
  const c1 = c0 + rng.int(-15, 25) * 100;
  chain(
    first,
    [
      () =>
        `${p.name} now costs roughly $${c1.toLocaleString('en-US')} a month after ${rng.pick(['adding read replicas', 'right-sizing the nodes', 'moving logs to cold storage', 'the traffic spike'])}.`,
    ],
    'project',
    fill(rng.pick(['How much does {P} cost per month now?', 'Current monthly spend on {P}?']), { P: p.name }),
  );
}
const USER_CHAINS: { vals: string[]; first: string[]; next: string[]; q: string[] }[] = [
  {
    vals: ['Vim', 'VS Code', 'Helix', 'Neovim', 'Zed'],
    first: ['User writes code in {x}.', 'Editor of choice: {x}.'],
    next: ['User switched editors: now using {x}.', "User's editor is {x} these days (dropped {old}).", 'Moved from {old} to {x} for editing.'],
    q: ['Which code editor does the user use now?', 'What editor is the user on?'],
  },
  {
    vals: ['bash', 'zsh', 'fish', 'nushell'],
    first: ['Default shell is {x}.', 'User runs {x} as their shell.'],
    next: ['User moved their shell to {x}.', 'Shell changed from {old} to {x}.'],
    q: ['What shell does the user run currently?'],
  },
  {
    vals: ['9:15', '9:30', '10:00', '10:30'],
    first: ['Daily standup is at {x} CET.'],
    next: ['Standup moved to {x} CET.', 'From next week standup starts at {x} CET.'],
    q: ['When is the daily standup now?', 'What time is standup?'],
  },
  {
    vals: ['iPhone 13', 'Pixel 8', 'iPhone 15 Pro', 'Galaxy S24'],
    first: ['User carries an {x}.'],
    next: ['User replaced their phone with a {x}.', 'New phone: {x}.'],
    q: ['What phone does the user have?'],
  },
  {
    vals: ['Mondays and Wednesdays', 'Tuesdays and Thursdays', 'weekday mornings', 'Saturdays'],
    first: ['User goes to the gym on {x}.'],
    next: ['Gym days changed to {x}.', 'User now trains at the gym on {x}.'],
    q: ['Which days is the user at the gym?'],
  },
  {
    vals: ['English', 'Portuguese', 'English, with Portuguese for personal topics'],
    first: ['Answer the user in {x}.'],
    next: ['User now wants replies in {x}.', 'Reply language switched to {x}.'],
    q: ['What language should replies be in?'],
  },
  {
    vals: ['Python', 'Rust', 'Go', 'Zig'],
    first: ['For side projects the user reaches for {x}.'],
    next: ["User's side projects are in {x} now.", 'Side projects moved from {old} to {x}.'],
    q: ['Which language does the user use for hobby code these days?'],
  },
  {
    vals: ['Tuesday', 'Wednesday', 'Thursday'],
    first: ['User keeps {x} free of meetings.'],
    next: ['No-meeting day is now {x}.', 'Meeting-free day moved to {x}.'],
    q: ['Which weekday is meeting-free?'],
  },
  {
    vals: ['6', '8', '11', '9'],
    first: ['The Search team has {x} engineers.'],
    next: ['Search team is now {x} engineers after the reorg.', 'Headcount on Search: {x}.'],
    q: ['How big is the Search team now?'],
  },
  {
    vals: ['600', '1,200', '900', '2,000'],
    first: ['Public API rate limit is {x} requests per minute.'],
    next: ['Raised the public API rate limit to {x} rpm.', 'Public API limit changed to {x} requests/min.'],
    q: ["What's the current public API rate limit?"],
  },
  {
    vals: ['blue-heron-42', 'quiet-lantern-7', 'paper-fox-19'],
    first: ['Office wifi password is {x}.'],
    next: ['Office wifi password changed to {x}.', 'New office wifi password: {x}.'],
    q: ['What is the office wifi password?'],
  },
  {
    vals: ['Tom Becker', 'Grace Mensah', 'Felix Wagner'],
    first: ["User's manager is {x}."],
    next: ['User now reports to {x}.', 'New manager for the user: {x} (was {old}).'],
    q: ['Who is the user reporting to now?'],
  },
];
for (const c of USER_CHAINS) {
  const n = rng.int(1, Math.min(3, c.vals.length - 1));
  const first = mem(fill(rng.pick(c.first), { x: c.vals[0]! }), early(), 'preference');
  chain(
    first,
    Array.from({ length: n }, (_, i) => () => fill(rng.pick(c.next), { x: c.vals[i + 1]!, old: c.vals[i]! })),
    'preference',
    rng.pick(c.q),
  );
}

// ---- preferences --------------------------------------------------------------------------

for (const [phrase, alt, q] of PREFS) {
  const d = mem(aboutUser(phrase), anyTime(), 'preference');
  const rel: [Draft, number][] = [[d, 2]];
  if (rng.chance(0.35)) duplicate(d, aboutUser(alt));
  if (q) queries.push({ kind: 'partial', query: q, relevant: rel });
}

// ---- paraphrase pairs ----------------------------------------------------------------------

const SELF_SUBJECT =
  /^(The|Our|Their|Wife|Sister|Daughter|Twin|Search|Root|Favourite|Grandmother|Tea|Budget|Salary|Invoices|Password|Nightly|Standing|Support)\b/;
const NEEDS_IS = /^(Learning|Training|Recovering|Renewing|Moving|Afraid|Fluent)\b/;
/** A fact about the user, with the subject agents tend to write (or none). */
function userFact(text: string): string {
  if (SELF_SUBJECT.test(text)) return text;
  const s = userSubject();
  if (!s) return text;
  const body = text.charAt(0).toLowerCase() + text.slice(1);
  return NEEDS_IS.test(text) ? `${s} is ${body}` : `${s} ${body}`;
}
const paraphraseErrors: string[] = [];
for (const p of PARAPHRASE) {
  const d = mem(userFact(p.m[0]!), anyTime(), 'fact');
  const rel: [Draft, number][] = [[d, 2]];
  if (p.m[1]) duplicate(d, p.m[1]); // restatements are stored as written (agent notes often drop the subject)
  for (const text of p.m) {
    const shared = sharedWords(p.q, text);
    if (shared.length) paraphraseErrors.push(`"${p.q}" shares ${shared.join(', ')} with "${text}"`);
  }
  const sharedStored = sharedWords(p.q, d.content);
  if (sharedStored.length) paraphraseErrors.push(`"${p.q}" shares ${sharedStored.join(', ')} with "${d.content}"`);
  queries.push({ kind: 'paraphrase', query: p.q, relevant: rel });
}

if (paraphraseErrors.length) throw new Error(`paraphrase queries share words with their answers:\n${paraphraseErrors.join('\n')}`);

// ---- code identifiers (keyword kind) ---------------------------------------------------------

const VERBS = [
  'parse',
  'normalize',
  'retry',
  'validate',
  'compute',
  'resolve',
  'flush',
  'render',
  'sync',
  'reconcile',
  'hydrate',
  'serialize',
  'enqueue',
  'refresh',
  'dedupe',
];
const NOUNS = [
  'InvoiceLines',
  'PhoneNumber',
  'WebhookDelivery',
  'SessionToken',
  'CartTotals',
  'SearchFacets',
  'PushReceipts',
  'LedgerEntries',
  'FeatureVector',
  'UserLocale',
  'RetryBudget',
  'ShippingQuote',
  'AuditTrail',
  'TaxRegion',
  'DeviceFingerprint',
  'PriceSnapshot',
];
const DIRS = ['billing', 'core', 'api', 'jobs', 'search', 'auth', 'notify', 'util', 'ingest', 'ledger'];
const GOTCHAS = [
  'swallows errors silently, so check its return value',
  'must be called inside a database transaction',
  'is O(n²) on large inputs',
  'rounds half-even, not half-up',
  'caches its result for five minutes',
  'is the only place that talks to Stripe',
  'has a known race with the nightly job',
  'was rewritten by {person} in March',
  'is deprecated; call {other} instead',
  'assumes UTC timestamps',
  'mutates its argument in place',
  'retries three times with exponential backoff',
  'logs PII, which security flagged',
  'is hot: it runs on every request',
];
const fnNames = rng.sample(
  VERBS.flatMap((v) => NOUNS.map((n) => v + n)),
  70,
);
const keywordTargets: [Draft, string][] = [];
fnNames.forEach((fn, i) => {
  const p = rng.pick(projects);
  const file = `src/${rng.pick(DIRS)}/${fn.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}.${p.ext}`;
  const g = fill(rng.pick(GOTCHAS), { person: rng.pick(people).full, other: fnNames[(i + 1) % fnNames.length]! });
  const t = rng.pick(['`{fn}` in {path} {g}.', 'Note: {fn}() ({P}, {path}) {g}.', 'In {P}, {fn} {g}; see {path}.']);
  const d = mem(fill(t, { fn, path: file, g, P: p.name }), anyTime(), 'code');
  if (rng.chance(0.12)) duplicate(d, `${fn} (${p.name}) ${g}.`);
  keywordTargets.push([d, fill(rng.pick(['What should I know about {fn}?', 'gotchas of {fn}', 'where is {fn} defined', '{fn}']), { fn })]);
});
const ENV: [string, string][] = [
  ['DATABASE_URL', 'points at the primary database; use the read replica URL for reports'],
  ['REDIS_URL', 'is the cache cluster; locally redis://localhost:6379'],
  ['JWT_SECRET', 'signs session tokens and is rotated every 90 days'],
  ['SENTRY_DSN', 'must be empty in local development'],
  ['S3_BUCKET', 'holds uploaded files; lifecycle rules delete after a year'],
  ['SMTP_HOST', 'is the relay for outgoing mail'],
  ['LOG_LEVEL', 'defaults to info; debug is very noisy'],
  ['RATE_LIMIT_RPM', 'caps requests per minute per API key'],
  ['WEBHOOK_SECRET', 'verifies the HMAC signature on inbound webhooks'],
  ['OTEL_ENDPOINT', 'is where traces are exported'],
  ['CACHE_TTL_SECONDS', 'controls how long responses are cached'],
  ['FEATURE_FLAGS_KEY', 'is the SDK key for flag evaluation'],
];
for (const p of projects) {
  for (const [suffix, purpose] of rng.sample(ENV, 3)) {
    const v = `${p.name.toUpperCase()}_${suffix}`;
    const d = mem(
      fill(rng.pick(['Env var {v} {purpose}.', '{P} reads {v} at startup; it {purpose}.', '{v} ({P}) {purpose}.']), { v, purpose, P: p.name }),
      anyTime(),
      'code',
    );
    keywordTargets.push([d, fill(rng.pick(['What is {v} used for?', '{v}', 'where does {v} point']), { v })]);
  }
}
const ERRORS: [string, string, string][] = [
  ['ECONNRESET', 'the upstream closed an idle keep-alive socket', 'lower the agent keepAlive timeout below the load balancer idle timeout'],
  ['ETIMEDOUT', 'the NAT gateway ran out of ports', 'reuse connections with a pooled agent'],
  ['ERR_TLS_CERT_ALTNAME_INVALID', 'the certificate does not cover the internal hostname', 'add the SAN or call the public name'],
  ['SQLSTATE 40001', 'a serialization failure under concurrent writes', 'retry the transaction'],
  ['OOMKilled', 'the container memory limit is too low for the batch size', 'raise the limit or shrink batches'],
  ['CrashLoopBackOff', 'a missing secret at startup', 'check the mounted secret names'],
  ['413 Payload Too Large', 'uploads above the 1 MB proxy limit', 'raise client_max_body_size or use presigned uploads'],
  ['deadlock detected', 'two jobs lock the same rows in opposite order', 'lock rows in primary-key order'],
  ['ENOSPC', 'the log volume filled up', 'rotate logs and add a disk alert'],
  ['x509: certificate signed by unknown authority', 'the corporate proxy re-signs TLS', 'install the proxy CA in the image'],
  ['too many open files', 'the file descriptor limit is 1024', 'raise ulimit -n'],
  ['429 Too Many Requests', 'the partner API throttles bursts', 'add jitter and respect Retry-After'],
  ['context deadline exceeded', 'the downstream call has no timeout budget left', 'propagate deadlines and trim retries'],
];
for (const [err, cause, fix] of ERRORS) {
  for (const p of rng.sample(projects, rng.int(2, 3))) {
    const d = mem(
      fill(
        rng.pick([
          'Seeing `{err}` in {P} usually means {cause}; fix: {fix}.',
          '{P} threw {err} during the deploy; cause was {cause}. We fixed it: {fix}.',
          'Known issue in {P}: {err} happens when {cause}. Workaround: {fix}.',
        ]),
        { err, P: p.name, cause, fix },
      ),
      anyTime(),
      'code',
    );
    keywordTargets.push([d, fill(rng.pick(['{err} in {P}', 'how to fix {err} on {P}', 'what causes {err} in {P}']), { err, P: p.name })]);
  }
}
const COMMANDS: [string, string][] = [
  ['make rotate-keys ENV=staging', 'rotate the signing keys'],
  ['npm run db:seed -- --tenant demo', 'load demo data'],
  ['./scripts/backfill_ledger.sh --since 2024-01-01', 'backfill ledger entries'],
  ['kubectl rollout restart deploy/{svc}', 'restart the pods'],
  ['terraform apply -target=module.{svc}_cdn', 'update only the CDN'],
  ['cargo xtask release --dry-run', 'rehearse a release'],
  ['mix ecto.migrate --step 1', 'run one migration'],
  ['bin/rails runner scripts/reindex.rb', 'reindex search'],
  ['python -m {svc}.tools.replay_dlq --max 500', 'replay the dead-letter queue'],
  ['docker compose --profile full up', 'start everything locally'],
  ['just snapshot-prod-db', 'take a production snapshot'],
  ['go run ./cmd/migrate -dir up', 'apply migrations'],
];
for (const [cmdT, goal] of COMMANDS) {
  const p = rng.pick(projects);
  const cmd = fill(cmdT, { svc: p.name.toLowerCase() });
  const d = mem(
    fill(rng.pick(['To {goal} in {P}, run `{cmd}`.', '{P}: `{cmd}` will {goal}.', 'Command to {goal} ({P}): {cmd}']), { goal, P: p.name, cmd }),
    anyTime(),
    'code',
  );
  keywordTargets.push([d, rng.chance(0.5) ? cmd : `${cmd.split(' ').slice(0, 3).join(' ')}`]);
}
const CONFIG: [string, string][] = [
  ['max_inflight_requests', 'caps concurrency'],
  ['pool_size', 'sets the DB connection pool'],
  ['read_timeout_ms', 'bounds slow reads'],
  ['shard_count', 'splits the index'],
  ['batch_size', 'sizes each write batch'],
  ['retry_backoff_ms', 'spaces out retries'],
  ['prefetch_count', 'limits unacked messages per consumer'],
  ['gc_interval_s', 'controls the cleanup loop'],
];
for (const [key, does] of CONFIG) {
  for (const p of rng.sample(projects, 2)) {
    const n = rng.pick([4, 8, 16, 32, 64, 100, 250, 500, 1500, 3000]);
    const d = mem(
      fill(rng.pick(['`{key}` in {P}/config.yaml is {n}; it {does}.', '{P} config: {key} = {n} ({does}).', 'Set {key} to {n} in {P} because it {does}.']), {
        key,
        P: p.name,
        n,
        does,
      }),
      anyTime(),
      'code',
    );
    keywordTargets.push([d, fill(rng.pick(['{key} in {P}', '{key} setting for {P}', 'what is {key} set to in {P}']), { key, P: p.name })]);
  }
}
const FLAGS: [string, string][] = [
  ['enable_new_checkout', 'the redesigned checkout'],
  ['use_v2_ranker', 'the learning-to-rank model'],
  ['strict_csp', 'the strict content security policy'],
  ['async_invoices', 'queued invoice generation'],
  ['beta_offline_mode', 'offline mode'],
  ['kill_switch_sms', 'all outgoing SMS'],
];
for (const [flag, feature] of FLAGS) {
  const p = rng.pick(projects);
  const d = mem(
    fill(rng.pick(['Flag `{flag}` gates {feature} in {P}; it is {state}.', '{P} feature flag {flag} turns on {feature} ({state}).']), {
      flag,
      feature,
      P: p.name,
      state: rng.pick(['at 10% rollout', 'on for staff only', 'fully on', 'off after the incident']),
    }),
    anyTime(),
    'code',
  );
  keywordTargets.push([d, fill(rng.pick(['what does {flag} do', '{flag} flag']), { flag })]);
}
for (const [d, q] of rng.sample(keywordTargets, 64)) queries.push({ kind: 'keyword', query: q, relevant: [[d, 2]] });

// ---- numbers ---------------------------------------------------------------------------------

const numberTargets: [Draft, string][] = [];
const usedNums = new Set<number>();
const uniq = (lo: number, hi: number): number => {
  for (;;) {
    const n = rng.int(lo, hi);
    if (!usedNums.has(n)) {
      usedNums.add(n);
      return n;
    }
  }
};
const SYMPTOMS = [
  'returned 500s',
  'was slow (p99 over 4 s)',
  'dropped webhooks',
  'double-charged a few customers',
  'served stale data',
  'was down',
  'leaked memory until restarts',
];
const CAUSES = [
  'a bad config push',
  'an expired certificate',
  'a runaway cron job',
  'a missing index',
  'a DNS change',
  'a dependency upgrade',
  'disk pressure on the primary',
  'a thundering herd after a cache flush',
];
for (let i = 0; i < 40; i++) {
  const p = rng.pick(projects);
  const inc = `INC-${uniq(1000, 9999)}`;
  const mins = rng.int(4, 180);
  const d = mem(
    fill(
      rng.pick([
        '{inc}: {P} {s} for {m} minutes; root cause {c}.',
        'Postmortem {inc}: {P} {s} ({m} min). Cause: {c}.',
        'Incident {inc}, {P}: {s} for {m} minutes because of {c}.',
      ]),
      { inc, P: p.name, s: rng.pick(SYMPTOMS), m: mins, c: rng.pick(CAUSES) },
    ),
    anyTime(),
    'event',
  );
  numberTargets.push([d, fill(rng.pick(['What happened in {inc}?', '{inc} root cause', 'Which service was hit by {inc}?']), { inc })]);
}
const TASKS = [
  'the refund flow rewrite',
  'the GDPR export',
  'the flaky login test',
  'dark launch of the ranker',
  'SSO for enterprise',
  'the memory leak in workers',
  'the CSV import bug',
  'the price rounding bug',
  'the mobile crash on Android 14',
  'moving cron jobs to the queue',
];
for (let i = 0; i < 40; i++) {
  const p = rng.pick(projects);
  const t = `${p.key}-${uniq(100, 9999)}`;
  const d = mem(
    fill(rng.pick(['{t} tracks {task}.', 'Ticket {t} ({P}): {task}.', '{task} is {t} in Jira.']), { t, task: rng.pick(TASKS), P: p.name }),
    anyTime(),
    'project',
  );
  numberTargets.push([d, fill(rng.pick(['What is {t} about?', 'ticket {t}']), { t })]);
}
const VENDORS = ['AWS', 'Datadog', 'GitHub', 'Vercel', 'Snowflake', 'Twilio', 'OpenAI', 'Cloudflare'];
for (let i = 0; i < 24; i++) {
  const p = rng.pick(projects);
  const amount = uniq(1200, 19999);
  const at = anyTime();
  const money = rng.chance(0.5) ? `$${amount.toLocaleString('en-US')}` : `${amount.toLocaleString('en-US')} USD`;
  const d = mem(
    fill(rng.pick(['{P} spent {money} on {v} in {month}.', '{v} invoice for {P}, {month}: {money}.', '{month} {v} bill for {P} came to {money}.']), {
      P: p.name,
      money,
      v: rng.pick(VENDORS),
      month: monthName(at.getUTCMonth()),
    }),
    at,
    'project',
  );
  const asked = rng.chance(0.3) ? `${amount}` : `$${amount.toLocaleString('en-US')}`; // sometimes written without the comma
  numberTargets.push([d, fill(rng.pick(['Which project had the {a} bill?', 'What was the {a} charge for?']), { a: asked })]);
}
for (const p of projects) {
  const ms = uniq(40, 900);
  const d = mem(
    fill(rng.pick(['{P} p95 latency target is {ms} ms.', 'SLO for {P}: p95 under {ms} ms.', '{P} must answer within {ms} ms at the 95th percentile.']), {
      P: p.name,
      ms,
    }),
    anyTime(),
    'project',
  );
  numberTargets.push([d, fill(rng.pick(['Which service targets {ms} ms at p95?', '{ms} ms latency SLO']), { ms })]);
  if (rng.chance(0.5)) mem(`${p.name} uptime SLO is ${rng.pick(['99.9', '99.95', '99.5', '99.99'])}% per month.`, anyTime(), 'project');
}
for (const [city] of rng.sample(CITIES, 8)) {
  const code = uniq(1000, 9999);
  const d = mem(fill(rng.pick(['Door code for the {city} office: {code}#.', 'The {city} office entrance code is {code}.']), { city, code }), anyTime(), 'fact');
  numberTargets.push([d, `Which office has door code ${code}?`]);
}
const ITEMS = [
  'two 27-inch monitors',
  'a replacement laptop charger',
  'ergonomic chairs for the Berlin office',
  'a YubiKey batch',
  'conference badges',
  'a standing desk frame',
  'noise-cancelling headsets',
];
for (let i = 0; i < 14; i++) {
  const n = uniq(10000, 99999);
  const d = mem(
    fill(rng.pick(['Order #{n} from {v}: {item}.', 'Ordered {item}, order number {n}.']), {
      n,
      v: rng.pick(['Amazon', 'Dell', 'IKEA', 'Yubico', 'Bol.com']),
      item: rng.pick(ITEMS),
    }),
    anyTime(),
    'event',
  );
  numberTargets.push([d, `What was order ${n}?`]);
}
for (const p of rng.sample(people, 12)) {
  const n = uniq(200, 899);
  const d = mem(`${p.full}'s desk phone extension is ${n}.`, anyTime(), 'person');
  numberTargets.push([d, `Whose extension is ${n}?`]);
}
for (const [d, q] of rng.sample(numberTargets, 46)) queries.push({ kind: 'number', query: q, relevant: [[d, 2]] });

// ---- threads of dated events (time kind) --------------------------------------------------------

const THREADS: { names: string[]; ask: string[]; steps: string[] }[] = [
  {
    names: ['the Falcon Kubernetes migration', 'moving Falcon to Kubernetes', 'the Falcon k8s move'],
    ask: ['the Falcon Kubernetes migration', 'moving payments onto containers'],
    steps: [
      'kicked off; {p} is drafting the Helm charts',
      'the staging cluster is up, but the ingress drops websocket connections',
      'blocked on IAM permissions for the node pools',
      '{p} got the canary serving 5% of traffic',
      'rolled back after a memory leak in the sidecar',
      'cut over all traffic; the old VMs are draining',
      'VMs decommissioned and the retro is done; compute spend is down about 30%',
    ],
  },
  {
    names: ['the SOC 2 audit', 'SOC 2 prep', 'the SOC 2 Type II audit'],
    ask: ['the SOC 2 audit', 'the security compliance certification'],
    steps: [
      'auditor selected; fieldwork planned for later',
      '{p} is collecting evidence for access reviews',
      'gap found: no formal offboarding checklist',
      'policies approved by the board',
      'fieldwork started; auditors asked for change-management samples',
      'two minor exceptions, both on vendor reviews',
      'report received; sharing it with customers under NDA',
    ],
  },
  {
    names: ['hiring for the Search team', 'the Search hiring loop', 'Search team recruiting'],
    ask: ['hiring for the Search team', 'recruiting engineers for search'],
    steps: [
      'opened two senior backend roles',
      '{p} rewrote the take-home exercise',
      'twelve candidates in the pipeline, three onsites booked',
      'made an offer to a candidate from Spotify',
      'offer declined; reopening the search',
      'second offer accepted, start date in six weeks',
      'role closed; onboarding plan drafted by {p}',
    ],
  },
  {
    names: ['the Nimbus cost reduction', 'cutting Nimbus costs', 'Nimbus spend reduction'],
    ask: ['the Nimbus cost reduction', 'making the data pipeline cheaper'],
    steps: [
      'target set: cut the pipeline bill by 40%',
      '{p} found idle Spark clusters running all weekend',
      'moved raw logs to S3 Glacier',
      'switched batch jobs to spot instances',
      'spot interruptions broke the nightly run twice',
      'added checkpointing; runs now survive interruptions',
      'monthly bill down 37%, close enough to the target',
    ],
  },
  {
    names: ['the Heron redesign', 'the new Heron app design', 'Heron 3.0 redesign'],
    ask: ['the Heron redesign', 'the mobile app visual refresh'],
    steps: [
      'design sprint with {p}; three concepts on the table',
      'user tests favour the tab-bar concept',
      'design tokens exported from Figma',
      'accessibility review found contrast issues on buttons',
      'beta shipped to 2,000 TestFlight users',
      'crash rate on the beta is too high on older Androids',
      'redesign rolled out to everyone; ratings up to 4.6',
    ],
  },
  {
    names: ['Quartz relevance tuning', 'tuning Quartz ranking', 'the Quartz relevance project'],
    ask: ['Quartz relevance tuning', 'improving product search results'],
    steps: [
      'built a judgment set of 500 queries',
      '{p} added synonyms for brand names',
      'BM25 parameters tuned; NDCG up 4 points',
      'tried a cross-encoder re-ranker, too slow on CPU',
      'distilled the re-ranker; p95 now acceptable',
      'A/B test shows +2.1% add-to-cart',
      'shipped to all traffic; judgment set refreshed quarterly',
    ],
  },
  {
    names: ['the office move', 'moving to the new office', 'the Kreuzberg office move'],
    ask: ['the office move', 'relocating the team workspace'],
    steps: [
      'shortlisted three buildings',
      'lease signed for the Kreuzberg floor',
      '{p} is ordering desks and chairs',
      'network install delayed by the landlord',
      'moving day set; boxes arrive Monday',
      'moved in; meeting rooms still lack screens',
      'housewarming party done; the old office keys returned',
    ],
  },
  {
    names: ['the Juniper SSO rollout', 'rolling out SSO with Juniper', 'Juniper single sign-on'],
    ask: ['the Juniper SSO rollout', 'enterprise login integration'],
    steps: [
      'SAML support merged; Okta is the first IdP',
      '{p} wrote the admin setup guide',
      'first enterprise customer onboarded',
      'bug: SCIM deprovisioning leaves sessions alive',
      'fixed session revocation; pen test scheduled',
      'Azure AD added as a second IdP',
      'SSO is generally available; pricing page updated',
    ],
  },
  {
    names: ['the Brightline onboarding', 'onboarding Brightline', 'the Brightline customer launch'],
    ask: ['the Brightline onboarding', 'bringing the big logistics customer live'],
    steps: [
      'contract signed; kickoff call next week',
      '{p} mapped their CSV format to our import',
      'first data import failed on date formats',
      'sandbox accepted by their ops team',
      'go-live slipped a week for their IT approval',
      'live in production with 40 warehouses',
      'quarterly review: they want an API for returns',
    ],
  },
  {
    names: ['Q3 planning', 'the Q3 roadmap planning', 'planning for Q3'],
    ask: ['Q3 planning', 'deciding next quarter priorities'],
    steps: [
      'teams asked for one-page proposals',
      '{p} merged proposals into a draft roadmap',
      'cut scope: the marketplace idea is postponed',
      'roadmap reviewed with the CEO',
      'final roadmap published in Notion',
      'mid-quarter check: two of five goals on track',
      'retro: planning took too long, next time two weeks max',
    ],
  },
];
const threadEvents: { t: number; d: Draft }[] = [];
THREADS.forEach((th, ti) => {
  let at = randomTime(rng, START, addDays(START, 120));
  th.steps.forEach((step, si) => {
    if (si) at = randomTime(rng, addDays(at, 18), addDays(at, 50));
    if (at > END) at = randomTime(rng, addDays(END, -20), END);
    const name = rng.pick(th.names);
    const s = fill(step, { p: rng.pick(people).full });
    const text = fill(
      rng.pick(['Standup {date}: {name}, {s}.', '{Name} update: {s}.', 'Status of {name}: {s}.', 'Notes from the {name} sync: {s}.', '{date}, {name}: {s}.']),
      { date: ymd(at), name, Name: cap(name), s },
    );
    threadEvents.push({ t: ti, d: mem(text, at, 'event') });
  });
});
{
  let made = 0;
  for (const [ti, th] of THREADS.entries()) {
    const evs = threadEvents.filter((e) => e.t === ti).sort((a, b) => a.d.at.getTime() - b.d.at.getTime());
    const windows: { since: Date; until: Date; label: string }[] = [];
    for (const e of rng.sample(evs, 3)) {
      const y = e.d.at.getUTCFullYear();
      const m = e.d.at.getUTCMonth();
      windows.push({ since: new Date(Date.UTC(y, m, 1)), until: new Date(Date.UTC(y, m + 1, 1)), label: `in ${monthName(m)} ${y}` });
    }
    const cut = evs[rng.int(2, evs.length - 2)]!.d.at;
    const cutDay = new Date(Date.UTC(cut.getUTCFullYear(), cut.getUTCMonth(), cut.getUTCDate()));
    windows.push(
      rng.chance(0.5)
        ? { since: new Date(0), until: cutDay, label: `before ${longDate(cutDay)}` }
        : { since: cutDay, until: addDays(END, 1), label: `since ${longDate(cutDay)}` },
    );
    const seen = new Set<string>();
    for (const w of windows) {
      const rel = evs.filter((e) => e.d.at >= w.since && e.d.at < w.until);
      const key = rel.map((e) => drafts.indexOf(e.d)).join(',');
      if (!rel.length || seen.has(key)) continue;
      seen.add(key);
      const q = fill(rng.pick(['What happened with {a} {w}?', 'Updates on {a} {w}', 'How was {a} going {w}?']), { a: rng.pick(th.ask), w: w.label });
      const qd: QDraft = { kind: 'time', query: q, relevant: rel.map((e) => [e.d, 2]) };
      if (w.since.getTime() > 0) qd.since = w.since;
      if (w.until < addDays(END, 1)) qd.until = w.until;
      queries.push(qd);
      made++;
    }
  }
  if (made < 35) throw new Error(`only ${made} time queries`);
}

// ---- decisions -----------------------------------------------------------------------------------

const ACTIONS: [string, string][] = [
  ['move secrets to HashiCorp Vault', 'where credentials are kept'],
  ['adopt trunk-based development', 'the branching strategy'],
  ['drop support for iOS 15', 'which old phone OS versions we support'],
  ['freeze the public API until Q3', 'changes to external endpoints'],
  ['add OpenTelemetry tracing', 'distributed request tracing'],
  ['switch logging to JSON', 'the log format'],
  ['require two reviewers on main', 'approval rules for merges'],
  ['cache search results for 60 seconds', 'caching of query responses'],
  ['deprecate the v1 endpoints', 'retiring the old API version'],
  ['run load tests before every release', 'performance testing before shipping'],
  ['put all UI changes behind feature flags', 'gradual rollout of interface changes'],
  ['write ADRs for architecture changes', 'documenting design decisions'],
  ['pin dependencies and let Renovate bump them', 'how library versions are managed'],
  ['migrate cron jobs to Temporal', 'scheduled background work'],
  ['encrypt PII columns at rest', 'protecting personal data in the database'],
  ['soak releases in staging for 24 hours', 'how long builds sit in pre-production'],
  ['limit request payloads to 1 MB', 'maximum upload size'],
  ['use UUIDv7 for primary keys', 'identifier format for rows'],
  ['move from REST polling to webhooks', 'how partners get notified'],
  ['store money as integer cents', 'representing currency amounts'],
];
const REASONS = [
  'the last incident took hours to debug',
  'audit findings',
  'it halves the on-call load',
  'customers asked for it',
  'costs were growing 10% a month',
  'the team kept stepping on each other',
  'it simplifies onboarding',
  'latency budgets were blown',
  'security review recommended it',
  'the vendor is sunsetting the old option',
];
const decisionTargets: [Draft, string][] = [];
for (let i = 0; i < 130; i++) {
  const p = rng.pick(projects);
  const [action, topic] = rng.pick(ACTIONS);
  const at = anyTime();
  const d = mem(
    fill(
      rng.pick([
        'Decision ({date}): {P} will {a}, because {r}.',
        'We agreed with {who} to {a} in {P}; reason: {r}.',
        'Decided: {P} is going to {a}. Why: {r}.',
        'ADR for {P}: {a} ({r}).',
      ]),
      { date: ymd(at), P: p.name, a: action, r: rng.pick(REASONS), who: rng.pick(people).full },
    ),
    at,
    'decision',
  );
  if (!decisionTargets.some(([x]) => x.content.includes(p.name) && x.content.includes(action)))
    decisionTargets.push([d, fill(rng.pick(['What did we decide about {t} for {P}?', 'Any decision on {t} in {P}?']), { t: topic, P: p.name })]);
}
for (const [d, q] of rng.sample(decisionTargets, 16)) queries.push({ kind: 'partial', query: q, relevant: [[d, 2]] });

// ---- everyday events and notes (distractors) --------------------------------------------------------

const TOPICS = [
  'career growth',
  'the on-call load',
  'the Q3 roadmap',
  'hiring',
  'tech debt in billing',
  'a conference talk',
  'the reorg',
  'onboarding docs',
  'team morale',
  'the migration timeline',
  'flaky tests',
  'the pricing change',
];
const BOOKS = [
  'Designing Data-Intensive Applications',
  "The Manager's Path",
  'Accelerate',
  'Staff Engineer',
  'A Philosophy of Software Design',
  'Team Topologies',
  'The Pragmatic Programmer',
  'Thinking in Systems',
];
const REASONS_TRIP = ['a customer workshop', 'the team offsite', 'KubeCon', 'a partner meeting', 'a wedding', 'the all-hands'];
const EVENT_T: (() => [string, string])[] = [
  () => [fill('1:1 with {p}: talked about {t}.', { p: rng.pick(people).full, t: rng.pick(TOPICS) }), 'event'],
  () => [fill('Lunch with {p}; we discussed {t}.', { p: rng.pick(people).full, t: rng.pick(TOPICS) }), 'event'],
  () => [fill('Travel: flying to {c} for {r}.', { c: rng.pick(CITIES)[0], r: rng.pick(REASONS_TRIP) }), 'event'],
  () => [
    fill('All-hands today: {x}.', {
      x: rng.pick([
        'revenue grew 18% quarter over quarter',
        'new parental leave policy',
        'the company is hiring 20 people',
        'the office move date',
        'Q3 goals',
        'a new VP of Engineering',
      ]),
    }),
    'event',
  ],
  () => [
    fill('Released {P} v{v} with {f}.', { P: rng.pick(projects).name, v: `${rng.int(1, 5)}.${rng.int(0, 20)}.${rng.int(0, 9)}`, f: rng.pick(FEATURES) }),
    'event',
  ],
  () => [fill('{p} is out sick today; {q} covers on-call.', { p: rng.pick(people).full, q: rng.pick(people).full }), 'event'],
  () => [
    fill('Demo day: {p} showed {x}.', {
      p: rng.pick(people).full,
      x: rng.pick(['a prototype of the AI assistant', 'the new admin console', 'faster builds', 'a cost dashboard', 'the redesigned onboarding']),
    }),
    'event',
  ],
  () => [
    fill('TODO: renew the {d} domain before {m}.', {
      d: rng.pick(['acme-labs.io', 'falconpay.dev', 'orchid.site', 'getpebble.sh']),
      m: monthName(rng.int(0, 11)),
    }),
    'todo',
  ],
  () => [fill('Remind the user to submit expenses for the {c} trip.', { c: rng.pick(CITIES)[0] }), 'todo'],
  () => [
    fill('User mentioned being tired after {x}.', {
      x: rng.pick(['the release', 'a red-eye flight', 'the on-call week', 'the offsite', 'the kids were sick']),
    }),
    'fact',
  ],
  () => [
    fill('Bookmarked an article on {t} to read later.', {
      t: rng.pick(['vector databases', 'SQLite in production', 'on-call burnout', 'Rust async', 'pricing pages', 'CRDTs']),
    }),
    'fact',
  ],
  () => [fill('{p} recommended the book "{b}".', { p: rng.pick(people).full, b: rng.pick(BOOKS) }), 'fact'],
  () => [fill('User is reading "{b}".', { b: rng.pick(BOOKS) }), 'fact'],
  () => [fill('Dentist appointment moved to {d} at {h}:00.', { d: rng.pick(['Monday', 'Tuesday', 'Thursday', 'Friday']), h: rng.int(8, 17) }), 'event'],
  () => [
    fill('Renewed the {v} subscription for another year.', { v: rng.pick(['JetBrains', 'GitHub Copilot', '1Password Teams', 'Figma', 'Notion']) }),
    'event',
  ],
  () => [fill('{p} and {q} paired on {t} all afternoon.', { p: rng.pick(people).full, q: rng.pick(people).full, t: rng.pick(TASKS) }), 'event'],
  () => [
    fill('Code review backlog on {P} is {n} PRs; asked {p} to help.', { P: rng.pick(projects).name, n: rng.int(5, 30), p: rng.pick(people).full }),
    'event',
  ],
  () => [fill('User will be out of office for {n} days around {m}.', { n: rng.int(2, 14), m: monthName(rng.int(0, 11)) }), 'event'],
  () => [
    fill('Weekly sync with {team}: {x}.', {
      team: rng.pick(TEAMS),
      x: rng.pick(['nothing blocking', 'waiting on design', 'capacity is tight', 'one incident follow-up open', 'reviewing the error budget']),
    }),
    'event',
  ],
  () => [
    fill('Interviewed a candidate for {team}; {x}.', {
      team: rng.pick(TEAMS),
      x: rng.pick(['strong on systems design', 'weak on testing', 'good culture add', 'no hire']),
    }),
    'event',
  ],
];
{
  const seen = new Set(drafts.map((d) => d.content));
  while (drafts.length < 2300) {
    const [text, cat] = rng.pick(EVENT_T)();
    if (seen.has(text) && !rng.chance(0.1)) continue; // some exact repeats, as real agents store them
    seen.add(text);
    mem(text, anyTime(), cat);
  }
}

// ---- finalise ------------------------------------------------------------------------------------

drafts.sort((a, b) => a.at.getTime() - b.at.getTime());
{
  // Filler templates repeat now and then: label exact repeats as duplicates of the first copy.
  const first = new Map<string, Draft>();
  for (const d of drafts) {
    const f = first.get(d.content);
    if (!f) first.set(d.content, d);
    else if (!d.duplicateOf) d.duplicateOf = f.duplicateOf ?? f;
  }
}
drafts.forEach((d, i) => {
  d.id = `m${String(i + 1).padStart(4, '0')}`;
});
// A duplicate or successor must come after its original.
for (const d of drafts) {
  if (d.duplicateOf && d.duplicateOf.at > d.at) throw new Error(`duplicate before original: ${d.content}`);
  if (d.supersedes && d.supersedes.at > d.at) throw new Error(`successor before original: ${d.content}`);
}
const memories: EvalMemory[] = drafts.map((d) => {
  const m: EvalMemory = { id: d.id!, content: d.content, createdAt: iso(d.at), category: d.category };
  if (d.supersedes) m.supersedes = d.supersedes.id!;
  if (d.duplicateOf) m.duplicateOf = d.duplicateOf.id!;
  return m;
});
const kindOrder = Object.keys(KINDS);
const sorted = [...queries].sort((a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind));
const counters: Record<string, number> = {};
const out: EvalQuery[] = sorted.map((q) => {
  counters[q.kind] = (counters[q.kind] ?? 0) + 1;
  const relevant: Record<string, number> = {};
  for (const [d, g] of q.relevant) {
    relevant[d.id!] = Math.max(relevant[d.id!] ?? 0, g);
    for (const dup of dupsOf(d)) relevant[dup.id!] = Math.max(relevant[dup.id!] ?? 0, g); // restatements answer too
  }
  const e: EvalQuery = { id: `${q.kind}-${String(counters[q.kind]).padStart(3, '0')}`, kind: q.kind, query: q.query, relevant };
  if (q.since) e.since = iso(q.since);
  if (q.until) e.until = iso(q.until);
  if (q.stale) e.stale = q.stale.map((s) => s.id!);
  return e;
});

const ds: Dataset = {
  name: 'facts',
  description:
    'Agent-style long-term memories (preferences, project facts, decisions, dated events, code identifiers, numbers, people), with near-duplicates and superseded facts.',
  generator: 'npx tsx eval/generate-facts.ts',
  seed: SEED,
  kinds: KINDS,
  memories,
  queries: out,
};
checkDataset(ds);
writeDataset(new URL('./data/facts.json', import.meta.url).pathname, ds);
const byKind = Object.entries(counters)
  .map(([k, n]) => `${k} ${n}`)
  .join(', ');
console.log(
  `facts.json: ${memories.length} memories (${memories.filter((m) => m.duplicateOf).length} near-duplicates, ${memories.filter((m) => m.supersedes).length} superseding), ${out.length} queries (${byKind})`,
);
