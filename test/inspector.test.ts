import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openMemory } from '../src/index.js';
import { CLI, ROOT, tempDb } from './helpers.js';

// The web inspector, end to end: the built CLI serves it (`mnemolite serve`, the real bundled
// embedding model), headless Chromium (Debian's /usr/bin/chromium) drives it through playwright-core.
// Without a usable browser (missing, or present but unable to start) these tests skip with a loud
// notice, so `npm test` passes on a fresh clone; CI installs Chromium and sets
// MNEMOLITE_REQUIRE_BROWSER=1, which turns a missing or broken browser into a failure.

const CHROMIUM = process.env.MNEMOLITE_CHROMIUM || '/usr/bin/chromium';
const REQUIRE_BROWSER = process.env.MNEMOLITE_REQUIRE_BROWSER === '1';
const LAUNCH = {
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--no-first-run'],
  timeout: 120_000,
};

/** A launched browser, or why there is none: missing, or present but unable to start (no libraries, a stub). */
async function launchBrowser(): Promise<{ browser?: Browser; problem?: string }> {
  if (!existsSync(CHROMIUM))
    return { problem: `${CHROMIUM} is missing: install it with apt-get install -y chromium (see .ci/run), or point MNEMOLITE_CHROMIUM at a Chromium binary` };
  try {
    return { browser: await chromium.launch(LAUNCH) };
  } catch (e) {
    const why = String((e as Error).message ?? e).split('\n')[0];
    return {
      problem: `${CHROMIUM} exists but cannot be launched (${why}): reinstall it with apt-get install -y chromium, or point MNEMOLITE_CHROMIUM at a working Chromium`,
    };
  }
}
const launched = await launchBrowser();
// Skip (not fail) only when nobody asked for the browser tests to be mandatory.
const SKIP = launched.problem !== undefined && !REQUIRE_BROWSER ? `SKIPPED inspector browser tests: ${launched.problem}` : undefined;
if (SKIP) {
  const bar = '!'.repeat(100);
  process.stderr.write(`\n${bar}\n!! ${SKIP}\n!! Set MNEMOLITE_REQUIRE_BROWSER=1 to make this a failure (CI does).\n${bar}\n\n`);
}
// Every run saves the main view to test-results/ (git-ignored); UPDATE_SCREENSHOT=1 refreshes the README's copy in docs/.
const SCREENSHOT = join(ROOT, process.env.UPDATE_SCREENSHOT ? 'docs' : 'test-results', 'inspector.png');
const WAIT = 90_000; // generous: the machine may be loaded
const TOKEN = 'inspector-token-0123456789abcdef';

interface Server {
  url: string;
  proc: ChildProcess;
  stop: () => Promise<void>;
}
const servers: Server[] = [];
let browser: Browser | undefined;

function serve(args: string[], env: Record<string, string> = {}, at: { db?: string; serve?: string[] } = {}): Promise<Server> {
  const proc = spawn(process.execPath, [CLI, '--db', at.db ?? tempDb(), ...args, 'serve', '--port', '0', ...(at.serve ?? [])], {
    env: { ...process.env, MNEMOLITE_DB: '', MNEMOLITE_TOKEN: '', MNEMOLITE_TOKENS: '', MNEMOLITE_HOST: '', MNEMOLITE_PORT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '',
    err = '';
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start\n${out}\n${err}`));
    }, 120_000);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}\n${out}\n${err}`));
    });
    proc.stdout!.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const s: Server = {
        url: m[1]!,
        proc,
        stop: async () => {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
          await exited;
        },
      };
      servers.push(s);
      resolve(s);
    });
  });
}

async function api(base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(new URL(path, base), { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

before(() => {
  if (SKIP) return;
  assert.ok(launched.problem === undefined, launched.problem);
  browser = launched.browser;
});

after(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.stop()));
});

async function newPage(): Promise<Page> {
  const ctx = await browser!.newContext({ viewport: { width: 1360, height: 760 }, timezoneId: 'UTC', locale: 'en-GB' });
  const page = await ctx.newPage();
  page.setDefaultTimeout(WAIT);
  return page;
}

/** The row of the results table holding a memory whose text contains `text`. */
const row = (page: Page, text: string) => page.locator('#results-body tr', { has: page.locator('.text', { hasText: text }) });

test('inspector: stats, browse and filter, hybrid search with a semantic-only hit, edit, delete', { timeout: 600_000, skip: SKIP }, async () => {
  const s = await serve([]); // default embedder: the bundled local model
  const u = s.url;
  const memories = [
    { content: 'My Raspberry Pi setup', namespace: 'agent-1', category: 'hardware', sessionId: 's-1', createdAt: '2026-03-01T09:00:00Z' },
    { content: 'The office printer hardware is broken again', namespace: 'agent-1', category: 'office', sessionId: 's-1', createdAt: '2026-03-02T10:30:00Z' },
    {
      content: 'Deploy the billing service every Friday afternoon',
      namespace: 'agent-1',
      category: 'ops',
      sessionId: 's-2',
      metadata: { source: 'runbook' },
      createdAt: '2026-03-03T14:00:00Z',
    },
    { content: 'Alice prefers green tea in the morning', namespace: 'agent-1', category: 'preference', sessionId: 's-2', createdAt: '2026-03-04T08:15:00Z' },
    {
      content: "Bob's cat is called Whiskers",
      namespace: 'agent-2',
      key: ' pet name ',
      category: ' personal ',
      sessionId: 's-3',
      createdAt: '2026-03-05T18:45:00Z',
    },
    { content: 'The team standup is at 9:30 every weekday', namespace: 'agent-2', category: 'schedule', sessionId: 's-3', createdAt: '2026-03-06T07:00:00Z' },
  ];
  const added = await api(u, 'POST', '/api/memories/batch', { memories });
  assert.equal(added.status, 201, JSON.stringify(added.json));
  const ids = (added.json.results as { id: string }[]).map((r) => r.id);

  const page = await newPage();
  await page.goto(`${u}/`);

  // Stats: counts, embedding model, file size.
  await page.locator('#stat-memories', { hasText: '6' }).waitFor();
  assert.equal(await page.textContent('#stat-model'), 'energetic-ai/use-lite@0.2.0');
  assert.match((await page.textContent('#stat-semantic'))!, /local, 512 dims, semantic recall on/);
  assert.match((await page.textContent('#stat-size'))!, /^\d+(\.\d)? (KB|MB)$/);
  assert.match((await page.textContent('#stat-namespaces'))!, /2 namespaces/);

  // Browse: newest first, all namespaces.
  await page.locator('#results-body tr').nth(5).waitFor();
  assert.equal(await page.locator('#results-body tr').count(), 6);
  assert.match((await page.locator('#results-body tr').first().textContent())!, /standup/);
  assert.match((await page.textContent('#status'))!, /6 memories match/);

  // Filters: namespace, category, session, time.
  await page.selectOption('#f-namespace', 'agent-2');
  await page.locator('#status', { hasText: '2 memories match' }).waitFor();
  assert.equal(await page.locator('#results-body tr').count(), 2);
  await page.selectOption('#f-namespace', '*');
  await page.locator('#status', { hasText: '6 memories match' }).waitFor();
  await page.fill('#f-session', 's-2');
  await page.press('#f-session', 'Enter');
  await page.locator('#status', { hasText: '2 memories match' }).waitFor();
  await page.fill('#f-session', '');
  await page.fill('#f-category', 'hardware');
  await page.press('#f-category', 'Enter');
  await page.locator('#status', { hasText: '1 memory match' }).waitFor();
  assert.match((await page.locator('#results-body').textContent())!, /Raspberry Pi/);
  await page.fill('#f-category', '');
  await page.fill('#f-since', '2026-03-03T00:00');
  await page.dispatchEvent('#f-since', 'change');
  await page.locator('#status', { hasText: '4 memories match' }).waitFor();
  await page.fill('#f-until', '2026-03-05T00:00');
  await page.dispatchEvent('#f-until', 'change');
  await page.locator('#status', { hasText: '2 memories match' }).waitFor();
  await page.fill('#f-since', '');
  await page.fill('#f-until', '');
  await page.dispatchEvent('#f-until', 'change');
  await page.locator('#status', { hasText: '6 memories match' }).waitFor();

  // Hybrid search: ranks and fused scores, and a hit found by meaning only.
  await page.fill('#q', 'Deploying on ARM hardware');
  await page.selectOption('#mode', 'hybrid');
  await page.click('#search-button');
  await page.locator('#status', { hasText: 'for "Deploying on ARM hardware" (hybrid)' }).waitFor();
  assert.deepEqual(await page.locator('#results-head th').allTextContents(), [
    '#',
    'Score',
    'Relevance',
    'Keyword rank',
    'Vector rank',
    'Match',
    'Memory',
    'Created',
    '',
  ]);
  const pi = row(page, 'My Raspberry Pi setup');
  assert.equal(await pi.getAttribute('data-match'), 'semantic-only');
  assert.equal((await pi.locator('.match .badge').textContent())!.trim(), 'semantic only');
  assert.equal((await pi.locator('.keyword-rank').textContent())!.trim(), '–');
  assert.match((await pi.locator('.vector-rank').textContent())!.trim(), /^\d+$/);
  assert.match((await pi.locator('.score').textContent())!.trim(), /^0\.\d{4}$/);
  assert.match((await pi.locator('.relevance').textContent())!.trim(), /^[01]\.\d\d$/);
  const printer = row(page, 'printer hardware');
  assert.match((await printer.locator('.keyword-rank').textContent())!.trim(), /^\d+$/, 'a keyword hit shows its keyword rank');
  assert.notEqual(await printer.getAttribute('data-match'), 'semantic-only');
  // The same marks as the API's ranks.
  const hits = (await api(u, 'POST', '/api/recall', { query: 'Deploying on ARM hardware', namespace: '*', limit: 50 })).json.hits as {
    id: string;
    keywordRank?: number;
    vectorRank?: number;
  }[];
  const piHit = hits.find((h) => h.id === ids[0])!;
  assert.equal(piHit.keywordRank, undefined);
  assert.equal(String(piHit.vectorRank), (await pi.locator('.vector-rank').textContent())!.trim());
  assert.equal(await page.locator('#results-body tr[data-match="semantic-only"]').count(), hits.filter((h) => h.keywordRank === undefined).length);
  assert.ok(await page.locator('#legend').isVisible());
  // A relevance threshold hides the hits below it (the API's minRelevance).
  const rels = hits.map((h) => (h as { relevance?: number }).relevance ?? 0);
  const cut = [...rels].sort((a, b) => b - a)[1]!;
  await page.fill('#min-relevance', String(cut));
  const expected = rels.filter((r) => r >= cut).length;
  assert.ok(expected < hits.length);
  await page.click('#search-button');
  await page.waitForFunction(
    (n) =>
      (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#results-body tr').length === n,
    expected,
  );
  await page.fill('#min-relevance', '0');
  await page.click('#search-button');
  await page.waitForFunction(
    (n) =>
      (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#results-body tr').length === n,
    hits.length,
  );

  // The README's screenshot: the main view with stats and hybrid results.
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.ok(statSync(SCREENSHOT).size > 10_000);

  // Keyword mode: only keyword hits, none semantic-only.
  await page.selectOption('#mode', 'keyword');
  await page.click('#search-button');
  await page.locator('#status', { hasText: '(keyword)' }).waitFor();
  assert.equal(await page.locator('#results-body tr[data-match="semantic-only"]').count(), 0);
  assert.ok((await page.locator('#results-body tr').count()) >= 1);

  // Edit, with the change confirmed in a dialog.
  await page.click('#clear-button');
  await page.locator('#status', { hasText: '6 memories match' }).waitFor();
  await row(page, 'Alice prefers green tea').locator('button.edit').click();
  await page.locator('#edit-dialog[open]').waitFor();
  assert.equal(await page.inputValue('#edit-content'), 'Alice prefers green tea in the morning');
  await page.fill('#edit-content', 'Alice prefers oolong tea in the afternoon');
  await page.fill('#edit-category', 'drinks');
  await page.fill('#edit-metadata', '{nope');
  await page.click('#edit-save');
  await page.locator('#edit-error', { hasText: 'not valid JSON' }).waitFor();
  await page.fill('#edit-metadata', '{"source": "inspector"}');
  await page.click('#edit-save');
  await page.locator('#edit-dialog').waitFor({ state: 'hidden' });
  await page.locator('#status', { hasText: 'Saved memory' }).waitFor();
  await row(page, 'Alice prefers oolong tea').waitFor();
  assert.equal(await row(page, 'green tea').count(), 0);
  const edited = (await api(u, 'GET', `/api/memories/${ids[3]}`)).json;
  assert.equal(edited.content, 'Alice prefers oolong tea in the afternoon');
  assert.equal(edited.category, 'drinks');
  assert.deepEqual(edited.metadata, { source: 'inspector' });
  assert.equal(edited.sessionId, 's-2', 'untouched fields stay');
  // The new content is searchable at once.
  await page.fill('#q', 'oolong');
  await page.click('#search-button');
  await page.locator('#status', { hasText: 'for "oolong"' }).waitFor();
  await row(page, 'oolong').waitFor();

  // Editing only the content leaves a key and category with surrounding spaces exactly as they were.
  await page.click('#clear-button');
  await page.locator('#status', { hasText: '6 memories match' }).waitFor();
  await row(page, 'Whiskers').locator('button.edit').click();
  await page.locator('#edit-dialog[open]').waitFor();
  await page.fill('#edit-content', "Bob's cat is called Whiskers, and she is grey");
  await page.click('#edit-save');
  await page.locator('#edit-dialog').waitFor({ state: 'hidden' });
  await page.locator('#status', { hasText: 'Saved memory' }).waitFor();
  const spaced = (await api(u, 'GET', `/api/memories/${ids[4]}`)).json;
  assert.deepEqual([spaced.content, spaced.key, spaced.category], ["Bob's cat is called Whiskers, and she is grey", ' pet name ', ' personal ']);

  // Delete: cancel first (nothing happens), then confirm.
  await page.click('#clear-button');
  await page.locator('#status', { hasText: '6 memories match' }).waitFor();
  await row(page, 'Whiskers').locator('button.delete').click();
  await page.locator('#delete-dialog[open]').waitFor();
  assert.match((await page.textContent('#delete-preview'))!, /Whiskers/);
  await page.click('#delete-cancel');
  await page.locator('#delete-dialog').waitFor({ state: 'hidden' });
  assert.equal((await api(u, 'GET', `/api/memories/${ids[4]}`)).status, 200, 'cancel keeps the memory');
  await row(page, 'Whiskers').locator('button.delete').click();
  await page.locator('#delete-dialog[open]').waitFor();
  await page.click('#delete-confirm');
  await page.locator('#delete-dialog').waitFor({ state: 'hidden' });
  await page.locator('#status', { hasText: 'Deleted memory' }).waitFor();
  await page.locator('#stat-memories', { hasText: '5' }).waitFor();
  assert.equal(await row(page, 'Whiskers').count(), 0);
  assert.equal((await api(u, 'GET', `/api/memories/${ids[4]}`)).status, 404);
  await page.context().close();
});

test('inspector with a token: asks for it, then works; memory text is never run as HTML', { timeout: 300_000, skip: SKIP }, async () => {
  const s = await serve(['--embedder', 'none'], { MNEMOLITE_TOKEN: TOKEN });
  const xss = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> tea';
  assert.equal((await api(s.url, 'POST', '/api/memories', { content: xss }, TOKEN)).status, 201);
  const page = await newPage();
  await page.goto(`${s.url}/`);
  await page.locator('#token-dialog[open]').waitFor();
  await page.fill('#token-input', 'wrong-token-0123456789abcdef');
  await page.click('#token-save');
  await page.locator('#token-error', { hasText: 'not valid' }).waitFor();
  await page.fill('#token-input', TOKEN);
  await page.click('#token-save');
  await page.locator('#status', { hasText: '1 memory match' }).waitFor();
  assert.equal(await page.textContent('#results-body .text'), xss, 'shown as text');
  assert.equal(await page.locator('#results-body img').count(), 0);
  assert.equal(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);
  // Semantic recall is off: only keyword mode can be chosen.
  assert.equal(await page.inputValue('#mode'), 'keyword');
  assert.match((await page.textContent('#stat-semantic'))!, /semantic recall off/);
  await page.fill('#q', 'tea');
  await page.click('#search-button');
  await page.locator('#status', { hasText: '1 hit for "tea" (keyword)' }).waitFor();
  await page.context().close();
});

test('inspector with a prefix-limited token (team-*): lists its namespaces, browses, recalls and edits within them, never beyond', {
  timeout: 300_000,
  skip: SKIP,
}, async () => {
  const TEAM = 'team-token-0123456789abcdef0123';
  const s = await serve(['--embedder', 'none'], { MNEMOLITE_TOKEN: TOKEN, MNEMOLITE_TOKENS: `${TEAM}=team-*` });
  const add = async (content: string, namespace: string): Promise<string> => {
    const r = await api(s.url, 'POST', '/api/memories', { content, namespace }, TOKEN);
    assert.equal(r.status, 201);
    return r.json.id as string;
  };
  const a1 = await add('Team A ships the parser on Monday', 'team-a');
  await add('Team A reviews on Tuesday', 'team-a');
  const b1 = await add('Team B owns the billing dashboard', 'team-b');
  const secret = await add('Ops keeps the launch code in the vault', 'ops');
  // The API: the namespaces in use inside the grant, and nothing of ops.
  assert.deepEqual((await api(s.url, 'GET', '/api/me', undefined, TEAM)).json, {
    auth: 'token',
    namespaces: ['team-*'],
    namespacesInUse: ['team-a', 'team-b'],
    readOnly: false,
  });

  const page = await newPage();
  await page.goto(`${s.url}/`);
  await page.locator('#token-dialog[open]').waitFor();
  await page.fill('#token-input', TEAM);
  await page.click('#token-save');
  // It opens on its first namespace (it used to fail at once: stats of every namespace is refused).
  await page.locator('#status', { hasText: '2 memories match' }).waitFor();
  const options = await page.locator('#f-namespace option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
  assert.deepEqual(options, ['team-a', 'team-b'], 'its namespaces, no "all namespaces", no ops');
  assert.equal(await page.textContent('#stat-memories'), '2');
  await row(page, 'ships the parser').waitFor();
  // Another of its namespaces, and recall there.
  await page.selectOption('#f-namespace', 'team-b');
  await page.locator('#status', { hasText: '1 memory match' }).waitFor();
  await page.fill('#q', 'billing');
  await page.click('#search-button');
  await page.locator('#status', { hasText: '1 hit for "billing" (keyword)' }).waitFor();
  // Edit within scope.
  await row(page, 'billing dashboard').locator('button.edit').click();
  await page.locator('#edit-dialog[open]').waitFor();
  await page.fill('#edit-content', 'Team B owns the billing and invoicing dashboard');
  await page.click('#edit-save');
  await page.locator('#edit-dialog').waitFor({ state: 'hidden' });
  await page.locator('#status', { hasText: 'Saved memory' }).waitFor();
  assert.equal((await api(s.url, 'GET', `/api/memories/${b1}`, undefined, TOKEN)).json.content, 'Team B owns the billing and invoicing dashboard');
  // Nothing of ops ever reached the page.
  assert.ok(!(await page.content()).includes('launch code'));
  await page.context().close();

  // Out of scope stays refused for this token.
  assert.equal((await api(s.url, 'GET', '/api/memories?namespace=ops', undefined, TEAM)).status, 403);
  assert.equal((await api(s.url, 'GET', '/api/memories', undefined, TEAM)).status, 403, 'every namespace is not its scope');
  assert.equal((await api(s.url, 'GET', '/api/stats', undefined, TEAM)).status, 403);
  assert.equal((await api(s.url, 'GET', `/api/memories/${secret}`, undefined, TEAM)).status, 404);
  assert.equal((await api(s.url, 'PATCH', `/api/memories/${secret}`, { content: 'changed' }, TEAM)).status, 404);
  assert.equal((await api(s.url, 'POST', '/api/recall', { query: 'launch code', namespace: 'ops' }, TEAM)).status, 403);
  assert.equal((await api(s.url, 'GET', `/api/memories/${a1}`, undefined, TEAM)).status, 200);
});

test('inspector: the selected namespace shows its profile (as text), edits it with expectedVersion (a concurrent change is a 409, not lost); read-only servers only show it', {
  timeout: 300_000,
  skip: SKIP,
}, async () => {
  const s = await serve(['--embedder', 'none']);
  const u = s.url;
  for (const [content, namespace] of [
    ['Alice drinks green tea', 'alice'],
    ['Bob plays chess', 'bob'],
  ])
    assert.equal((await api(u, 'POST', '/api/memories', { content, namespace })).status, 201);
  assert.equal((await api(u, 'PUT', '/api/namespaces/alice/profile', { content: 'City: Lisbon' })).status, 200);
  const hostile = 'City: Porto\n<img src=x onerror="globalThis.__pwned=1"><b>bold</b>';
  assert.equal((await api(u, 'PUT', '/api/namespaces/alice/profile', { content: hostile, expectedVersion: 1 })).status, 200);

  const page = await newPage();
  await page.goto(`${u}/`);
  await page.locator('#status', { hasText: '2 memories match' }).waitFor();
  assert.equal(await page.isHidden('#profile'), true, 'all namespaces: no profile');
  await page.selectOption('#f-namespace', 'alice');
  await page.locator('#profile-meta', { hasText: 'version 2' }).waitFor();
  assert.equal(await page.textContent('#profile-ns'), 'alice');
  assert.equal(await page.textContent('#profile-content'), hostile, 'shown as text');
  assert.equal(await page.locator('#profile-content img, #profile-content b').count(), 0, 'never parsed as HTML');
  assert.equal(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);
  assert.match((await page.textContent('#profile-meta'))!, /2 versions kept/);

  // Edit: the new version is written with the version shown.
  await page.click('#profile-edit');
  await page.locator('#profile-dialog[open]').waitFor();
  assert.equal(await page.inputValue('#profile-input'), hostile);
  await page.fill('#profile-input', 'City: Braga');
  await page.click('#profile-save');
  await page.locator('#profile-dialog').waitFor({ state: 'hidden' });
  await page.locator('#status', { hasText: 'Saved the profile of alice (version 3)' }).waitFor();
  await page.locator('#profile-content', { hasText: 'City: Braga' }).waitFor();
  assert.equal((await api(u, 'GET', '/api/namespaces/alice/profile')).json.content, 'City: Braga');

  // Another writer changes it while the dialog is open: saving is a conflict, nothing of theirs is lost.
  await page.click('#profile-edit');
  await page.locator('#profile-dialog[open]').waitFor();
  await page.fill('#profile-input', 'City: Faro');
  assert.equal((await api(u, 'PUT', '/api/namespaces/alice/profile', { content: 'City: Coimbra', expectedVersion: 3 })).status, 200);
  await page.click('#profile-save');
  await page.locator('#profile-error', { hasText: 'it changed since it was read' }).waitFor();
  assert.equal((await api(u, 'GET', '/api/namespaces/alice/profile')).json.content, 'City: Coimbra', 'the other writer kept');
  await page.locator('#profile-content', { hasText: 'City: Coimbra' }).waitFor();
  assert.equal(await page.inputValue('#profile-input'), 'City: Faro', 'the text typed is kept in the dialog');
  // Saving again, now over version 4, is a deliberate replacement.
  await page.click('#profile-save');
  await page.locator('#profile-dialog').waitFor({ state: 'hidden' });
  assert.deepEqual(
    ((await api(u, 'GET', '/api/namespaces/alice/profile/history')).json.versions as { content: string }[]).map((v) => v.content),
    ['City: Faro', 'City: Coimbra', 'City: Braga', hostile, 'City: Lisbon'],
  );

  // A namespace without a profile can get its first one.
  await page.selectOption('#f-namespace', 'bob');
  await page.locator('#profile-content', { hasText: 'No profile yet.' }).waitFor();
  assert.equal(await page.textContent('#profile-edit'), 'Write profile');
  await page.click('#profile-edit');
  await page.fill('#profile-input', 'Name: Bob');
  await page.click('#profile-save');
  await page.locator('#profile-meta', { hasText: 'version 1' }).waitFor();
  assert.equal((await api(u, 'GET', '/api/namespaces/bob/profile')).json.content, 'Name: Bob');
  await page.selectOption('#f-namespace', '*');
  await page.locator('#profile').waitFor({ state: 'hidden' });
  await page.context().close();

  // Read-only: the profile is shown, with no way to edit it.
  const db = tempDb();
  const mem = await openMemory({ path: db, embedder: 'none' });
  await mem.add('Carol likes jazz', { namespace: 'carol' });
  await mem.profile.set('Name: Carol', { namespace: 'carol' });
  await mem.close();
  const ro = await serve(['--embedder', 'none'], {}, { db, serve: ['--read-only'] });
  assert.equal((await api(ro.url, 'GET', '/api/me')).json.readOnly, true);
  const view = await newPage();
  await view.goto(`${ro.url}/`);
  await view.locator('#status', { hasText: '1 memory match' }).waitFor();
  await view.selectOption('#f-namespace', 'carol');
  await view.locator('#profile-content', { hasText: 'Name: Carol' }).waitFor();
  assert.equal(await view.isHidden('#profile-edit'), true);
  await view.context().close();
});
