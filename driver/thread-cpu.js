// The CPU time of the calling thread alone. A worker thread's process.cpuUsage() is the whole
// process's (every worker and the main thread), so --workers needs each thread's own:
// process.threadCpuUsage() where Node has it (22.13 and later), else Linux's
// /proc/thread-self/schedstat (the thread's time on a CPU, in nanoseconds), else
// /proc/thread-self/stat (utime and stime in 10 ms clock ticks), each read synchronously so the
// read runs on this thread. Elsewhere null: the caller falls back to the event loop's
// utilisation. Why schedstat before stat: a thread sending 2,000 requests a second at 10 µs each
// uses 100 ms of CPU in a 5 s step, ten ticks, so ticks alone were off by up to a tenth.
import { readFileSync } from 'node:fs';

// Linux reports utime/stime in USER_HZ, 100 per second on every mainstream kernel.
const TICK_MICROS = 10_000;

/** Microseconds of CPU (user + system) this thread has used, or null where it cannot be read. */
export function threadCpuMicros() {
  if (typeof process.threadCpuUsage === 'function') {
    const { user, system } = process.threadCpuUsage();
    return user + system;
  }
  try {
    const runNanos = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    // 0 where the kernel keeps no scheduler statistics: the ticks below then.
    if (runNanos > 0) return runNanos / 1000;
  } catch {}
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces, so split after its ')'): utime is
    // the 14th field of the line, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
  } catch {
    return null;
  }
}
