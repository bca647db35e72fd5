import type { Command } from 'commander';
import { MnemoliteError, migrateMemories, openMemory, type Memory } from '../index.js';
import { embedderFromFlags, type EmbedderFlags } from './embedder.js';
import { storeOptions } from './store-options.js';
import { progressBar } from './progress.js';

interface MigrateFlags {
  from: string;
  to: string;
  batchSize: number;
  onConflict: 'skip' | 'replace';
  fromSchema?: string;
  toSchema?: string;
}

/** `; profiles: imported 1, …` when profiles moved too (shared by import and migrate). */
export function profilesText(p: { imported: number; replaced: number; skipped: number } | undefined): string {
  return p ? `; profiles: imported ${p.imported}, replaced ${p.replaced}, skipped ${p.skipped}` : '';
}

/** Register `mnemolite migrate --from A --to B`: copy every memory between a file and PostgreSQL. */
export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('copy every memory from one store to another (file <-> postgres://), losslessly, in batches')
    .requiredOption('--from <path|url>', 'source: a memory file or a postgres:// URL')
    .requiredOption('--to <path|url>', 'destination: a memory file or a postgres:// URL (created if missing)')
    .option('--from-schema <name>', 'PostgreSQL schema of the source (default mnemolite)')
    .option('--to-schema <name>', 'PostgreSQL schema of the destination (default mnemolite)')
    .option(
      '--batch-size <n>',
      'memories per transaction',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new MnemoliteError('INVALID_INPUT', '--batch-size must be a whole number, 1 or more.');
        return n;
      },
      500,
    )
    .option('--on-conflict <what>', 'ids already in the destination: skip (resume) or replace', 'skip')
    .action(async (o: MigrateFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals<EmbedderFlags & { json?: boolean }>();
      if (o.onConflict !== 'skip' && o.onConflict !== 'replace') throw new MnemoliteError('INVALID_INPUT', '--on-conflict must be skip or replace.');
      const embedder = await embedderFromFlags(g);
      const from = await openMemory({ ...storeOptions({ db: o.from, ...(o.fromSchema ? { pgSchema: o.fromSchema } : {}) }), embedder, readonly: true });
      let to: Memory | undefined;
      try {
        // A keyword-only source stays keyword-only unless --embedder says otherwise: its destination then
        // needs no vectors (nor pgvector on a PostgreSQL server).
        const chosen = cmd.getOptionValueSourceWithGlobals('embedder') !== undefined && cmd.getOptionValueSourceWithGlobals('embedder') !== 'default';
        const keywordOnly = !chosen && (await from.stats()).embedding === null;
        to = await openMemory({
          ...storeOptions({ db: o.to, ...(o.toSchema ? { pgSchema: o.toSchema } : {}) }),
          embedder: keywordOnly ? 'none' : await embedderFromFlags(g),
        });
        const bar = progressBar(!g.json && !!process.stderr.isTTY, 'migrate');
        const r = await migrateMemories(from, to, {
          batchSize: o.batchSize,
          onConflict: o.onConflict,
          onProgress: (done, total) => bar.update(done, total),
        });
        bar.stop();
        if (g.json) process.stdout.write(`${JSON.stringify({ from: from.path, to: to.path, ...r }, null, 2)}\n`);
        else
          process.stdout.write(
            `migrated ${r.total} memories from ${from.path} to ${to.path}: imported ${r.imported}, replaced ${r.replaced}, skipped ${r.skipped}${profilesText(r.profiles)}\n`,
          );
      } finally {
        await to?.close();
        await from.close();
      }
    });
}
