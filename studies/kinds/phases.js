// The `phases` kind (study 002, cluster-vs-document): a store loaded, then written and read in
// phases at several concurrencies, probed idle and under load. Servers are kept across a store's
// phases, so a phase reads what the ones before it wrote.
// Its scenario fields:
//   stores: [name]                       measured one after another, every phase on one before the next
//   phaseOrder: [phase id]               the order the phases run in (default: as listed)
//   absentStores: { [name]: reason }     the study's stores that cannot run here: a row each, no figures
// and its scale settings:
//   phases: [{ id, label, options, memory? }]  options as run() takes them (the kind
//           adds --direct --probe --stores <store>); memory: { fill, bytes }, this phase writes
//           `bytes` into Redis servers this run started, with no maxmemory and each node held
//           to its share of bytes / fill by the operating system (1.25: the study's 30 GB into
//           24 GB), so that a node that runs out is killed as the study's was
//   clusterNodeTimeoutMs: a Redis Cluster's cluster-node-timeout during that phase
//   tarantoolMemtxMb: memtx memory of an embedded Tarantool (its default is 64 MB)
//   note: '...'
// A counter-run's `system` may hold memoryFill and serverCpu: { cores, phases? }.
// Tables: `phases` (a row per phase and store, the best step) and `steps` (every step, so the
// best is never the only one kept).
import { normalizeOptions, run as runOnce } from '../../index.js';
import { commandLine, concatResults } from '../results.js';
import { findAdapter } from '../../stores/index.js';
import { services } from '../../config/services.js';
import { settings as settingDefinitions } from '../../config/settings.js';
import { resolveService } from '../../embedded/resolve-service.js';
import { eachLimited } from '../../stores/bulk.js';
import { keyOf } from '../../driver/workloads/values.js';
import { PROBE_KEY } from '../../driver/direct-targets.js';
import { openDirectStores } from '../direct-stores.js';
import { UsageError } from '../../util/errors.js';
import { redactText } from '../../util/redact.js';
import { limitRedisMemory, limitServersCpu } from '../server-limits.js';
import { NOISE_BATCH } from '../../driver/probe/sampler.js';

export const PHASE_COLUMNS = [
  { id: 'ops', label: 'throughput', unit: 'ops/s' },
  { id: 'meanMs', label: 'mean under load', unit: 'ms' },
  { id: 'probeIdleMs', label: 'probe idle', unit: 'ms' },
  { id: 'probeLoadMs', label: 'probe under load', unit: 'ms' },
  { id: 'concurrency', label: 'best at c', unit: '' },
  { id: 'serverBound', label: 'server the limit', unit: '' },
  { id: 'errors', label: 'errors (phase)', unit: '' },
  { id: 'requests', label: 'requests (phase)', unit: '' },
];
const STEP_COLUMNS = [
  { id: 'ops', label: 'throughput', unit: 'ops/s' },
  { id: 'meanMs', label: 'mean', unit: 'ms' },
  { id: 'probeLoadMs', label: 'probe under load', unit: 'ms' },
  { id: 'serverBound', label: 'server the limit', unit: '' },
  { id: 'serverCpu', label: 'server CPU', unit: '%' },
  { id: 'errors', label: 'errors', unit: '' },
];

export const phaseRow = (phase, store) => `${phase.label} / ${store}`;

const mean = (probe) => (typeof probe?.meanMs === 'number' ? probe.meanMs : null);
const noise = (probe) => (typeof probe?.noiseMs === 'number' ? probe.noiseMs : null);
// Whether a server was the step's limit (its bottleneck, from the tiers' CPU): 1, 0 for another
// limit, null where the step names none.
const serverBound = (step) => (step?.bottleneck ? Number(step.bottleneck.tier === 'server') : null);
function serverCpu(step) {
  const servers = (step?.tiers?.servers ?? []).filter((server) => server.stores?.includes(step.store));
  if (!servers.length || servers.some((server) => typeof server.cpuPercent !== 'number')) return null;
  return servers.reduce((sum, server) => sum + server.cpuPercent, 0);
}

/** The two tables from the steps each (phase, store) ran: phases (the best step by ops/s) and steps. */
export function phaseTables(ran, {
  phasesTitle = 'each phase at its best concurrency', stepsTitle = 'every step',
} = {}) {
  const table = (id, title, rowHeader, columns) => ({
    id, title, rowHeader, rows: [], columns, cells: {}, sources: {},
  });
  const phases = { ...table('phases', phasesTitle, 'phase / store', PHASE_COLUMNS), noise: {} };
  const all = { ...table('steps', stepsTitle, 'phase / store / concurrency', STEP_COLUMNS), noise: {} };
  for (const { phase, store, steps: ranSteps, first } of ran) {
    const row = phaseRow(phase, store);
    phases.rows.push(row);
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
      serverBound: serverBound(best),
      errors: steps.length ? steps.reduce((sum, step) => sum + step.errors.total, 0) : null,
      requests: steps.length ? steps.reduce((sum, step) => sum + step.requests, 0) : null,
    };
    phases.noise[row] = { probeIdleMs: noise(best?.probe?.idle), probeLoadMs: noise(best?.probe?.underLoad) };
    steps.forEach((step, i) => {
      const stepRow = `${row} c=${step.concurrency}`;
      all.rows.push(stepRow);
      all.sources[stepRow] = typeof first === 'number' ? [indexOf(i)] : [];
      all.cells[stepRow] = {
        ops: step.rps,
        meanMs: step.latency.meanMs,
        probeLoadMs: mean(step.probe?.underLoad),
        serverBound: serverBound(step),
        serverCpu: serverCpu(step),
        errors: step.errors.total,
      };
      all.noise[stepRow] = { probeLoadMs: noise(step.probe?.underLoad) };
    });
  }
  return [phases, all];
}

export function keysTouched(options) {
  if (!options.keySpace) return 0;
  const inserts = options.workload.mix.some(({ operation }) => operation === 'insert');
  const requests = (options.requests ?? 0) * options.concurrency.length + (options.warmup ?? 0);
  return options.records + (inserts ? requests : 0);
}

const locationEnv = (service) => settingDefinitions[services[service].location].env[0];

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

const REMOVE_SLICE = 10_000;

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
 * The merged Result's settings: what differs between phases is null here (each phase's flags are
 * in `runs`), so the first call's workload is not claimed for all.
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

// Said in words: never one machine's result printed as every run's.
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

export function subset(scenario, scale, uses) {
  return { scenario: { ...scenario, stores: scenario.stores.filter((store) => uses.includes(store)) }, scale };
}

// Each phase in the scenario's order, with the options it runs with. The study's phases insert a
// counted number of records: no control step, no warm-up windows, whose inserts would go past the
// key range the next phase reads.
function planPhases(scenario, scale) {
  const order = scenario.phaseOrder ?? scale.phases.map((phase) => phase.id);
  return order.map((id) => {
    const phase = scale.phases.find((candidate) => candidate.id === id);
    const given = { ...phase.options, direct: true, probe: true, noControl: true, warmupMax: 0 };
    const { options, problems } = normalizeOptions(given);
    if (problems.length) {
      throw new UsageError(problems.map((problem) => `scenario ${scenario.name}, phase ${phase.id}: ${problem}`));
    }
    return { phase, given, options };
  });
}

// The system a phase runs on, each change noted: its store's servers held to a CPU share (in the
// phases the counter-run names), and Redis's memory limited where the phase says.
async function limitPhase(store, servers, phase, { system, scale, scenario, notes }) {
  const cpu = system.serverCpu && (!system.serverCpu.phases || system.serverCpu.phases.includes(phase.id))
    ? await limitServersCpu(store, servers, system.serverCpu.cores)
    : null;
  if (cpu) notes.push(...cpu.notes.map((note) => `phase ${phase.id}: ${note}`));
  const memory = phase.memory
    ? await limitRedisMemory(store, servers, { ...phase.memory, fill: system.memoryFill ?? phase.memory.fill },
      { nodeTimeoutMs: scale.clusterNodeTimeoutMs ?? scenario.clusterNodeTimeoutMs })
    : null;
  if (memory) notes.push(...memory.notes.map((note) => `phase ${phase.id}: ${note}`));
  return { cpu, memory };
}

// The rows as the tables show them: by phase in the scale's order, then by store, with an empty
// row for each store the scenario names as absent.
function rowsInOrder(ran, scenario, scale) {
  const shownOrder = scale.phases.map((phase) => phase.id);
  const absent = Object.keys(scenario.absentStores ?? {});
  const shownStores = [...scenario.stores, ...absent];
  const rows = [...ran];
  for (const phase of scale.phases) for (const store of absent) rows.push({ phase, store, steps: null });
  return rows.sort((a, b) => shownOrder.indexOf(a.phase.id) - shownOrder.indexOf(b.phase.id) ||
    shownStores.indexOf(a.store) - shownStores.indexOf(b.store));
}

// Every phase's Result in one, with the settings they share.
function mergedResult(results, scenario, signal) {
  const merged = results.length ? concatResults(results) : null;
  if (merged) merged.settings = phasesSettings(merged.settings, scenario, merged.steps);
  if (merged && signal?.aborted) merged.interrupted = true;
  return merged;
}

const PROBE_NOISE_NOTE = 'the probe\'s noise: each probe mean is measured with its own, two standard errors by ' +
  `batch means (the spread of the means of its answers in batches of ${NOISE_BATCH}), in the results file as ` +
  'each table\'s noise; two probe means no further apart than their noises together are too small to judge here';

export async function run(scenario, scale, {
  signal, onProgress = () => {}, env = process.env, system = {},
} = {}) {
  const planned = planPhases(scenario, scale);
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
    // A server the OS killed ends its store's phases: a later phase would read a server not there.
    let stopped = null;
    try {
      for (const { phase, given, options } of planned) {
        if (signal?.aborted || results.at(-1)?.interrupted) break;
        if (stopped) {
          ran.push({ phase, store, steps: null });
          notes.push(`${store}, phase ${phase.id}: not run, ${stopped}`);
          continue;
        }
        const { cpu, memory } = await limitPhase(store, servers, phase, { system, scale, scenario, notes });
        index += 1;
        onProgress({
          type: 'scenario-step',
          run: phase.id,
          label: `${phase.label} on ${store}`,
          concurrency: options.concurrency.join(','),
          index,
          total,
        });
        let result;
        try {
          result = await runOnce({ ...given, stores: [store], seed: options.seed }, { signal, env: servers.env });
        } finally {
          await cpu?.release();
          // The limit is lifted after the phase from the nodes still running.
          const outcome = await memory?.after();
          if (outcome) notes.push(...outcome.notes.map((note) => `phase ${phase.id}: ${note}`));
          if (outcome?.dead.length) stopped = `its server lost ${outcome.dead.length} node(s) in phase ${phase.id}`;
        }
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
  const merged = mergedResult(results, scenario, signal);
  const measured = phaseTables(rowsInOrder(ran, scenario, scale), scale.titles ?? scenario.titles);
  notes.push(PROBE_NOISE_NOTE);
  const faster = probeFasterUnderLoad(measured[0]);
  if (faster) notes.push(faster);
  return {
    measured,
    results: merged ? [merged] : [],
    runs: planned.map(({ phase }) => ({ id: phase.id, label: phase.label, flags: commandLine(phase.options) })),
    notes,
  };
}
