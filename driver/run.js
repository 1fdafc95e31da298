// `node test` as a function: find the targets, sweep them, print the tables, write the files.
// Resolves to the exit code; throws UsageError (exit 2) or RunError (exit 1).
import { startAppProcess } from './app-process.js';
import { checkReachable, fetchStoreListing, selectTargets, targetFromUrl } from './targets.js';
import { runSweep } from './sweep.js';
import { StepAborted } from './step.js';
import { createResult } from './result.js';
import { renderComparison, renderSkipped, renderStepTable, renderSystem } from '../report/table.js';
import { writeResults } from '../report/results.js';
import { systemInfo } from '../util/system-info.js';
import { createProgress } from '../report/progress.js';
import { RunError, UsageError } from '../util/errors.js';
import { redactUrl } from '../util/redact.js';

export const EXIT_INTERRUPTED = 130;

async function resolveTargets(options) {
  if (options.urls.length) {
    for (const url of options.urls) await checkReachable(url, { timeoutMs: options.timeoutMs });
    return { targets: options.urls.map(targetFromUrl), skipped: [], label: options.urls.map(redactUrl).join(', ') };
  }
  if (options.target) {
    const listing = await fetchStoreListing(options.target, { timeoutMs: options.timeoutMs });
    const { targets, skipped, problems } = selectTargets(listing, options.target, options);
    if (problems.length) throw new UsageError(problems);
    return { targets, skipped, label: redactUrl(options.target) };
  }
  // The embedded default: only names this checkout's registry knows can be asked of app.js.
  const { unknownStoreProblems } = await import('../stores/index.js');
  const unknown = unknownStoreProblems(options.stores);
  if (unknown.length) throw new UsageError(unknown);
  const app = await startAppProcess({ stores: options.stores });
  try {
    const listing = await fetchStoreListing(app.url);
    const { targets, skipped, problems } = selectTargets(listing, app.url, options);
    if (problems.length) throw new UsageError(problems);
    return { targets, skipped, label: `app.js started as a child process at ${app.url}`, app };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

export async function runDriver(options, { stdout = process.stdout, stderr = process.stderr, signal, onAppStarted = () => {} } = {}) {
  const report = options.json === '-' ? stderr : stdout; // JSON on stdout keeps the tables off it
  const print = (text) => text && report.write(`${text}\n`);
  const { targets, skipped, label, app } = await resolveTargets(options);
  const steps = [];
  let interrupted = false;
  // If the embedded app dies mid-sweep, stop as on Ctrl-C (keeping the finished steps), then fail.
  const appDied = new AbortController();
  let appExit;
  let stopping = false;
  app?.child.once('exit', (code, exitSignal) => {
    if (stopping) return;
    appExit = exitSignal ?? `code ${code}`;
    appDied.abort();
  });
  if (app) onAppStarted(app);
  const sweepSignal = signal ? AbortSignal.any([signal, appDied.signal]) : appDied.signal;
  try {
    const settings = {
      concurrency: options.rps ? null : options.concurrency,
      rps: options.rps ?? null,
      requests: options.requests ?? null,
      duration: options.duration ?? null,
      warmup: options.warmup,
      keepAlive: options.keepAlive,
      timeoutMs: options.timeoutMs,
    };
    const system = systemInfo({ target: label });
    print(renderSystem(system, settings));
    print(renderSkipped(skipped));
    if (!targets.length) throw new RunError(`nothing to sweep: no store is up at ${label}`);

    const stepsPerTarget = (options.rps ?? options.concurrency).length;
    const progress = createProgress({ stream: stderr, enabled: !options.quiet && Boolean(stderr.isTTY), total: targets.length * stepsPerTarget });
    const printed = new Set();
    const printTable = (url) => {
      const urlSteps = steps.filter((step) => step.url === url);
      if (!urlSteps.length || printed.has(url)) return;
      printed.add(url);
      progress.clear();
      print(`\n${renderStepTable(url, urlSteps)}`);
    };
    try {
      await runSweep(targets, settings, {
        signal: sweepSignal,
        onStep: (index, total, target, load) => {
          const what = load.warmup ? `warm-up (${load.warmup} requests)` : load.rps ? `${load.rps} rps` : `concurrency ${load.concurrency}`;
          progress.step(index, `${target.store} ${target.key} · ${what}`);
        },
        onStepDone: (step) => {
          steps.push(step);
          // Each URL's table as soon as its last step is done, not at the very end.
          if (steps.filter((done) => done.url === step.url).length === stepsPerTarget) printTable(step.url);
        },
      });
    } catch (error) {
      if (!(error instanceof StepAborted)) throw error;
      interrupted = true;
    } finally {
      progress.clear();
    }
    for (const target of targets) printTable(redactUrl(target.url));
    if (interrupted) {
      const why = appExit ? `app.js exited (${appExit}) during the sweep` : 'interrupted';
      print(`\n${why}: ${steps.length} step(s) finished; the step in progress was dropped`);
    }
    const shownTargets = targets.map(({ url, store, key }) => ({ url: redactUrl(url), store, key }));
    const result = createResult({ interrupted, appExit: appExit ?? null, settings, system, targets: shownTargets, skipped, steps });
    const compared = renderComparison(result.comparison);
    if (compared) print(`\n${compared}`);
    await writeResults(options, result, stdout);
  } finally {
    stopping = true;
    await app?.stop();
  }
  if (appExit) throw new RunError(`app.js exited (${appExit}) during the sweep; the ${steps.length} finished step(s) are above and in the results file`);
  return interrupted ? EXIT_INTERRUPTED : 0;
}
