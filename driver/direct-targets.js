// The direct mode's targets (--direct): the stores opened in the driver's own process with
// the app's own configuration resolution (stores/index.js openStores: explicit settings, env,
// VCAP_SERVICES, embedded servers started here), each store that is up x its keys, picked and
// skipped by the very rules an app's /stores listing goes through (targets.js selectTargets),
// read from the same status() the app's /stores answers with.
import { findAdapter, openStores, storeNames, unknownStoreProblems } from '../stores/index.js';
import { selectTargets, storeLimitProblems } from './targets.js';
import { redactDeep } from '../util/redact.js';
import { UsageError } from '../util/errors.js';
import { resolveSettings } from '../config/precedence.js';
import { shapedStore } from './workloads/value-shape.js';
import { storeDelaySettings } from './store-delay.js';
import { OPERATIONS } from './workloads/definitions.js';

// With a key-space workload the probe has a key of its own, out of the key space, holding a
// 100-byte value (--probe-size another): no step writes it, so a read probe reads the same bytes in every phase
// (record 0 is rewritten by a write workload, with that workload's value size). Under a
// workload that only writes, the probe writes that key, as the studies' probing client did.
export const PROBE_KEY = 'storebench-probe';
export const PROBE_VALUE_SIZE = 100;
const writesOnly = (workload) => workload.mix.every(({ operation }) =>
  OPERATIONS[operation]?.writes && operation !== 'read-modify-write');

/** What a direct target is called: direct://redis/key1, or direct://redis for a key-space workload. */
export const directUrl = (store, key) => `direct://${store}${key === undefined ? '' : `/${key}`}`;

/** Whether a store's client pipelines (its adapter's `pipelining`, stores/contract.js): { pipelines, reason }. */
const UNDECLARED = { pipelines: false, reason: 'its adapter does not say that its client pipelines' };
export const pipeliningOf = (name) => findAdapter(name)?.pipelining ?? UNDECLARED;

/**
 * The stores a direct run opens: options.stores, or every store (with --pipeline N, every store
 * whose client pipelines). Throws UsageError for a name no store has, and under --pipeline N
 * for a store whose client does not pipeline, one line each, before anything is opened.
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

/** The Target line of a direct run's header. */
export const directLabel = (names) => `direct mode: the stores called in this process, no HTTP (${names.join(', ')})`;

/**
 * Opens the stores of options.stores (default: all) and picks the targets. Resolves to
 * { targets, skipped, label, stores } where each target also carries `engineLoad` (what the
 * direct engine needs: { store, key } with the adapter's own Store) and `stores` is the
 * StoreSet, which the caller closes (that also stops the embedded servers). Rejects with
 * UsageError for names no store or key has, and under --pipeline N for a store whose client
 * does not pipeline (nothing left open then).
 *
 * @param {object} options  options/normalize.js options (stores, keys, keySpace, workload, valueShape, timeoutMs,
 *   pipeline)
 * @param {{ env?: object, onServer?: Function, onOpened?: Function }} [hooks]
 */
export async function openDirectTargets(options, { env = process.env, onServer, onOpened } = {}) {
  const names = directStores(options);
  const workload = options.keySpace ? options.workload : null;
  // As the driver's embedded app gets: the per-request deadline as the store's operation
  // deadline (for the load phase and the verification; the engine calls the Store itself),
  // unless the environment sets one.
  // --store-rtt and its kin: the network emulated between these stores and their servers.
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
    // --value-shape: the load, the steps, the verification and the probe all store and read
    // each value in that shape (driver/workloads/value-shape.js).
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
      // --pipeline N: every step's and warm-up's callers send N calls at a time (driver/engines/direct.js).
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

// What --probe sends to a direct target (a get of the key the steps read, or for a key-space
// workload a get or set of the probe's own key): through a connection of its own, opened in the
// prober's thread from the same resolved connection and settings; a store with no server to
// connect to (memory) exists only in this thread, so it is probed here (driver/probe/prober.js).
// Another thread opening the store (the prober's, a step worker's) shapes its values by
// `valueShape` as the load does.
function probeTargetOf({ adapter, connections, settings, raw, key, valueShape, valueSize, writes = false }) {
  const own = valueSize ? { valueSize, writes } : {};
  if (adapter.needs.length === 0) return { kind: 'main', store: raw, key, ...own };
  return { kind: 'direct', store: adapter.name, key, connections, settings, valueShape, ...own };
}

/** The URLs of the servers behind the opened stores, so the machine's load counts them as the run's. */
export const serverUrls = (stores) =>
  [...stores.entries.values()].flatMap((entry) => Object.values(entry.connections ?? {})
    .map((connection) => connection.serverUrl ?? connection.url)
    .filter((url) => typeof url === 'string'));
