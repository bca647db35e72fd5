/**
 * Model Context Protocol server over the memory tools of {@link memoryTools}.
 *
 * stdout belongs to the protocol: this module never writes to it; logs go to stderr.
 */
import { VERSION } from '../version.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LineLimit } from './line-limit.js';
import { AnsweringStdioTransport } from './stdio-transport.js';

/** Largest MCP message accepted on stdio (the SDK's own reader limit). */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '../memory/memory.js';
import type { NamespaceScope } from '../types/memory.js';
import { INTERNAL_TOOL_ERROR } from './context-tool.js';
import { registerContextTool } from './context-tool.js';
import { MEMORY_TOOL_NAMES, WRITE_TOOLS, descriptions, inputSchemas, memoryTools, outputSchemas, type MemoryToolName } from '../tools.js';

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  /** The only namespace the server reads and writes (default `"default"`). Clients cannot change it. */
  namespace?: string;
  /** Session id recorded on stored memories. */
  sessionId?: string;
  /** What recall, list and get read when wider than `namespace`: a prefix (`"user-1/*"`) or a list (see `MemoryToolsOptions.readScope`). */
  readScope?: NamespaceScope;
  /** Offer only memory_recall, memory_get and memory_list. */
  readOnly?: boolean;
  /** Where log lines go (default: stderr). */
  log?: (line: string) => void;
  /** Server version reported to clients. */
  version?: string;
  /** Relevance threshold of memory_recall and memory_context (default `DEFAULT_MIN_RELEVANCE`). */
  minRelevance?: number;
  /**
   * When nothing reaches the threshold, memory_recall and memory_context return the closest memory
   * worded as a low-confidence guess instead of "nothing" (default true).
   */
  bestMatch?: boolean;
}

const stderrLog = (line: string): void => {
  process.stderr.write(`mnemolite mcp: ${line}\n`);
};

const titles: Record<MemoryToolName, string> = {
  memory_store: 'Store a memory',
  memory_recall: 'Recall memories',
  memory_get: 'Get a memory',
  memory_list: 'List memories',
  memory_history: 'Earlier versions of a memory',
  memory_forget: 'Forget a memory',
  memory_profile: 'Read the profile',
  memory_profile_update: 'Update the profile',
};

/**
 * An MCP server exposing memory_store, memory_recall, memory_get, memory_list, memory_history, memory_forget,
 * memory_profile and memory_profile_update,
 * bound to one namespace. Connect it to any transport; see {@link serveMcpStdio} for stdio.
 */
export function createMcpServer(mem: Memory, options: McpServerOptions = {}): McpServer {
  const log = options.log ?? stderrLog;
  const tools = memoryTools(mem, {
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    ...(options.readOnly ? { readOnly: true } : {}),
    ...(options.readScope !== undefined ? { readScope: options.readScope } : {}),
    ...(options.minRelevance !== undefined ? { minRelevance: options.minRelevance } : {}),
    ...(options.bestMatch !== undefined ? { bestMatch: options.bestMatch } : {}),
  });
  const offered = new Set(tools.definitions.map((d) => d.name));
  // A read-only server must not ask the model to store what it cannot.
  const store = offered.has('memory_store')
    ? ' store durable facts, preferences and decisions as short self-contained memories.'
    : ' this memory is read-only: nothing can be stored or forgotten here.';
  const server = new McpServer(
    { name: 'mnemolite', version: options.version ?? VERSION },
    { instructions: `Long-term memory (namespace "${tools.namespace}"). Recall before answering questions about the user or past work;${store}` },
  );
  for (const name of MEMORY_TOOL_NAMES) {
    if (!offered.has(name)) continue;
    const write = WRITE_TOOLS.has(name);
    server.registerTool(
      name,
      {
        title: titles[name],
        description: descriptions[name],
        inputSchema: inputSchemas[name],
        outputSchema: outputSchemas[name],
        annotations: {
          title: titles[name],
          readOnlyHint: !write,
          destructiveHint: name === 'memory_forget',
          idempotentHint: name !== 'memory_store' && name !== 'memory_profile_update',
          openWorldHint: false,
        },
      },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const r = await tools.execute(name, args);
          if (!r.ok) {
            log(`${name}: ${r.error.code}: ${r.error.message}`);
            return { content: [{ type: 'text', text: r.text }], isError: true };
          }
          return { content: [{ type: 'text', text: r.text }], structuredContent: r.data };
        } catch (err) {
          // A bug, not a user error: the log has it; the client learns only that the tool failed.
          log(`${name} failed unexpectedly: ${(err as Error)?.stack ?? String(err)}`);
          return { content: [{ type: 'text', text: INTERNAL_TOOL_ERROR }], isError: true };
        }
      },
    );
  }
  registerContextTool(server, mem, tools.namespace, { minRelevance: options.minRelevance, bestMatch: options.bestMatch ?? true }, log);
  return server;
}

/**
 * Serve {@link createMcpServer} over stdio until the client closes stdin (or SIGINT/SIGTERM).
 * Resolves once the server is closed; the caller then closes the Memory.
 */
export async function serveMcpStdio(mem: Memory, options: McpServerOptions = {}): Promise<void> {
  const log = options.log ?? stderrLog;
  const server = createMcpServer(mem, options);
  // Oversized messages are answered with a JSON-RPC error and skipped; the server keeps serving.
  const input = process.stdin.pipe(
    new LineLimit(MAX_MESSAGE_BYTES, (bytes) => {
      log(`refused a message of ${bytes} bytes (limit ${MAX_MESSAGE_BYTES})`);
      process.stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Message of ${bytes} bytes refused: the limit is ${MAX_MESSAGE_BYTES} bytes (10 MiB). Send smaller requests (content is at most 100,000 bytes).` } })}\n`,
      );
    }),
  );
  const transport = new AnsweringStdioTransport(input, process.stdout, { maxBytes: MAX_MESSAGE_BYTES, maxBufferSize: MAX_MESSAGE_BYTES + 2, log });
  let finish!: () => void;
  const done = new Promise<void>((res) => {
    finish = res;
  });
  let closing = false;
  const stop = (why: string): void => {
    if (closing) return;
    closing = true;
    log(`stopping (${why})`);
    server
      .close()
      .catch((err: unknown) => log(`close failed: ${String(err)}`))
      .finally(finish);
  };
  transport.onerror = (err) => log(`transport error: ${err.message}`);
  server.server.onerror = (err) => log(`protocol error: ${err.message}`);
  const onEnd = (): void => stop('stdin closed');
  const onSignal = (sig: NodeJS.Signals): void => stop(sig);
  process.stdin.once('end', onEnd);
  process.stdin.once('close', onEnd);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A client that disappears makes stdout writes fail with EPIPE: stop instead of crashing.
  const onStdoutError = (err: Error): void => stop(`stdout ${(err as NodeJS.ErrnoException).code ?? err.message}`);
  process.stdout.on('error', onStdoutError);
  server.server.onclose = () => stop('connection closed');
  await server.connect(transport);
  log(
    `serving ${mem.path} on stdio, namespace "${options.namespace ?? 'default'}"${options.readOnly || mem.readonly ? ', read-only' : ''}, semantic recall ${mem.semantic ? 'on' : 'off'}`,
  );
  try {
    await done;
  } finally {
    process.stdin.off('end', onEnd);
    process.stdin.off('close', onEnd);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.stdout.off('error', onStdoutError);
  }
}
