// The `phases` kind: a study that loaded a store, then wrote and read it in phases, each phase
// at several concurrencies, with a single-request prober measuring response time idle and under
// load (study 002, cluster-vs-document). Ordinary runBenchmark calls in direct mode with
// --probe, one per store and phase; the stores' servers are started (or found) once per store
// and kept across its phases, so that a phase reads what the phases before it wrote.
// Its scenario fields:
//   stores: [name]                       measured one after another, every phase on one before the next
//   phaseOrder: [phase id]               the order the phases run in (default: as listed)
//   absentStores: { [name]: reason }     the study's stores that cannot run here: a row each, no figures
// and its scale settings:
//   phases: [{ id, label, flags, maxmemory? }]  flags as on node test's command line (the kind
//           adds --direct --probe --stores <store>); maxmemory: a size, this phase and the ones
//           after it run with that cap on every Redis server this run started (never on a
//           configured one); or { fill, bytes }, this phase alone, with a cap it overfills (capRedis)
//   tarantoolMemtxMb: memtx memory of an embedded Tarantool (its default is 64 MB)
//   note: '...'
// It builds two tables: `phases` (a row per phase and store: the best step's ops/s, its mean
// latency, the probe's mean idle and under that step's load, the phase's errors, and of them
// the failures: all but writes refused at a memory cap) and `steps`
// (every step's figures, so the best is never the only one kept).
import { createClient } from 'redis';
import { normalizeOptions } from '../../options.js';
import { runBenchmark } from '../../run.js';
import { flagsToOptions, flagsText, concatResults } from '../results.js';
import { findAdapter } from '../../../stores/index.js';
import { services } from '../../../config/services.js';
import { settings as settingDefinitions } from '../../../config/settings.js';
import { resolveService } from '../../../embedded/resolve-service.js';
import { eachLimited } from '../../../stores/bulk.js';
import { keyOf } from '../../workloads/values.js';
import { PROBE_KEY } from '../../direct-targets.js';
import { formatFigure } from '../../../result/scenarios/verdicts.js';
import { openDirectStores } from '../direct-stores.js';
import { UsageError } from '../../../util/errors.js';
import { redactText } from '../../../util/redact.js';

export const PHASE_COLUMNS = [
  { id: 'ops', label: 'throughput', unit: 'ops/s' },
  { id: 'meanMs', label: 'mean under load', unit: 'ms' },
  { id: 'probeIdleMs', label: 'probe idle', unit: 'ms' },
  { id: 'probeLoadMs', label: 'probe under load', unit: 'ms' },
  { id: 'concurrency', label: 'best at c', unit: '' },
  { id: 'errors', label: 'errors (phase)', unit: '' },
  { id: 'failures', label: 'failures (phase)', unit: '' },
];
const STEP_COLUMNS = [
  { id: 'ops', label: 'throughput', unit: 'ops/s' },
  { id: 'meanMs', label: 'mean', unit: 'ms' },
  { id: 'probeLoadMs', label: 'probe under load', unit: 'ms' },
  { id: 'errors', label: 'errors', unit: '' },
];

export const phaseRow = (phase, store) => `${phase.label} / ${store}`;

// A write refused because the server is at its memory cap ("OOM command not allowed when used
// memory > 'maxmemory'"): what a phase that overfills the cap sets out to cause, not the server
// failing. Every other error (timeouts, connections refused or lost, a failover's MOVED storms)
// is a failure.
const MEMORY_REFUSAL = /\bOOM\b/;
const failuresOf = (step) => step.errors.total - Object.entries(step.errors.byKind ?? {})
  .filter(([kind]) => MEMORY_REFUSAL.test(kind))
  .reduce((sum, [, n]) => sum + n, 0);
const mean = (probe) => (typeof probe?.meanMs === 'number' ? probe.meanMs : null);

/**
 * The two tables from the steps each (phase, store) ran: phases (the best step by ops/s) and
 * steps (all of them). `ran`: [{ phase, store, steps, first }] in the order to show, first the
 * index of its first step in the Result's steps (each table's `sources` then names a row's steps).
 */
export function phaseTables(ran, {
  phasesTitle = 'each phase at its best concurrency', stepsTitle = 'every step',
} = {}) {
  const table = (id, title, rowHeader, columns) => ({
    id, title, rowHeader, rows: [], columns, cells: {}, sources: {},
  });
  const phases = table('phases', phasesTitle, 'phase / store', PHASE_COLUMNS);
  const all = table('steps', stepsTitle, 'phase / store / concurrency', STEP_COLUMNS);
  for (const { phase, store, steps: ranSteps, first } of ran) {
    const row = phaseRow(phase, store);
    phases.rows.push(row);
    // The phase row's errors sum all its steps, so all of them are behind it.
    const indexOf = (i) => first + i;
    phases.sources[row] = typeof first === 'number' ? (ranSteps ?? []).map((_, i) => indexOf(i)) : [];
    const steps = ranSteps ?? []; // a store that cannot run here: its row holds no figure
    const best = steps.reduce((top, step) => (top === null || step.rps > top.rps ? step : top), null);
    phases.cells[row] = {
      ops: best?.rps ?? null,
      meanMs: best?.latency.meanMs ?? null,
      probeIdleMs: mean(best?.probe?.idle),
      probeLoadMs: mean(best?.probe?.underLoad),
      concurrency: best?.concurrency ?? null,
      errors: steps.length ? steps.reduce((sum, step) => sum + step.errors.total, 0) : null,
      failures: steps.length ? steps.reduce((sum, step) => sum + failuresOf(step), 0) : null,
    };
    steps.forEach((step, i) => {
      const stepRow = `${row} c=${step.concurrency}`;
      all.rows.push(stepRow);
      all.sources[stepRow] = typeof first === 'number' ? [indexOf(i)] : [];
      all.cells[stepRow] = {
        ops: step.rps,
        meanMs: step.latency.meanMs,
        probeLoadMs: mean(step.probe?.underLoad),
        errors: step.errors.total,
      };
    });
  }
  return [phases, all];
}

/** How many keys a phase can touch: its key space, plus every insert past it (warm-up included). */
export function keysTouched(options) {
  if (!options.keySpace) return 0;
  const inserts = options.workload.mix.some(({ operation }) => operation === 'insert');
  const requests = (options.requests ?? 0) * options.concurrency.length + (options.warmup ?? 0);
  return options.records + (inserts ? requests : 0);
}

// The environment variable that locates a service (REDIS_CLUSTER_URLS for redis-cluster).
const locationEnv = (service) => settingDefinitions[services[service].location].env[0];

// The servers a store needs, each found as the app would (configured first) or started here once.
async function serversFor(store, env) {
  const adapter = findAdapter(store);
  const started = [];
  const configured = [];
  const located = {};
  const problems = [];
  for (const service of adapter.needs) {
    const resolved = await resolveService(service, { env });
    if (resolved.unavailable) {
      problems.push(resolved.unavailable);
      continue;
    }
    located[locationEnv(service)] = resolved.connection.url;
    (resolved.stop ? started : configured).push({ service, url: resolved.connection.url, stop: resolved.stop });
  }
  const stop = () => Promise.allSettled(started.map((server) => server.stop()));
  return { env: { ...env, ...located }, started, configured, problems, stop };
}

// CONFIG SET maxmemory on every node of the Redis servers this run started (noeviction, Redis's
// default: a write past the cap fails with OOM, and counts as an error, instead of the process
// being killed). A configured server is someone else's: it is left as it is.
// maxmemory is a size for every node (0: none), or { fill, bytes }: the phase writes `bytes`, `fill` times
// the room the cap leaves (the study's 30 GB into 24 GB: 1.25), whatever the scale. The room is
// shared by the masters, which split the keys; each node's cap is what it holds already plus
// its share, so the data the earlier phases left and the server's own memory count as used.
async function capRedis(servers, maxmemory) {
  const capped = [];
  const redis = servers.started.filter(({ service }) => service === 'redis' || service === 'redis-cluster');
  for (const { service, url } of redis) {
    const clients = [];
    try {
      for (const node of url.split(',')) {
        const client = createClient({ url: node });
        client.on('error', () => {});
        clients.push(client);
        await client.connect();
      }
      const infos = await Promise.all(clients.map(async (client) =>
        String(await client.sendCommand(['INFO', 'memory'])) +
        String(await client.sendCommand(['INFO', 'replication']))));
      const field = (info, name) => info.match(new RegExp(`^${name}:(\\S+)`, 'm'))?.[1];
      const masters = infos.filter((info) => field(info, 'role') === 'master').length || 1;
      const caps = infos.map((info) => (typeof maxmemory === 'object'
        ? Number(field(info, 'used_memory')) + Math.ceil(maxmemory.bytes / maxmemory.fill / masters)
        : maxmemory));
      for (const [i, client] of clients.entries()) {
        await client.sendCommand(['CONFIG', 'SET', 'maxmemory', String(caps[i]), 'maxmemory-policy', 'noeviction']);
      }
      capped.push({ service, caps });
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
    }
  }
  return capped;
}

// What capRedis did, in words for the notes.
function capNote(store, phase, capped) {
  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const what = capped.map(({ service, caps }) => (typeof phase.maxmemory === 'object'
    ? `${caps.map(mb).join(', ')} on the ${caps.length} node(s) of the ${service} server`
    : `${phase.maxmemory} on each node of the ${service} server`)).join(' and ');
  const why = typeof phase.maxmemory === 'object'
    ? `: what each node held plus its share of ${mb(phase.maxmemory.bytes / phase.maxmemory.fill)}, ` +
      `so phase ${phase.id}'s ${mb(phase.maxmemory.bytes)} of values is ${phase.maxmemory.fill}x the room ` +
      '(the study\'s 30 GB into 24 GB)'
    : '';
  const when = typeof phase.maxmemory === 'object'
    ? `during phase ${phase.id} (lifted after it)`
    : `from phase ${phase.id} on`;
  return `${store}: maxmemory (noeviction) ${what} this run started, ${when}${why}`;
}

// A probe sample is one awaited call timed with the high-resolution clock; what that timing
// adds and how much it varies with nothing to wait for is the floor under any probe figure.
// Measured idle (no load running): the spread (p99 - p50) of many timings of an awaited no-op.
// Ten times that spread is where a difference of two probe means starts to say something.
export const PROBE_RESOLUTION_FACTOR = 10;
const TIMER_SAMPLES = 20_000;

/** The timer's noise in ms: p99 less p50 of timings of an awaited no-op, one after another. */
export async function timerNoiseMs(samples = TIMER_SAMPLES) {
  const timings = new Float64Array(samples);
  const noop = async () => undefined;
  for (let i = 0; i < samples; i += 1) {
    const start = process.hrtime.bigint();
    await noop();
    timings[i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  timings.sort();
  return timings[Math.floor(samples * 0.99)] - timings[Math.floor(samples * 0.5)];
}

const REMOVE_SLICE = 10_000;

// The keys a store was given, removed from a server that outlives the run (a configured one).
async function removeKeys(store, env, count) {
  const opened = await openDirectStores([store], { env });
  try {
    const entry = opened.stores.get(store);
    if (!entry) return;
    // In slices, so millions of keys (--scale full) are never one array.
    for (let from = 0; from < count; from += REMOVE_SLICE) {
      const keys = Array.from({ length: Math.min(REMOVE_SLICE, count - from) }, (_, i) => keyOf(from + i));
      await eachLimited(keys, 64, (key) => entry.store.delete(key));
    }
    await entry.store.delete(PROBE_KEY); // the probe's own key (driver/direct-targets.js)
  } finally {
    await opened.close();
  }
}

/**
 * The merged Result's settings: the first call's would claim its phase's workload, records and
 * sizes for all. What differs between phases is null here (each phase's flags are in the
 * scenario record's `runs`); the mix is the operations' shares of every request sent.
 */
export function phasesSettings(first, scenario, steps) {
  const counts = {};
  for (const step of steps) {
    for (const { operation, requests } of step.operations) counts[operation] = (counts[operation] ?? 0) + requests;
  }
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return {
    ...first,
    concurrency: [...new Set(steps.map((step) => step.concurrency))],
    requests: null,
    warmup: 0,
    stores: scenario.stores,
    workload: `scenario ${scenario.name}`,
    mix: Object.fromEntries(Object.entries(counts).map(([operation, n]) => [operation, n / total])),
    records: null,
    valueSizeMin: null,
    valueSizeMax: null,
    distribution: null,
    seed: null,
  };
}

// What this run measured of the probe under load against idle, in words: never one machine's
// result printed as every run's.
function probeFasterUnderLoad(phases) {
  const rows = phases.rows.filter((row) =>
    typeof phases.cells[row].probeLoadMs === 'number' && typeof phases.cells[row].probeIdleMs === 'number');
  const below = rows.filter((row) => phases.cells[row].probeLoadMs < phases.cells[row].probeIdleMs);
  if (!below.length) return null;
  return `in this run the probe's mean under load came out below its idle mean in ${below.length} of ` +
    `${rows.length} phase rows (${below.slice(0, 3).join(', ')}${below.length > 3 ? ', ...' : ''}): ` +
    'the probe does not queue behind the driver\'s own requests, ' +
    'and a busy server does not sleep between them (docs/scenarios.md)';
}

// The scenario cut down to the stores in `uses`: every phase of each (a phase reads what the ones before it wrote).
export function subset(scenario, scale, uses) {
  return { scenario: { ...scenario, stores: scenario.stores.filter((store) => uses.includes(store)) }, scale };
}

export async function run(scenario, scale, { signal, onProgress = () => {}, env = process.env } = {}) {
  const order = scenario.phaseOrder ?? scale.phases.map((phase) => phase.id);
  const planned = order.map((id) => {
    const phase = scale.phases.find((candidate) => candidate.id === id);
    // The study's phases insert a counted number of records: no control step and no steady-state
    // warm-up windows, whose inserts would go past the key range the next phase reads.
    const flags = { ...phase.flags, direct: true, probe: true, control: false, 'warmup-max': 0 };
    const { options, problems } = normalizeOptions(flagsToOptions(flags));
    if (problems.length) {
      throw new UsageError(problems.map((problem) => `scenario ${scenario.name}, phase ${phase.id}: ${problem}`));
    }
    return { phase, options };
  });
  const touched = Math.max(...planned.map(({ options }) => keysTouched(options)));
  const serverEnv = scale.tarantoolMemtxMb
    ? { ...env, STOREBENCH_TARANTOOL_MEMTX_MB: String(scale.tarantoolMemtxMb) }
    : env;
  const notes = [];
  const results = [];
  const ran = [];
  const total = scenario.stores.length * planned.length;
  let index = 0;
  for (const store of scenario.stores) {
    if (signal?.aborted || results.at(-1)?.interrupted) break;
    onProgress({ type: 'stores-opening', stores: [store] });
    const servers = await serversFor(store, serverEnv);
    if (servers.problems.length) {
      notes.push(redactText(`${store} did not run: ${servers.problems.join('; ')}`));
      for (const { phase } of planned) ran.push({ phase, store, steps: null }); // its rows, with no figure
      continue;
    }
    try {
      for (const { phase, options } of planned) {
        if (signal?.aborted || results.at(-1)?.interrupted) break;
        if (phase.maxmemory) {
          const capped = await capRedis(servers, phase.maxmemory);
          if (capped.length) notes.push(capNote(store, phase, capped));
          else if (servers.configured.some(({ service }) => service.startsWith('redis'))) {
            notes.push(`${store}: no maxmemory set (its Redis is a configured server, not one this run started)`);
          }
        }
        index += 1;
        onProgress({
          type: 'scenario-step',
          run: phase.id,
          label: `${phase.label} on ${store}`,
          concurrency: options.concurrency.join(','),
          index,
          total,
        });
        const result = await runBenchmark({ ...options, stores: [store], env: servers.env, quiet: true }, { signal });
        // A cap sized to overfill one phase is lifted after it: the phases after read what it
        // stored, and opening the store again writes its seed keys, which a full server refuses.
        if (typeof phase.maxmemory === 'object') await capRedis(servers, 0);
        const first = results.reduce((count, earlier) => count + earlier.steps.length, 0);
        results.push(result);
        ran.push({ phase, store, steps: result.steps, first });
        for (const skip of result.skipped) {
          if (skip.store !== store) continue;
          notes.push(redactText(`${store}, phase ${phase.id}: ${skip.status}${skip.reason ? `: ${skip.reason}` : ''}`));
        }
      }
    } finally {
      if (servers.configured.length) {
        await removeKeys(store, servers.env, touched).catch((error) =>
          notes.push(redactText(`${store}: its keys could not all be removed: ${error.message}`)));
      }
      await servers.stop();
    }
  }
  // Shown phase by phase in the study's order, whatever order they ran in.
  const shownOrder = scale.phases.map((phase) => phase.id);
  const absent = Object.keys(scenario.absentStores ?? {});
  const shownStores = [...scenario.stores, ...absent];
  for (const phase of scale.phases) for (const store of absent) ran.push({ phase, store, steps: null });
  const byPhase = [...ran].sort((a, b) => shownOrder.indexOf(a.phase.id) - shownOrder.indexOf(b.phase.id) ||
    shownStores.indexOf(a.store) - shownStores.indexOf(b.store));
  const merged = results.length ? concatResults(results) : null;
  if (merged) merged.settings = phasesSettings(merged.settings, scenario, merged.steps);
  if (merged && signal?.aborted) merged.interrupted = true;
  const measured = phaseTables(byPhase, scale.titles ?? scenario.titles);
  // The probe's resolution: two probe means closer than it are "too small to judge here".
  const noise = await timerNoiseMs();
  const resolution = PROBE_RESOLUTION_FACTOR * noise;
  for (const table of measured) {
    const probeColumns = table.columns.filter((column) => column.id.startsWith('probe'));
    table.resolution = Object.fromEntries(probeColumns.map((column) => [column.id, resolution]));
  }
  notes.push(`the probe's resolution here: ${formatFigure(resolution)} ms, ${PROBE_RESOLUTION_FACTOR}x the timer's ` +
    `noise measured idle in this process (${formatFigure(noise)} ms: the spread, p99 less p50, of ` +
    `${TIMER_SAMPLES.toLocaleString('en-US')} timings of an awaited no-op); ` +
    'two probe means closer than that are too small to judge here');
  const faster = probeFasterUnderLoad(measured[0]);
  if (faster) notes.push(faster);
  return {
    measured,
    results: merged ? [merged] : [],
    runs: planned.map(({ phase }) => ({ id: phase.id, label: phase.label, flags: flagsText(phase.flags) })),
    notes,
  };
}
