// `node test` as a library call: find the targets, run the app if needed, sweep, resolve to a
// Result. Never prints or writes: progress comes out as events.
import { serversToStart, startAppProcess } from './app-process.js';
import { checkReachable, fetchListing, joinUrl, selectTargets, storeLimitProblems } from './targets.js';
import { targetFromUrl } from '../util/url-target.js';
import { runSweep } from './sweep.js';
import { StepAborted } from './step.js';
import { createResult } from '../result/result.js';
import { systemInfo } from '../util/system-info.js';
import { errorsText } from '../result/honesty.js';
import { RunError, UsageError, VerifyError } from '../util/errors.js';
import { unknownStoreProblems } from '../config/store-names.js';
import { redactUrl } from '../util/redact.js';
import { directStores, openDirectTargets, serverUrls } from './direct-targets.js';
import { directEngine } from './engines/direct.js';
import { loadRecordsDirect, verifyWritesDirect } from './workloads/direct-load.js';
import { machineMonitorFor } from './machine-load.js';
import { planTiers, servicesFromListing, servicesFromStoreSet } from './tier-plan.js';
import { createTierSampler } from './tier-cpu.js';
import { startProber } from './probe/prober.js';
import { keyOf } from './workloads/values.js';
import { estimateLoadSeconds, estimateRunSeconds } from './estimate.js';
import { failedStep } from '../result/ranking.js';
import { loadOf } from '../result/repeat.js';
import { thresholdStores, unmeasuredStoreProblems } from '../config/thresholds.js';
import { measurePeakRss } from './peak-rss.js';
import { httpEngineNamed } from './engines/index.js'; // --engine
import { appLaunch } from './app-launch.js';
import { startBarrier } from './part-run.js'; // --start-at
import { appProfiler } from './profile.js'; // --profile

/**
 * A key-space workload whose values the app would refuse (its /stores `limits`), or the server
 * of a store to be swept would (the store's `maxValueSize`): problems before any load.
 */
function limitProblems(options, limits, label, listing = [], targets = []) {
  const largest = options.keySpace ? options.valueSize?.max : undefined;
  if (!largest) return [];
  const stores = storeLimitProblems(listing, targets, largest, `at ${label}`);
  if (!Number.isInteger(limits.maxValueSize) || largest <= limits.maxValueSize) return stores;
  const app = `--value-size: values up to ${largest} bytes, but ${label} accepts at most ` +
    `${limits.maxValueSize} bytes in one value (its --max-value-size)`;
  return [app, ...stores];
}

const unknownNames = (options) => [
  ...unknownStoreProblems(options.stores),
  ...unknownStoreProblems(thresholdStores(options.assert), '--assert'),
];

async function resolveTargets(options, onProgress, env) {
  const workload = options.keySpace ? options.workload : null;
  if (options.urls.length) {
    for (const url of options.urls) await checkReachable(url, { timeoutMs: options.timeoutMs });
    return {
      targets: options.urls.map((url) => targetFromUrl(url, workload?.name)),
      skipped: [],
      label: options.urls.map(redactUrl).join(', '),
    };
  }
  if (options.direct) {
    const unknown = unknownNames(options);
    if (unknown.length) throw new UsageError(unknown);
    onProgress({ type: 'stores-opening', servers: await serversToStart(directStores(options)) });
    return openDirectTargets(options, { env });
  }
  if (options.target) {
    const { stores: listing, limits, framework } = await fetchListing(options.target, { timeoutMs: options.timeoutMs });
    const chosen = selectTargets(listing, options.target, { ...options, workload });
    const { skipped, problems } = chosen;
    // What serves it, where the app says (an app older than --framework does not).
    const targets = chosen.targets.map((target) => (framework ? { ...target, framework } : target));
    problems.push(...limitProblems(options, limits, redactUrl(options.target), listing, targets));
    if (problems.length) throw new UsageError(problems);
    return { targets, skipped, label: redactUrl(options.target), listing };
  }
  const unknown = unknownNames(options);
  if (unknown.length) throw new UsageError(unknown);
  onProgress({ type: 'app-starting', servers: await serversToStart(options.stores) });
  const { env: appEnv, args, token } = appLaunch(options, { env });
  const app = await startAppProcess({ stores: options.stores, env: appEnv, args });
  try {
    const { stores: listing, limits } = await fetchListing(app.url);
    // The app is stopped before a problem is printed: name it, not its address. Each framework
    // serves the same stores on a port of its own: its targets are the same stores at its URL.
    let targets = [];
    let skipped;
    const problems = [];
    for (const { framework, url } of app.frameworks) {
      const chosen = selectTargets(listing, url, { ...options, workload, label: 'the embedded app.js' });
      targets.push(...chosen.targets.map((target) => ({ ...target, framework })));
      skipped ??= chosen.skipped;
      if (!problems.length) problems.push(...chosen.problems);
    }
    problems.push(...limitProblems(options, limits, 'the embedded app.js', listing, targets));
    if (problems.length) throw new UsageError(problems);
    targets = interleavedByFramework(targets);
    return { targets, skipped, label: `app.js started as a child process at ${app.url}`, app, token, listing };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

/**
 * Events passed to onProgress, in order: app-starting {servers}, app-started {app},
 * stores-opening {servers} (--direct, instead of the app events), start {settings, system,
 * targets, skipped, totalSteps}, then the sweep's own stream (driver/sweep.js): load, load-done,
 * step, app-warmup-done, step-done, verify-done, target-done; notice {message} at any time.
 * @typedef {object} ProgressEvent
 */

/**
 * Runs a sweep as `options` say and resolves to a Result (docs/results-format.md). An abort of
 * `signal`, or the embedded app dying, resolves with the finished steps and `interrupted: true`;
 * nothing to sweep resolves with no steps (resultError says why). Rejects with UsageError or
 * RunError when it cannot find out what to sweep.
 *
 * @param {object} options
 * @param {{ signal?: AbortSignal, onProgress?: (event: ProgressEvent) => void, env?: object }} [hooks]
 */
export async function runBenchmark(options, { signal, onProgress = () => {}, env = process.env } = {}) {
  const resolved = await resolveTargets(options, onProgress, env);
  const { targets, skipped, label, app, stores, token = options.token ?? null } = resolved;
  await refuseUnmeasured(options, resolved);
  const kept = keptEvents();
  const appWatch = watchApp(app);
  const sweepSignal = signal ? AbortSignal.any([signal, appWatch.signal]) : appWatch.signal;
  let prober = null;
  try {
    if (app) onProgress({ type: 'app-started', app });
    // --profile: refused now, before any load, where the app will not be profiled.
    const profiler = options.profile ? appProfiler(app?.url ?? options.target, { token }) : null;
    await profiler?.check();
    // Decided with the options (options/result-settings.js): the Result records them as they are.
    const settings = options.settings;
    const system = systemInfo({ target: label, engine: settings.engine });
    const shown = shownTargets(options, targets);
    const shownList = [...shown.values()];
    const size = runSize(options, settings, targets);
    onProgress({ type: 'start', settings, system, targets: shownList, skipped, ...size });

    if (options.probe) prober = await startProbe(options, targets);
    const barrier = startBarrier(options, targets, sweepSignal);
    const swept = await runSweep(targets, settings, {
      ...(stores ? directSweep(stores) : { engine: httpEngineNamed(settings.engine) }),
      machine: tierMonitor(options, resolved),
      probe: prober,
      signal: sweepSignal,
      workload: options.keySpace ? workloadSpec(options) : null,
      token,
      present: (target) => shown.get(target),
      emit: (event) => {
        kept.keep(event);
        onProgress(event);
      },
      beforeSteps: barrier.wait,
      profiler,
    }).catch((error) => {
      if (error instanceof StepAborted) return null; // interrupted: the finished steps make the Result
      throw error;
    });
    const { order, control } = swept ?? { order: orderOf(kept.steps), control: null };
    // Its peak RSS is read from /proc before the app is stopped.
    const peakRss = await measurePeakRss(app);
    const result = createResult({
      interrupted: swept === null,
      appExit: appWatch.exit,
      settings,
      system,
      targets: shownList,
      skipped,
      order,
      steps: kept.steps,
      control,
      appWarmup: kept.appWarmup,
      loads: kept.loads,
      verifications: kept.verifications,
      peakRss,
    });
    return barrier.start ? { ...result, start: barrier.start } : result;
  } finally {
    appWatch.stopping = true;
    await prober?.close();
    await app?.stop();
    await stores?.close(); // direct mode: the stores, then the servers it started
  }
}

// A threshold on a store this run will not sweep: a usage error now, not "not measured" at the end.
async function refuseUnmeasured(options, { targets, skipped, app, stores }) {
  const given = options.urls?.length ? 'the --url list' : 'the embedded app.js';
  const source = options.target ? redactUrl(options.target) : options.direct ? '--direct' : given;
  const swept = targets.map((target) => target.store);
  const unmeasured = unmeasuredStoreProblems(options.assert, swept, { skipped, source });
  if (!unmeasured.length) return;
  await app?.stop();
  await stores?.close();
  throw new UsageError(unmeasured);
}

// What the Result is made of, kept from the sweep's events as they pass.
function keptEvents() {
  const kept = { steps: [], loads: [], verifications: [], appWarmup: null };
  kept.keep = (event) => {
    if (event.type === 'step-done') kept.steps.push(event.step);
    else if (event.type === 'load-done') kept.loads.push(event.load);
    else if (event.type === 'verify-done') kept.verifications.push(event.verification);
    else if (event.type === 'app-warmup-done') kept.appWarmup = event.warmup;
  };
  return kept;
}

// The embedded app dying aborts the sweep (its signal) and is recorded (exit); once the run sets
// stopping, its exit is the run's own doing.
function watchApp(app) {
  const died = new AbortController();
  const watch = { signal: died.signal, exit: null, stopping: false };
  app?.child.once('exit', (code, exitSignal) => {
    if (watch.stopping) return;
    watch.exit = exitSignal ?? `code ${code}`;
    died.abort();
  });
  return watch;
}

// Each target as the Result shows it: a password in a URL never leaves the driver, and a target
// the user named fails the run when no step of it succeeded.
function shownTargets(options, targets) {
  const named = (target) => options.urls.length > 0 || Boolean(options.stores?.includes(target.store));
  return new Map(targets.map((target) => [target, {
    url: redactUrl(target.url),
    store: target.store,
    key: target.key,
    ...(target.framework ? { framework: target.framework } : {}),
    named: named(target),
    ...(target.servers ? { servers: target.servers } : {}),
  }]));
}

// The run's steps and its estimated seconds, for the start event.
function runSize(options, settings, targets) {
  const levels = (options.rps ?? options.concurrency).length;
  const totalSteps = targets.length * levels * settings.repeat;
  const estimateLoad = estimateLoadSeconds(settings, targets.map((target) => target.store));
  const estimateSeconds = estimateRunSeconds({ settings, targets: targets.length, levels, load: estimateLoad });
  return { totalSteps, estimateSeconds, estimateLoad };
}

// --probe: its thread, and what it asks of each target (a key-space run's first key).
async function startProbe(options, targets) {
  const prober = await startProber({ timeoutMs: options.timeoutMs });
  for (const target of targets) {
    target.probeTarget ??= { kind: 'http', url: options.keySpace ? `${target.url.replace(/\/+$/, '')}/${keyOf(0)}` : target.url };
  }
  return prober;
}

const directSweep = (stores) => ({
  engine: directEngine,
  loadRecords: (args) => loadRecordsDirect({ ...args, stores }),
  verifyWrites: (args) => verifyWritesDirect({ ...args, stores }),
});

/**
 * The machine monitor of a run, with its tiers (driver/tier-plan.js). A --url has no /stores
 * listing, so no server behind it is known.
 */
function tierMonitor(options, { targets, app, stores, listing = null }) {
  const swept = [...new Set(targets.map((target) => target.store))];
  const urls = targets.map((target) => target.url);
  if (stores) {
    const plan = planTiers({ services: servicesFromStoreSet(stores, swept), direct: true });
    return machineMonitorFor(serverUrls(stores), { tiers: createTierSampler(plan) });
  }
  const plan = planTiers({
    appPid: app?.child.pid ?? null,
    appUrls: urls,
    metricsUrl: options.target ? joinUrl(options.target, 'metrics') : null,
    services: servicesFromListing(listing, swept),
    appWorkersFlag: app ? '--app-workers' : 'app.js --workers',
  });
  return machineMonitorFor(urls, { tiers: createTierSampler(plan) });
}

const workloadSpec = (options) => ({
  name: options.workload.name,
  mix: options.workload.mix,
  distribution: options.distribution,
  records: options.records,
  valueSize: options.valueSize,
  seed: options.seed,
  load: options.load,
  verify: options.verify,
  ...(options.part ? { part: options.part } : {}),
});

/**
 * The failure a finished Result still stands for (exit 1), or null: the app died, a store read
 * back different values (VERIFY_FAILED), a --stores store could not be swept, or nothing was up.
 * Ctrl-C is none of these.
 */
export function resultError(result) {
  if (result.appExit) {
    return new RunError(`app.js exited (${result.appExit}) during the sweep; ` +
      `the ${result.steps.length} finished step(s) are above and in the results file`);
  }
  if (result.interrupted) return null; // Ctrl-C: the user stopped it (exit 130)
  const lost = (result.verifications ?? [])
    .filter((verification) => verification.warnings.some((warning) => warning.code === 'VERIFY_MISMATCH'));
  if (lost.length) {
    return new VerifyError(lost.map(({ store, mismatched, sampled }) => `${store}: ${mismatched} of ${sampled} ` +
      'written values read back different from what it acknowledged (listed under its table)').join('\n'));
  }
  const named = result.skipped.filter((skip) => result.settings.stores?.includes(skip.store));
  if (named.length) {
    return new RunError(named
      .map(({ store, status, reason }) => `${store} is ${status}, so it was not swept${reason ? `: ${reason}` : ''}`)
      .join('\n'));
  }
  const failed = failedNamedSteps(result);
  if (failed.length) {
    const at = (step) => (step.model === 'open' ? `${loadOf(step)} rps` : `concurrency ${loadOf(step)}`);
    return new RunError(failed
      .map((step) => `${step.store} ${step.key} at ${at(step)}: no request succeeded (${errorsText(step.errors)})`)
      .join('\n'));
  }
  if (!result.targets.length) {
    return new RunError(`nothing to sweep: none of the ${result.skipped.length} store(s) listed can be swept ` +
      '(the skipped lines above say why)');
  }
  return null;
}

// Stores swept only because a listing had them do not fail the run: their failed rows say why.
function failedNamedSteps(result) {
  const named = new Set(result.targets.filter((target) => target.named).map((target) => target.url));
  return result.steps.filter((step) => named.has(step.url) && failedStep(step));
}

function orderOf(steps) {
  const rounds = [];
  for (const step of steps) {
    const round = rounds.at(-1);
    if (round && round.load === loadOf(step) && round.repeat === step.repeat) round.urls.push(step.url);
    else rounds.push({ load: loadOf(step), repeat: step.repeat, urls: [step.url] });
  }
  return rounds;
}

// Each store and key on every framework in turn (express, fastify, node), so the fair order's
// first shuffle starts from frameworks side by side rather than one framework's block.
function interleavedByFramework(targets) {
  const frameworks = [...new Set(targets.map((target) => target.framework))];
  if (frameworks.length < 2) return targets;
  const on = (framework) => targets.filter((target) => target.framework === framework);
  const [first, ...rest] = frameworks.map(on);
  return first.flatMap((target, i) => [target, ...rest.map((list) => list[i]).filter(Boolean)]);
}
