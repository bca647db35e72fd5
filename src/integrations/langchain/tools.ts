/**
 * The memory tools (src/tools.ts) as LangChain tools, for `model.bindTools()`, LangGraph's
 * `ToolNode` or `createAgent`.
 */
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { Memory } from '../../memory/memory.js';
import { memoryTools, type MemoryToolsOptions } from '../../tools.js';

/**
 * The six memory tools as LangChain `DynamicStructuredTool`s, bound to one namespace.
 *
 * Each tool returns `[text, data]` (`responseFormat: 'content_and_artifact'`): the model reads the
 * text; the structured result is the `ToolMessage`'s `artifact`. A mistake such as an unknown id
 * comes back as text the model can act on (`Error (NOT_FOUND): ...`), not as a thrown error.
 *
 * @example
 * const tools = langchainMemoryTools(mem, { namespace: 'user-42' });
 * const model = chatModel.bindTools(tools);
 */
export function langchainMemoryTools(memory: Memory, options: MemoryToolsOptions = {}): DynamicStructuredTool[] {
  const tools = memoryTools(memory, options);
  return tools.definitions.map(
    (d) =>
      new DynamicStructuredTool({
        name: d.name,
        description: d.description,
        schema: structuredClone(d.parameters),
        responseFormat: 'content_and_artifact',
        func: async (input: unknown) => {
          const r = await tools.execute(d.name, input);
          return [r.text, r.data];
        },
      }),
  );
}
