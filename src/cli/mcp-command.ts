import type { Command } from 'commander';
import { MnemoliteError, openMemory } from '../index.js';
import { MEMORY_TOOL_NAMES, WRITE_TOOLS } from '../tools.js';
import { storeOptions } from './store-options.js';
import { embedderFromFlags, type EmbedderFlags } from './embedder.js';

interface McpFlags {
  namespace: string;
  session?: string;
  readOnly?: boolean;
  readScope?: string[];
}

/**
 * `--read-scope` values: given once, a prefix (`user-1/*`) or names separated by commas (as
 * before); given several times, each value is one name taken literally, as `-n` of recall, list
 * and count, so a name holding a comma stays addressable.
 */
export function readScopeOf(values: string[]): string | string[] {
  if (values.length > 1) return values;
  const v = values[0]!;
  return v.endsWith('*') ? v : v.split(',');
}

/** Keep stdout for the protocol: anything a library prints with console.log/info/debug goes to stderr. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]): void => {
    console.error(...args);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Register `mnemolite mcp`: a Model Context Protocol server on stdio. */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the memory to AI agents over the Model Context Protocol (stdio)')
    .option('-n, --namespace <ns>', 'the only namespace clients can read and write', 'default')
    .option('--session <id>', 'session id recorded on stored memories')
    .option(
      '--read-scope <prefix*|ns,ns>',
      'what recall, list and get read, when wider than --namespace: a prefix such as "user-1/*", names separated by commas, or the flag repeated (one name each, commas kept)',
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option('--read-only', `offer only the read tools: ${MEMORY_TOOL_NAMES.filter((n) => !WRITE_TOOLS.has(n)).join(', ')}`)
    .option('--min-relevance <r>', 'relevance threshold of memory_recall and memory_context (0 to 1, default 0.5)', Number)
    .option('--no-best-match', 'answer "nothing" instead of the closest memory, marked low confidence, when nothing reaches the threshold')
    .action(async (o: McpFlags & { minRelevance?: number; bestMatch: boolean }, cmd: Command) => {
      guardStdout();
      const g = cmd.optsWithGlobals<EmbedderFlags & { db: string }>();
      if (o.namespace === '*')
        throw new MnemoliteError('INVALID_INPUT', '--namespace must name one namespace; "*" would expose every namespace to the client.');
      const mem = await openMemory({ ...storeOptions(g), embedder: await embedderFromFlags(g), ...(o.readOnly ? { readonly: true } : {}) });
      try {
        // Loaded here so other commands do not pay for the MCP SDK.
        const { serveMcpStdio } = await import('../mcp/server.js');
        await serveMcpStdio(mem, {
          namespace: o.namespace,
          ...(o.session !== undefined ? { sessionId: o.session } : {}),
          ...(o.readOnly ? { readOnly: true } : {}),
          ...(o.readScope !== undefined ? { readScope: readScopeOf(o.readScope) } : {}),
          ...(o.minRelevance !== undefined ? { minRelevance: o.minRelevance } : {}),
          bestMatch: o.bestMatch,
        });
      } finally {
        await mem.close();
      }
    });
}
