/**
 * Lazy entry points for the MCP server: `import 'mnemolite'` does not load the MCP SDK until
 * one of these is called.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Memory } from '../memory/memory.js';
import type { McpServerOptions } from './server.js';

/**
 * An MCP server (from `@modelcontextprotocol/sdk`) exposing memory_store, memory_recall,
 * memory_get, memory_list and memory_forget, bound to one namespace. Connect it to any transport.
 */
export async function createMcpServer(mem: Memory, options: McpServerOptions = {}): Promise<McpServer> {
  const m = await import('./server.js');
  return m.createMcpServer(mem, options);
}

/** Serve the memory over MCP on this process's stdin/stdout until the client disconnects. */
export async function serveMcpStdio(mem: Memory, options: McpServerOptions = {}): Promise<void> {
  const m = await import('./server.js');
  return m.serveMcpStdio(mem, options);
}
