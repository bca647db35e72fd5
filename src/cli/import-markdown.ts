import type { Command } from 'commander';
import { isAbsolute, relative } from 'node:path';
import { MnemoliteError, importMarkdown, openMemory } from '../index.js';
import { progressBar } from './progress.js';
import { storeOptions } from './store-options.js';
import { embedderFromFlags, type EmbedderFlags } from './embedder.js';
import { embedWorkersOpen, type EmbedWorkersFlags } from './embed-workers.js';

/** Flags of `mnemolite import --from markdown`. */
export interface MarkdownImportFlags {
  namespace?: string;
  category?: string;
  chunkTokens?: number;
}

/** `mnemolite import --from markdown <file-or-dir>`: chunk Markdown memory files into memories. */
export async function importMarkdownCommand(target: string, o: MarkdownImportFlags, cmd: Command): Promise<void> {
  const g = cmd.optsWithGlobals<EmbedderFlags & EmbedWorkersFlags & { db: string; json?: boolean }>();
  if (target === '-') throw new MnemoliteError('INVALID_INPUT', '--from markdown reads files, not stdin. Pass a file such as MEMORY.md or a directory.');
  const mem = await openMemory({ ...storeOptions(g), embedder: await embedderFromFlags(g), ...embedWorkersOpen(g) });
  const bar = progressBar(!g.json && !!process.stderr.isTTY, 'import markdown');
  // A line written to the same terminal the bar redraws would be torn: keep the lines until it stops.
  const held: string[] | null = !g.json && process.stderr.isTTY && process.stdout.isTTY ? [] : null;
  const say = (line: string): void => {
    if (held) held.push(line);
    else process.stdout.write(line);
  };
  try {
    const r = await importMarkdown(mem, target, {
      namespace: o.namespace ?? 'default',
      ...(o.category !== undefined ? { category: o.category } : {}),
      ...(o.chunkTokens !== undefined ? { maxTokens: o.chunkTokens, overlapTokens: Math.floor(o.chunkTokens / 5) } : {}),
      onProgress: (done, total) => bar.update(done, total),
      onFile: g.json
        ? undefined
        : (f) => {
            const rel = relative(process.cwd(), f.path);
            const name = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : f.path;
            const what =
              f.status === 'unchanged'
                ? 'unchanged'
                : `${f.status} ${f.chunks} chunk${f.chunks === 1 ? '' : 's'}${f.removed ? `, removed ${f.removed} old` : ''}`;
            say(`${name}: ${what}\n`);
          },
    });
    bar.stop();
    if (held) process.stdout.write(held.join(''));
    if (g.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    else
      process.stdout.write(
        `${r.files.length} file${r.files.length === 1 ? '' : 's'}: ${r.added} added, ${r.replaced} replaced, ${r.unchanged} unchanged; ${r.chunks} chunks written, ${r.removed} removed\n`,
      );
  } finally {
    bar.stop();
    await mem.close();
  }
}
