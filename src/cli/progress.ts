import cliProgress from 'cli-progress';

/** A progress bar on stderr (a no-op when disabled, e.g. with --json or no TTY). */
export function progressBar(enabled: boolean, label: string): { update(done: number, total?: number): void; stop(): void } {
  if (!enabled) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} {eta_formatted}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total ?? 0, 0);
        started = true;
      }
      if (total !== undefined) bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
