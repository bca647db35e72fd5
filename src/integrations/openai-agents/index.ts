/**
 * `mnemolite/openai-agents`: the memory tools as OpenAI Agents SDK function tools.
 * Needs `@openai/agents`.
 * @packageDocumentation
 */
import { tool, type FunctionTool } from '@openai/agents';
import type { Memory } from '../../memory/memory.js';
import { memoryTools, type MemoryToolsOptions } from '../../tools.js';

/** The JSON-Schema parameter type `tool()` takes in non-strict mode. */
type NonStrictParameters = Parameters<typeof tool>[0] extends infer O ? (O extends { strict: false; parameters: infer P } ? P : never) : never;

/**
 * The six memory tools as `@openai/agents` function tools, bound to one namespace.
 *
 * The tools are non-strict (optional arguments stay optional); arguments are validated by
 * mnemolite, and a mistake (bad argument, unknown id) is returned to the model as text
 * (`Error (NOT_FOUND): ...`) so it can correct itself.
 *
 * @example
 * const agent = new Agent({ name: 'assistant', instructions, tools: openAIAgentsMemoryTools(mem, { namespace: 'user-42' }) });
 * const result = await run(agent, 'Remember that I prefer window seats.');
 */
export function openAIAgentsMemoryTools(memory: Memory, options: MemoryToolsOptions = {}): FunctionTool[] {
  const tools = memoryTools(memory, options);
  return tools.definitions.map((d) =>
    tool({
      name: d.name,
      description: d.description,
      // mnemolite's schemas say additionalProperties: false; the SDK's type wants true in non-strict mode, the API accepts both.
      parameters: structuredClone(d.parameters) as unknown as NonStrictParameters,
      strict: false,
      execute: async (input: unknown) => (await tools.execute(d.name, input)).text,
    }),
  );
}
