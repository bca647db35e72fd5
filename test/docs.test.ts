import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { openMemory } from '../src/index.js';
import { ROOT, tempDb } from './helpers.js';

// The user-facing docs: links resolve, and the examples that claim a result get it.

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
function anchors(md: string): Set<string> {
  const out = new Set<string>();
  let code = false;
  for (const line of md.split('\n')) {
    if (line.startsWith('```')) code = !code;
    const m = !code && /^#{1,6} (.+)$/.exec(line);
    if (m)
      out.add(
        m[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      );
  }
  return out;
}

test('every relative link in README.md and docs/ points at a file (and heading) that exists', () => {
  const broken: string[] = [];
  for (const doc of DOCS) {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?|mailto):/.test(target!)) continue;
      const [file, hash] = target!.split('#') as [string, string | undefined];
      const path = file ? join(ROOT, dirname(doc), file) : join(ROOT, doc);
      if (!existsSync(path)) {
        broken.push(`${doc}: ${target}`);
        continue;
      }
      if (hash && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(hash)) broken.push(`${doc}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('README is a front door: short, both quick-start commands, no issue numbers in user-facing docs', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(Buffer.byteLength(readme) < 12_000, `README.md is ${Buffer.byteLength(readme)} bytes`);
  assert.ok(readme.includes('npm install && npx mnemolite demo') && readme.includes('\nnpm test'));
  for (const doc of DOCS) assert.doesNotMatch(readFileSync(join(ROOT, doc), 'utf8'), /\bissue #?\d/i, doc);
});

test('the near-duplicate merge example in docs/lifecycle.md merges with the bundled model and the default threshold', { timeout: 300_000 }, async () => {
  const md = readFileSync(join(ROOT, 'docs', 'lifecycle.md'), 'utf8');
  const first = /await mem\.add\('([^']+)'\);\s+\/\/ \{ id: 'A', replaced: false \}/.exec(md);
  const merge = /await mem\.add\('([^']+)', \{ nearDuplicates: 'merge' \}\);\s+\/\/ \{ id: 'A', deduplicated: 'merged' \}/.exec(md);
  assert.ok(first && merge, 'the example is where this test looks for it');
  const mem = await openMemory({ path: tempDb() });
  try {
    const a = await mem.add(first[1]!);
    const r = await mem.add(merge[1]!, { nearDuplicates: 'merge' });
    assert.equal(r.deduplicated, 'merged');
    assert.equal(r.id, a.id);
    assert.equal((await mem.get(a.id))!.content, merge[1]);
  } finally {
    await mem.close();
  }
});
