import type { Command } from 'commander';
import { isAbsolute, relative } from 'node:path';
import { MnemoliteError, importMarkdown, openMemory } from '../index.js';
import { storeOptions } from './store-options.js';
import { embedderFromFlags, type EmbedderFlags } from './embedder.js';

/** Flags of `mnemolite import --from markdown`. */
export interface MarkdownImportFlags {
  namespace?: string;
  category?: string;
  chunkTokens?: number;
}

/** `mnemolite import --from markdown <file-or-dir>`: chunk Markdown memory files into memories. */
export async function importMarkdownCommand(target: string, o: MarkdownImportFlags, cmd: Command): Promise<void> {
  const g = cmd.optsWithGlobals<EmbedderFlags & { db: string; json?: boolean }>();
  if (target === '-') throw new MnemoliteError('INVALID_INPUT', '--from markdown reads files, not stdin. Pass a file such as MEMORY.md or a directory.');
  const mem = await openMemory({ ...storeOptions(g), embedder: await embedderFromFlags(g) });
  try {
    const r = await importMarkdown(mem, target, {
      namespace: o.namespace ?? 'default',
      ...(o.category !== undefined ? { category: o.category } : {}),
      ...(o.chunkTokens !== undefined ? { maxTokens: o.chunkTokens, overlapTokens: Math.floor(o.chunkTokens / 5) } : {}),
      onFile: g.json
        ? undefined
        : (f) => {
            const rel = relative(process.cwd(), f.path);
            const name = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : f.path;
            const what =
              f.status === 'unchanged'
                ? 'unchanged'
                : `${f.status} ${f.chunks} chunk${f.chunks === 1 ? '' : 's'}${f.removed ? `, removed ${f.removed} old` : ''}`;
            process.stdout.write(`${name}: ${what}\n`);
          },
    });
    if (g.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    else
      process.stdout.write(
        `${r.files.length} file${r.files.length === 1 ? '' : 's'}: ${r.added} added, ${r.replaced} replaced, ${r.unchanged} unchanged; ${r.chunks} chunks written, ${r.removed} removed\n`,
      );
  } finally {
    await mem.close();
  }
}
