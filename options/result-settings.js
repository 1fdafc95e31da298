// The Result's `settings` (result/fields.js) from a run's normalized options: what the run was
// asked to do, every default already applied, decided before it starts. normalizeOptions attaches
// it as options.settings; driver/run.js records it as it is. No token: it never leaves the driver.
import { steadyMaxSeconds } from '../config/run-defaults.js';
import { canVerify } from '../config/workloads.js';
import { distributionName } from './workload.js';
import { effectiveStoreDelay } from '../config/network-delay.js';
import { randomSeed } from '../util/random.js';

// --part and --start-at.
function partSettings(options) {
  return {
    ...(options.part ? { part: { index: options.part.index, count: options.part.count } } : {}),
    ...(options.startAt ? { startAt: options.startAt.toISOString() } : {}),
  };
}

/** Whether the run starts its own app.js: not with --url, --target or --direct. */
const startsApp = (options) => !options.urls?.length && !options.target && !options.direct;

function workloadSettings(options) {
  const keySpace = Boolean(options.keySpace);
  const verify = keySpace && options.verify;
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
    // Several workers cannot read their writes back soundly (driver/sweep.js says why).
    verify: verify && canVerify(options.workers, options.workload.mix),
    valueShape: (keySpace && options.valueShape) || 'bytes',
  };
}

export function resultSettings(options, env = process.env) {
  // The emulated network, only when the run sets up the stores itself.
  const storeDelay = options.urls?.length || options.target ? null : effectiveStoreDelay(options.storeDelay, env);
  return Object.freeze({
    concurrency: options.rps ? null : options.concurrency,
    rps: options.rps ?? null,
    requests: options.requests ?? null,
    duration: options.duration ?? null,
    warmup: options.warmup,
    warmupMaxSeconds: steadyMaxSeconds(options),
    order: options.order,
    control: options.control !== false,
    // --part: the run's seed, so every part runs the same order.
    orderSeed: options.orderSeed ?? options.seed ?? randomSeed(),
    keepAlive: options.keepAlive,
    timeoutMs: options.timeoutMs,
    stores: options.stores ?? null,
    keys: options.keys ?? null,
    repeat: options.repeat, // --repeat and --assert
    assert: options.assert ?? [],
    ...workloadSettings(options),
    workers: options.workers,
    appWorkers: startsApp(options) ? options.appWorkers : null,
    framework: startsApp(options) ? options.framework : null, // --framework: what serves the app it starts
    ...(options.profile ? { profile: true } : {}), // --profile
    engine: options.direct ? 'direct' : options.engine,
    engineChoice: options.direct ? 'default' : options.engineChoice ?? 'default',
    pipeline: options.pipeline, // --pipeline, direct mode
    ...(options.probeSize ? { probeSize: options.probeSize } : {}), // --probe-size
    ...(storeDelay ? { storeDelay } : {}),
    ...partSettings(options),
  });
}
