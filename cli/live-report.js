// node test's output while it runs: tables as soon as they are known, to stdout (stderr when
// --json - takes it).
import { createProgress, estimateLine, loadLabel, progressLabel } from '../report/progress.js';
import { createRunText } from '../report/run-text.js';
import { writeResults } from './results-files.js';
import { printable } from '../util/printable.js';

/** "starting app.js and its servers (redis-server, memcached)…", the line before the wait. */
export function startingLine(servers) {
  return servers.length ? `starting app.js and its servers (${servers.join(', ')})…` : 'starting app.js…';
}

/** "opening the stores in this process (direct mode) and starting redis-server…", the line before the wait. */
export function openingLine(servers) {
  const starting = servers.length ? ` and starting ${servers.join(', ')}` : '';
  return `opening the stores in this process (direct mode, no HTTP)${starting}…`;
}

export function createLiveReport({ options, stdout = process.stdout, stderr = process.stderr }) {
  const out = options.json === '-' ? stderr : stdout; // JSON on stdout keeps the tables off it
  const text = createRunText((chunk) => out.write(chunk));
  let progress;
  const noticed = new Set(); // each notice once, however many steps it concerns
  return {
    onProgress(event) {
      if (event.type === 'app-starting') {
        if (!options.quiet) stderr.write(`${startingLine(event.servers)}\n`);
      } else if (event.type === 'stores-opening') {
        if (!options.quiet) stderr.write(`${openingLine(event.servers)}\n`);
      } else if (event.type === 'start') {
        text.header(event);
        const estimate = estimateLine(event);
        if (estimate && !options.quiet) stderr.write(`${estimate}\n`);
        progress = createProgress({
          stream: stderr,
          enabled: !options.quiet && Boolean(stderr.isTTY),
          total: event.totalSteps,
        });
      } else if (event.type === 'load') {
        progress.step(null, loadLabel(event.target, event));
      } else if (event.type === 'load-done') {
        // The load's table before its steps run, so its figures are there to read meanwhile.
        progress.clear();
        text.load(event.load);
      } else if (event.type === 'step') {
        progress.step(event.index, progressLabel(event.target, event.load));
      } else if (event.type === 'notice') {
        if (noticed.has(event.message)) return;
        noticed.add(event.message);
        progress?.clear();
        stderr.write(`note: ${printable(event.message)}\n`);
      } else if (event.type === 'step-done') {
        progress.done();
      } else if (event.type === 'target-done') {
        progress.clear();
        text.table(event.target.url, event.steps, event.verification);
      }
    },
    async finish(result) {
      progress?.clear();
      text.ending(result);
      await writeResults(options, result, stdout);
    },
    /** Takes the progress line away, however the run ended. */
    close() {
      progress?.clear();
    },
  };
}
