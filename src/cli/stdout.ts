import { MnemoliteError } from '../errors.js';

/**
 * The one stdout error handler of the CLI. A closed pipe (`| head`), a full disk (`> file`) or
 * `> /dev/full` make stdout writes fail asynchronously; without a listener Node prints a raw
 * stack trace, and a command that wrote part of its output would still exit 0.
 */
let failure: NodeJS.ErrnoException | undefined;
let watching = false;

/** Record the first stdout write error from now on (idempotent). */
export function watchStdout(): void {
  if (watching) return;
  watching = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    failure ??= err;
  });
}

/** The first stdout write error, if any. */
export function stdoutFailure(): NodeJS.ErrnoException | undefined {
  // A failed write destroys the stream at once but emits 'error' a tick later.
  return failure ?? ((process.stdout.errored as NodeJS.ErrnoException | null) || undefined);
}

/** Whether the reader went away (`| head`): the output is no longer wanted, which is not an error. */
export function isClosedPipe(err: NodeJS.ErrnoException | undefined): boolean {
  return err?.code === 'EPIPE' || err?.code === 'ERR_STREAM_DESTROYED';
}

/** Write to stdout unless an earlier write failed (then the text is dropped: the failure is reported once, at the end). */
export function writeStdout(text: string): boolean {
  if (stdoutFailure() || process.stdout.destroyed) return false;
  return process.stdout.write(text);
}

/** Resolves once everything written so far has reached stdout's file, pipe or terminal (or failed). */
export function flushStdout(): Promise<void> {
  if (stdoutFailure() || process.stdout.destroyed || process.stdout.writableLength === 0) return Promise.resolve();
  return new Promise((res) => {
    process.stdout.write('', (err) => {
      if (err) failure ??= err as NodeJS.ErrnoException;
      res();
    });
  });
}

/** The typed error for a failed stdout (`what` names the output, e.g. "the export"). */
export function stdoutError(err: NodeJS.ErrnoException, what = 'the output'): MnemoliteError {
  return new MnemoliteError(
    'STORAGE',
    `Writing to stdout failed (${err.code ?? err.message}); ${what} is incomplete. Check free space on the destination, then run the command again.`,
    { code: err.code },
  );
}
