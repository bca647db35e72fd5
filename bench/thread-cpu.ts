import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds of this process's calling thread and of all its other threads (worker threads, V8's
 * garbage-collection and compiler helpers, libuv), from /proc (Linux; null elsewhere). Splits
 * `process.cpuUsage()`: a one-thread run that also keeps helper threads busy is using more than
 * one core, and that share is not free when a worker thread needs the second core.
 */
export function threadCpu(): { main: number; other: number } | null {
  let main = 0;
  let other = 0;
  try {
    const tick = 100; // USER_HZ: 100 on Linux
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the ")" of the thread name: utime and stime are the 12th and 13th.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const s = (Number(f[11]) + Number(f[12])) / tick;
      if (tid === String(process.pid)) main += s;
      else other += s;
    }
  } catch {
    return null;
  }
  return { main, other };
}
