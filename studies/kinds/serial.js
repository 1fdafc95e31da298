// The `serial` kind (client-libraries, study 001): scripts of store operations one at a time
// through the direct engine, each timed first operation to last. Its scenario fields:
//   groups: [{ id, server, stores: [name] }]   clients compared on one server, one after another
//   labels: { [store]: 'column label' }
// and its scale settings:
//   iterations: { [script]: n }                 how often each script repeats its round
//   bigValueBytes: n                            serial_put_big's value
//   repeats: { [script]: n }                    how often each script is timed (default 1); its
//                                               figures are the median of those times
//   note: '...'
import { measureStep, StepAborted } from '../../driver/step.js';
import { directEngine } from '../../driver/engines/direct.js';
import { eachLimited } from '../../stores/bulk.js';
import { createStoreFailures, failedOperations } from '../store-failures.js';
import { median } from '../../util/stats.js';
import { createOpSource } from '../op-source.js';
import { openDirectStores } from '../direct-stores.js';
import { createDirectSteps } from '../direct-result.js';
import { planScripts, SCRIPT_NAMES, keys, STUDY, APPENDS_PER_KEY } from '../sequences/client-libraries.js';

// A store call may take long for the big value (hundreds of MB over one connection).
const OP_TIMEOUT_MS = 10 * 60_000;

const appendKeysOf = (ops) => [...new Set(ops.filter((op) => op.op === 'append').map((op) => op.key))];

/** Runs one script one operation at a time: { ms, operations, failed, byStatus, cpuPercent, step }. */
export async function runScript(store, ops, { nativeAppend, signal, measure = (run) => run() }) {
  const source = createOpSource(ops, { basePath: '', nativeAppend });
  const step = await measure(() => measureStep(directEngine, {
    url: 'direct:',
    store,
    concurrency: 1,
    maxRequests: ops.length,
    timeoutMs: OP_TIMEOUT_MS,
    workload: source,
    signal,
  }));
  const { failed, byStatus } = source.outcomes();
  return { ms: source.elapsedMs(), operations: ops.length, failed, byStatus, cpuPercent: step.cpuPercent, step };
}

// Each value's size read back, so a read-modify-write that lost bytes shows here.
async function verify(store, iterations, bigValueBytes) {
  const expected = [
    [keys.small('L', 0), STUDY.smallSetBytes],
    [keys.large(0), STUDY.largeValueBytes],
    [keys.big(0), bigValueBytes],
    [keys.appended(0), STUDY.smallGetBytes],
    [keys.appendA('L', 0), Math.min(APPENDS_PER_KEY, iterations.serial_put_large) * STUDY.appendBytes],
  ];
  const wrong = [];
  for (const [key, size] of expected) {
    const value = await store.get(key);
    if (value?.length !== size) wrong.push(`${key} holds ${value ? `${value.length} B` : 'nothing'}, not ${size} B`);
  }
  return wrong;
}

/** The median ms and CPU of a script's times that had no failed operation. */
export function medianOfTimes(times) {
  const clean = times.filter((time) => !time.failed);
  return {
    ms: median(clean.map((time) => time.ms)),
    cpuPercent: median(clean.map((time) => time.cpuPercent)),
    operations: times[0].operations,
    failed: times.length - clean.length,
    failedTimes: times.filter((time) => time.failed),
    steps: times.map((time) => time.step),
  };
}

/** Every script for one store, in the study's order, between cleanings. */
export async function runClient(store, adapter, plan, {
  iterations, bigValueBytes, repeats = {}, signal, onScript = () => {}, measure,
}) {
  const nativeAppend = adapter.writes.append;
  const remove = () => eachLimited(plan.keys, 16, (key) => store.delete(key));
  await remove();
  const scripts = {};
  try {
    for (const { name, ops } of plan.scripts) {
      const times = [];
      const count = repeats[name] ?? 1;
      for (let repeat = 1; repeat <= count && !signal?.aborted; repeat += 1) {
        // Appends extend an existing empty value, so native and read-modify-write do the same work.
        for (const key of appendKeysOf(ops)) await store.set(key, Buffer.alloc(0));
        if (name === 'get_random' && repeat === 1) {
          for (const { key, size } of plan.prepare) await store.set(key, Buffer.alloc(size, 'storebench-'));
        }
        onScript(name, ops.length, repeat, count);
        try {
          times.push(await runScript(store, ops, {
            nativeAppend, signal, measure: measure && ((run) => measure(name, run, repeat)),
          }));
        } catch (error) {
          if (error instanceof StepAborted) break; // Ctrl-C: the times done are kept
          throw error;
        }
      }
      if (times.length) scripts[name] = medianOfTimes(times);
      if (signal?.aborted) break;
    }
    const wrong = signal?.aborted ? [] : await verify(store, iterations, bigValueBytes);
    return { scripts, wrong, nativeAppend };
  } finally {
    await remove().catch(() => {});
  }
}

// A client whose store has no append is marked: its appends are read-modify-write.
const labelOf = (scenario, name, nativeAppend) => `${scenario.labels?.[name] ?? name}${nativeAppend ? '' : '*'}`;

function tableOf({ id, title, unit, figure }, columns, runs, indexOf) {
  const figureOf = (script, column) => {
    const result = runs.get(column)?.scripts[script];
    return result && result.failed === 0 ? figure(result) : null;
  };
  const cells = Object.fromEntries(SCRIPT_NAMES.map((script) =>
    [script, Object.fromEntries(columns.map(({ id: column }) => [column, figureOf(script, column)]))]));
  const stepsOf = (script) => columns.flatMap(({ id: column }) => runs.get(column)?.scripts[script]?.steps ?? []);
  const sources = Object.fromEntries(SCRIPT_NAMES.map((script) => [script, stepsOf(script).map(indexOf)]));
  return {
    id,
    title,
    rowHeader: 'script',
    rows: [...SCRIPT_NAMES],
    columns: columns.map((column) => ({ ...column, unit })),
    cells,
    sources,
  };
}

export function subset(scenario, scale, uses) {
  const groups = scenario.groups
    .map((group) => ({ ...group, stores: group.stores.filter((store) => uses.includes(store)) }))
    .filter((group) => group.stores.length);
  return { scenario: { ...scenario, groups }, scale };
}

export async function run(scenario, scale, { signal, onProgress = () => {}, env = process.env, appEnv = {} } = {}) {
  const { notes, failures, fail, unavailable, forStore } = createStoreFailures();
  const runs = new Map();
  const columns = [];
  const emulated = []; // the stores without append
  const iterations = { ...STUDY.iterations, ...scale.iterations };
  const repeats = scale.repeats ?? {};
  const plan = planScripts({ iterations, bigValueBytes: scale.bigValueBytes });
  const allStores = scenario.groups.flatMap((group) => group.stores);
  const total = allStores.length * plan.scripts.reduce((sum, { name }) => sum + (repeats[name] ?? 1), 0);
  let index = 0;
  let steps = null;
  for (const group of scenario.groups) {
    if (signal?.aborted) break;
    const opened = await openDirectStores(group.stores, { env, appEnv, onProgress });
    steps ??= createDirectSteps({ name: scenario.name, stores: allStores, timeoutMs: OP_TIMEOUT_MS });
    steps.addServers(opened.serverUrls);
    try {
      unavailable(opened.unavailable, steps);
      for (const name of group.stores) {
        const entry = opened.stores.get(name);
        if (!entry || signal?.aborted) continue;
        // null: its server failed outside a measured operation (notes say so), or Ctrl-C.
        const result = await forStore(name, steps, () => runClient(entry.store, entry.adapter, plan, {
          iterations,
          bigValueBytes: scale.bigValueBytes,
          repeats,
          signal,
          onScript: (script, operations, repeat, count) => {
            const size = `${operations.toLocaleString('en-US')} operation${operations === 1 ? '' : 's'}`;
            const time = count > 1 ? `; time ${repeat} of ${count}` : '';
            const label = `${name} ${script} (${size}, one at a time${time})`;
            onProgress({ type: 'scenario-step', index: ++index, total, label, concurrency: 1 });
          },
          measure: (script, measured, repeat) => steps.measure(name, script, measured, repeat),
        }));
        if (!result) continue;
        runs.set(name, result);
        columns.push({ id: name, label: labelOf(scenario, name, result.nativeAppend) });
        if (!result.nativeAppend) emulated.push(name);
        for (const [script, outcome] of Object.entries(result.scripts)) {
          for (const time of outcome.failedTimes) fail(failedOperations(`${name} ${script}`, time));
        }
        for (const line of result.wrong) fail(`${name}: read back after the scripts, ${line}`);
      }
    } finally {
      await opened.close();
    }
    notes.push(`${group.stores.join(', ')}: one after another on one ${group.server}`);
  }
  if (emulated.length) {
    notes.push(`* ${emulated.join(', ')}: no append in the store, so each append is a get and then a set ` +
      'of the whole value (read-modify-write), timed as one operation');
  }
  notes.push(`serial_put_big's value: ${scale.bigValueBytes.toLocaleString('en-US')} B ` +
    `(the study's: ${STUDY.bigValueBytes.toLocaleString('en-US')} B)`);
  const timed = SCRIPT_NAMES.filter((script) => (repeats[script] ?? 1) > 1);
  const once = SCRIPT_NAMES.filter((script) => !timed.includes(script));
  if (timed.length) {
    const counts = [...new Set(timed.map((script) => repeats[script]))].join(' or ');
    const others = once.length ? `; ${once.join(', ')} timed once (${scale.repeatsNote ?? 'as the study did'})` : '';
    notes.push(`${timed.join(', ')}: each timed ${counts} times back to back, the median shown (ms and CPU), ` +
      `so that one outlier cannot flip a verdict${others}; every time is a step of the results file`);
  }
  const indexOf = (step) => steps.indexOf(step);
  const which = timed.length === SCRIPT_NAMES.length ? 'each script' : timed.join(', ');
  const ofTimes = timed.length
    ? ` (${which}: the median of ${Math.max(...timed.map((script) => repeats[script]))} times)`
    : '';
  return {
    measured: [
      tableOf({
        id: 'scripts',
        title: `time per script, clients side by side${ofTimes}`,
        unit: 'ms',
        figure: (r) => r.ms,
      }, columns, runs, indexOf),
      tableOf({
        id: 'cpu',
        title: `the driver process's CPU during each script (100% = one core)${ofTimes}`,
        unit: '%',
        figure: (r) => r.cpuPercent,
      }, columns, runs, indexOf),
    ],
    results: steps ? [steps.result({ interrupted: Boolean(signal?.aborted) })] : [],
    notes,
    failures,
  };
}
