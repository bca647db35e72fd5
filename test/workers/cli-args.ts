/**
 * Random `mnemolite` command lines: every command (except the long-running servers `mcp` and
 * `serve` and the model-loading `demo`) with fuzzed values for every string option and argument.
 * Paths stay inside the current directory (slashes are replaced), and the embedder is `none`
 * (or `openai` for commands that never call it), so no run touches the network or the model.
 */
import fc from 'fast-check';

const PAYLOADS = [
  "'",
  '"',
  ';',
  '--',
  '%',
  '_',
  '*',
  '\\',
  "'; DROP TABLE memories; --",
  '" OR 1=1 --',
  'NEAR(a b)',
  'a AND b',
  'NOT a',
  'a*',
  '^a',
  'col:a',
  '$.a',
  '{}',
  '[]',
  '{"a":1}',
  '{"a":',
  'null',
  'true',
  '1e999',
  '-1',
  '0',
  '1.5',
  'NaN',
  '2026-01-01',
  '2026-13-45',
  'yesterday',
  '7d',
  '0s',
  'default',
  '-',
  '--json',
  '-n',
  '--help',
  '',
  ' ',
  '\t',
  '\n',
  '🚀',
  '東京',
  'é',
  '\u200b',
  '\ud800',
  '\u0000',
  'x'.repeat(5000),
];

/** A hostile string (may contain NUL and lone surrogates: `allowNul` false for argv of a real process). */
export function hostile(allowNul: boolean): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
    { weight: 3, arbitrary: fc.string({ maxLength: 10 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  );
  return fc
    .array(piece, { maxLength: 4 })
    .map((a) => a.join(''))
    .map((s) => (allowNul ? s : s.replace(/\u0000/g, '')));
}

const plainPath = (s: string): string => `f-${s.replace(/[/\u0000]/g, '_')}`;

/** One command line (without `node mnemolite`). */
export function commandLine(allowNul: boolean): fc.Arbitrary<string[]> {
  const s = hostile(allowNul);
  const opt = (flag: string) =>
    fc.option(
      s.map((v) => [flag, v]),
      { nil: undefined },
    );
  const flags = (...fs: string[]) => fc.tuple(...fs.map(opt)).map((xs) => xs.filter((x): x is string[] => !!x).flat());
  const meta = fc
    .option(
      fc.array(s, { maxLength: 2 }).map((vs) => vs.flatMap((v) => ['--meta', v])),
      { nil: undefined },
    )
    .map((x) => x ?? []);
  const filters = fc.tuple(flags('-n', '--category', '--session', '--since', '--until'), meta).map(([a, b]) => [...a, ...b]);
  const id = fc.oneof(s, fc.constant('01a22d00-0000-7000-8000-000000000000'));
  const cmd = fc.oneof(
    fc
      .tuple(
        fc.array(s, { minLength: 1, maxLength: 3 }),
        flags(
          '-n',
          '-k',
          '--category',
          '--session',
          '--metadata',
          '--created-at',
          '--ttl',
          '--expires-at',
          '--importance',
          '--supersedes',
          '--near',
          '--dedup-threshold',
        ),
      )
      .map(([words, f]) => ['add', ...f, '--', ...words]),
    fc
      .tuple(
        fc.array(s, { minLength: 1, maxLength: 3 }),
        filters,
        flags('-m', '-l', '--rrf-k', '--recency', '--recency-weight', '--as-of', '--importance-weight'),
      )
      .map(([words, f, g]) => ['recall', ...f, ...g, '--', ...words]),
    fc.tuple(id, flags('-n')).map(([i, f]) => ['get', ...f, '--', i]),
    fc.tuple(filters, flags('-l', '--offset', '--order')).map(([f, g]) => ['list', ...f, ...g]),
    fc
      .tuple(id, flags('--content', '--category', '--session', '--metadata', '-n', '--ttl', '--expires-at', '--importance'))
      .map(([i, f]) => ['update', ...f, '--', i]),
    fc.tuple(id, flags('-n')).map(([i, f]) => ['forget', ...f, '--', i]),
    flags('-n').map((f) => ['stats', ...f]),
    fc.tuple(fc.option(s.map(plainPath), { nil: undefined }), filters).map(([file, f]) => ['export', ...f, ...(file ? ['--', file] : [])]),
    fc.tuple(s.map(plainPath), flags('--on-conflict', '-n', '--category', '--chunk-tokens')).map(([file, f]) => ['import', ...f, '--', file]),
    s.map((d) => ['backup', '--', plainPath(d)]),
    flags('--batch-size').map((f) => ['reindex', ...f]),
    flags('-n', '--vacuum').map((f) => ['prune', '--dry-run', ...f]),
    fc.tuple(id, flags('-n')).map(([i, f]) => ['history', ...f, '--', i]),
    fc.array(s, { minLength: 1, maxLength: 3 }).filter((a) => !['mcp', 'serve', 'demo'].includes(a[0]!)),
  );
  const db = fc.oneof({ weight: 4, arbitrary: fc.constant('memory.db') }, { weight: 1, arbitrary: s.map(plainPath) });
  const embedder = fc.oneof(
    { weight: 5, arbitrary: fc.constant(['--embedder', 'none']) },
    { weight: 1, arbitrary: s.map((m) => ['--embedder', 'openai', '--model', m]) },
  );
  return fc.tuple(db, embedder, fc.boolean(), cmd).map(([d, e, j, c]) => {
    const networked = e[1] === 'openai' && !['stats', 'list', 'get', 'forget', 'history', 'export', 'backup', 'prune'].includes(c[0]!);
    return ['--db', d, ...(networked ? ['--embedder', 'none'] : e), ...(j ? ['--json'] : []), ...c];
  });
}

/** What a run must look like: exit 0 or 1, and on failure one clear line (no stack, no "internal error"). */
export function judge(code: number | null, stderr: string): string | null {
  if (code !== 0 && code !== 1) return `exit code ${code}`;
  if (/internal error/i.test(stderr)) return 'internal error';
  if (/\n\s+at .+:\d+:\d+\)?/.test(stderr)) return 'stack trace on stderr';
  if (/SqliteError|SQLITE_/.test(stderr)) return 'raw SQLite error on stderr';
  if (code === 1 && !stderr.trim()) return 'exit 1 without a message';
  return null;
}
