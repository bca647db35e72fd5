/**
 * Runs many fuzzed command lines through the built CLI's own `main()` in this one process (fast;
 * the test also spawns real processes for a sample). Prints a `violation` line for every run
 * that crashed, exited with 2, printed a stack or a raw SQLite error; `done` with exit-code counts.
 * Usage: cli-fuzz.ts --cli dist/cli/main.js --dir SANDBOX --runs N --seed N
 */
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { commandLine, judge } from './cli-args.js';
import { args, describe } from './common.js';

const a = args();
const emitLine = process.stdout.write.bind(process.stdout);
const emit = (o: Record<string, unknown>): void => {
  emitLine(`${JSON.stringify(o)}\n`);
};
const realExit = process.exit.bind(process);
process.chdir(a.dir!);
let err = '';
process.stdout.write = (() => true) as typeof process.stdout.write;
process.stderr.write = ((chunk: string | Uint8Array) => {
  err += String(chunk);
  return true;
}) as typeof process.stderr.write;
let current: string[] = [];
// commander exits the process itself on some usage errors (exit code 1 in a real run): turn that
// into an exception here, and remember what the process would have exited with.
let exited: { code: number; stderr: string } | null = null;
process.exit = ((code?: number) => {
  exited = { code: code ?? 0, stderr: err };
  throw new Error('process.exit() called');
}) as typeof process.exit;
process.on('unhandledRejection', (e) => emit({ op: 'violation', why: 'unhandled rejection', argv: current, ...describe(e) }));
process.on('uncaughtException', (e) => emit({ op: 'violation', why: 'uncaught exception', argv: current, ...describe(e) }));

process.argv = [process.execPath, 'mnemolite', '--version'];
const { main } = (await import(pathToFileURL(a.cli!).href)) as { main: (argv: string[]) => Promise<number> };
await new Promise((r) => setImmediate(r));

const counts: Record<string, number> = {};
for (const argv of fc.sample(commandLine(true), { numRuns: Number(a.runs), seed: Number(a.seed) })) {
  current = argv;
  err = '';
  exited = null;
  let code: number;
  try {
    code = await main(['node', 'mnemolite', ...argv]);
  } catch (e) {
    emit({ op: 'violation', why: 'main() threw', argv, ...describe(e) });
    continue;
  }
  if (exited) ({ code, stderr: err } = exited as { code: number; stderr: string });
  counts[code] = (counts[code] ?? 0) + 1;
  const why = judge(code, err);
  if (why) emit({ op: 'violation', why, argv, code, stderr: err.slice(0, 2000) });
}
emit({ op: 'done', counts });
realExit(0);
