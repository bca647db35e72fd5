import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.js';

// These run the built package (dist/, built by `npm test` before the tests) through its exports map.
const SUBPATHS: Record<string, string[]> = {
  langgraph: ['MnemoliteStore', 'encodeNamespace', 'decodeNamespace'],
  langchain: ['MnemoliteRetriever', 'langchainMemoryTools'],
  'ai-sdk': ['aiSDKMemoryTools'],
  'openai-agents': ['openAIAgentsMemoryTools'],
};

function node(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const built = existsSync(join(ROOT, 'dist', 'integrations', 'langgraph', 'index.js'));

test('each integration loads through the exports map with import and with require', { skip: built ? false : 'dist/ not built (npm test builds it)' }, () => {
  for (const [sub, names] of Object.entries(SUBPATHS)) {
    const script = `const m = %LOAD%('mnemolite/${sub}'); console.log(JSON.stringify(Object.keys(m)));`;
    const esm = node(['--input-type=module', '-e', script.replace('%LOAD%', 'await import')]);
    assert.equal(esm.code, 0, esm.stderr);
    const cjs = node(['-e', script.replace('%LOAD%', 'require')]);
    assert.equal(cjs.code, 0, cjs.stderr);
    for (const out of [esm.stdout, cjs.stdout]) {
      const keys = JSON.parse(out) as string[];
      for (const n of names) assert.ok(keys.includes(n), `${sub} exports ${n} (got ${keys.join(', ')})`);
    }
  }
});

test('importing the root module loads none of the frameworks', { skip: built ? false : 'dist/ not built (npm test builds it)' }, () => {
  // A resolve hook that fails the load of any framework package.
  const hook = `export async function resolve(s, c, next) {
    if (/^(@langchain\\/|@openai\\/agents|ai$|ai\\/)/.test(s)) throw new Error('framework loaded: ' + s);
    return next(s, c);
  }`;
  const load = (spec: string) =>
    node([
      '--input-type=module',
      '-e',
      `
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
    const m = await import('${spec}');
    console.log(Object.keys(m).length);
  `,
    ]);
  const root = load('mnemolite');
  assert.equal(root.code, 0, root.stderr);
  assert.ok(Number(root.stdout) > 10);
  // The hook does catch a framework import: the integrations fail under it.
  for (const sub of Object.keys(SUBPATHS)) {
    const r = load(`mnemolite/${sub}`);
    assert.notEqual(r.code, 0, `${sub} should need its framework`);
    assert.match(r.stderr, /framework loaded/);
  }
});
