/** fast-check with the failing assertion's message in the thrown error (node:test shows only the message). */
import fc from 'fast-check';

export async function property<Ts extends [unknown, ...unknown[]]>(
  prop: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  params: fc.Parameters<Ts> = {},
): Promise<void> {
  try {
    await fc.assert(prop as fc.IAsyncProperty<Ts>, params);
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause) (err as Error).message += `\nCaused by: ${(cause as Error)?.stack ?? String(cause)}`;
    throw err;
  }
}

/** Number of runs: `base` in `npm test`, times `MNEMOLITE_STRESS` (e.g. 10) under `npm run stress`. */
export const runs = (base: number): number => base * Math.max(1, Number(process.env.MNEMOLITE_STRESS ?? 1) || 1);
