// The direct mode's targets: stores opened in this process with the app's own configuration
// resolution, picked and skipped by the same rules as the app's /stores listing.
import { findAdapter, openStores, storeNames } from '../stores/index.js';
import { unknownStoreProblems } from '../config/store-names.js';
import { selectTargets, storeLimitProblems } from './targets.js';
import { redactDeep } from '../util/redact.js';
import { UsageError } from '../util/errors.js';
import { resolveSettings } from '../config/precedence.js';
import { shapedStore } from './workloads/value-shape.js';
import { storeDelaySettings } from '../config/network-delay.js';
import { OPERATIONS } from '../config/workloads.js';

// With a key-space workload the probe reads a key of its own, outside the key space, so it reads
// the same bytes in every phase; under a write-only workload it writes that key.
export const PROBE_KEY = 'storebench-probe';
export const PROBE_VALUE_SIZE = 100;
const writesOnly = (workload) => workload.mix.every(({ operation }) =>
  OPERATIONS[operation]?.writes && operation !== 'read-modify-write');

/** What a direct target is called: direct://redis/key1, or direct://redis for a key-space workload. */
export const directUrl = (store, key) => `direct://${store}${key === undefined ? '' : `/${key}`}`;

const UNDECLARED = { pipelines: false, reason: 'its adapter does not say that its client pipelines' };
const pipeliningOf = (name) => findAdapter(name)?.pipelining ?? UNDECLARED;

/**
 * The stores a direct run opens: options.stores, or every one (under --pipeline N, every one that
 * pipelines). Throws UsageError before anything is opened.
 */
export function directStores({ stores, pipeline = 1 }) {
  const unknown = unknownStoreProblems(stores);
  if (unknown.length) throw new UsageError(unknown);
  if (pipeline <= 1) return stores ?? storeNames;
  if (!stores) return storeNames.filter((name) => pipeliningOf(name).pipelines);
  const refused = stores.filter((name) => !pipeliningOf(name).pipelines);
  const refusal = (name) => `--pipeline ${pipeline}: ${name} cannot pipeline: ${pipeliningOf(name).reason}`;
  if (refused.length) throw new UsageError(refused.map(refusal));
  return stores;
}

const directLabel = (names) => `direct mode: the stores called in this process, no HTTP (${names.join(', ')})`;

/**
 * Opens the stores and picks the targets: { targets, skipped, label, stores }; the caller closes
 * `stores`, which stops the embedded servers too. Rejects with UsageError (nothing left open).
 *
 * @param {object} options  options/normalize.js options
 * @param {{ env?: object, onServer?: Function, onOpened?: Function }} [hooks]
 */
export async function openDirectTargets(options, { env = process.env, onServer, onOpened } = {}) {
  const names = directStores(options);
  const workload = options.keySpace ? options.workload : null;
  // The per-request deadline as the store's operation deadline, unless the environment sets one.
  const explicit = {
    ...(env.STOREBENCH_OP_TIMEOUT_MS ? {} : { opTimeoutMs: options.timeoutMs }),
    ...storeDelaySettings(options.storeDelay),
  };
  const stores = await openStores({ names, env, options: explicit, onServer, onOpened });
  try {
    const listing = redactDeep(await stores.status());
    const { targets, skipped, problems } = selectTargets(listing, null, {
      stores: options.stores,
      keys: options.keys,
      workload,
      label: 'this process (--direct)',
      urlOf: directUrl,
    });
    const largest = workload && options.valueSize?.max;
    problems.push(...storeLimitProblems(listing, targets, largest, 'in this process (--direct)'));
    if (problems.length) throw new UsageError(problems);
    const { settings } = resolveSettings({ options: explicit, env }, ['store']);
    const valueShape = (workload && options.valueShape) || 'bytes';
    if (valueShape !== 'bytes') {
      for (const name of new Set(targets.map((target) => target.store))) {
        stores.wrapStore(name, (store) => shapedStore(store, valueShape));
      }
    }
    for (const target of targets) {
      const { raw, adapter, connections } = stores.entry(target.store);
      // What node test merge checks: machines add up only when they loaded one shared server.
      target.servers = listing.find((store) => store.name === target.store).servers;
      target.engineLoad = workload ? { store: raw } : { store: raw, key: target.key };
      if (options.pipeline > 1) target.engineLoad.pipeline = options.pipeline;
      const own = workload
        ? { key: PROBE_KEY, valueSize: options.probeSize ?? PROBE_VALUE_SIZE, writes: writesOnly(workload) }
        : { key: target.key };
      target.probeTarget = probeTargetOf({ adapter, connections, settings, raw, valueShape, ...own });
    }
    return { targets, skipped, stores, label: directLabel(names) };
  } catch (error) {
    await stores.close();
    throw error;
  }
}

// What --probe sends to a direct target, through its own connection opened in the prober's
// thread; a store with no server (memory) exists only in this thread, so it is probed here.
function probeTargetOf({ adapter, connections, settings, raw, key, valueShape, valueSize, writes = false }) {
  const own = valueSize ? { valueSize, writes } : {};
  if (adapter.needs.length === 0) return { kind: 'main', store: raw, key, ...own };
  return { kind: 'direct', store: adapter.name, key, connections, settings, valueShape, ...own };
}

/** So the machine's load counts the servers behind the opened stores as the run's. */
export const serverUrls = (stores) =>
  [...stores.entries.values()].flatMap((entry) => Object.values(entry.connections ?? {})
    .map((connection) => connection.serverUrl ?? connection.url)
    .filter((url) => typeof url === 'string'));
