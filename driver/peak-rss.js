// Peak resident memory of the run's processes: the driver's own (process.resourceUsage) and
// the embedded app.js child's, read from /proc before the child is stopped, so that a reader of
// `/usr/bin/time -v node test` (which reports the largest process, usually the app) sees both.
import { readFile } from 'node:fs/promises';

/** The driver process's peak RSS in bytes so far (all its threads; ru_maxrss is in KiB). */
export const driverPeakRssBytes = () => process.resourceUsage().maxRSS * 1024;

/** A live process's peak RSS in bytes (VmHWM in /proc/<pid>/status), or null where it cannot be read. */
export async function processPeakRssBytes(pid) {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null; // no /proc (macOS, Windows), or the process is gone
  }
}

/**
 * The Result's `peakRss` at the end of a run: `app` the embedded app.js process the driver
 * started ({ child, pids? }: pids, its workers with --app-workers), or null when there is none
 * (--url, --target, --direct). Several processes: the sum of their peaks.
 */
export async function measurePeakRss(app) {
  const peaks = app ? await Promise.all([app.child.pid, ...(app.pids ?? [])].map(processPeakRssBytes)) : [];
  const appBytes = !app || peaks.includes(null) ? null : peaks.reduce((sum, bytes) => sum + bytes, 0);
  const state = appBytes === null ? 'unknown' : 'measured';
  return { driverBytes: driverPeakRssBytes(), appBytes, app: app ? state : 'none' };
}

/** Several runs' peakRss as one (a scenario's runs): the largest of each, `measured` if any was. */
export function largestPeakRss(list) {
  const known = list.filter(Boolean);
  if (!known.length) return undefined;
  const largest = (values) => (values.some(Number.isInteger) ? Math.max(...values.filter(Number.isInteger)) : null);
  const apps = known.map((entry) => entry.app);
  return {
    driverBytes: largest(known.map((entry) => entry.driverBytes)),
    appBytes: largest(known.map((entry) => entry.appBytes)),
    app: ['measured', 'unknown', 'none'].find((state) => apps.includes(state)),
  };
}
