/**
 * The MCP `memory_context` tool: a prompt-ready block of the memories relevant to a
 * query (`Memory.context`), for clients that want text to paste into a prompt rather than hits.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MnemoliteError, publicMessage } from '../errors.js';
import type { Memory } from '../memory/memory.js';

/** What a client reads when a tool fails by a bug (the server log has the stack). */
export const INTERNAL_TOOL_ERROR = 'Error (INTERNAL): the tool failed unexpectedly. The server log has details.';

const input = z
  .object({
    query: z.string().min(1).describe('What the answer will be about, in natural language.'),
    maxTokens: z.number().int().min(20).max(100_000).optional().describe('Token budget of the block (default 500).'),
    minRelevance: z.number().min(0).max(1).optional().describe('Only memories at least this relevant, 0 to 1 (default 0.5).'),
  })
  .strict();

const output = z.object({
  text: z.string(),
  tokens: z.number().int(),
  omitted: z.number().int(),
  memories: z.array(z.object({ id: z.string(), content: z.string(), date: z.string(), relevance: z.number() })),
  lowConfidence: z.literal(true).optional().describe('The block holds only the closest memory, below the threshold: a guess.'),
});

/**
 * Register `memory_context` on `server`, reading namespace `namespace` with default threshold
 * `minRelevance`; with `bestMatch`, a question nothing clearly answers gets its closest memory under
 * the low-confidence header instead of "nothing".
 */
export function registerContextTool(
  server: McpServer,
  mem: Memory,
  namespace: string,
  defaults: { minRelevance: number | undefined; bestMatch: boolean },
  log: (line: string) => void,
): void {
  const { minRelevance } = defaults;
  server.registerTool(
    'memory_context',
    {
      title: 'Relevant memories as prompt text',
      description:
        'Get the memories relevant to a question as one compact, dated text block (current facts first, outdated ones left out), within a token budget. Use when: you want remembered context to put into your answer or prompt rather than a list of hits; it says so plainly when nothing relevant is remembered.',
      inputSchema: input,
      outputSchema: output,
      annotations: { title: 'Relevant memories as prompt text', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args: unknown): Promise<CallToolResult> => {
      try {
        const a = input.parse(args);
        const r = await mem.context(a.query, {
          namespace,
          ...(a.maxTokens !== undefined ? { maxTokens: a.maxTokens } : {}),
          ...((a.minRelevance ?? minRelevance) !== undefined ? { minRelevance: (a.minRelevance ?? minRelevance)! } : {}),
          bestMatch: defaults.bestMatch,
        });
        const text = r.text || `No relevant memory for "${a.query}".`;
        return {
          content: [{ type: 'text', text }],
          structuredContent: { text: r.text, tokens: r.tokens, omitted: r.omitted, memories: r.memories, ...(r.lowConfidence ? { lowConfidence: true } : {}) },
        };
      } catch (err) {
        if (err instanceof MnemoliteError || err instanceof z.ZodError) {
          const msg =
            err instanceof MnemoliteError
              ? `Error (${err.code}): ${publicMessage(err, [mem.path])}`
              : `Error (INVALID_INPUT): ${err.issues[0]?.message ?? 'invalid arguments'}`;
          log(`memory_context: ${err instanceof MnemoliteError ? `${err.code}: ${err.message}` : msg}`);
          return { content: [{ type: 'text', text: msg }], isError: true };
        }
        log(`memory_context failed unexpectedly: ${(err as Error)?.stack ?? String(err)}`);
        return { content: [{ type: 'text', text: INTERNAL_TOOL_ERROR }], isError: true };
      }
    },
  );
}
