// Peak resident memory of the driver and the embedded app.js child (read from /proc before it
// stops), since `/usr/bin/time -v` reports only the largest process.
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

/** The Result's `peakRss`: several processes sum their peaks; null app without an embedded one. */
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
