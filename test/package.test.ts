import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { ROOT, tempDir } from './helpers.js';

// The package as a consumer gets it: `npm pack`, install the tarball into a fresh project, then
// import (ESM) and require (CommonJS) it and run a snippet. The build goes to a temp copy so the
// repository's dist/ (used by other test files running in parallel) is never touched.

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed in ${cwd}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

let tarball = '';
let files: string[] = [];
let app = '';

before(() => {
  const dir = tempDir();
  const pkg = join(dir, 'pkg');
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json'), '--outDir', join(pkg, 'dist')], ROOT);
  for (const f of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(ROOT, f), join(pkg, f));
  // --ignore-scripts: dist is already built above; prepack would rebuild it.
  const packed = JSON.parse(run(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], pkg)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(dir, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path);

  app = join(dir, 'app');
  mkdirSync(app);
  // What `npm init -y` writes: no "type", so .js files are CommonJS.
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  // Dependencies come from the npm cache when present (the repository's own install filled it).
  // Install scripts are skipped: better-sqlite3's would download or compile the native module;
  // the repository already has it built for this Node, for the same pinned version.
  run(NPM, ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], app);
  const native = join('node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(join(app, native), { recursive: true });
  cpSync(join(ROOT, native, 'better_sqlite3.node'), join(app, native, 'better_sqlite3.node'));
});

test('the tarball ships dist, README and LICENSE, and no source maps pointing at unshipped src/', () => {
  assert.ok(files.includes('LICENSE'), files.join('\n'));
  assert.ok(files.includes('README.md'));
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('dist/cli/main.js'));
  assert.deepEqual(
    files.filter((f) => f.endsWith('.map') || f.startsWith('src/')),
    [],
  );
  const installed = join(app, 'node_modules', 'mnemolite', 'dist');
  const withMapUrl = readdirSync(installed, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.js') && readFileSync(join(installed, f), 'utf8').includes('sourceMappingURL'),
  );
  assert.deepEqual(withMapUrl, []);
  assert.match(readFileSync(join(app, 'node_modules', 'mnemolite', 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0/);
});

test('package.json names the repository, homepage, bugs and keywords', () => {
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules', 'mnemolite', 'package.json'), 'utf8'));
  assert.match(pkg.repository.url, /github\.com\/mnemolite\/mnemolite/);
  assert.match(pkg.homepage, /^https:\/\//);
  assert.match(pkg.bugs.url, /^https:\/\//);
  assert.ok(Array.isArray(pkg.keywords) && pkg.keywords.length > 0);
});

const SNIPPET = `
  const mem = await openMemory({ path: 'memory.db', embedder: 'none' });
  const { id } = await mem.add('We deploy the Rust service on a Raspberry Pi 4', { namespace: 'agent-1' });
  const hits = await mem.recall('raspberry deploy', { namespace: 'agent-1' });
  await mem.close();
  console.log(JSON.stringify({ id, hits: hits.map((h) => h.id) }));
`;

function check(out: string): void {
  const { id, hits } = JSON.parse(out.trim()) as { id: string; hits: string[] };
  assert.deepEqual(hits, [id]);
}

test('ESM: import from a .mjs file, top-level await', () => {
  writeFileSync(join(app, 'esm.mjs'), `import { openMemory } from 'mnemolite';\n${SNIPPET}`);
  check(run(process.execPath, ['esm.mjs'], app));
});

test('CommonJS: require() from a .js file in a project without "type": "module"', () => {
  writeFileSync(
    join(app, 'cjs.js'),
    `const { openMemory } = require('mnemolite');\n(async () => {${SNIPPET}})().catch((e) => { console.error(e); process.exit(1); });`,
  );
  check(run(process.execPath, ['cjs.js'], app));
});

test('the installed CLI runs from node_modules/.bin', () => {
  const cli = (...args: string[]) => run(join(app, 'node_modules', '.bin', 'mnemolite'), ['--db', join(app, 'cli.db'), '--embedder', 'none', ...args], app);
  cli('add', 'green tea with lemon');
  assert.match(cli('recall', 'lemon'), /green tea with lemon/);
});
