// The calling thread's CPU alone (a worker's process.cpuUsage() is the whole process's):
// process.threadCpuUsage(), else /proc/thread-self/schedstat, else its stat ticks. schedstat
// first: 100 ms of CPU in a 5 s step is ten 10 ms ticks, off by up to a tenth.
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
    // The command name may hold spaces: split after its ')'. utime is field 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
  } catch {
    return null;
  }
}
