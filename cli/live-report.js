// node test's output while it runs: tables as soon as they are known, to stdout (stderr when
// --json - takes it).
import { createProgress, estimateLine, loadLabel, progressLabel } from '../report/progress.js';
import { createRunText } from '../report/run-text.js';
import { shownPath, writeResults } from './results-files.js';
import { findLastRuns, resultsDir, saveRun } from './saved-runs.js';
import { profileWriter, stagedProfiles } from './profile-files.js';
import { againstLast } from '../result/against-last.js';
import { printable } from '../util/printable.js';

/** "starting app.js and its servers (redis-server, memcached)…", the line before the wait. */
export function startingLine(servers) {
  return servers.length ? `starting app.js and its servers (${servers.join(', ')})…` : 'starting app.js…';
}

/** "opening the stores in this process (direct mode) and starting redis-server…", the line before the wait. */
function openingLine(servers) {
  const starting = servers.length ? ` and starting ${servers.join(', ')}` : '';
  return `opening the stores in this process (direct mode, no HTTP)${starting}…`;
}

const WHY_NOT_SAVED = {
  ENOSPC: 'no space left on the device',
  EROFS: 'a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOTDIR: 'a file is in the way',
  EEXIST: 'a file is in the way',
};

/** The one line that says where the run was kept, or why it was not. */
function savedLine(folder, result) {
  const state = result.interrupted ? ` (interrupted: the ${result.steps.length} step(s) finished)` : '';
  const files = `results.json, report.html${result.steps.some((step) => step.profile) ? ', profiles/' : ''}`;
  return `saved${state}: ${shownPath(folder)}/ (${files}; node test runs lists the runs kept)`;
}

export function createLiveReport({ options, stdout = process.stdout, stderr = process.stderr }) {
  const out = options.json === '-' ? stderr : stdout; // JSON on stdout keeps the tables off it
  const text = createRunText((chunk) => out.write(chunk), { verbose: options.verbose });
  let progress;
  // --profile: each step's profiles written as they come, into the run's folder once it has one.
  const profiles = options.profile ? stagedProfiles(options, { resultsDir: resultsDir() }) : null;
  const writer = profiles?.dir ? profileWriter(profiles.dir) : null;
  // Keeping the run never costs it: a folder that cannot be written is one warning line.
  const save = async (result, { failed }) => {
    try {
      const folder = await saveRun(result, { failed });
      await profiles?.moveInto(folder);
      out.write(`${savedLine(folder, result)}\n`);
    } catch (error) {
      const why = WHY_NOT_SAVED[error.code] ?? error.code ?? error.message;
      stderr.write(`warning: this run was not saved (${why}${error.path ? `: ${shownPath(error.path)}` : ''}); ` +
        'its tables above are all there is (--no-save: not to try)\n');
    }
  };
  const noticed = new Set(); // each notice once, however many steps it concerns
  return {
    onProgress(event) {
      writer?.onProgress(event);
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
    /**
     * The rest of the text, the last saved run set against this one, the --json/--csv/--html
     * files, and the run kept in a folder of its own (unless --no-save), named last. `failed`:
     * the run failed (index.js failure()), so its folder says so.
     */
    async finish(result, { failed = false } = {}) {
      progress?.clear();
      // A part of a split run is not a run of its own: the merge of its parts is.
      // Nothing measured (every store down, stopped before the first step): nothing to keep.
      const keep = options.save !== false && !result.settings.part && result.steps.length > 0;
      const earlier = keep ? await findLastRuns(result).catch(() => ({})) : {};
      text.ending(result, { against: againstLast(result, earlier) });
      const kept = await writer?.done();
      if (profiles?.note) stderr.write(`${profiles.note}\n`);
      if (kept?.warning) stderr.write(`${kept.warning}\n`);
      if (kept?.written && options.save === false) {
        stderr.write(`kept ${kept.written} profile(s) in ${shownPath(profiles.dir)}/profiles/ (.cpuprofile, .pb.gz)\n`);
      }
      try {
        await writeResults(options, result, stdout);
      } finally {
        if (keep) await save(result, { failed });
        else await profiles?.discardStaging();
      }
    },
    /** Takes the progress line away, however the run ended. */
    close() {
      progress?.clear();
    },
  };
}
