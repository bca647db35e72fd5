/**
 * Vocabulary for eval/generate-facts.ts: people, projects, templates, and the hand-written
 * paraphrase pairs. Kept apart from the generator logic so each is readable.
 */

export const PEOPLE: [string, string][] = [
  ['Priya', 'Raman'],
  ['Marco', 'Rossi'],
  ['Alex', 'Kim'],
  ['Alex', 'Moreau'],
  ['Tom', 'Becker'],
  ['Sofia', 'Almeida'],
  ['Jonas', 'Lindqvist'],
  ['Hannah', 'Okafor'],
  ['Wei', 'Zhang'],
  ['Fatima', 'Haddad'],
  ['Lucas', 'Ferreira'],
  ['Nina', 'Petrova'],
  ['Omar', 'Siddiqui'],
  ['Chloe', 'Martin'],
  ['Diego', 'Alvarez'],
  ['Yuki', 'Tanaka'],
  ['Sam', 'Whitfield'],
  ['Grace', 'Mensah'],
  ['Ivan', 'Horvat'],
  ['Leila', 'Nasser'],
  ['Ben', 'Carter'],
  ['Maya', 'Goldberg'],
  ['Ravi', 'Iyer'],
  ['Elena', 'Vasquez'],
  ['Kofi', 'Boateng'],
  ['Anna', 'Novak'],
  ['Felix', 'Wagner'],
  ['Sara', 'Lind'],
  ['Mateo', 'Rojas'],
  ['Zoe', 'Fischer'],
  ['Arjun', 'Mehta'],
  ['Clara', 'Dubois'],
  ['Noah', 'Jensen'],
  ['Amara', 'Eze'],
  ['Pedro', 'Santos'],
  ['Lena', 'Hoffmann'],
  ['Kenji', 'Mori'],
  ['Ines', 'Costa'],
  ['Dmitri', 'Volkov'],
  ['Rosa', 'Moretti'],
  ['Jamal', 'Wright'],
  ['Mei', 'Lin'],
  ['Tariq', 'Aziz'],
  ['Julia', 'Kowalski'],
  ['Oscar', 'Nilsson'],
  ['Aisha', 'Bello'],
  ['Hugo', 'Laurent'],
  ['Vera', 'Sokolova'],
];

export const ROLES = [
  'backend engineer',
  'staff engineer',
  'engineering manager',
  'product manager',
  'site reliability engineer',
  'data scientist',
  'product designer',
  'QA lead',
  'frontend engineer',
  'security engineer',
  'tech lead',
  'data engineer',
  'ML engineer',
  'developer advocate',
  'support lead',
  'platform engineer',
  'mobile engineer',
  'principal engineer',
];
export const TEAMS = [
  'Payments',
  'Platform',
  'Search',
  'Data',
  'Mobile',
  'Growth',
  'Identity',
  'Infrastructure',
  'Support Tools',
  'Machine Learning',
  'Billing',
  'Developer Experience',
  'Security',
  'Web',
];
export const CITIES: [string, string][] = [
  ['Lisbon', 'WET'],
  ['Berlin', 'CET'],
  ['Amsterdam', 'CET'],
  ['London', 'GMT'],
  ['Bangalore', 'IST'],
  ['Toronto', 'EST'],
  ['São Paulo', 'BRT'],
  ['Warsaw', 'CET'],
  ['Nairobi', 'EAT'],
  ['Singapore', 'SGT'],
  ['Austin', 'CST'],
  ['Barcelona', 'CET'],
  ['Stockholm', 'CET'],
  ['Tokyo', 'JST'],
  ['Melbourne', 'AEST'],
  ['Dublin', 'GMT'],
  ['Lagos', 'WAT'],
  ['Zurich', 'CET'],
  ['Montreal', 'EST'],
  ['Prague', 'CET'],
];
export const EXPERTISE = [
  'Postgres internals',
  'incident response',
  'pricing experiments',
  'accessibility',
  'Kubernetes networking',
  'data modelling',
  'hiring loops',
  'OAuth flows',
  'mobile performance',
  'search relevance',
  'cost optimisation',
  'threat modelling',
];

export const ROLE_T = [
  '{full} is a {role} on the {team} team.',
  '{full} works as {arole} in {team}.',
  '{full}: {role}, {team} team.',
  'Met {full} today: {role} on {team}, very sharp on {topic}.',
  '{full} joined {team} as {arole}.',
];
export const CITY_T = ['{full} is based in {city}.', '{full} works remotely from {city} ({tz}).', '{full} lives in {city}, so mind the {tz} time zone.'];
export const HANDLE_T = [
  "{full}'s Slack handle is @{handle}.",
  'Reach {full} on Slack as @{handle}; email is slow.',
  '{full}: Slack @{handle}, prefers DMs to email.',
];
export const MANAGER_T = ['{full} reports to {mfull}.', "{full}'s manager is {mfull}.", '{mfull} manages {full}.'];
export const WORKSTYLE = [
  'likes agendas sent a day before meetings',
  'prefers async updates over calls',
  'is usually offline on Fridays',
  'wants PR reviews within one working day',
  'prefers afternoon meetings',
  'shares written notes after every meeting',
  'answers Slack in batches, twice a day',
  'likes to whiteboard before writing any code',
  'asks for a design doc before big changes',
  'prefers to be looped in on incidents early',
];

export interface Project {
  name: string;
  what: string;
  lang: string;
  fw: string;
  db: string;
  queue: string;
  host: string;
  region: string;
  ci: string;
  cadence: string;
  chan: string;
  repo: string;
  key: string;
  port: number;
  ext: string;
}
export const PROJECT_BASE: [string, string, string][] = [
  ['Falcon', 'payments API that charges cards and issues refunds', 'FAL'],
  ['Atlas', 'internal admin console for support and operations', 'ATL'],
  ['Nimbus', 'batch data pipeline that feeds the warehouse', 'NIM'],
  ['Heron', 'customer app for iOS and Android', 'HER'],
  ['Quartz', 'product search service', 'QTZ'],
  ['Juniper', 'single sign-on and identity service', 'JUN'],
  ['Orchid', 'public marketing website', 'ORC'],
  ['Sparrow', 'notification service for email, SMS and push', 'SPA'],
  ['Tundra', 'feature store behind the recommendation models', 'TUN'],
  ['Willow', 'customer support inbox tool', 'WIL'],
  ['Cobalt', 'subscription billing and invoicing engine', 'COB'],
  ['Magpie', 'competitor price scraper', 'MAG'],
  ['Lantern', 'observability stack for logs, metrics and traces', 'LAN'],
  ['Pebble', 'developer CLI for local environments', 'PEB'],
];
export const LANGS: [string, string[], string][] = [
  ['Go', ['chi', 'gin', 'the standard net/http package'], 'go'],
  ['Rust', ['axum', 'actix-web'], 'rs'],
  ['TypeScript', ['NestJS', 'Fastify', 'Express'], 'ts'],
  ['Python', ['FastAPI', 'Django', 'Flask'], 'py'],
  ['Kotlin', ['Ktor', 'Spring Boot'], 'kt'],
  ['Elixir', ['Phoenix'], 'ex'],
  ['Ruby', ['Rails'], 'rb'],
  ['Java', ['Spring Boot', 'Quarkus'], 'java'],
];
export const DBS = ['PostgreSQL 15', 'MySQL 8', 'MongoDB 6', 'DynamoDB', 'ClickHouse', 'CockroachDB', 'SQLite with Litestream', 'Redis (as primary store)'];
export const QUEUES = ['Kafka', 'RabbitMQ', 'NATS JetStream', 'Amazon SQS', 'Redis Streams', 'Google Pub/Sub'];
export const HOSTS = ['AWS ECS Fargate', 'GKE', 'Fly.io', 'Hetzner bare metal', 'Render', 'Azure Container Apps', 'a k3s cluster', 'AWS Lambda', 'Heroku'];
export const REGIONS = ['eu-west-1', 'us-east-2', 'eu-central-1', 'ap-southeast-1', 'europe-west4', 'us-west-2'];
export const CIS = ['GitHub Actions', 'CircleCI', 'Buildkite', 'GitLab CI', 'Jenkins', 'Drone'];
export const CADENCES = [
  'every Tuesday and Thursday',
  'continuously on every merge to main',
  'once a fortnight',
  'every weekday morning',
  'on Mondays after the release review',
  'when the Wednesday release train leaves',
];

/** Attribute templates: memory phrasings and "partial" queries (share the project name, not the attribute words). */
export const ATTR: Record<string, { mem: string[]; q: string[] }> = {
  purpose: {
    mem: ['{P} is our {what}.', '{P} is the {what}.', 'Context for later: {P} = the {what}.'],
    q: ['What is {P} for?', 'Explain the job of {P} in one line.'],
  },
  lang: {
    mem: ['{P} is written in {lang} with {fw}.', 'The {P} codebase is {lang} ({fw}).', '{P}: {lang} service on {fw}.', 'We built {P} in {lang}, using {fw}.'],
    q: ['What programming language is {P} implemented in?', 'Which tech stack powers {P}?'],
  },
  db: {
    mem: [
      '{P} stores its data in {db}.',
      'The {P} service persists everything to {db}.',
      '{P} primary datastore: {db}.',
      'For {P} we picked {db} as the main store.',
    ],
    q: ['Which database engine backs {P}?', 'What DB does {P} write to?'],
  },
  queue: {
    mem: ['{P} uses {queue} for background jobs.', 'Async work in {P} goes through {queue}.', '{P} publishes its events to {queue}.'],
    q: ['What message broker does {P} rely on?', 'How does {P} handle deferred tasks?'],
  },
  host: {
    mem: ['{P} runs on {host} in {region}.', '{P} is deployed to {host} ({region}).', 'Production {P} lives on {host}, region {region}.'],
    q: ['Where is {P} hosted?', 'Which cloud platform serves {P}?'],
  },
  ci: {
    mem: ["{P}'s CI runs on {ci}.", '{P} builds and tests in {ci}.', 'Pipelines for {P} are on {ci}; a full run takes about {mins} minutes.'],
    q: ['Which build pipeline tests {P}?', 'Where do the automated checks for {P} execute?'],
  },
  cadence: {
    mem: ['{P} ships {cadence}.', 'We release {P} {cadence}.', '{P} deploys to production {cadence}.'],
    q: ['How often does {P} go live?', 'What is the rollout rhythm for {P}?'],
  },
  chan: {
    mem: ['{P} alerts go to #{chan} in Slack.', 'Page #{chan} for anything broken in {P}.', 'The {P} incident channel is #{chan}.'],
    q: ['Where do I escalate a {P} problem?', 'Who gets told when {P} is down?'],
  },
  dash: {
    mem: [
      "Grafana board '{P} / Overview' has the golden signals for {P}.",
      "{P} health is on the Grafana dashboard '{P} / Overview'.",
      "Check Grafana, '{P} / Overview', for {P} latency and errors.",
    ],
    q: ['Where can I watch how {P} is doing?', 'How do I monitor {P}?'],
  },
  repo: {
    mem: ['The {P} code lives at github.com/acme-labs/{repo}.', '{P} repo: github.com/acme-labs/{repo}.', 'Clone github.com/acme-labs/{repo} to work on {P}.'],
    q: ['Where is the source for {P}?', 'Which git repository holds {P}?'],
  },
  port: {
    mem: ['The {P} API listens on port {port}.', '{P} serves HTTP on port {port}.', 'Locally and in prod, {P} binds to port {port}.'],
    q: ['Which port does {P} answer on?', 'What socket number should I call {P} on?'],
  },
};

/** Preferences of the user: [memory phrasing, alternative phrasing, optional partial query]. */
export const PREFS: [string, string, string?][] = [
  ['prefers squash merges over merge commits', 'wants branches squashed when merged', 'How should branches be combined into main for the user?'],
  ['wants commit messages in the imperative mood', 'writes commit subjects as commands, e.g. "Add retry"', 'How does the user like commit messages written?'],
  ['likes table-driven tests', 'prefers tests written as tables of cases'],
  ['wants TypeScript strict mode on in every repo', 'insists on strict mode in tsconfig'],
  ['dislikes ORMs and prefers plain SQL', 'would rather write raw SQL than use an ORM', 'Does the user like object-relational mappers?'],
  ['uses pnpm, never yarn', 'sticks to pnpm for JavaScript packages', 'Which JS package manager does the user use?'],
  ['wants dependency updates batched weekly', 'likes Renovate PRs grouped once a week'],
  ['likes review comments prefixed with "nit:" when optional', 'marks optional review feedback with nit:'],
  ['prefers Markdown tables over screenshots', 'wants tables in Markdown rather than images'],
  ['wants meeting invites to include a video link', 'asks that every invite carries a call link'],
  ['prefers metric units', 'uses kilometres and kilograms, not miles and pounds', 'Which measurement system should I use with the user?'],
  ['writes dates as YYYY-MM-DD', 'wants ISO dates like 2025-03-14 everywhere', 'What date format does the user prefer?'],
  ['prefers 24-hour time', 'reads times as 17:30, never 5:30 pm'],
  ['likes answers that start with the conclusion', 'wants the bottom line first in every reply', 'How should I structure replies to the user?'],
  ['wants shell commands shown in copyable code blocks', 'asks for commands in fenced blocks'],
  ['prefers Postgres over MySQL for new projects', 'picks Postgres by default for new services'],
  ['keeps a CHANGELOG.md in every repo', 'maintains a changelog file per repository'],
  ['wants Docker images based on distroless', 'builds containers on distroless bases'],
  ['avoids deploying on Fridays', 'never ships to production on a Friday', 'Which day should deploys be avoided?'],
  ['uses conventional commits', 'formats commits as feat:/fix:/chore:'],
  ['prefers GitHub Discussions over Slack threads for design debates', 'moves design arguments out of Slack into Discussions'],
  ['wants code examples in TypeScript first, then Python', 'asks for TypeScript samples before Python ones', 'Which language should code samples be in?'],
  ['likes to see benchmarks before optimisations are merged', 'wants numbers before any performance PR lands'],
  ['prefers explicit error types over exceptions', 'likes Result-style errors rather than throwing'],
  ['wants logs in JSON in production', 'asks for structured JSON logging in prod'],
  ['keeps feature branches under two days old', 'merges branches within 48 hours'],
  ['reads email only at 11:00 and 16:00', 'checks the inbox twice a day, late morning and afternoon', 'When does the user look at their inbox?'],
  ['prefers Google Meet to Zoom', 'uses Meet rather than Zoom for calls', 'Which video call tool does the user want?'],
  ['likes a weekly summary every Monday morning', 'wants a recap at the start of each week'],
  ['wants invoices as PDF attachments, not links', 'asks for PDF invoices attached to the email'],
  ['wants every service to expose /healthz', 'insists on a /healthz endpoint per service'],
  ['likes Mermaid diagrams in docs', 'draws architecture in Mermaid inside Markdown'],
  ['prefers Terraform over Pulumi', 'writes infrastructure in Terraform, not Pulumi', 'Which infrastructure-as-code tool does the user favour?'],
  ['wants all timestamps in UTC in logs', 'logs times in UTC only'],
  ['prefers Playwright for end-to-end tests', 'writes browser tests with Playwright'],
  ['likes property-based tests for parsers', 'fuzzes parsers with property-based tests'],
  ['wants API errors in RFC 9457 problem+json format', 'returns problem details (RFC 9457) from APIs'],
  ['prefers REST over GraphQL for public APIs', 'keeps public APIs RESTful rather than GraphQL'],
  ['wants a README quick start that works in five minutes', 'expects the quick start to run in under five minutes'],
  ['wants PRs under 400 changed lines', 'asks for pull requests smaller than 400 lines'],
  ['tracks personal tasks in Todoist', 'keeps their own to-do list in Todoist'],
  ['likes to be called by first name only', 'prefers first names, no titles'],
  ['wants cost estimates attached to infra changes', 'expects a price estimate on every infrastructure PR'],
  ['prefers self-hosted runners for CI', 'runs CI jobs on their own runners'],
  ['likes a short daily plan at 9:00', 'wants a morning plan of the day at nine'],
  ['wants secrets kept out of .env files in git', 'never commits .env files with secrets'],
  ['prefers light mode on the phone but dark on the laptop', 'uses a light phone theme and a dark laptop theme'],
  ['prefers CSV exports over Excel files', 'asks for CSV rather than XLSX'],
];

/**
 * Paraphrase pairs: memory phrasings (first is stored, second is a near-duplicate restatement
 * when present) and a query that shares no content word with either. The generator checks that.
 */
export const PARAPHRASE: { m: string[]; q: string }[] = [
  {
    m: [
      'Runs the home automation stack on a Raspberry Pi 4 in the hallway closet.',
      'Their smart-home services are hosted on a little Pi board by the front door.',
    ],
    q: 'Which ARM microcomputer powers the house gadgets?',
  },
  { m: ['Is vegetarian and allergic to peanuts.', 'Eats no meat; peanuts cause a reaction.'], q: 'Dietary restrictions when ordering lunch' },
  { m: ['Gets migraines from bright screens, so every editor theme must be dark.'], q: 'Display colour scheme needs because of headaches' },
  { m: ['Daughter Mia starts kindergarten in September.', 'Mia, their little girl, enters kindergarten this autumn.'], q: 'When does the child begin school?' },
  { m: ['Commutes by bicycle, about 12 km each way along the canal.', 'Cycles to work daily along the canal path.'], q: 'How do they get to the office?' },
  { m: ['Hates long meetings; keep calls under 25 minutes.'], q: 'Preferred duration for video conferences' },
  { m: ['The Kubernetes cluster autoscaler keeps at least three nodes warm.'], q: 'Minimum machine count in the container orchestration setup' },
  {
    m: ['Nightly backups of the Postgres database go to an S3 bucket in eu-west-1.', 'Postgres dumps are copied every night to S3 (eu-west-1).'],
    q: 'Where are relational DB snapshots stored overnight?',
  },
  { m: ['Learning Japanese on Duolingo, currently a 200-day streak.'], q: 'Which foreign tongue are they studying?' },
  { m: ['Is allergic to cats.'], q: 'Which animal makes them sneeze?' },
  {
    m: ['Prefers written summaries in bullet points rather than long paragraphs.', 'Wants recaps as short bullet lists, not prose.'],
    q: 'How should notes sent to them be formatted?',
  },
  { m: ['Training for the Berlin marathon in late September.'], q: 'Upcoming long-distance running race' },
  { m: ['Their laptop is a 2021 MacBook Pro with the M1 Max chip.'], q: 'Apple computer specs for their work machine' },
  {
    m: ['Moved from Lisbon to Amsterdam in the spring.', 'Relocated to Amsterdam earlier this year after Lisbon.'],
    q: 'Which Dutch city do they live in now?',
  },
  { m: ['Budget for the offsite is capped at 15,000 euros.'], q: 'Spending limit for the team retreat' },
  { m: ['The staging site is protected by basic auth; credentials live in 1Password.'], q: 'Where is the login for the pre-production website kept?' },
  { m: ['Sleeps badly before big launches, so avoid scheduling anything before 10am on release days.'], q: 'No early morning appointments on ship dates' },
  { m: ['Plays bass guitar in a weekend jazz trio.', 'Has a jazz trio on weekends where they play bass.'], q: 'What musical instrument do they perform with?' },
  { m: ['Drinks only decaf after 2pm.'], q: 'Caffeine habits later in the day' },
  { m: ['The CEO wants a weekly written update every Friday by noon.'], q: 'Status report deadline for leadership' },
  { m: ['Our error tracking runs on Sentry, self-hosted.'], q: 'Which crash monitoring tool do we use?' },
  {
    m: ['Uses a split ergonomic keyboard because of wrist pain.', 'Types on a split keyboard since their wrist hurts.'],
    q: 'Repetitive strain injury accommodations',
  },
  { m: ['The mobile app is built with React Native and ships through Expo.'], q: 'Cross-platform phone framework' },
  { m: ['Is colour-blind (deuteranopia); never rely on red versus green in charts.'], q: 'Accessibility needs for graphs and dashboards' },
  { m: ["Wife's name is Sofia; anniversary on June 12.", 'Married to Sofia, wedding anniversary 12 June.'], q: 'When do they celebrate with their spouse?' },
  { m: ['Speaks Portuguese natively and English fluently.'], q: 'Mother tongue' },
  { m: ['Drives an electric Hyundai Ioniq 5.'], q: 'What vehicle do they own?' },
  { m: ['Volunteers at the food bank on Saturday mornings.', 'Helps out at the food bank every Saturday morning.'], q: 'Charity work at weekends' },
  { m: ["The company's fiscal year starts in February."], q: 'When does the financial calendar begin?' },
  { m: ['Prefers pairing over asynchronous code review for tricky changes.'], q: 'Collaboration style for difficult pull requests' },
  {
    m: ['Recovering from knee surgery; no hiking plans until spring.', 'Had an operation on the knee, so hikes are off for now.'],
    q: 'Physical limitations while healing',
  },
  { m: ['Wants answers in British English spelling.'], q: 'UK orthography for replies' },
  { m: ['Password manager of choice is Bitwarden.'], q: 'Which credential vault app do they use?' },
  { m: ['Photographs birds with a 600mm lens on weekends.', 'Spends weekends shooting birds with a 600mm telephoto.'], q: 'Wildlife camera hobby' },
  { m: ['Our on-call pager is PagerDuty with a 15-minute acknowledgement window.'], q: 'Incident alert escalation tool' },
  { m: ['Tea, not coffee: usually a strong Assam with milk.'], q: 'Favourite hot morning beverage' },
  { m: ['Twin sons, Leo and Max, both turning seven in May.', 'Leo and Max, the twins, have their seventh birthday in May.'], q: 'How old are the boys?' },
  { m: ['Keeps a sourdough starter named Doughbi alive in the fridge.'], q: 'Bread baking hobby' },
  { m: ['Lives in a third-floor walk-up with no elevator.'], q: 'Does their flat have a lift?' },
  { m: ['The data warehouse is Snowflake; dbt builds the models every hour.'], q: 'Analytics storage and transformation tooling' },
  { m: ['Avoids flying when possible and takes trains across Europe.', 'Prefers trains to planes for European trips.'], q: 'Travel by rail or air?' },
  { m: ['Invoices must be sent by the 5th of each month.'], q: 'Billing deadline' },
  { m: ['Is nervous about public speaking; offer to rehearse talks beforehand.'], q: 'Stage fright ahead of presentations' },
  { m: ['Grew up in Cape Town.'], q: 'South African hometown' },
  {
    m: ['The VPN drops every few hours on hotel wifi; they use a phone hotspot instead.', 'On hotel internet the VPN keeps disconnecting, so they tether.'],
    q: 'Unstable remote network connection workaround',
  },
  { m: ['Reads science fiction, currently working through the Expanse series.'], q: 'Favourite genre of novels' },
  { m: ['Their greyhound, Pixel, needs a walk at 6pm.', 'Pixel the greyhound gets walked at six every evening.'], q: 'Pet care routine' },
  { m: ['Runs Arch Linux on the desktop and macOS on the laptop.'], q: 'Operating systems on their computers' },
  { m: ['Meditates for twenty minutes every morning with Headspace.'], q: 'Mindfulness practice' },
  { m: ['The load balancer terminates TLS and forwards plain HTTP to the pods.'], q: 'Where encryption ends in front of the containers' },
  {
    m: ['Is saving for a house deposit and cutting discretionary spending.', 'Putting money aside to buy a house; trimming extras.'],
    q: 'Financial goal of buying a home',
  },
  { m: ['Salary review happens every April with their manager, Tom.'], q: 'Annual pay raise conversation' },
  { m: ['Hates being interrupted during deep work blocks from 9 to 12.'], q: 'Focus time without distractions' },
  { m: ['Sister Ana is a nurse in Porto.'], q: "Sibling's job in healthcare" },
  { m: ['Migrated the monorepo from Lerna to Turborepo last quarter.'], q: 'JavaScript build orchestration switch' },
  { m: ['Our feature flags are managed in LaunchDarkly.'], q: 'Toggle service for gradual rollouts' },
  { m: ['Uses Obsidian for personal notes, synced through iCloud.'], q: 'Knowledge base app across devices' },
  {
    m: ['Takes insulin for type 1 diabetes; keep snacks in mind for long meetings.', 'Type 1 diabetic on insulin, may need a snack break.'],
    q: 'Medical condition involving blood sugar',
  },
  { m: ['Dislikes emoji in professional messages.'], q: 'Smiley icons in work chat' },
  { m: ['The API rate limit for partners is 100 requests per second.'], q: 'Throttling threshold for external integrators' },
  { m: ['Is a night owl and does the best work after 10pm.'], q: 'Most productive hours late' },
  { m: ['Fluent in Mandarin from two years living in Shanghai.'], q: 'Chinese language skills' },
  { m: ['Supports FC Porto and watches every match.', 'Never misses an FC Porto game.'], q: 'Favourite football club' },
  { m: ['Moving the office to a coworking space in Kreuzberg next month.'], q: 'New workplace location in Berlin' },
  { m: ["Root cause of last week's outage was an expired TLS certificate."], q: 'Why did the service go down recently?' },
  { m: ['The design system lives in Storybook and is published to Chromatic.'], q: 'UI component catalogue hosting' },
  { m: ['Plans to take parental leave from March to June.'], q: 'Time off after the baby arrives' },
  { m: ['Wants every PR description to include a testing section.'], q: 'Requirements for merge request write-ups' },
  { m: ['Pays for Spotify Family for the whole household.'], q: 'Music streaming subscription' },
  { m: ['Is lactose intolerant; oat milk in coffee.', 'Cannot do lactose, so oat milk only.'], q: 'Dairy problems' },
  { m: ['Grandmother turns 90 next month; party in Coimbra.'], q: "Elderly relative's birthday celebration" },
  { m: ['Standing desk set to 112 cm for typing.'], q: 'Workstation height' },
  { m: ['Search results must load in under 200 milliseconds at the 95th percentile.'], q: 'Latency budget for queries' },
  { m: ['Renewing their passport; the appointment is at the consulate on the 14th.'], q: 'Getting a new travel ID at the embassy' },
  { m: ['Prefers Rust for command-line tools and Go for network services.'], q: 'Language choice for CLIs and daemons' },
  { m: ['Has a standing Thursday dinner with college friends.'], q: 'Weekly evening meal with old classmates' },
  { m: ['Donates monthly to Doctors Without Borders.'], q: 'Humanitarian charity contributions' },
  { m: ['Afraid of heights; skip rooftop venues.'], q: 'Phobia to consider for event planning' },
  { m: ['The GPU box under the desk has two RTX 4090 cards for fine-tuning.'], q: 'Machine learning training hardware' },
  { m: ['Got promoted to staff engineer in January.'], q: 'Career advancement this year' },
  { m: ['Is Muslim and fasts during Ramadan; avoid lunch meetings then.'], q: 'Religious observances affecting meal scheduling' },
  { m: ['Learning to sail; has a dinghy course booked in Lagos in July.'], q: 'Boating lessons this summer' },
  { m: ['Grows tomatoes and chillies on the balcony.', 'Has tomato and chilli plants out on the balcony.'], q: 'Urban gardening' },
  { m: ['The legacy billing system is a COBOL mainframe nobody wants to touch.'], q: 'Old invoicing platform written in an ancient language' },
  { m: ['Support tickets come in through Zendesk.'], q: 'Customer help desk software' },
  { m: ['Wears hearing aids; prefers captions on video calls.'], q: 'Deaf accessibility in meetings' },
  { m: ['Favourite restaurant is a tiny ramen bar near the station.'], q: 'Go-to place for Japanese noodles' },
  { m: ['Keeps two monitors: a 32-inch 4K and a portrait 27-inch.'], q: 'Screen configuration' },
  { m: ['The company uses Notion for the wiki and Linear for issues.'], q: 'Documentation and bug tracker tools' },
  { m: ['Quit smoking two years ago and is proud of it.'], q: 'Nicotine habit' },
];
