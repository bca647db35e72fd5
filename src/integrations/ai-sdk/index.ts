/**
 * `mnemolite/ai-sdk`: the memory tools as Vercel AI SDK tools. Needs `ai`.
 *
 * (`memoryTools(mem).toAISDKTools(jsonSchema)` in the root module does the same without importing
 * `ai`; this entry imports the SDK's own `tool` and `jsonSchema`, so the result is typed as its `Tool`.)
 * @packageDocumentation
 */
import { jsonSchema, tool, type Tool } from 'ai';
import type { Memory } from '../../memory/memory.js';
import { memoryTools, type MemoryToolsOptions } from '../../tools.js';

/**
 * The memory tools for `generateText` / `streamText` / `Agent` (`tools: aiSDKMemoryTools(mem)`),
 * bound to one namespace. `execute` resolves to the structured result, or
 * `{ error: { code, message } }` for a mistake the model can correct.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * await generateText({ model, prompt, tools: aiSDKMemoryTools(mem, { namespace: 'user-42' }), stopWhen: stepCountIs(5) });
 */
export function aiSDKMemoryTools(memory: Memory, options: MemoryToolsOptions = {}): Record<string, Tool<unknown, Record<string, unknown>>> {
  const tools = memoryTools(memory, options);
  // Keyed by MemoryToolName; typed as the SDK's ToolSet (a read-only memory leaves the writers out).
  const out: Record<string, Tool<unknown, Record<string, unknown>>> = {};
  for (const d of tools.definitions) {
    out[d.name] = tool<unknown, Record<string, unknown>>({
      description: d.description,
      inputSchema: jsonSchema<unknown>(structuredClone(d.parameters)),
      execute: async (input: unknown) => (await tools.execute(d.name, input)).data,
    });
  }
  return out;
}
