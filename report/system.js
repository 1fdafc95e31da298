// The `System:` line every report opens with (as pino's benchmarks print one): which Node, OS
// and CPU a figure was measured on, and which engine sent the load.

/**
 * "System: Node v20.20.2 · linux 6.1 x64 · 2 x AMD EPYC · engine loadtest 8.2.1 · <date>".
 * A file without settings.engine names loadtest only when the object does.
 */
export function renderSystemLine(system, { labelWidth = 0, date = true, engine } = {}) {
  const parts = [`Node ${system.node}`, system.platform, `${system.cpuCount} x ${system.cpuModel}`];
  if (engine === 'loadtest') parts.push(`engine loadtest${system.loadtest ? ` ${system.loadtest}` : ''}`);
  else if (engine) parts.push(`engine ${engine}`);
  else if (system.loadtest) parts.push(`loadtest ${system.loadtest}`);
  if (date) parts.push(system.date);
  return `${'System:'.padEnd(labelWidth)} ${parts.join(' · ')}`;
}
