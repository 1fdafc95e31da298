// The `sweep` kind: one run() per step against one app.js started here (so a store keeps its data
// and rate window across steps), reading /stores stats around each step (a 429's retries).
// Its scale settings (app, extras and tables may sit in the scenario itself):
// (app, extras and tables may sit in the scenario itself, shared by its scales)
//   app:    { stores: [...], env?: { NAME: value } }  the app and the stores it opens
//   runs:   [{ id, label, options: { requests: 100, concurrency: [5, 10], noKeepalive: true, ... } }]
//           (options.direct: true runs that one in direct mode, the stores opened in this process)
//           options as run() takes them, one call (one step) per
//           key and concurrency: list `keys` for the stats around a call to be one step's
//           env: { NAME: value } the app's environment for this run, over the rest (a run of
//           Cloudant without Lite's limits); runs with the same env share one app, started
//           and stopped around them
//   extras: [{ name, stat }]  per step: the change in the step's store's /stores `stats.<stat>`
//   tables: [table spec]  see studies/tables.js
//   jsonParseTable: { id, title, rowHeader }  also time JSON.parse of key1..key3 in this
//           process, as node test-json does: a table of rows key1..key3, column parseMs
import { normalizeOptions, run as runOnce } from '../../index.js';
import { startAppProcess } from '../../driver/app-process.js';
import { appLaunch } from '../../driver/app-launch.js';
import { buildTable, valueAt } from '../tables.js';
import { UsageError } from '../../util/errors.js';
import { concatResults, commandLine } from '../results.js';
import { payloads } from '../../stores/payloads.js';
import { timeOperation } from '../../driver/json-timing.js';
import { startDelayProxy } from '../../embedded/delay-proxy.js';

async function storeStats(url) {
  const response = await fetch(`${url}/stores`);
  const { stores } = await response.json();
  return Object.fromEntries(stores.map((store) => [store.name, store.stats ?? {}]));
}

function extrasOf(extras, store, before, after) {
  return Object.fromEntries(extras.map(({ name, stat }) => {
    const [a, b] = [valueAt(before[store] ?? {}, stat), valueAt(after[store] ?? {}, stat)];
    return [name, typeof a === 'number' && typeof b === 'number' ? b - a : null];
  }));
}

export const JSON_PARSE_COLUMNS = [{ id: 'parseMs', label: 'parse', unit: 'ms' }];

// Run after the load, with no app running, so the load's processes do not share its CPU.
function jsonParseTable(spec) {
  const rows = Object.keys(payloads);
  const cells = Object.fromEntries(Object.entries(payloads).map(([key, bytes]) => {
    const text = bytes.toString('utf8');
    const timing = timeOperation(() => JSON.parse(text), { warmupMs: 100, batchMs: 10, rounds: 21 });
    return [key, { parseMs: timing.nsPerOp / 1e6 }];
  }));
  return { ...spec, rows, columns: JSON_PARSE_COLUMNS, cells };
}

/** The scale cut down to the runs a conclusion uses: `write` or `write postgres`. */
export function subset(scenario, scale, uses) {
  const used = (entry) => uses.includes(entry.id) || uses.includes(`${entry.id} ${entry.options.stores}`);
  return { scenario, scale: { ...scale, runs: scale.runs.filter(used) } };
}

/**
 * @param {object} scenario  the scenario file
 * @param {object} scale  its scales[scale]
 * @param {{ appEnv?: object, clientDelay?: object|null, signal?: AbortSignal, onProgress?: (event) => void }} context
 *   clientDelay: requests reach the app through a delaying proxy; /stores is read directly
 */
export async function run(scenario, scale, { appEnv = {}, clientDelay = null, signal, onProgress = () => {} } = {}) {
  // A bad scenario file is a usage problem before the app starts.
  const app = scale.app ?? scenario.app;
  const planned = scale.runs.map((entry) => {
    const { options, problems } = normalizeOptions(entry.options);
    if (problems.length) {
      throw new UsageError(problems.map((problem) => `scenario ${scenario.name}, run ${entry.id}: ${problem}`));
    }
    return { entry, options };
  });
  const timeoutMs = Math.max(...planned.map(({ options }) => options.timeoutMs));
  // One app for the runs, its operation deadline the longest of theirs whatever this shell sets.
  const launch = appLaunch({ timeoutMs }, { env: { ...process.env, STOREBENCH_OP_TIMEOUT_MS: '' } });
  const { token } = launch;
  const baseEnv = { ...launch.env, ...app.env, ...appEnv };
  // One app per env group, so a store keeps its data and rate window across the runs sharing it.
  const groups = [];
  for (const item of planned) {
    const key = JSON.stringify(item.entry.env ?? {});
    const group = groups.find((candidate) => candidate.key === key);
    if (group) group.items.push(item);
    else groups.push({ key, env: item.entry.env ?? {}, items: [item] });
  }
  const results = [];
  const records = [];
  const runs = [];
  // One call per URL and concurrency, so the stats read around a call belong to its one step.
  const callsOf = (options) => (options.keys ?? [undefined])
    .flatMap((key) => options.concurrency.map((concurrency) => ({ key, concurrency })));
  const total = planned.reduce((sum, { options }) => sum + callsOf(options).length, 0);
  let index = 0;
  for (const group of groups) {
    if (signal?.aborted || results.at(-1)?.interrupted) break;
    const overHttp = group.items.some(({ options }) => !options.direct);
    if (overHttp) onProgress({ type: 'app-starting', stores: app.stores });
    const server = overHttp ? await startAppProcess({ stores: app.stores, env: { ...baseEnv, ...group.env } }) : null;
    const statsOf = async (options) => (options.direct ? {} : storeStats(server.url));
    let proxy = null;
    try {
      if (server && clientDelay) {
        const { hostname, port } = new URL(server.url);
        proxy = await startDelayProxy({ host: hostname, port: Number(port) }, clientDelay);
      }
      const target = proxy ? `http://${proxy.host}:${proxy.port}` : server?.url;
      for (const { entry, options } of group.items) {
        runs.push({
          id: entry.id, label: entry.label, flags: commandLine(entry.options), ...(entry.env ? { env: entry.env } : {}),
        });
        for (const { key, concurrency } of callsOf(options)) {
          if (signal?.aborted || results.at(-1)?.interrupted) break;
          index += 1;
          const label = key ? `${entry.label} ${key}` : entry.label;
          onProgress({ type: 'scenario-step', run: entry.id, label, concurrency, index, total });
          const before = await statsOf(options);
          const where = options.direct ? {} : { target, token };
          const call = {
            ...entry.options, ...(key ? { keys: [key] } : {}), concurrency: [concurrency], seed: options.seed, ...where,
          };
          const result = await runOnce(call, { signal });
          const after = await statsOf(options);
          results.push(result);
          for (const step of result.steps) {
            const extra = extrasOf(scale.extras ?? scenario.extras ?? [], step.store, before, after);
            records.push({ run: entry.id, step, index: records.length, extra });
          }
        }
      }
    } finally {
      await proxy?.stop();
      await server?.stop();
    }
  }
  // Ctrl-C between two steps leaves no step interrupted: the merged Result says so all the same.
  const merged = results.length ? concatResults(results) : null;
  if (merged && signal?.aborted) merged.interrupted = true;
  const asked = new Set(planned.flatMap(({ options }) => options.stores ?? []));
  const down = new Map();
  for (const skip of results.flatMap((result) => result.skipped)) if (asked.has(skip.store)) down.set(skip.store, skip);
  const failures = [...down.values()].map((skip) =>
    `${skip.store} was ${skip.status}, so it was not measured${skip.reason ? `: ${skip.reason}` : ''}`);
  const jsonSpec = scale.jsonParseTable ?? scenario.jsonParseTable;
  const json = jsonSpec && !signal?.aborted ? [jsonParseTable(jsonSpec)] : [];
  return {
    measured: [...(scale.tables ?? scenario.tables).map((spec) => buildTable(spec, records)), ...json],
    results: merged ? [merged] : [],
    runs,
    notes: failures,
    failures,
  };
}
