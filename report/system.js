// The `System:` line every report opens with (as pino's benchmarks print one): which Node, OS
// and CPU a figure was measured on, and which engine sent the load.

// Why an HTTP engine sent the load (settings.engineChoice); direct mode's is --direct itself.
const WHY = { default: () => '(default)', option: (engine) => `(--engine ${engine})` };

/**
 * "System: Node v20.20.2 · linux 6.1 x64 · 2 x AMD EPYC · engine fast (default) · <date>".
 * `choice`: settings.engineChoice. A file without settings.engine names loadtest only when the object does.
 */
export function renderSystemLine(system, { labelWidth = 0, date = true, engine, choice } = {}) {
  const parts = [`Node ${system.node}`, system.platform, `${system.cpuCount} x ${system.cpuModel}`];
  const why = engine && engine !== 'direct' && WHY[choice] ? ` ${WHY[choice](engine)}` : '';
  if (engine === 'loadtest') parts.push(`engine loadtest${system.loadtest ? ` ${system.loadtest}` : ''}${why}`);
  else if (engine) parts.push(`engine ${engine}${why}`);
  else if (system.loadtest) parts.push(`loadtest ${system.loadtest}`);
  if (date) parts.push(system.date);
  return `${'System:'.padEnd(labelWidth)} ${parts.join(' · ')}`;
}
