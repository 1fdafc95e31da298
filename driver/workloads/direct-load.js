// The load phase and the verification in direct mode: the same batches, key space and values as
// over HTTP, through the StoreSet the driver opened instead of the app's routes.
import { runLoadPhase } from './load.js';
import { verifySample } from './verify.js';

// What the app would have answered for a store error, with the store's own words as the detail.
function outcomeOfError(error) {
  const detail = error?.message ?? null;
  if (error?.code === 'VALUE_TOO_LARGE') return { kind: 'http 413', refused: 413, detail };
  if (error?.code === 'STORE_TIMEOUT') return { kind: 'timeout', detail };
  return { kind: `conn ${error?.cause?.code ?? error?.code ?? error?.message}`, detail };
}

/** Loads the workload's records into `store` of `stores`, as loadRecords does. */
export async function loadRecordsDirect({ stores, store, workload, signal, onProgress }) {
  const send = async ({ entries }) => {
    try {
      await stores.writeMany(store, entries);
      return { landed: true };
    } catch (error) {
      return outcomeOfError(error);
    }
  };
  return runLoadPhase({ workload, signal, onProgress, send });
}

export async function verifyWritesDirect({ stores, store, workload, signal }) {
  const { store: guarded } = stores.entry(store);
  const read = async (key) => {
    try {
      const bytes = await guarded.get(key);
      return bytes == null ? { status: 404 } : { status: 200, body: bytes };
    } catch (error) {
      return {
        error: error.code === 'STORE_TIMEOUT' ? 'no answer (timeout)' : `no answer (${error.code ?? error.message})`,
      };
    }
  };
  return verifySample({ store, workload, signal, read });
}
