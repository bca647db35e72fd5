/**
 * CLI side of the lifecycle features (src/lifecycle/): flags for add / recall / update,
 * and the `prune` and `history` commands.
 */
import { Option, type Command } from 'commander';
import { MnemoliteError, type AddOptions, type AddResult, type RecallOptions, type UpdateInput } from '../index.js';
import type { MemoryVersion, PruneResult } from '../types/lifecycle.js';
import { DEFAULT_RECENCY_WEIGHT } from '../recall/recency.js';
import { durationFlag } from './duration.js';
import { clip, table } from './format.js';
import { resolveId } from './resolve-id.js';

const num =
  (flag: string) =>
  (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new MnemoliteError('INVALID_INPUT', `${flag} must be a number, got "${v}".`);
    return n;
  };

export interface AddLifecycleFlags {
  ttl?: number;
  expiresAt?: string;
  pin?: boolean;
  importance?: number;
  supersedes?: string;
  force?: boolean;
  near?: 'off' | 'report' | 'merge';
  dedupThreshold?: number;
}

/** Lifecycle flags of `add`. */
export function addLifecycleFlags(c: Command): Command {
  return c
    .option('--ttl <duration>', 'expire after this long from creation: 90s, 15m, 12h, 7d, "7 days", 2w, 1y, 5000ms (a unit is required)', durationFlag('--ttl'))
    .option('--expires-at <date>', 'expire at this time (ISO 8601)')
    .option('--pin', 'pin: never expires, never pruned, exempt from recency decay')
    .option('--importance <0..1>', 'importance, weighs recall with --importance-weight', num('--importance'))
    .option('--supersedes <id>', 'this memory replaces that one (it then ranks below this one)')
    .option('--force', 'store even if the same or a near-identical memory exists')
    .addOption(new Option('--near <mode>', 'near-duplicates: off, report or merge').choices(['off', 'report', 'merge']))
    .option('--dedup-threshold <cosine>', 'cosine similarity for --near (default 0.92)', num('--dedup-threshold'));
}

/** Add options from the flags. */
export function addLifecycleOptions(o: AddLifecycleFlags): Partial<AddOptions> {
  const r: Partial<AddOptions> = {};
  if (o.ttl !== undefined) r.ttl = o.ttl;
  if (o.expiresAt !== undefined) r.expiresAt = o.expiresAt;
  if (o.pin) r.pinned = true;
  if (o.importance !== undefined) r.importance = o.importance;
  if (o.supersedes !== undefined) r.supersedes = o.supersedes;
  if (o.force) r.force = true;
  if (o.near !== undefined) r.nearDuplicates = o.near;
  if (o.dedupThreshold !== undefined) r.dedupThreshold = o.dedupThreshold;
  return r;
}

/** Human-readable outcome of an add. */
export function addResultText(r: AddResult): string {
  const head =
    r.deduplicated === 'exact'
      ? `duplicate of ${r.id} (same content already stored; nothing written)`
      : r.deduplicated === 'merged'
        ? `merged into ${r.id}`
        : `${r.replaced ? 'replaced' : 'added'} ${r.id}`;
  const near = (r.nearDuplicates ?? []).map((d) => `  near-duplicate ${d.id} (cosine ${d.similarity.toFixed(3)}): ${clip(d.content, 80)}`);
  return [head, ...near].join('\n');
}

export interface RecallLifecycleFlags {
  recency?: number;
  recencyWeight?: number;
  asOf?: string;
  importanceWeight?: number;
  mmr?: boolean | string;
}

/** Lifecycle flags of `recall`. */
export function recallLifecycleFlags(c: Command): Command {
  return c
    .option('--recency <half-life>', 'decay scores by age with this half-life, e.g. 30d (pinned and core memories exempt)', durationFlag('--recency'))
    .option('--recency-weight <0..1>', `share of the score that decays (default ${DEFAULT_RECENCY_WEIGHT})`, num('--recency-weight'))
    .option('--as-of <date>', 'reference time for --recency (default now)')
    .option('--importance-weight <w>', 'weigh by importance: score x (0.5 + importance)^w', num('--importance-weight'))
    .option('--mmr [lambda]', 'diversify results with MMR (lambda 0..1, default 0.7)');
}

/** Recall options from the flags. */
export function recallLifecycleOptions(o: RecallLifecycleFlags): Partial<RecallOptions> {
  const r: Partial<RecallOptions> = {};
  if (o.recency !== undefined) {
    r.recency = {
      halfLife: o.recency,
      ...(o.recencyWeight !== undefined ? { weight: o.recencyWeight } : {}),
      ...(o.asOf !== undefined ? { asOf: o.asOf } : {}),
    };
  } else if (o.recencyWeight !== undefined || o.asOf !== undefined) {
    throw new MnemoliteError('INVALID_INPUT', '--recency-weight and --as-of need --recency <half-life>.');
  }
  if (o.importanceWeight !== undefined) r.importanceWeight = o.importanceWeight;
  if (o.mmr !== undefined) r.mmr = o.mmr === true ? true : { lambda: num('--mmr')(o.mmr as string) };
  return r;
}

export interface UpdateLifecycleFlags {
  ttl?: number;
  expiresAt?: string;
  expiry?: boolean;
  pin?: boolean;
  unpin?: boolean;
  importance?: number;
}

/** Lifecycle flags of `update`. */
export function updateLifecycleFlags(c: Command): Command {
  return c
    .option('--ttl <duration>', 'expire this long from now: 12h, 7d, "7 days", ... (a unit is required)', durationFlag('--ttl'))
    .option('--expires-at <date>', 'expire at this time (ISO 8601)')
    .option('--no-expiry', 'remove the expiry')
    .option('--pin', 'pin (never expires, never pruned)')
    .option('--unpin', 'unpin')
    .option('--importance <0..1>', 'new importance', num('--importance'));
}

/** Update input from the flags. */
export function updateLifecycleInput(o: UpdateLifecycleFlags): Partial<UpdateInput> {
  const r: Partial<UpdateInput> = {};
  if (o.pin && o.unpin) throw new MnemoliteError('INVALID_INPUT', 'Give --pin or --unpin, not both.');
  if (o.expiry === false && (o.ttl !== undefined || o.expiresAt !== undefined))
    throw new MnemoliteError('INVALID_INPUT', '--no-expiry cannot be combined with --ttl or --expires-at.');
  if (o.ttl !== undefined) r.ttl = o.ttl;
  if (o.expiresAt !== undefined) r.expiresAt = o.expiresAt;
  if (o.expiry === false) r.expiresAt = null;
  if (o.pin) r.pinned = true;
  if (o.unpin) r.pinned = false;
  if (o.importance !== undefined) r.importance = o.importance;
  return r;
}

const kib = (b: number): string => `${(b / 1024).toFixed(0)} KiB`;

/** Human-readable prune report. */
export function pruneText(r: PruneResult): string {
  const lines = [
    r.dryRun
      ? `would delete ${r.deleted} expired memories (${r.historyDeleted} history versions); dry run, nothing changed`
      : `deleted ${r.deleted} expired memories (${r.historyDeleted} history versions)`,
  ];
  if (r.pinnedKept) lines.push(`kept ${r.pinnedKept} pinned memories past their expiry (pinned memories are never pruned)`);
  if (!r.dryRun) {
    lines.push(
      `vacuum: ${r.vacuum} (file auto_vacuum: ${r.autoVacuum}); free pages ${r.freePagesBefore} -> ${r.freePagesAfter}; file ${kib(r.bytesBefore)} -> ${kib(r.bytesAfter)}`,
    );
  }
  if (r.note) lines.push(`note: ${r.note}`);
  return lines.join('\n');
}

/** Human-readable history. */
export function historyText(v: MemoryVersion[]): string {
  const at = (d: Date | null): string => (d ? d.toISOString().slice(0, 16).replace('T', ' ') : 'now');
  return table(
    ['from', 'until', 'id', 'how', 'content'],
    v.map((x) => [at(x.validFrom), at(x.validUntil), x.id.slice(0, 13), x.current ? 'current' : (x.endedBy ?? ''), x.content]),
  );
}

/** Register `prune` and `history`. `withMemory` opens, runs and closes (from main.ts). */
export function registerLifecycle(
  program: Command,
  withMemory: <T>(cmd: Command, fn: (m: import('../index.js').Memory, g: { json?: boolean }) => Promise<T>, extra?: { readonly?: boolean }) => Promise<T>,
  out: (s: string) => void,
  json: (v: unknown) => void,
): void {
  program
    .command('prune')
    .description('delete expired memories (never pinned ones) and reclaim disk space')
    .option('-n, --namespace <ns>', 'only this namespace (default: all)')
    .option('--dry-run', 'report what would be deleted without deleting')
    .addOption(
      new Option(
        '--vacuum <mode>',
        'auto: incremental vacuum when the file supports it; full: rebuild the file (needed to shrink older files with auto_vacuum = NONE); none',
      )
        .choices(['auto', 'full', 'none'])
        .default('auto'),
    )
    .action(async (o: { namespace?: string; dryRun?: boolean; vacuum: 'auto' | 'full' | 'none' }, cmd: Command) => {
      await withMemory(cmd, async (m, g) => {
        const r = await m.prune({ ...(o.namespace ? { namespace: o.namespace } : {}), ...(o.dryRun ? { dryRun: true } : {}), vacuum: o.vacuum });
        if (g.json) json(r);
        else out(pruneText(r));
      });
    });

  program
    .command('history')
    .description('previous versions of a memory (content changes, and memories it superseded)')
    .argument('<id>', 'memory id')
    .option('-n, --namespace <ns>', 'only if it is in this namespace')
    .action(async (id: string, o: { namespace?: string }, cmd: Command) => {
      await withMemory(
        cmd,
        async (m, g) => {
          const v = await m.history(await resolveId(m, id, o.namespace), o.namespace ? { namespace: o.namespace } : {});
          if (!v.length) throw new MnemoliteError('NOT_FOUND', `No memory with id ${id}. List ids with: mnemolite list`);
          if (g.json) json(v);
          else out(historyText(v));
        },
        { readonly: true },
      );
    });
}
