import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { MnemoliteError, importHistory, openMemory, type HistoryImportResult, type HistorySource } from '../index.js';
import { embedderFromFlags, type EmbedderFlags } from './embedder.js';
import { embedWorkersOpen, type EmbedWorkersFlags } from './embed-workers.js';
import { progressBar } from './progress.js';
import { storeOptions } from './store-options.js';

/** Flags of `mnemolite import --from chatgpt|claude|mem0|chat-jsonl`. */
export interface HistoryImportFlags {
  namespace?: string;
  category?: string;
  dryRun?: boolean;
}

function summary(r: HistoryImportResult, dryRun: boolean): string {
  const unit = r.source === 'mem0' ? 'memor' : 'conversation';
  const plural = (n: number): string => (unit === 'memor' ? (n === 1 ? 'memory' : 'memories') : `conversation${n === 1 ? '' : 's'}`);
  const verb = dryRun ? 'would write' : 'wrote';
  return (
    `${r.total} ${plural(r.total)} in ${r.source} export: ${r.added} new, ${r.updated} changed, ${r.unchanged} unchanged; ` +
    `${verb} ${r.written} memor${r.written === 1 ? 'y' : 'ies'}, ${dryRun ? 'would remove' : 'removed'} ${r.removed}` +
    (r.source === 'mem0' ? '' : `; ${r.messages} messages kept, ${r.skipped} skipped (system, tool, hidden, empty or other branches)`) +
    (r.truncated ? `; ${r.truncated} cut to the size limit` : '') +
    '\n'
  );
}

/** `mnemolite import --from chatgpt|claude|mem0|chat-jsonl FILE`: import chat history or mem0 memories. */
export async function importHistoryCommand(source: HistorySource, file: string, o: HistoryImportFlags, cmd: Command): Promise<void> {
  const g = cmd.optsWithGlobals<EmbedderFlags & EmbedWorkersFlags & { db: string; json?: boolean }>();
  if (file === '-') throw new MnemoliteError('INVALID_INPUT', `--from ${source} reads a file, not stdin. Pass the export file, e.g. conversations.json.`);
  const data = await readFile(file).catch((err: NodeJS.ErrnoException) => {
    throw new MnemoliteError(err.code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT', `${file} cannot be read (${err.code ?? err.message}).`);
  });
  const mem = await openMemory({ ...storeOptions(g), embedder: await embedderFromFlags(g), ...embedWorkersOpen(g) });
  const bar = progressBar(!g.json && !!process.stderr.isTTY, `import ${source}`);
  try {
    const r = await importHistory(mem, source, data, {
      file: basename(file),
      namespace: o.namespace ?? 'default',
      dryRun: !!o.dryRun,
      ...(o.category !== undefined ? { category: o.category } : {}),
      onProgress: (done, total) => bar.update(done, total),
    });
    bar.stop();
    if (g.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    else process.stdout.write(summary(r, !!o.dryRun));
  } finally {
    bar.stop();
    await mem.close();
  }
}
