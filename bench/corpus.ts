/**
 * Seeded generator of memory-like texts, natural-language questions about them, and synthetic
 * 512-d vectors clustered like sentence embeddings.
 *
 * Texts look like what an agent stores: preferences, decisions, facts about people, projects,
 * machines and incidents, with names, numbers and identifiers. Queries are questions full of
 * common words ("what did we decide about ...") aimed at one memory each.
 */

import { mulberry32 as rng } from '../test/rng.js';

const FIRST =
  'Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent Victor Walter Yusuf Zoe Amara Bilal Chen Dmitri Elena Farah Goran Hana Ingrid Jonas Kenji Lena Marco Nadia Omar Priya Quentin Rosa Sanjay Tomas Ulla Vera Wen Xavier Yara Zane Aiko Bruno Clara Diego Emeka Fatima Gustav Hiro Isla Joao Kofi Lucia Mateo Noor Oskar Paulo Rina Stefan Tariq Uma Viktor Willa Ximena Yosef Zara'.split(
    ' ',
  );
const LAST =
  'Smith Novak Okafor Tanaka Garcia Muller Rossi Kowalski Nguyen Haddad Larsen Silva Petrov Dubois Kim Moreau Schmidt Fischer Costa Ivanova Johansson Ali Park Lopez Weber Becker Hoffmann Santos Yilmaz Khan'.split(
    ' ',
  );
const PROJECTS =
  'Atlas Borealis Cobalt Dynamo Ember Falcon Granite Helix Indigo Juniper Kestrel Lumen Meridian Nimbus Onyx Pioneer Quasar Raven Sierra Tundra Umbra Vertex Willow Xenon Yonder Zephyr Aurora Beacon Cascade Delta Echo Fjord Glacier Harbor Iris Jade Krypton Lotus Mosaic Nova Orbit Prism Quill Ripple Summit Tempest Unity Vortex Wren Yukon'.split(
    ' ',
  );
const TECH =
  'Postgres MySQL SQLite Redis Kafka RabbitMQ Elasticsearch ClickHouse DuckDB MongoDB Cassandra Kubernetes Docker Terraform Ansible Nginx Caddy Envoy GraphQL gRPC React Svelte Vue Angular Django Flask FastAPI Rails Laravel Spring Express Fastify Deno Bun Rust Go Python TypeScript Kotlin Swift Java Scala Elixir Haskell OCaml Zig Lua Webpack Vite esbuild Jest Vitest Playwright Cypress Grafana Prometheus Datadog Sentry Jenkins GitLab GitHub Bitbucket Vercel Netlify Heroku Fly Cloudflare AWS GCP Azure Lambda S3 BigQuery Snowflake Airflow Spark Flink Pandas PyTorch TensorFlow Tailwind Bootstrap Storybook Figma Linear Jira Notion Slack Zoom'.split(
    ' ',
  );
const PLACES =
  'Berlin Lisbon Toronto Nairobi Osaka Austin Denver Oslo Prague Lagos Seattle Dublin Madrid Warsaw Istanbul Bangalore Singapore Melbourne Montreal Boston Chicago Helsinki Vienna Zurich Athens Cairo Lima Bogota Santiago Manila'.split(
    ' ',
  );
const FOODS =
  'sushi ramen tacos pizza falafel curry pho dumplings paella risotto burritos shawarma bibimbap pierogi goulash ceviche kimchi pasta salads sandwiches'.split(
    ' ',
  );
const DAYS = 'Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(' ');
const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const EDITORS = 'VS Code, Neovim, Emacs, IntelliJ, Sublime Text, Zed, Helix, Vim, Cursor, WebStorm'.split(', ');
const TEAMS = 'platform payments growth search infra mobile data security design billing onboarding analytics support'.split(' ');
const MACHINES =
  'db-prod-01 db-stg-02 api-eu-3 build-runner-7 edge-us-2 cache-01 worker-12 gpu-box-4 bastion-1 ingest-9 raspberry-pi-4 nas-home mac-mini-m2 thinkpad-x1'.split(
    ' ',
  );
const ADJ = 'slow flaky noisy expensive reliable fast stable brittle clean messy'.split(' ');
const HOBBY = 'climbing chess running cycling painting baking photography gardening surfing hiking pottery woodworking'.split(' ');

/** A generated memory with the ids of the things it mentions (for query generation and vectors). */
export interface GenMemory {
  text: string;
  /** Topic template index. */
  topic: number;
  /** Main entity index (a person or project), for clustering. */
  entity: number;
  /** Fields used by the query templates. */
  slots: Record<string, string>;
}

type Pick = <T>(xs: readonly T[]) => T;

interface Template {
  mem: (s: Record<string, string>) => string;
  /** Questions about the memory, full of common words. */
  ask: ((s: Record<string, string>) => string)[];
}

const T: Template[] = [
  {
    mem: (s) => `${s.person} prefers ${s.editor} with a dark theme and always asks for ${s.lang} examples in code reviews.`,
    ask: [
      (s) => `What editor does ${s.first} like to use and which language should the examples be in?`,
      (s) => `Can you remind me what ${s.first} prefers for code reviews?`,
    ],
  },
  {
    mem: (s) => `We decided to move the ${s.project} service from ${s.tech} to ${s.tech2} because the ${s.team} team kept hitting ${s.adj} queries.`,
    ask: [
      (s) => `Why did we decide to move ${s.project} off ${s.tech} and what are we using now?`,
      (s) => `What was the reason for changing the database of the ${s.project} service?`,
    ],
  },
  {
    mem: (s) => `${s.person} is allergic to peanuts and is vegetarian; for the team lunch in ${s.place} order ${s.food} from the usual place.`,
    ask: [
      (s) => `What should I order for ${s.first} at the team lunch, and is there anything they can't eat?`,
      (s) => `Does ${s.first} have any food allergies I should know about?`,
    ],
  },
  {
    mem: (s) => `The ${s.project} deploy pipeline runs on ${s.machine}; builds take about ${s.num} minutes and the cache lives in ${s.tech}.`,
    ask: [
      (s) => `Where does the deploy pipeline for ${s.project} run and how long do the builds take?`,
      (s) => `Which machine is used to build and deploy ${s.project}?`,
    ],
  },
  {
    mem: (s) => `Incident ${s.ticket}: ${s.machine} ran out of disk on ${s.day} at ${s.time}; ${s.person} rotated the logs and added an alert in ${s.tech}.`,
    ask: [
      (s) => `What happened with ${s.machine} when it ran out of disk and who fixed it?`,
      (_s) => `Who handled the disk space incident and what did they do about the alerts?`,
    ],
  },
  {
    mem: (s) => `${s.person} moved to ${s.place} in ${s.month} and now works remotely for the ${s.team} team, usually online after ${s.time}.`,
    ask: [(s) => `Where does ${s.first} live now and when are they usually online?`, (s) => `Which team is ${s.first} working for since the move?`],
  },
  {
    mem: (s) => `The API key for ${s.tech} is stored in the vault under ${s.secret}; never paste it into ${s.tool} or the ${s.project} repo.`,
    ask: [
      (s) => `Where do we keep the API key for ${s.tech} and where should it never be pasted?`,
      (s) => `How do I find the secret for ${s.tech} in the vault?`,
    ],
  },
  {
    mem: (s) => `User likes short answers, uses ${s.os} at home and ${s.editor} at work, and wants dates written as day month year.`,
    ask: [(_s) => `How does the user like their answers and what computer do they use at home?`, (_s) => `What format does the user want for dates?`],
  },
  {
    mem: (s) => `Meeting with ${s.person} on ${s.day}: agreed to ship ${s.project} v${s.version} by the end of ${s.month}, pending the ${s.tech} migration.`,
    ask: [
      (s) => `When did we agree to ship ${s.project} and what is it waiting on?`,
      (s) => `What did ${s.first} and I agree about the ${s.project} release date?`,
    ],
  },
  {
    mem: (s) => `${s.person}'s birthday is ${s.month} ${s.date}; they enjoy ${s.hobby} and would appreciate a gift card for a ${s.hobby} shop.`,
    ask: [(s) => `When is ${s.first}'s birthday and what would be a good present for them?`, (s) => `What hobby does ${s.first} enjoy?`],
  },
  {
    mem: (s) => `Bug ${s.ticket} in ${s.project}: ${s.lang} worker leaks memory when ${s.tech} reconnects; workaround is to restart it every ${s.num} hours.`,
    ask: [
      (s) => `Is there a workaround for the memory leak in the ${s.project} worker?`,
      (s) => `What is the known bug when ${s.tech} reconnects, and how do we work around it?`,
    ],
  },
  {
    mem: (s) => `The ${s.team} team's standup is at ${s.time} on ${s.tool}; ${s.person} runs it and the notes go into ${s.tool2}.`,
    ask: [(s) => `What time is the ${s.team} standup and where do the notes go?`, (s) => `Who runs the daily standup for the ${s.team} team?`],
  },
  {
    mem: (s) => `For ${s.project}, tests use ${s.test} and must pass on ${s.lang} before merge; flaky tests are tracked in ${s.ticket}.`,
    ask: [
      (s) => `Which test framework do we use for ${s.project} and where are the flaky tests tracked?`,
      (s) => `What has to pass before I can merge into ${s.project}?`,
    ],
  },
  {
    mem: (s) => `${s.person} asked to be called ${s.nick} and prefers to be contacted on ${s.tool} rather than email, never before ${s.time}.`,
    ask: [(s) => `How does ${s.first} want to be contacted and what should I call them?`, (s) => `What nickname does ${s.first} go by?`],
  },
  {
    mem: (s) => `Budget for ${s.project} in ${s.quarter} is ${s.money} dollars, mostly ${s.cloud} compute; ${s.person} approves anything above that.`,
    ask: [
      (s) => `How much money do we have for ${s.project} this quarter and who approves more?`,
      (s) => `Who needs to approve spending over the ${s.project} budget?`,
    ],
  },
  {
    mem: (s) => `The home network uses a ${s.machine} as the DNS server; the Wi-Fi password was changed on ${s.month} ${s.date} and is in the notebook.`,
    ask: [(_s) => `Which device runs DNS on the home network and when was the Wi-Fi password changed?`, (_s) => `Where can I find the new Wi-Fi password?`],
  },
  {
    mem: (s) => `Travel: flight to ${s.place} on ${s.day} ${s.month} ${s.date}, seat ${s.seat}, hotel near the station; ${s.person} is picking me up.`,
    ask: [(s) => `When is my flight to ${s.place} and who is picking me up at the airport?`, (s) => `What seat did I get on the flight to ${s.place}?`],
  },
  {
    mem: (s) => `Reading list: finish the ${s.tech} book, then the paper on ${s.topic} that ${s.person} recommended during the ${s.project} retro.`,
    ask: [
      (s) => `What paper did ${s.first} recommend and what should I read first?`,
      (s) => `Which book am I supposed to finish before the paper on ${s.topic}?`,
    ],
  },
  {
    mem: (s) => `Chat with ${s.person}: they think the ${s.project} dashboard in ${s.tech} is too ${s.adj} and want a simpler view for the ${s.team} team.`,
    ask: [(s) => `What did ${s.first} say about the ${s.project} dashboard?`, (s) => `Why does the ${s.team} team want a simpler dashboard view?`],
  },
  {
    mem: (s) => `Always run migrations for ${s.project} with the --dry-run flag first; ${s.person} lost a table on ${s.machine} in ${s.month} doing it live.`,
    ask: [(s) => `How should I run the database migrations for ${s.project} safely?`, (s) => `What happened when ${s.first} ran the migration live?`],
  },
  {
    mem: (s) => `Goal for ${s.quarter}: cut p99 latency of ${s.project} below ${s.num}0 ms by replacing ${s.tech} with ${s.tech2} in the hot path.`,
    ask: [
      (s) => `What is our latency goal for ${s.project} this quarter and how do we plan to reach it?`,
      (s) => `Which component are we replacing in the ${s.project} hot path?`,
    ],
  },
  {
    mem: (s) => `I told ${s.person} that I'm out on ${s.day}s in ${s.month}; ${s.person2} covers the on-call rotation for ${s.team} then.`,
    ask: [(s) => `Who covers on-call for the ${s.team} team while I'm out?`, (s) => `Which days am I out of office in ${s.month}?`],
  },
];

const TOPICS =
  'vector quantization,consensus protocols,query planning,garbage collection,zero-copy parsing,CRDT sync,learned indexes,cache eviction,rate limiting,distributed tracing,columnar storage,lock-free queues'.split(
    ',',
  );
const OSES = 'macOS,Linux,Windows,ChromeOS,NixOS'.split(',');
const CLOUDS = 'AWS,GCP,Azure,Hetzner,DigitalOcean'.split(',');
const NICKS = 'Sam,Alex,Jo,Max,Kit,Lee,Ray,Bea,Gus,Tess'.split(',');
const TESTS = 'Jest,Vitest,pytest,Playwright,Cypress,Mocha,node:test,JUnit'.split(',');

/** Number of distinct "entities" (people + projects) that drive clustering. */
export const ENTITIES = FIRST.length * 3 + PROJECTS.length;

/** Generate `n` memories deterministically. */
export function generateMemories(n: number, seed = 42): GenMemory[] {
  const r = rng(seed);
  // Skewed picks: real memory stores mention a few people and projects far more than others.
  const skew: Pick = (xs) => xs[Math.floor(r() ** 1.6 * xs.length)]!;
  const pick: Pick = (xs) => xs[Math.floor(r() * xs.length)]!;
  const out: GenMemory[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const topic = Math.floor(r() * T.length);
    const fi = Math.floor(r() ** 1.6 * FIRST.length);
    const li = Math.floor(r() * LAST.length);
    const first = FIRST[fi]!;
    const pi = Math.floor(r() ** 1.4 * PROJECTS.length);
    const slots: Record<string, string> = {
      first,
      person: r() < 0.5 ? first : `${first} ${LAST[li]}`,
      person2: skew(FIRST),
      project: PROJECTS[pi]!,
      tech: skew(TECH),
      tech2: skew(TECH),
      tool: pick(['Slack', 'Zoom', 'Teams', 'Signal', 'Discord', 'Meet']),
      tool2: pick(['Notion', 'Confluence', 'Google Docs', 'Obsidian', 'Linear']),
      team: pick(TEAMS),
      place: skew(PLACES),
      food: pick(FOODS),
      day: pick(DAYS),
      month: pick(MONTHS),
      date: String(1 + Math.floor(r() * 28)),
      time: `${7 + Math.floor(r() * 12)}:${pick(['00', '15', '30', '45'])}`,
      editor: pick(EDITORS),
      lang: pick(['TypeScript', 'Python', 'Go', 'Rust', 'Java', 'Kotlin']),
      adj: pick(ADJ),
      machine: pick(MACHINES),
      ticket: `${pick(['OPS', 'BUG', 'INC', 'ENG', 'DATA'])}-${100 + Math.floor(r() * 9900)}`,
      secret: `kv/${pick(TEAMS)}/${Math.floor(r() * 1e6).toString(36)}`,
      num: String(2 + Math.floor(r() * 40)),
      version: `${1 + Math.floor(r() * 4)}.${Math.floor(r() * 10)}`,
      hobby: pick(HOBBY),
      os: pick(OSES),
      quarter: `Q${1 + Math.floor(r() * 4)}`,
      money: String((1 + Math.floor(r() * 90)) * 1000),
      cloud: pick(CLOUDS),
      seat: `${1 + Math.floor(r() * 40)}${pick(['A', 'B', 'C', 'D', 'E', 'F'])}`,
      topic: pick(TOPICS),
      nick: pick(NICKS),
      test: pick(TESTS),
    };
    let text = T[topic]!.mem(slots);
    // Some memories are longer chat-like turns.
    if (r() < 0.25)
      text += ` ${pick(['Follow up next week.', 'Double-check this with the team before acting on it.', `Mentioned again on ${slots.day}.`, `Source: conversation in ${slots.tool}.`, 'This came up twice already, so it matters.', `Related to ${slots.ticket}.`])}`;
    // Stores keep one copy of a text (mnemolite dedups exact repeats): make every text unique.
    while (seen.has(text)) text += ` (ref ${pick(['note', 'chat', 'doc', 'ticket'])} ${Math.floor(r() * 100000)})`;
    seen.add(text);
    const personal = text.includes(first);
    const entity = personal ? fi * 3 + (li % 3) : FIRST.length * 3 + pi;
    out.push({ text, topic, entity, slots });
  }
  return out;
}

/** A query aimed at memory `target`. */
export interface GenQuery {
  text: string;
  target: number;
}

/** `n` natural-language questions, each about one memory of `mems`. */
export function generateQueries(mems: GenMemory[], n: number, seed = 7): GenQuery[] {
  const r = rng(seed);
  const lead = ['', '', 'Hey, ', 'Quick question: ', 'Do you remember, ', 'Can you tell me ', 'I forgot, '];
  const out: GenQuery[] = [];
  const seen = new Set<string>();
  // Distinct texts: each question has its own vector, and embedders map a text to one vector.
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    const target = Math.floor(r() * mems.length);
    const m = mems[target]!;
    const asks = T[m.topic]!.ask;
    let q = asks[Math.floor(r() * asks.length)]!(m.slots);
    const l = lead[Math.floor(r() * lead.length)]!;
    if (l) q = l + q[0]!.toLowerCase() + q.slice(1);
    if (seen.has(q)) continue;
    seen.add(q);
    out.push({ text: q, target });
  }
  return out;
}

/** Box-Muller normal. */
function gauss(r: () => number): number {
  const u = 1 - r(),
    v = r();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const k = 1 / Math.sqrt(s || 1);
  for (let i = 0; i < v.length; i++) v[i]! *= k;
  return v;
}

/**
 * Synthetic embeddings shaped like sentence embeddings: a shared mean direction (real models'
 * vectors are not centred), a topic direction, an entity direction (so memories about the same
 * person or project cluster), and per-text noise. Queries are their target's vector plus noise,
 * like a paraphrase. Returns one flat Float32Array of unit vectors.
 */
export function syntheticVectors(mems: GenMemory[], queries: GenQuery[], dims = 512, seed = 99): { docs: Float32Array; queries: Float32Array } {
  const r = rng(seed);
  const dir = (): Float32Array => {
    const v = new Float32Array(dims);
    for (let i = 0; i < dims; i++) v[i] = gauss(r);
    return unit(v);
  };
  const mean = dir();
  const topics = T.map(() => dir());
  const entities = Array.from({ length: ENTITIES }, () => dir());
  const docs = new Float32Array(mems.length * dims);
  const tmp = new Float32Array(dims);
  mems.forEach((m, i) => {
    const tp = topics[m.topic]!,
      en = entities[m.entity]!;
    for (let j = 0; j < dims; j++) tmp[j] = 0.55 * mean[j]! + 0.5 * tp[j]! + 0.45 * en[j]! + (0.55 * gauss(r)) / Math.sqrt(dims);
    docs.set(unit(tmp), i * dims);
  });
  const qs = new Float32Array(queries.length * dims);
  queries.forEach((q, i) => {
    for (let j = 0; j < dims; j++) tmp[j] = docs[q.target * dims + j]! + (0.6 * gauss(r)) / Math.sqrt(dims);
    qs.set(unit(tmp), i * dims);
  });
  return { docs, queries: qs };
}
