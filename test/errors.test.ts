/**
 * The error-code table (src/errors.ts) is the one source: the HTTP statuses, the CLI exit codes
 * and docs/errors.md follow it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ERROR_CODES, MnemoliteError, type ErrorCode } from '../src/errors.js';
import { toErrorResponse } from '../src/http/errors.js';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

/** The docs table as the code table renders it. */
function renderTable(): string {
  const rows = codes.map((c) => {
    const i = ERROR_CODES[c];
    return `| \`${c}\` | ${i.http} | ${i.exit} | ${i.retryable ? 'yes' : 'no'} | ${i.meaning} |`;
  });
  return ['| Code | HTTP | CLI exit | Retryable | Meaning |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

test('docs/errors.md holds the table of src/errors.ts, row for row', () => {
  const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  const start = doc.indexOf('| Code |');
  assert.ok(start >= 0, 'docs/errors.md has no table starting with "| Code |"');
  const end = doc.indexOf('\n\n', start);
  const table = doc.slice(start, end < 0 ? undefined : end).trimEnd();
  assert.equal(table, renderTable(), 'docs/errors.md is out of date: replace its table with the expected one above');
});

test('the HTTP server answers each library error with the status of the table, hiding the message where the table says so', () => {
  for (const c of codes) {
    const r = toErrorResponse(new MnemoliteError(c, `message of ${c}`, { field: 'x' }));
    assert.equal(r.status, ERROR_CODES[c].http, c);
    assert.equal(r.body.error.code, c);
    assert.equal(r.body.error.message === `message of ${c}`, ERROR_CODES[c].httpShowsMessage, `${c}: message shown or hidden`);
  }
});

test('every code has a sentence of meaning, an exit code of 1 or 2, and an HTTP error status', () => {
  for (const c of codes) {
    const i = ERROR_CODES[c];
    assert.match(i.meaning, /^[A-Z].*\.$/, c);
    assert.ok(i.exit === 1 || i.exit === 2, c);
    assert.ok(i.http >= 400 && i.http < 600, c);
  }
});
