// node test merge: results files from drivers that ran at once on different machines against one
// target, added into one Result, each machine's figures kept beside the total. Files whose steps
// measured different things are refused, naming the field.
import { addSteps, withoutSums } from './add-steps.js';
import { createResult } from './result.js';
import { honestyWarnings } from './honesty.js';
import { MergeError } from '../util/errors.js';
import { WARNING_CODES } from './warnings.js';
import { RESULT_FIELDS } from './fields.js';
import { checkParts, mergeStarts } from './merge-parts.js';

// Settings that may differ between drivers: the seed, the thresholds (checked after the run), the
// worker threads (--workers auto differs with cores), and the part (checked in merge-parts.js).
const FREE_SETTINGS = new Set(['seed', 'assert', 'workers', 'part']);
// Warnings about one machine (its CPU, its neighbours) stay with that machine's name; the
// others are recomputed from the totals.
const MACHINE_WARNINGS = new Set(['DRIVER_CPU', 'CPU_STEAL', 'BUSY_MACHINE']);

const SETTINGS = RESULT_FIELDS
  .filter((field) => field.path.startsWith('settings.'))
  .map((field) => field.path.slice('settings.'.length));
const shown = (value) => JSON.stringify(value);

export function stepIdentity(step) {
  // A part's step (--part) is a share of the run's level, which is what the parts have in common.
  const level = (own) => step.runLoad ?? own;
  const load = step.model === 'open' ? `rps ${level(step.targetRps)}` : `concurrency ${level(step.concurrency)}`;
  const workload = step.workload ? ` ${step.workload}` : '';
  return `${step.store} ${step.key}${workload} ${step.model} ${load} repeat ${step.repeat} ${step.mode}`;
}

function firstDifference(a, b, fields, prefix) {
  for (const name of fields) {
    if (shown(a[name]) !== shown(b[name])) {
      return `${prefix}${name} (${shown(a[name])} in one, ${shown(b[name])} in the other)`;
    }
  }
  return null;
}

function refuse(files, what) {
  throw new MergeError(`cannot merge ${files.join(' and ')}: they differ in ${what}`);
}

function matchSteps(inputs, { parts = false } = {}) {
  const [first, ...others] = inputs;
  for (const other of others) {
    const files = [first.file, other.file];
    const [target, otherTarget] = [first.result.system.target, other.result.system.target];
    if (target !== otherTarget) refuse(files, `target (${shown(target)} vs ${shown(otherTarget)})`);
    // Drivers started by hand each shuffle their own order; the parts of one run share the run's.
    const free = (name) => FREE_SETTINGS.has(name) || (!parts && name === 'orderSeed');
    const compared = SETTINGS.filter((name) => !free(name));
    const settings = firstDifference(first.result.settings, other.result.settings, compared, 'settings.');
    if (settings) refuse(files, settings);
  }
  const groups = new Map();
  for (const [index, { file, result }] of inputs.entries()) {
    for (const step of result.steps) {
      const identity = stepIdentity(step);
      if (!groups.has(identity)) {
        if (index > 0) refuse([first.file, file], `steps: ${file} has "${identity}", ${first.file} has not`);
        groups.set(identity, []);
      }
      const group = groups.get(identity);
      if (group.length > index) refuse([file], `steps: "${identity}" appears twice in ${file}`);
      group.push({ file, hostname: result.system.hostname, step });
    }
  }
  for (const [identity, group] of groups) {
    if (group.length < inputs.length) {
      const missing = inputs[group.length].file;
      refuse([first.file, missing], `steps: ${first.file} has "${identity}", ${missing} has not`);
    }
    for (const { file, step } of group.slice(1)) {
      // Each part's -n is its own share of the run's.
      const fields = ['url', 'workload', 'mode', ...(parts ? [] : ['maxRequests']), 'durationSeconds'];
      const differs = firstDifference(group[0].step, step, fields, '');
      if (differs) refuse([group[0].file, file], `"${identity}": ${differs}`);
    }
  }
  return groups;
}

// One run given twice (same host, same step starts): adding it to itself would double every count.
function refuseSameRun(inputs) {
  const starts = ({ result }) => JSON.stringify(result.steps.map((step) => step.startedAt));
  for (const [index, one] of inputs.entries()) {
    for (const other of inputs.slice(index + 1)) {
      const partOf = ({ result }) => result.settings.part?.index ?? null;
      if (partOf(one) !== partOf(other)) continue; // checkParts refused any part given twice
      if (one.result.system.hostname === other.result.system.hostname && starts(one) === starts(other)) {
        throw new MergeError(`cannot merge ${one.file} and ${other.file}: they are the same run ` +
          `(host ${one.result.system.hostname}, every step started at the same moment), ` +
          'and adding a run to itself doubles its rps');
      }
    }
  }
}

const LOOPBACK = /:\/\/(\[::1\]|localhost|127\.)/i;

// --direct steps add up only when every driver reached one shared server: an in-process store,
// embedded servers or separate servers mean a sum no store ever saw, refused.
function refuseSeparateServers(inputs, groups) {
  const results = new Map(inputs.map(({ file, result }) => [file, result]));
  for (const [identity, group] of groups) {
    if (group[0].step.mode !== 'direct') continue;
    const parts = group.map(({ file, hostname, step }) => {
      const { targets } = results.get(file);
      const target = targets.find((entry) => entry.url === step.url) ??
        targets.find((entry) => entry.store === step.store);
      return { file, hostname, servers: target?.servers };
    });
    const files = [group[0].file, group[1].file];
    const why = (text) => new MergeError(`cannot merge ${files.join(' and ')}: "${identity}" ran in --direct mode, ` +
      `${text}; their sum is no load one server saw (docs/merge.md)`);
    const unrecorded = parts.find(({ servers }) => !servers);
    if (unrecorded) {
      throw why(`and ${unrecorded.file} does not say which server it reached (written before storebench recorded it)`);
    }
    const addresses = parts.map(({ servers }) => Object.values(servers));
    if (!addresses[0].length) throw why(`and ${group[0].step.store} lives inside each driver's own process`);
    if (addresses.flat().some((address) => address.startsWith('embedded:'))) {
      throw why('and each driver started its own embedded server');
    }
    const shown = JSON.stringify(parts[0].servers);
    const other = parts.find(({ servers }) => JSON.stringify(servers) !== shown);
    if (other) {
      throw new MergeError(`cannot merge ${group[0].file} and ${other.file}: they differ in the servers ` +
        `"${identity}" reached (${shown} in one, ${JSON.stringify(other.servers)} in the other)`);
    }
    const severalHosts = new Set(parts.map(({ hostname }) => hostname)).size > 1;
    if (severalHosts && addresses.flat().some((address) => LOOPBACK.test(address))) {
      throw why('and its server is at a loopback address, which is each machine\'s own');
    }
  }
}

// NO_OVERLAP: the latest start came after the earliest finish (a clock off, a driver late).
function overlapWarning(group) {
  const latestStart = Math.max(...group.map(({ step }) => Date.parse(step.startedAt)));
  const earliestFinish = Math.min(...group.map(({ step }) => Date.parse(step.finishedAt)));
  if (latestStart < earliestFinish) return [];
  const gapSeconds = (latestStart - earliestFinish) / 1000;
  const files = group.map(({ file }) => file);
  if (!WARNING_CODES.NO_OVERLAP) throw new TypeError('unregistered warning code NO_OVERLAP');
  return [{
    code: 'NO_OVERLAP',
    message: `the drivers did not run this step at the same time (${gapSeconds.toFixed(3)} s from the earliest ` +
      'finish to the latest start): the merged rps is not a load the target saw at once; check their clocks (NTP)',
    data: { files, gapSeconds },
  }];
}

const worst = (group, read) => {
  const values = group.map(read).filter((value) => value !== null);
  return values.length ? Math.max(...values) : null;
};

function mergeStep(group, { pipeline } = {}) {
  const steps = group.map(({ step }) => step);
  const [first] = steps;
  const figures = withoutSums(addSteps(steps));
  const merged = {
    ...figures,
    url: first.url,
    store: first.store,
    key: first.key,
    ...(first.framework ? { framework: first.framework } : {}),
    workload: first.workload,
    repeat: first.repeat,
    // The machine figures of the busiest machine: what most deserves a look.
    machine: {
      stealPercent: worst(steps, (step) => step.machine.stealPercent),
      othersCpuPercent: worst(steps, (step) => step.machine.othersCpuPercent),
      treeCpuPercent: worst(steps, (step) => step.machine.treeCpuPercent),
      loadAverage: worst(steps, (step) => step.machine.loadAverage),
      ...(steps.some((step) => Number.isFinite(step.machine.cpuWaitPercent))
        ? { cpuWaitPercent: worst(steps, (step) => step.machine.cpuWaitPercent ?? null) }
        : {}),
    },
    // Each prober keeps percentiles without histograms to add: they stay in its own file.
    probe: null,
    workers: null,
    warmup: null,
    machines: group.map(({ file, hostname, step }) => ({
      hostname,
      file,
      requests: step.requests,
      responses: step.responses,
      rps: step.rps,
      latency: { meanMs: step.latency.meanMs, p50Ms: step.latency.p50Ms, p99Ms: step.latency.p99Ms },
      errors: { total: step.errors.total },
      cpuPercent: step.cpuPercent,
      startedAt: step.startedAt,
      finishedAt: step.finishedAt,
    })),
  };
  const ownWarnings = group.flatMap(({ hostname, step }) => step.warnings
    .filter((warning) => MACHINE_WARNINGS.has(warning.code))
    .map((warning) => ({ ...warning, message: `${hostname}: ${warning.message}` })));
  const totals = honestyWarnings({ ...merged, cpuPercent: 0, workers: null }, { pipeline });
  merged.warnings = [...totals, ...ownWarnings, ...overlapWarning(group)];
  return merged;
}

/** Merges `inputs` ([{ file, result }], at least two) into one Result; throws MergeError (exit 2). */
export function mergeResults(inputs) {
  if (inputs.length < 2) throw new MergeError('merge needs at least two results files');
  const parts = checkParts(inputs);
  const groups = matchSteps(inputs, { parts });
  refuseSameRun(inputs);
  refuseSeparateServers(inputs, groups);
  const [{ result: first }] = inputs;
  const { part: _part, ...settings } = first.settings;
  const steps = [...groups.values()].map((group) => mergeStep(group, settings));
  const skippedByStore = new Map(inputs.flatMap(({ result }) => result.skipped).map((skip) => [skip.store, skip]));
  const skipped = [...skippedByStore.values()];
  const hostnames = [...new Set(inputs.map(({ result }) => result.system.hostname))];
  // Two runs from one host ran on the same CPUs: each host's cores count once.
  const cpusByHost = new Map(inputs.map(({ result }) => [result.system.hostname, result.system.cpuCount]));
  const start = mergeStarts(inputs);
  const result = createResult({
    interrupted: inputs.some(({ result }) => result.interrupted),
    appExit: inputs.map(({ result }) => result.appExit).find(Boolean) ?? null,
    settings,
    system: {
      ...first.system,
      cpuCount: [...cpusByHost.values()].reduce((sum, count) => sum + count, 0),
      date: inputs.map(({ result }) => result.system.date).sort()[0],
      hostname: hostnames.join(' + '),
    },
    targets: first.targets,
    skipped,
    steps,
    loads: inputs.flatMap(({ result }) => result.loads),
    verifications: inputs.flatMap(({ result }) => result.verifications),
    merged: inputs.map(({ file, result: { system } }) => ({
      file, hostname: system.hostname, date: system.date, cpuModel: system.cpuModel, cpuCount: system.cpuCount,
    })),
  });
  return start ? { ...result, start } : result;
}
