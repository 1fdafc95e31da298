// The `batch` kind (redis-vs-memory, study 003): a method's operations all started at once
// through the direct engine, timed first to last settled, as the study timed `await Promise.all`.
// Its scenario fields:
//   stores: [name]                 measured one after another, in this order
//   labels: { [store]: 'row label prefix' }
// and its scale settings:
//   counts: [n, n, n]              users per run, one column each (the study's 1,000 / 10,000 / 100,000)
//   repeats: n                     how often each store runs the four methods at each count
//                                  (default 1); a cell is the median of its times, so one
//                                  outlier cannot flip a verdict
//   note: '...'
import { measureStep, StepAborted } from '../../driver/step.js';
import { directEngine } from '../../driver/engines/direct.js';
import { eachLimited } from '../../stores/bulk.js';
import { createStoreFailures, failedOperations } from '../store-failures.js';
import { median } from '../../util/stats.js';
import { createOpSource } from '../op-source.js';
import { openDirectStores } from '../direct-stores.js';
import { createDirectSteps } from '../direct-result.js';
import { METHODS, UPDATE_METHODS, STUDY_COUNTS, methodOps, usersOf, keysOf } from '../sequences/redis-vs-memory.js';

// The order the study ran them in: each method's reads find what the one before it wrote;
// each update (ours) right after the gets of its layout, on the keys they read.
const RUN_ORDER = ['set para', 'get para', 'update own key', 'set once', 'get once', 'update in one key'];
const OP_TIMEOUT_MS = 120_000;
// Users of an untimed first pass over each store, so no measured count pays for a connection's
// first use or unoptimised code (the study had no such pass).
export const WARM_UP_USERS = 100;

// The key listing study 003 timed before its gets of a key each (KEYS user_* on Redis, the
// cache's keys matched by a pattern): the store's own one-call listing, where it has one.
export const LISTED_PREFIX = 'user_';

/** Runs ops all at once against store; resolves to { ms, operations, failed, byStatus, step }. */
export async function runAtOnce(store, ops, { signal, measure = (run) => run() } = {}) {
  const source = createOpSource(ops, { basePath: '' });
  const step = await measure(() => measureStep(directEngine, {
    url: 'direct:',
    store,
    concurrency: ops.length,
    maxRequests: ops.length,
    timeoutMs: OP_TIMEOUT_MS,
    workload: source,
    signal,
  }));
  const { failed, byStatus } = source.outcomes();
  return { ms: source.elapsedMs(), operations: ops.length, failed, byStatus, step };
}

/** The four methods over `count` users on one store, in the study's order, keys cleared around them. */
export async function runMethods(store, count, { signal, onMethod = () => {}, measure } = {}) {
  const users = usersOf(count);
  const remove = () => eachLimited(keysOf(count), 64, (key) => store.delete(key));
  await remove();
  const byMethod = {};
  try {
    for (const method of RUN_ORDER) {
      if (signal?.aborted) break;
      const listing = method === 'get para' && store.keys ? await timedListing(store) : null;
      const ops = methodOps(method, users, listing ? { keys: listing.keys } : {});
      onMethod(method, ops.length);
      try {
        const outcome = await runAtOnce(store, ops, { signal, measure: measure && ((run) => measure(method, run)) });
        byMethod[method] = listing
          ? { ...outcome, ms: outcome.ms === null ? null : outcome.ms + listing.ms, listingMs: listing.ms }
          : outcome;
      } catch (error) {
        if (error instanceof StepAborted) break; // Ctrl-C: the methods done are kept
        throw error;
      }
    }
  } finally {
    await remove().catch(() => {});
  }
  return byMethod;
}

async function timedListing(store) {
  const started = process.hrtime.bigint();
  const keys = await store.keys(LISTED_PREFIX);
  return { keys, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

// A store that does nothing: the direct engine's own cost, the floor under every "para" figure.
const NOTHING = Buffer.alloc(0);
const FLOOR_TRIES = 3;
export const noopStore = { get: async () => NOTHING, set: async () => {} };

/** Column i: our count, and the study's count it stands beside when they differ. */
export function columnsOf(counts) {
  return counts.map((count, i) => {
    const published = STUDY_COUNTS[i];
    const theirs = published !== count ? ` (published: ${published.toLocaleString('en-US')})` : '';
    const label = `${count.toLocaleString('en-US')} users${theirs}`;
    return { id: `c${i + 1}`, label, unit: 'ms' };
  });
}

export function rowsOf(stores, labels) {
  return stores.flatMap((store) =>
    [...METHODS, ...UPDATE_METHODS].map((method) => `${labels?.[store] ?? store} ${method}`));
}

export function subset(scenario, scale, uses) {
  return { scenario: { ...scenario, stores: scenario.stores.filter((store) => uses.includes(store)) }, scale };
}

// One count's figures: each row's median over the repeats, none where a repeat failed (which is
// reported), and the time its key listing took where it lists keys.
function recordCount(times, { count, column, cells, listings, fail }) {
  for (const [row, outcomes] of Object.entries(times)) {
    const failed = outcomes.filter((outcome) => outcome.failed);
    for (const outcome of failed) fail(failedOperations(`${row}, ${count} users`, outcome));
    if (!failed.length) cells[row][column] = median(outcomes.map((outcome) => outcome.ms));
    const listed = outcomes.filter((outcome) => typeof outcome.listingMs === 'number');
    if (listed.length) listings[row] = { count, ms: median(listed.map((outcome) => outcome.listingMs)) };
  }
}

const listingNotes = (listings) => {
  const listed = Object.entries(listings);
  if (!listed.length) return [];
  return ['get para includes the key listing, timed before the gets of the keys it found, as the study\'s ' +
    `code did (KEYS ${LISTED_PREFIX}* on Redis, the Map's keys in memory): ` +
    listed.map(([row, { count, ms }]) =>
      `${row} ${Number(ms.toPrecision(2)).toLocaleString('en-US')} ms of it at ${count.toLocaleString('en-US')}`)
      .join(', ')];
};

// The direct engine's own cost of operations all at once, the floor under every para figure: the
// best of FLOOR_TRIES on a store that does nothing, at each count.
async function engineFloorNotes(counts, { steps, forStore, signal }) {
  const floors = [];
  for (const count of counts) {
    const ops = methodOps('get para', usersOf(count));
    let best = Infinity;
    for (let i = 0; i < FLOOR_TRIES; i += 1) {
      const timed = await forStore('the do-nothing store', steps, () => runAtOnce(noopStore, ops, { signal }));
      best = Math.min(best, timed?.ms ?? Infinity);
    }
    if (Number.isFinite(best)) floors.push(`${best.toPrecision(2)} ms for ${count.toLocaleString('en-US')}`);
  }
  if (!floors.length) return [];
  return ['the direct engine\'s own cost of operations all at once ' +
    `(a deadline timer and a latency record each), the best of ${FLOOR_TRIES} on a store that does nothing: ` +
    `${floors.join(', ')}; every para figure includes it, the memory store's most visibly`];
}

const methodNotes = (repeats) => [
  `each store first ran the methods once over ${WARM_UP_USERS} users, untimed (a warm-up the study did not have)`,
  ...(repeats > 1
    ? [`each figure is the median of ${repeats} times (the stores taking turns, time by time), ` +
      'so that one outlier cannot flip a verdict; the study timed each method once; ' +
      'every time is a step of the results file']
    : []),
];

export async function run(scenario, scale, { signal, onProgress = () => {}, env = process.env, appEnv = {} } = {}) {
  const { notes, failures, fail, unavailable, stopped, forStore } = createStoreFailures();
  const repeats = scale.repeats ?? 1;
  const columns = columnsOf(scale.counts);
  const rows = rowsOf(scenario.stores, scenario.labels);
  const cells = Object.fromEntries(rows.map((row) => [row, Object.fromEntries(columns.map(({ id }) => [id, null]))]));
  const sources = Object.fromEntries(rows.map((row) => [row, []]));
  const opened = await openDirectStores(scenario.stores, { env, appEnv, onProgress });
  const steps = createDirectSteps({
    name: scenario.name, stores: scenario.stores, serverUrls: opened.serverUrls, timeoutMs: OP_TIMEOUT_MS,
  });
  const total = scale.counts.length * repeats * opened.stores.size * RUN_ORDER.length;
  let index = 0;
  const listings = {}; // row -> the median listing time in its get para, at the largest count run
  try {
    unavailable(opened.unavailable, steps);
    for (const [name, entry] of opened.stores) {
      if (!signal?.aborted) await forStore(name, steps, () => runMethods(entry.store, WARM_UP_USERS, { signal }));
    }
    for (const [i, count] of scale.counts.entries()) {
      const times = {}; // row -> the times of its method at this count, one a repeat
      // Repeat by repeat, every store in turn: a spell of noise on the machine falls on all of them.
      for (let repeat = 1; repeat <= repeats; repeat += 1) {
        for (const name of scenario.stores) {
          const entry = opened.stores.get(name);
          if (!entry || stopped.has(name) || signal?.aborted) continue;
          const byMethod = await forStore(name, steps, () => runMethods(entry.store, count, {
            signal,
            onMethod: (method, operations) => {
              const time = repeats > 1 ? `, time ${repeat} of ${repeats}` : '';
              const label = `${name} ${method}, ${count.toLocaleString('en-US')} users${time}`;
              onProgress({ type: 'scenario-step', index: ++index, total, label, concurrency: operations });
            },
            measure: (method, measured) => steps.measure(name, `${method} ${count}`, measured, repeat),
          }));
          if (!byMethod) continue;
          for (const [method, outcome] of Object.entries(byMethod)) {
            const row = `${scenario.labels?.[name] ?? name} ${method}`;
            sources[row].push(steps.indexOf(outcome.step));
            (times[row] ??= []).push(outcome);
          }
        }
      }
      recordCount(times, { count, column: columns[i].id, cells, listings, fail });
    }
    notes.push(...listingNotes(listings));
    if (!signal?.aborted) notes.push(...await engineFloorNotes(scale.counts, { steps, forStore, signal }));
  } finally {
    await opened.close();
  }
  notes.push(...methodNotes(repeats));
  const ofTimes = repeats > 1 ? `, median of ${repeats} times` : '';
  return {
    measured: [{
      id: 'methods',
      title: `set and get of the users, each in its own key at once (para) or all in one key (once)${ofTimes}`,
      rowHeader: 'method',
      rows,
      columns,
      cells,
      sources,
    }],
    results: [steps.result({ interrupted: Boolean(signal?.aborted) })],
    notes,
    failures,
  };
}
