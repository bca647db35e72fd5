import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, spawnSync } from './helpers.js';

// The runnable examples of docs/integrations/*.md: each page quotes its example file verbatim, and
// the example runs offline (it imports the built package, which `npm test` builds first).
const EXAMPLES: Array<{ page: string; file: string; expect: RegExp[] }> = [
  { page: 'langgraph.md', file: 'langgraph-store.ts', expect: [/^friday thread recalls: I am vegetarian$/m, /^namespaces: \[\["memories","ada"\]\]$/m] },
  {
    page: 'langchain.md',
    file: 'langchain-retriever.ts',
    expect: [/^retrieved: We deploy the Rust service on a Raspberry Pi 4 \(source: standup\)$/m, /^tool says: 1\. The staging database is PostgreSQL 16$/m],
  },
  {
    page: 'ai-sdk.md',
    file: 'ai-sdk-tools.ts',
    expect: [
      /^memory_store -> \{"id":/m,
      /^memory_recall -> \{"query":"seat preference","count":1,/m,
      /^answer: You like window seats\.$/m,
      /^stored: The user prefers window seats$/m,
    ],
  },
  {
    page: 'openai-agents.md',
    file: 'openai-agents-tools.ts',
    expect: [/^tool -> Stored memory /m, /^tool -> 1 memory matches "peanut allergy"/m, /^answer: No peanuts for you\.$/m],
  },
];

const built = existsSync(join(ROOT, 'dist', 'integrations', 'langgraph', 'index.js'));

for (const ex of EXAMPLES) {
  test(`docs/integrations/${ex.page}: its example is examples/${ex.file}, and it runs`, {
    skip: built ? false : 'dist/ not built (npm test builds it)',
  }, () => {
    const code = readFileSync(join(ROOT, 'examples', ex.file), 'utf8');
    const page = readFileSync(join(ROOT, 'docs', 'integrations', ex.page), 'utf8');
    assert.ok(page.includes(`\`\`\`ts\n${code}\`\`\``), `${ex.page} quotes examples/${ex.file} verbatim`);
    assert.match(page, /\*\*Tested with\*\* .*\d+\.\d+\.\d+/);
    const env = { ...process.env };
    delete env.OPENAI_API_KEY; // the offline script, never a paid call
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'examples', ex.file)], { cwd: ROOT, env, encoding: 'utf8', timeout: 180_000 });
    assert.equal(r.status, 0, r.stderr);
    for (const re of ex.expect) assert.match(r.stdout, re);
  });
}
