// `node test` as a library call: find the targets, run the app if needed, sweep, and resolve
// to a Result. Never prints and never writes a file: progress comes out as events, and the
// caller renders the Result (report/).
import { randomBytes } from 'node:crypto';
import { serversToStart, startAppProcess } from './app-process.js';
import { checkReachable, fetchListing, joinUrl, selectTargets, storeLimitProblems, targetFromUrl } from './targets.js';
import { canVerify, runSweep } from './sweep.js';
import { steadyMaxSeconds } from './sweep-phases.js';
import { StepAborted } from './step.js';
import { createResult } from '../result/result.js';
import { systemInfo } from '../util/system-info.js';
import { errorsText } from '../result/honesty.js';
import { RunError, UsageError, VerifyError } from '../util/errors.js';
import { TOKEN_ENV } from './app-process.js';
import { distributionName } from './workloads/parse.js';
import { redactUrl } from '../util/redact.js';
// --direct
import { directStores, openDirectTargets, serverUrls } from './direct-targets.js';
import { directEngine } from './engines/direct.js';
import { loadRecordsDirect, verifyWritesDirect } from './workloads/direct-load.js';
import { machineMonitorFor } from './machine-load.js';
import { planTiers, servicesFromListing, servicesFromStoreSet } from './tier-plan.js';
import { createTierSampler } from './tier-cpu.js';
import { startProber } from './probe/prober.js';
import { keyOf } from './workloads/values.js';
import { randomSeed } from './workloads/random.js';
import { estimateLoadSeconds, estimateRunSeconds } from './estimate.js';
import { failedStep } from '../result/ranking.js';
import { loadOf } from '../result/repeat.js';
import { thresholdStores, unmeasuredStoreProblems } from '../result/thresholds.js';
import { measurePeakRss } from './peak-rss.js';
import { httpEngineNamed } from './engines/index.js'; // --engine
import { effectiveStoreDelay, storeDelayEnv } from './store-delay.js';
import { serverTimingEnv } from './server-timing.js'; // --no-server-timing
import { partSettings, startBarrier } from './part-run.js'; // --part, --start-at

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

// Store names this checkout's registry does not know, in --stores or in an --assert threshold.
const unknownNames = (options, unknownStoreProblems) => [
  ...unknownStoreProblems(options.stores),
  ...unknownStoreProblems(thresholdStores(options.assert), '--assert'),
];

async function resolveTargets(options, onProgress, env) {
  // A key-space workload sweeps stores (http://host/redis), each request picking its key.
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
    const { unknownStoreProblems } = await import('../stores/index.js');
    const unknown = unknownNames(options, unknownStoreProblems);
    if (unknown.length) throw new UsageError(unknown);
    onProgress({ type: 'stores-opening', servers: await serversToStart(directStores(options)) });
    return openDirectTargets(options, { env });
  }
  if (options.target) {
    const { stores: listing, limits } = await fetchListing(options.target, { timeoutMs: options.timeoutMs });
    const { targets, skipped, problems } = selectTargets(listing, options.target, { ...options, workload });
    problems.push(...limitProblems(options, limits, redactUrl(options.target), listing, targets));
    if (problems.length) throw new UsageError(problems);
    return { targets, skipped, label: redactUrl(options.target), listing };
  }
  // The embedded default: only names this checkout's registry knows can be asked of app.js.
  const { unknownStoreProblems } = await import('../stores/index.js');
  const unknown = unknownNames(options, unknownStoreProblems);
  if (unknown.length) throw new UsageError(unknown);
  onProgress({ type: 'app-starting', servers: await serversToStart(options.stores) });
  // The app's per-operation deadline would otherwise cut a slow store's requests at 2 s and
  // count them as 503s: give it the driver's own per-request deadline, unless the user set one.
  // Writes to the app it starts carry a token made up here (or the user's), never shown.
  const token = options.token ?? randomBytes(24).toString('base64url');
  const appEnv = {
    ...env,
    STOREBENCH_OP_TIMEOUT_MS: env.STOREBENCH_OP_TIMEOUT_MS || String(options.timeoutMs),
    [TOKEN_ENV]: token,
    ...storeDelayEnv(options.storeDelay),
    ...serverTimingEnv(options.serverTiming),
  };
  // Always said, so that a STOREBENCH_WORKERS or WEB_CONCURRENCY in this shell does not change it unrecorded.
  const args = ['--workers', String(options.appWorkers)];
  const app = await startAppProcess({ stores: options.stores, env: appEnv, args });
  try {
    const { stores: listing, limits } = await fetchListing(app.url);
    // The app is stopped before a problem is printed: name it, not its address.
    const { targets, skipped, problems } = selectTargets(listing, app.url, {
      ...options, workload, label: 'the embedded app.js',
    });
    problems.push(...limitProblems(options, limits, 'the embedded app.js', listing, targets));
    if (problems.length) throw new UsageError(problems);
    return { targets, skipped, label: `app.js started as a child process at ${app.url}`, app, token, listing };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

// The network emulated between the run's stores and their servers (--store-rtt, or the
// environment), when the run set them up itself; a running app's (--target, --url) is its own.
const storeDelayOf = (options, env) => (options.urls?.length || options.target
  ? null
  : effectiveStoreDelay(options.storeDelay, env));

/**
 * Events passed to onProgress, in this order:
 * - `{ type: 'app-starting', servers }`: the embedded app.js is being started, with the servers
 *   it will try to start (['redis-server', ...]); that can take a while
 * - `{ type: 'app-started', app }`: the embedded app.js is up (`app.url`, `app.child`)
 * - `{ type: 'stores-opening', servers }`: direct mode (--direct): the stores are being opened
 *   in this process, with the servers that will be started for them (instead of the app events)
 * - `{ type: 'start', settings, system, targets, skipped, totalSteps }`: before the first step
 * - `{ type: 'load', target, done, total, bytes }`: a key-space target's records are loading
 *   (done of total so far); `{ type: 'load-done', load }` when they are
 * - `{ type: 'step', index, total, target, load }`: a step (or, with `load.warmup`, a warm-up) begins
 * - `{ type: 'app-warmup-done', warmup }`: the warm-up of the app as a whole ended (the Result's appWarmup)
 * - `{ type: 'step-done', step }`
 * - `{ type: 'verify-done', verification }`: a key-space target's written values were read back
 * - `{ type: 'target-done', target, steps, load, verification }`: every step of that URL is done
 * - `{ type: 'notice', message }`: something the run does differently than asked (--workers), at any time
 * From `load` on they are the sweep's own event stream (driver/sweep.js), passed on as they come.
 * @typedef {object} ProgressEvent
 */

/**
 * Runs a sweep as `options` (options/normalize.js) say and resolves to a Result (docs/results-format.md):
 * `{ format, interrupted, appExit, settings, system, targets, skipped, steps, comparison }`.
 * An abort of `signal` (Ctrl-C) stops at once and resolves with the finished steps and
 * `interrupted: true`; so does the embedded app dying mid-sweep, with `appExit` set (see
 * resultError). A run with nothing to sweep (no store up) resolves too, with no steps:
 * resultError says why. Rejects with UsageError or RunError when it could not even find out
 * what to sweep (bad names, target unreachable, app.js would not start).
 *
 * @param {object} options
 * @param {{ signal?: AbortSignal, onProgress?: (event: ProgressEvent) => void, env?: object }} [hooks]
 *   env: in place of process.env (index.js run())
 */
export async function runBenchmark(options, { signal, onProgress = () => {}, env = process.env } = {}) {
  const resolved = await resolveTargets(options, onProgress, env);
  const { targets, skipped, label, app, stores, token = options.token ?? null } = resolved;
  // A threshold on a store this run will not sweep: a usage error now, not "not measured" at the end.
  const given = options.urls?.length ? 'the --url list' : 'the embedded app.js';
  const source = options.target ? redactUrl(options.target) : options.direct ? '--direct' : given;
  const swept = targets.map((target) => target.store);
  const unmeasured = unmeasuredStoreProblems(options.assert, swept, { skipped, source });
  if (unmeasured.length) {
    await app?.stop();
    await stores?.close();
    throw new UsageError(unmeasured);
  }
  // What the Result keeps of the sweep's events, as they come: an interrupted run keeps them too.
  const steps = [];
  const loads = [];
  const verifications = [];
  const keep = (event) => {
    if (event.type === 'step-done') steps.push(event.step);
    else if (event.type === 'load-done') loads.push(event.load);
    else if (event.type === 'verify-done') verifications.push(event.verification);
    else if (event.type === 'app-warmup-done') appWarmup = event.warmup;
  };
  let appWarmup = null;
  let interrupted = false;
  // If the embedded app dies mid-sweep, stop as on Ctrl-C (keeping the finished steps).
  const appDied = new AbortController();
  let appExit = null;
  let stopping = false;
  let prober = null;
  app?.child.once('exit', (code, exitSignal) => {
    if (stopping) return;
    appExit = exitSignal ?? `code ${code}`;
    appDied.abort();
  });
  const sweepSignal = signal ? AbortSignal.any([signal, appDied.signal]) : appDied.signal;
  try {
    if (app) onProgress({ type: 'app-started', app });
    const settings = {
      concurrency: options.rps ? null : options.concurrency,
      rps: options.rps ?? null,
      requests: options.requests ?? null,
      duration: options.duration ?? null,
      warmup: options.warmup,
      warmupMaxSeconds: steadyMaxSeconds(options),
      order: options.order,
      control: options.control !== false,
      // --part: the run's seed (every part runs the same order), not the part's own.
      orderSeed: options.orderSeed ?? options.seed ?? randomSeed(),
      keepAlive: options.keepAlive,
      timeoutMs: options.timeoutMs,
      stores: options.stores ?? null,
      keys: options.keys ?? null,
      repeat: options.repeat, // --repeat and --assert
      assert: options.assert ?? [],
      ...workloadSettings(options),
      workers: options.workers,
      appWorkers: app ? options.appWorkers : null,
      engine: options.direct ? 'direct' : options.engine,
      pipeline: options.pipeline, // --pipeline, direct mode
      ...(options.probeSize ? { probeSize: options.probeSize } : {}), // --probe-size
      // The emulated network, where this run set up the stores (its app, or --direct).
      ...(storeDelayOf(options, env) ? { storeDelay: storeDelayOf(options, env) } : {}),
      ...partSettings(options),
    };
    // Several workers cannot read their writes back soundly (driver/sweep.js says why).
    if (settings.verify && !canVerify(settings.workers, options.workload.mix)) settings.verify = false;
    const system = systemInfo({ target: label, engine: settings.engine });
    // What a Result keeps of a URL is for showing: a password in it never leaves the driver.
    // A target the user named (every --url, a store of --stores): a step of it with no success fails the run.
    const named = (target) => options.urls.length > 0 || Boolean(options.stores?.includes(target.store));
    const shown = new Map(targets.map((target) => [target, {
      url: redactUrl(target.url),
      store: target.store,
      key: target.key,
      named: named(target),
      ...(target.servers ? { servers: target.servers } : {}),
    }]));
    const shownTargets = [...shown.values()];
    const levels = (options.rps ?? options.concurrency).length;
    const totalSteps = targets.length * levels * settings.repeat;
    const estimateLoad = estimateLoadSeconds(settings, targets.map((target) => target.store));
    const estimateSeconds = estimateRunSeconds({ settings, targets: targets.length, levels, load: estimateLoad });
    onProgress({
      type: 'start', settings, system, targets: shownTargets, skipped, totalSteps, estimateSeconds, estimateLoad,
    });

    if (options.probe) {
      prober = await startProber({ timeoutMs: options.timeoutMs });
      // Over HTTP the probe GETs what the steps read: the target's key, or a key-space store's first record.
      for (const target of targets) {
        target.probeTarget ??= { kind: 'http', url: options.keySpace ? `${target.url.replace(/\/+$/, '')}/${keyOf(0)}` : target.url };
      }
    }
    let order = [];
    let control = null;
    const barrier = startBarrier(options, targets, sweepSignal);
    try {
      ({ order, control } = await runSweep(targets, settings, {
        ...(stores ? directSweep(stores) : { engine: httpEngineNamed(settings.engine) }),
        machine: tierMonitor(options, resolved),
        probe: prober,
        signal: sweepSignal,
        workload: options.keySpace ? workloadSpec(options) : null,
        token,
        present: (target) => shown.get(target),
        emit: (event) => {
          keep(event);
          onProgress(event);
        },
        beforeSteps: barrier.wait,
      }));
    } catch (error) {
      if (!(error instanceof StepAborted)) throw error;
      interrupted = true;
    }
    if (interrupted) order = orderOf(steps);
    // Before the app is stopped (finally, below): its peak RSS is read from its /proc entry.
    const peakRss = await measurePeakRss(app);
    const result = createResult({
      interrupted,
      appExit,
      settings,
      system,
      targets: shownTargets,
      skipped,
      order,
      steps,
      control,
      appWarmup,
      loads,
      verifications,
      peakRss,
    });
    return barrier.start ? { ...result, start: barrier.start } : result;
  } finally {
    stopping = true;
    await prober?.close();
    await app?.stop();
    await stores?.close(); // direct mode: the stores, then the servers it started
  }
}

// What the sweep runs in direct mode instead of HTTP requests: the engine, load and
// verification that call the stores opened in this process.
const directSweep = (stores) => ({
  engine: directEngine,
  loadRecords: (args) => loadRecordsDirect({ ...args, stores }),
  verifyWrites: (args) => verifyWritesDirect({ ...args, stores }),
});

/**
 * The machine monitor of a run, with its tiers (driver/tier-plan.js): the embedded app's tree, a
 * loopback target's listener's or a target's /metrics, and the servers behind the swept stores,
 * from the app's /stores listing or (--direct) the stores this process opened. A --url has no
 * listing: no server is known, and only the processes its app started that listen (servers)
 * are told from the app (driver/tier-plan.js).
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

// What a run's workload was, as its Result's settings say (no token: it never leaves the driver).
function workloadSettings(options) {
  const keySpace = Boolean(options.keySpace);
  return {
    workload: options.workload?.name ?? 'read',
    mix: Object.fromEntries((options.workload?.mix ?? [{ operation: 'read', share: 1 }])
      .map(({ operation, share }) => [operation, share])),
    records: keySpace ? options.records : null,
    valueSizeMin: keySpace ? options.valueSize.min : null,
    valueSizeMax: keySpace ? options.valueSize.max : null,
    distribution: keySpace ? distributionName(options.distribution) : null,
    seed: keySpace ? options.seed : null,
    load: keySpace && options.load,
    verify: keySpace && options.verify,
    valueShape: (keySpace && options.valueShape) || 'bytes',
  };
}

// What runSweep needs to make each target's workload.
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
 * The failure a finished Result still stands for, or null: the embedded app died mid-sweep,
 * a store read back written values different from what it acknowledged (VERIFY_FAILED), a
 * store named with --stores could not be swept (one line per store), or nothing was up to
 * sweep. Each exits 1, after the finished steps were printed and written. An interrupted run
 * (Ctrl-C) is none of these.
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

// Steps of a target the user named (targets[].named: by --url or --stores) in which no request
// succeeded. Stores swept only because a listing had them do not fail the run: their failed
// rows say why.
function failedNamedSteps(result) {
  const named = new Set(result.targets.filter((target) => target.named).map((target) => target.url));
  return result.steps.filter((step) => named.has(step.url) && failedStep(step));
}

// The order a run's finished steps ran in, when the sweep stopped before it could say.
function orderOf(steps) {
  const rounds = [];
  for (const step of steps) {
    const round = rounds.at(-1);
    if (round && round.load === loadOf(step) && round.repeat === step.repeat) round.urls.push(step.url);
    else rounds.push({ load: loadOf(step), repeat: step.repeat, urls: [step.url] });
  }
  return rounds;
}
