/**
 * The public surface is deliberate: the root module's exports (values and types) equal the
 * checked-in list test/fixtures/root-exports.txt. Adding, renaming or dropping an export means
 * editing that list in the same change.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import ts from 'typescript';

const listed = readFileSync(new URL('./fixtures/root-exports.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);
const TYPE = ' (type)';

test('the root module exports at run time exactly the values of the checked-in list', async () => {
  const mod = await import('../src/index.js');
  assert.deepEqual(Object.keys(mod).sort(), listed.filter((n) => !n.endsWith(TYPE)).sort());
});

test('the root module declares exactly the values and types of the checked-in list', () => {
  const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const root = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const names = checker.getExportsOfModule(root).map((s) => {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    return `${s.name}${target.flags & ts.SymbolFlags.Value ? '' : TYPE}`;
  });
  assert.deepEqual(names.sort(), [...listed].sort());
});

test("one version: the CLI, the MCP server and the HTTP API report package.json's", async () => {
  const { VERSION } = await import('../src/version.js');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
  const { cli } = await import('./helpers.js');
  assert.equal(cli(['--version']).stdout.trim(), pkg.version);
});
