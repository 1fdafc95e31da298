// The machine's load over a run in one line, so a reader knows whether the figures are about the
// stores or about a busy machine.
import { median } from '../util/stats.js';
import { MACHINE_CODES } from '../result/run-comparison.js';

const percent = (value) => `${Math.round(value)}%`;

function range(values, format) {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const middle = median(values);
  return low === high ? format(low) : `${format(low)}-${format(high)} (median ${format(middle)})`;
}

// Bytes as people read memory: "178 MiB", "3.5 GiB".
export function formatBytes(bytes) {
  const mib = bytes / 1024 ** 2;
  if (mib < 1024) return `${mib < 10 ? mib.toFixed(1) : Math.round(mib)} MiB`;
  return `${(mib / 1024).toFixed(1)} GiB`;
}

/** "peak RSS driver 178 MiB, app.js 3.5 GiB" from a Result's peakRss; '' when it has none. */
export function renderPeakRss(peakRss) {
  if (!peakRss) return '';
  const driver = `driver ${peakRss.driverBytes === null ? 'unknown' : formatBytes(peakRss.driverBytes)}`;
  if (peakRss.app === 'none') return `peak RSS ${driver}`;
  const unread = 'unknown (its /proc/<pid>/status could not be read)';
  const app = peakRss.app === 'measured' ? formatBytes(peakRss.appBytes) : unread;
  return `peak RSS ${driver}, app.js ${app}`;
}

/** "Machine:  steal 0-21% (median 2%) · other processes ... · peak RSS ..." */
export function renderMachineLoad(steps, { label = 'Machine: ', peakRss } = {}) {
  const memory = renderPeakRss(peakRss);
  const withMemory = (text) => (memory ? `${text} · ${memory}` : text);
  if (!steps.length) return memory ? `${label} ${memory}` : '';
  const measured = steps.filter((step) => step.machine.stealPercent !== null);
  if (!measured.length) {
    const short = steps.every((step) => step.machine.loadAverage !== null && step.machine.loadAverage !== undefined);
    return withMemory(short
      ? `${label} not measured: every step was shorter than /proc's clock ticks can time (0.2 s)`
      : `${label} not measured (no /proc/stat on this platform): CPU steal and other processes' CPU unknown`);
  }
  const parts = [
    `steal ${range(measured.map((step) => step.machine.stealPercent), percent)}`,
    `other processes ${range(measured.map((step) => step.machine.othersCpuPercent), percent)} of a core`,
    `load average ${range(measured.map((step) => step.machine.loadAverage ?? 0), (value) => value.toFixed(2))}`,
  ];
  const counts = {};
  for (const step of steps) {
    // A merged step carries one warning per machine: it counts as one step warned.
    const codes = new Set(step.warnings.map((warning) => warning.code));
    for (const code of codes) {
      if (code === 'CPU_STEAL' || code === 'BUSY_MACHINE') counts[code] = (counts[code] ?? 0) + 1;
    }
  }
  const warned = steps.filter((step) => step.warnings.some((warning) => counts[warning.code])).length;
  const byCode = Object.entries(counts).map(([code, n]) => `${code} ${n}`).join(', ');
  parts.push(warned ? `${warned} of ${steps.length} steps warned: ${byCode}` : 'no step warned');
  if (measured.length < steps.length) parts.push(`${steps.length - measured.length} step(s) too short to measure`);
  if (memory) parts.push(memory);
  return `${label} ${parts.join(' · ')}`;
}

export const isMachineWarning = (warning) => MACHINE_CODES.has(warning.code);

/** One line for a table's CPU_STEAL and BUSY_MACHINE warnings (common on a shared VM); '' when none. */
export function renderMachineWarnings(steps) {
  const pick = (code, read) => steps
    .filter((step) => step.warnings.some((warning) => warning.code === code))
    .map((step) => read(step.machine));
  // CPU_STEAL warns on the steal of the time wanted (files written before it: of all CPU time).
  const steal = pick('CPU_STEAL', (machine) => machine.stealOfBusyPercent ?? machine.stealPercent);
  const others = pick('BUSY_MACHINE', (machine) => machine.othersCpuPercent);
  const busy = steps.filter((step) => step.warnings.some(isMachineWarning)).length;
  if (!busy) return '';
  const span = (values) => {
    const [low, high] = [Math.min(...values), Math.max(...values)];
    return Math.round(low) === Math.round(high) ? percent(low) : `${percent(low)}-${percent(high)}`;
  };
  const parts = [];
  if (steal.length) parts.push(`CPU steal ${span(steal)} in ${steal.length}`);
  if (others.length) parts.push(`other processes ${span(others)} of a core in ${others.length}`);
  return `warning: the machine was busy during ${busy} of ${steps.length} steps (${parts.join(', ')}): ` +
    'their figures say more about the machine than about the store';
}
