#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { createReadStream, createWriteStream, existsSync, openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { ERROR_CODES } from '../errors.js';
import { MnemoliteError, openMemory, type Memory, type RecallMode } from '../index.js';
import { isPostgresUrl } from '../pg/url.js';
import { VERSION } from '../version.js';
import { runDemo } from './demo.js';
import { embedderFromFlags } from './embedder.js';
import { embedWorkersOpen, embedWorkersOption } from './embed-workers.js';
import { importMarkdownCommand, type MarkdownImportFlags } from './import-markdown.js';
import { importHistoryCommand, type HistoryImportFlags } from './import-history.js';
import { HISTORY_SOURCES, type HistorySource } from '../ingest/history.js';
import { registerMcp } from './mcp-command.js';
import { hitsTable, memoriesTable, memoryDetail, statsText, visible } from './format.js';
import { registerServe } from './serve-command.js';
import { removeCreatedOnFailure } from './new-file.js';
import { profilesText, registerMigrate } from './migrate.js';
import { registerProfile } from './profile.js';
import { storeOptions } from './store-options.js';
import { progressBar } from './progress.js';
import { resolveId } from './resolve-id.js';
import { elsewhereHint } from './recall-hint.js';
import {
  addLifecycleFlags,
  addLifecycleOptions,
  addResultText,
  recallLifecycleFlags,
  recallLifecycleOptions,
  registerLifecycle,
  updateLifecycleFlags,
  updateLifecycleInput,
  type AddLifecycleFlags,
  type RecallLifecycleFlags,
  type UpdateLifecycleFlags,
} from './lifecycle.js';
import { relevanceFlags, relevanceOptions, type RelevanceFlags } from './relevance-flags.js';
import { flushStdout, isClosedPipe, stdoutError, stdoutFailure, watchStdout, writeStdout } from './stdout.js';

interface Globals {
  db: string;
  pgSchema?: string;
  json?: boolean;
  embedder: string;
  model?: string;
  baseUrl?: string;
  dims?: string;
  allowDownload?: boolean;
  /** --embed-workers of import and reindex (other commands do not have it). */
  embedWorkers?: number;
}

/** Human output: control characters made visible (stored text may hold terminal escapes). */
const out = (s: string): void => {
  writeStdout(`${visible(s)}\n`);
};
/** `--json` output: exact. */
const json = (v: unknown): void => {
  writeStdout(`${JSON.stringify(v, null, 2)}\n`);
};

/** Wait until `stream` can take more, or has failed (no listener is left behind either way). */
function drained(stream: Writable): Promise<void> {
  return new Promise((res) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      res();
    };
    stream.on('drain', done);
    stream.on('error', done);
    stream.on('close', done);
  });
}

function globals(cmd: Command): Globals {
  return cmd.optsWithGlobals<Globals>();
}

async function open(cmd: Command, extra: { readonly?: boolean; allowModelChange?: boolean } = {}): Promise<Memory> {
  const g = globals(cmd);
  return openMemory({ ...storeOptions(g), embedder: await embedderFromFlags(g), ...embedWorkersOpen(g), ...extra });
}

/** Open, run, always close. */
async function withMemory<T>(
  cmd: Command,
  fn: (m: Memory, g: Globals) => Promise<T>,
  extra: { readonly?: boolean; allowModelChange?: boolean } = {},
): Promise<T> {
  const g = globals(cmd);
  if (extra.readonly && !isPostgresUrl(g.db) && !existsSync(g.db)) {
    throw new MnemoliteError('NOT_FOUND', `${g.db} does not exist yet. Add a memory first, or pass --db PATH (env MNEMOLITE_DB).`);
  }
  const m = await open(cmd, extra);
  try {
    return await fn(m, g);
  } finally {
    await m.close();
  }
}

/**
 * The library numbers import records from 1; in a file with blank lines that is not the line. Name
 * `file:line` instead, so the message points at what to fix.
 */
function atLines(err: unknown, file: string, lines: number[]): unknown {
  if (!(err instanceof MnemoliteError)) return err;
  const message = err.message.replace(/\bimport records? ((?:\d+(?:, | and ))*\d+)/, (_all, list: string) => {
    const at = list.split(/, | and /).map((n) => lines[Number(n) - 1] ?? Number(n));
    return at.length === 1 ? `${file}:${at[0]}` : `${file} lines ${at.slice(0, -1).join(', ')} and ${at[at.length - 1]}`;
  });
  return message === err.message ? err : new MnemoliteError(err.code, message, err.details);
}

/** Parse repeated `--meta key=value` flags; values that look like JSON scalars become them. */
function metaPairs(pairs: string[] | undefined): Record<string, string | number | boolean | null> | undefined {
  if (!pairs?.length) return undefined;
  const o: Record<string, string | number | boolean | null> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw new MnemoliteError('INVALID_INPUT', `--meta expects key=value, got "${p}".`);
    const raw = p.slice(i + 1);
    let v: string | number | boolean | null = raw;
    if (raw === 'true' || raw === 'false') v = raw === 'true';
    else if (raw === 'null') v = null;
    else if (raw.trim() !== '' && Number.isFinite(Number(raw))) v = Number(raw);
    o[p.slice(0, i)] = v;
  }
  return o;
}

function parseJsonObject(s: string | undefined, flag: string): Record<string, unknown> | undefined {
  if (s === undefined) return undefined;
  try {
    return JSON.parse(s) as Record<string, unknown>;
  } catch {
    throw new MnemoliteError('INVALID_INPUT', `${flag} must be a JSON object, e.g. '{"source":"cli"}'.`);
  }
}

function int(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n)) throw new MnemoliteError('INVALID_INPUT', `${name} must be a whole number, got "${v}".`);
    return n;
  };
}

const collect = (v: string, acc: string[] = []): string[] => [...acc, v];

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The namespace flags of recall, list and count: `-n` repeated covers several namespaces; each
 * value is one name taken literally (a comma is part of it) or a prefix such as `user-1/*`.
 */
function scopeFlag(c: Command, what: string): Command {
  return c.option(
    '-n, --namespace <ns>',
    `${what}; repeat it for several (-n alice -n bob), or a prefix such as "user-1/*" (one name per flag: commas are part of a name)`,
    collect,
  );
}

/** Repeated `-n` values as the library takes them: one name (or prefix) as it is, several as a list. */
function scopeOf(v: string | string[] | undefined): string | string[] | undefined {
  if (v === undefined || typeof v === 'string') return v;
  return v.length === 1 ? v[0] : v;
}

function filterFlags(c: Command, scope?: string): Command {
  return (scope ? scopeFlag(c, scope) : c.option('-n, --namespace <ns>', 'namespace'))
    .option('--category <c>', 'only this category')
    .option('--session <id>', 'only this session id')
    .option('--since <date>', 'happened at or after (ISO 8601; event time, else creation time; see --time-field)')
    .option('--until <date>', 'happened before (ISO 8601; see --time-field)')
    .addOption(
      new Option('--time-field <field>', 'time --since/--until compare: event (default: event time, else creation time) or created').choices([
        'event',
        'created',
      ]),
    )
    .option('--meta <key=value>', 'metadata equality filter (repeatable)', collect);
}

interface FilterOpts {
  /** One namespace, or (recall, list, count) the values of a repeated -n. */
  namespace?: string | string[];
  category?: string;
  session?: string;
  since?: string;
  until?: string;
  timeField?: 'event' | 'created';
  meta?: string[];
}
function filterFrom(o: FilterOpts, defaultNs?: string): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  const ns = scopeOf(o.namespace) ?? defaultNs;
  if (ns !== undefined) f.namespace = ns;
  if (o.category !== undefined) f.category = o.category;
  if (o.session !== undefined) f.sessionId = o.session;
  if (o.since !== undefined) f.since = o.since;
  if (o.until !== undefined) f.until = o.until;
  if (o.timeField !== undefined) f.timeField = o.timeField;
  const m = metaPairs(o.meta);
  if (m) f.metadata = m;
  return f;
}

/** Build the `mnemolite` command tree. */
export function buildProgram(): Command {
  const program = new Command('mnemolite')
    .description('Long-term memory for AI agents in one SQLite file (or PostgreSQL).')
    .version(VERSION)
    .option('--db <path|url>', 'memory file, or a postgres:// URL (env MNEMOLITE_DB)', process.env.MNEMOLITE_DB ?? 'memory.db')
    .option('--pg-schema <name>', 'with a postgres:// --db: the schema that holds the memories (env MNEMOLITE_PG_SCHEMA)', process.env.MNEMOLITE_PG_SCHEMA)
    .option('--json', 'print JSON for scripts')
    .addOption(
      new Option('--embedder <name>', 'embedding provider (env MNEMOLITE_EMBEDDER)')
        .choices(['local', 'none', 'openai', 'ollama', 'transformers'])
        .default(process.env.MNEMOLITE_EMBEDDER ?? 'local'),
    )
    .option(
      '--model <name>',
      'model for --embedder openai/ollama, or a model folder / hub id for transformers (env MNEMOLITE_MODEL)',
      process.env.MNEMOLITE_MODEL,
    )
    .option('--base-url <url>', 'OpenAI-compatible base URL, e.g. http://localhost:11434/v1 (env MNEMOLITE_BASE_URL)', process.env.MNEMOLITE_BASE_URL)
    .option('--dims <n>', 'vector length of --model when it is not a known one')
    .option('--allow-download', 'let --embedder transformers download a hub model id on first use (cached after)')
    .showHelpAfterError('(run mnemolite --help for usage)');

  addLifecycleFlags(program.command('add'))
    .description('remember a text ("-" reads it from stdin)')
    .argument('<content...>', 'the text to remember')
    .option('-n, --namespace <ns>', 'namespace', 'default')
    .option('-k, --key <key>', 'key: an existing memory with this key is replaced')
    .option('--category <c>', 'category, e.g. core, preference')
    .option('--session <id>', 'session id')
    .option('--context-window <n>', 'with --session: memories before this one indexed as its context (default 2, 0 = off)', (v) => {
      if (!/^(10|\d)$/.test(v))
        throw new MnemoliteError('INVALID_INPUT', '--context-window must be a whole number from 0 to 10, e.g. --context-window 0 to turn context off.');
      return Number(v);
    })
    .option('--metadata <json>', 'metadata as a JSON object')
    .option('--created-at <date>', 'creation time (ISO 8601), default now')
    .option('--event-at <date>', 'when it happened (ISO 8601), e.g. the date of the meeting it is about')
    .action(
      async (
        words: string[],
        o: AddLifecycleFlags & {
          namespace: string;
          key?: string;
          category?: string;
          session?: string;
          contextWindow?: number;
          metadata?: string;
          createdAt?: string;
          eventAt?: string;
        },
        cmd: Command,
      ) => {
        const content = words.length === 1 && words[0] === '-' ? await readStdin() : words.join(' ');
        await withMemory(cmd, async (m, g) => {
          const metadata = parseJsonObject(o.metadata, '--metadata');
          const r = await m.add(content, {
            namespace: o.namespace,
            ...(o.key !== undefined ? { key: o.key } : {}),
            ...(o.category !== undefined ? { category: o.category } : {}),
            ...(o.session !== undefined ? { sessionId: o.session } : {}),
            ...(o.contextWindow !== undefined ? { contextWindow: o.contextWindow } : {}),
            ...(metadata !== undefined ? { metadata } : {}),
            ...(o.createdAt !== undefined ? { createdAt: o.createdAt } : {}),
            ...(o.eventAt !== undefined ? { eventAt: o.eventAt } : {}),
            ...addLifecycleOptions(o),
            ...(o.supersedes !== undefined ? { supersedes: await resolveId(m, o.supersedes, o.namespace) } : {}),
          });
          if (g.json) json(r);
          else out(addResultText(r));
        });
      },
    );

  relevanceFlags(recallLifecycleFlags(filterFlags(program.command('recall'), 'namespace (default "default"; "*" searches all)')))
    .description('find memories relevant to a query')
    .argument('<query...>', 'what to look for')
    .addOption(new Option('-m, --mode <mode>', 'hybrid, keyword or vector').choices(['hybrid', 'keyword', 'vector']))
    .option('-l, --limit <n>', 'maximum results', int('--limit'), 10)
    .addOption(new Option('--fusion <method>', 'hybrid fusion: adaptive (default), convex or rrf').choices(['adaptive', 'convex', 'rrf']))
    .option('--keyword-weight <w>', 'relative weight of the keyword leg (default 1)', Number)
    .option('--vector-weight <w>', 'relative weight of the vector leg (default 1)', Number)
    .option('--rrf-k <k>', 'RRF constant k (with --fusion rrf)', Number)
    .option('--exact', 'exact vector scan')
    .option('--before <n>', 'also show up to N turns before each hit in its session (0-20), as context', int('--before'))
    .option('--after <n>', 'also show up to N turns after each hit in its session (0-20), as context', int('--after'))
    .action(
      async (
        words: string[],
        o: FilterOpts &
          RecallLifecycleFlags &
          RelevanceFlags & {
            mode?: RecallMode;
            limit: number;
            rrfK?: number;
            exact?: boolean;
            fusion?: 'adaptive' | 'convex' | 'rrf';
            keywordWeight?: number;
            vectorWeight?: number;
            before?: number;
            after?: number;
          },
        cmd: Command,
      ) => {
        await withMemory(
          cmd,
          async (m, g) => {
            const recallOptions = {
              ...filterFrom(o, 'default'),
              limit: o.limit,
              ...(o.mode ? { mode: o.mode } : {}),
              ...(o.rrfK !== undefined ? { rrfK: o.rrfK } : {}),
              ...(o.fusion ? { fusion: o.fusion } : {}),
              ...(o.keywordWeight !== undefined || o.vectorWeight !== undefined
                ? {
                    weights: {
                      ...(o.keywordWeight !== undefined ? { keyword: o.keywordWeight } : {}),
                      ...(o.vectorWeight !== undefined ? { vector: o.vectorWeight } : {}),
                    },
                  }
                : {}),
              ...(o.exact ? { exact: true } : {}),
              ...(o.before !== undefined || o.after !== undefined
                ? { neighbours: { ...(o.before !== undefined ? { before: o.before } : {}), ...(o.after !== undefined ? { after: o.after } : {}) } }
                : {}),
              ...recallLifecycleOptions(o),
              ...relevanceOptions(o),
            };
            const query = words.join(' ');
            const hits = await m.recall(query, recallOptions);
            if (g.json) json(hits);
            else {
              if (!m.semantic) process.stderr.write('note: semantic recall is off (embedder none); keyword results only\n');
              out(hitsTable(hits));
            }
            if (!hits.length) {
              const hint = await elsewhereHint(m, query, recallOptions);
              if (hint) process.stderr.write(`${hint}\n`);
            }
          },
          { readonly: true },
        );
      },
    );

  program
    .command('get')
    .description('show one memory')
    .argument('<id>', 'memory id')
    .option('-n, --namespace <ns>', 'only if it is in this namespace')
    .option('--include-expired', 'show it even if it has expired (and is not pruned yet)')
    .action(async (id: string, o: { namespace?: string; includeExpired?: boolean }, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          const r = await m.get(await resolveId(m, id, o.namespace), {
            ...(o.namespace ? { namespace: o.namespace } : {}),
            ...(o.includeExpired ? { includeExpired: true } : {}),
          });
          if (!r) throw new MnemoliteError('NOT_FOUND', `No memory with id ${id}. List ids with: mnemolite list`);
          if (g.json) json(r);
          else out(memoryDetail(r));
        },
        { readonly: true },
      );
    });

  filterFlags(program.command('list'), 'namespace (default: all)')
    .description('list memories, newest first (all namespaces unless --namespace)')
    .option('-l, --limit <n>', 'maximum rows', int('--limit'), 50)
    .option('--offset <n>', 'rows to skip', int('--offset'), 0)
    .addOption(new Option('--order <order>', 'asc or desc by creation time').choices(['asc', 'desc']).default('desc'))
    .option('--include-expired', 'include expired memories not pruned yet')
    .action(async (o: FilterOpts & { limit: number; offset: number; order: 'asc' | 'desc'; includeExpired?: boolean }, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          const rows = await m.list({
            ...filterFrom(o, '*'),
            limit: o.limit,
            offset: o.offset,
            order: o.order,
            ...(o.includeExpired ? { includeExpired: true } : {}),
          });
          if (g.json) json(rows);
          else out(memoriesTable(rows));
        },
        { readonly: true },
      );
    });

  filterFlags(program.command('count'), 'namespace (default: all)')
    .description('count memories (all namespaces unless --namespace)')
    .option('--include-expired', 'include expired memories not pruned yet')
    .action(async (o: FilterOpts & { includeExpired?: boolean }, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          const n = await m.count({ ...filterFrom(o, '*'), ...(o.includeExpired ? { includeExpired: true } : {}) });
          if (g.json) json({ count: n });
          else out(String(n));
        },
        { readonly: true },
      );
    });

  updateLifecycleFlags(program.command('update'))
    .description('change a memory (previous content stays readable: mnemolite history ID)')
    .argument('<id>', 'memory id')
    .option('--content <text>', 'new content')
    .option('--category <c>', 'new category')
    .option('--session <id>', 'new session id')
    .option('--metadata <json>', 'new metadata (JSON object)')
    .option('--event-at <date>', 'when it happened (ISO 8601)')
    .option('--no-event-at', 'clear the event time (its time is its creation time again)')
    .option('-n, --namespace <ns>', 'only if it is in this namespace')
    .action(
      async (
        id: string,
        o: UpdateLifecycleFlags & { content?: string; category?: string; session?: string; metadata?: string; eventAt?: string | false; namespace?: string },
        cmd: Command,
      ) => {
        await withMemory(cmd, async (m, g) => {
          const metadata = parseJsonObject(o.metadata, '--metadata');
          const r = await m.update(
            await resolveId(m, id, o.namespace),
            {
              ...(o.content !== undefined ? { content: o.content } : {}),
              ...(o.category !== undefined ? { category: o.category } : {}),
              ...(o.session !== undefined ? { sessionId: o.session } : {}),
              ...(metadata !== undefined ? { metadata } : {}),
              ...(o.eventAt !== undefined ? { eventAt: o.eventAt === false ? null : o.eventAt } : {}),
              ...updateLifecycleInput(o),
            },
            o.namespace ? { namespace: o.namespace } : {},
          );
          if (g.json) json(r);
          else out(`updated ${r.id}`);
        });
      },
    );

  program
    .command('forget')
    .description('delete a memory')
    .argument('<id>', 'memory id')
    .option('-n, --namespace <ns>', 'only if it is in this namespace')
    .action(async (id: string, o: { namespace?: string }, cmd: Command) => {
      await withMemory(cmd, async (m, g) => {
        const full = await resolveId(m, id, o.namespace);
        const gone = await m.forget(full, o.namespace ? { namespace: o.namespace } : {});
        if (!gone) throw new MnemoliteError('NOT_FOUND', `No memory with id ${id}; nothing was deleted. List ids with: mnemolite list`);
        if (g.json) json({ id: full, forgotten: true });
        else out(`forgot ${full}`);
      });
    });

  program
    .command('erase')
    .description("erase everything of one namespace: memories, history, cached vectors (no trace left in the file's bytes)")
    .requiredOption('-n, --namespace <ns>', 'the namespace to erase')
    .action(async (o: { namespace: string }, cmd: Command) => {
      await withMemory(cmd, async (m, g) => {
        const r = await m.erase({ namespace: o.namespace });
        if (g.json) json(r);
        else
          out(
            `erased namespace ${JSON.stringify(r.namespace)}: ${r.memories} memories, ${r.historyVersions} earlier versions, ${r.cachedVectors} cached vectors`,
          );
      });
    });

  program
    .command('stats')
    .description('counts, embedding model, file size')
    .option('-n, --namespace <ns>', 'only this namespace')
    .action(async (o: { namespace?: string }, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          const s = await m.stats(o.namespace ? { namespace: o.namespace } : {});
          if (g.json) json(s);
          else out(statsText(s));
        },
        { readonly: true },
      );
    });

  filterFlags(program.command('export'))
    .description('write memories as JSON Lines (to FILE or stdout)')
    .argument('[file]', 'output file (default stdout)')
    .option('--vectors', 'include vectors')
    .option('--no-profiles', "leave out the namespaces' profiles (working memory, written after the memories with their versions)")
    .action(async (file: string | undefined, o: FilterOpts & { vectors?: boolean; profiles: boolean }, cmd: Command) => {
      if (file && file !== '-' && existsSync(file))
        throw new MnemoliteError('INVALID_INPUT', `${file} already exists. Choose a new file; export never overwrites.`);
      await withMemory(
        cmd,
        async (m) => {
          // Create the file now (not lazily in the stream), so a bad path is an error, not a silent no-op.
          let fd: number | undefined;
          if (file && file !== '-') {
            try {
              fd = openSync(file, 'wx');
            } catch (err) {
              const c = (err as NodeJS.ErrnoException).code;
              throw new MnemoliteError(
                c === 'EACCES' || c === 'EPERM' || c === 'EROFS' ? 'READ_ONLY' : 'INVALID_INPUT',
                `Cannot create ${file} (${(err as Error).message}). Choose another file path.`,
              );
            }
          }
          const toStdout = fd === undefined;
          const stream: Writable = toStdout ? process.stdout : createWriteStream('', { fd });
          let fileError: Error | undefined;
          if (!toStdout)
            stream.on('error', (err) => {
              fileError = err;
            });
          const failed = (): Error | undefined => (toStdout ? stdoutFailure() : fileError);
          let n = 0;
          let profiles = 0;
          for await (const rec of m.export({ ...filterFrom(o, '*'), ...(o.vectors ? { vectors: true } : {}), profiles: o.profiles })) {
            if (failed()) break;
            if (!stream.write(`${JSON.stringify(rec)}\n`)) await drained(stream);
            if ('kind' in rec) profiles++;
            else n++;
          }
          if (toStdout) {
            // Every line must have reached stdout's file or pipe: a full disk fails the export.
            await flushStdout();
            const err = stdoutFailure();
            if (err && !isClosedPipe(err)) throw stdoutError(err, 'the export');
            return;
          }
          if (!fileError)
            await new Promise<void>((res) => {
              stream.once('error', () => res());
              stream.end(() => res());
            });
          if (fileError)
            throw new MnemoliteError(
              'STORAGE',
              `Writing ${file} failed (${fileError.message}); the export is incomplete. Check free space and permissions, then export again to a new file.`,
            );
          process.stderr.write(`exported ${n} memories${profiles ? ` and ${profiles} ${profiles === 1 ? 'profile' : 'profiles'}` : ''} to ${file}\n`);
        },
        { readonly: true },
      );
    });

  program
    .command('import')
    .description(
      'import memories from a JSON Lines file made by export ("-" for stdin), Markdown memory files (--from markdown), or chat history (--from chatgpt|claude|mem0|chat-jsonl)',
    )
    .argument('<file>', 'input file (a file or directory with --from markdown)')
    .addOption(
      new Option('--from <format>', 'input format: jsonl (export), markdown, or chat history: chatgpt, claude, mem0, chat-jsonl')
        .choices(['jsonl', 'markdown', ...HISTORY_SOURCES])
        .default('jsonl'),
    )
    .addOption(new Option('--on-conflict <what>', 'existing id or key: skip or replace').choices(['skip', 'replace']).default('skip'))
    .option('-n, --namespace <ns>', '--from markdown or chat history: namespace of the memories', 'default')
    .option('--category <c>', '--from markdown or chat history: category of the memories')
    .option('--chunk-tokens <n>', '--from markdown: target chunk size in tokens', int('--chunk-tokens'))
    .option('--dry-run', '--from chatgpt|claude|mem0|chat-jsonl: report what would change, write nothing')
    .addOption(embedWorkersOption())
    .action(async (file: string, o: MarkdownImportFlags & HistoryImportFlags & { from: string; onConflict: 'skip' | 'replace' }, cmd: Command) =>
      // A failed import (or a dry run) into a new path leaves no empty file behind.
      removeCreatedOnFailure(globals(cmd).db, () => importCommand(file, o, cmd), { dryRun: !!o.dryRun }),
    );

  async function importCommand(
    file: string,
    o: MarkdownImportFlags & HistoryImportFlags & { from: string; onConflict: 'skip' | 'replace' },
    cmd: Command,
  ): Promise<void> {
    if (o.from === 'markdown') return importMarkdownCommand(file, o, cmd);
    if ((HISTORY_SOURCES as readonly string[]).includes(o.from)) return importHistoryCommand(o.from as HistorySource, file, o, cmd);
    if (file !== '-' && !existsSync(file)) throw new MnemoliteError('NOT_FOUND', `${file} does not exist.`);
    const records: unknown[] = [];
    const lines: number[] = [];
    const rl = createInterface({ input: file === '-' ? process.stdin : createReadStream(file), crlfDelay: Infinity });
    let line = 0;
    for await (const text of rl) {
      line++;
      if (!text.trim()) continue;
      try {
        records.push(JSON.parse(text));
        lines.push(line);
      } catch {
        throw new MnemoliteError('INVALID_INPUT', `${file}:${line} is not valid JSON. Nothing was imported.`);
      }
    }
    await withMemory(cmd, async (m, g) => {
      const bar = progressBar(!g.json && !!process.stderr.isTTY, 'import');
      bar.update(0, records.length);
      const r = await m.import(records, { onConflict: o.onConflict, onProgress: (d) => bar.update(d) }).catch((err: unknown) => {
        throw atLines(err, file, lines);
      });
      bar.stop();
      if (g.json) json(r);
      else out(`imported ${r.imported}, replaced ${r.replaced}, skipped ${r.skipped}${profilesText(r.profiles)}`);
    });
  }

  program
    .command('backup')
    .description('write a consistent copy of the file (safe while others write)')
    .argument('<dest>', 'new file to create')
    .action(async (dest: string, _o: unknown, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          await m.backup(dest);
          if (g.json) json({ backup: dest });
          else out(`backed up ${m.path} to ${dest}`);
        },
        { readonly: true },
      );
    });

  program
    .command('reindex')
    .description('embed memories that have no vector from the current embedder (after switching models); resumable')
    .option('--batch-size <n>', 'memories per batch', int('--batch-size'), 64)
    .addOption(embedWorkersOption())
    .action(async (o: { batchSize: number }, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          const bar = progressBar(!g.json && !!process.stderr.isTTY, 'reindex');
          const r = await m.reindex({ batchSize: o.batchSize, onProgress: (d, t) => bar.update(d, t) });
          bar.stop();
          if (g.json) json({ ...r, model: m.embedder?.id });
          else out(`embedded ${r.embedded} memories with ${m.embedder?.id}`);
        },
        { allowModelChange: true },
      );
    });

  program
    .command('demo')
    .description('store a few memories in a temporary file and compare keyword, vector and hybrid recall')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const explicitDb = cmd.parent?.getOptionValueSource('db') === 'cli';
      await runDemo({ ...(explicitDb ? { dbPath: g.db } : {}), json: !!g.json, out });
    });

  registerMcp(program);
  registerServe(program);
  registerMigrate(program);
  registerLifecycle(program, withMemory, out, json);
  registerProfile(program, withMemory, out, json, readStdin);

  return program;
}

/** Whether `--json` was asked for, before any `--` (also when parsing fails before options are read). */
function wantsJson(argv: string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

/** One error on stderr: a line of text, or with `--json` one JSON object `{ "error": { code, message } }`. */
function reportError(asJson: boolean, code: string, message: string): void {
  process.stderr.write(asJson ? `${JSON.stringify({ error: { code, message } })}\n` : `${message}\n`);
}

/** Run the CLI; resolves to the exit code (0 ok, 1 user error, 2 internal error). */
export async function main(argv: string[]): Promise<number> {
  watchStdout();
  const asJson = wantsJson(argv);
  const program = buildProgram().exitOverride();
  // With --json, commander's usage errors become the same JSON object as every other error.
  if (asJson) {
    const each = (c: Command): void => {
      c.showHelpAfterError(false).configureOutput({ outputError: (str) => reportError(true, 'INVALID_INPUT', str.trim().replace(/^error: /, '')) });
      c.commands.forEach(each);
    };
    each(program);
  }
  try {
    await program.parseAsync(argv);
    // Output that did not reach its file is a failed command, not a success.
    await flushStdout();
    const failed = stdoutFailure();
    if (failed && !isClosedPipe(failed)) throw stdoutError(failed);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : 1;
    }
    if (err instanceof MnemoliteError) {
      reportError(asJson, err.code, asJson ? err.message : `error: ${visible(err.message)}`);
      return ERROR_CODES[err.code]?.exit ?? 1;
    }
    const internal = `internal error: ${(err as Error)?.stack ?? String(err)}\nThis is a bug in mnemolite; please report it.`;
    reportError(asJson, 'INTERNAL', asJson ? `internal error: ${(err as Error)?.message ?? String(err)} (a bug in mnemolite; please report it)` : internal);
    return 2;
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
