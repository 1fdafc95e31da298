// The load phase and the verification in direct mode (--direct): the same batches, key space
// and values as over HTTP (load.js, verify.js), written and read through the StoreSet the
// driver opened instead of the app's routes: a batch is one writeMany (the store's setMany in
// chunks, or bounded parallel set()s, as the app's bulk route does), a read-back one get.
// Every call is under the StoreSet's operation deadline (the run's --timeout).
import { runLoadPhase } from './load.js';
import { verifySample } from './verify.js';

// A store error as the load's error kinds name them: what the app would have answered for it,
// with the store's own words as the detail (as the direct engine's steps keep them).
function outcomeOfError(error) {
  const detail = error?.message ?? null;
  if (error?.code === 'VALUE_TOO_LARGE') return { kind: 'http 413', refused: 413, detail };
  if (error?.code === 'STORE_TIMEOUT') return { kind: 'timeout', detail };
  return { kind: `conn ${error?.cause?.code ?? error?.code ?? error?.message}`, detail };
}

/**
 * Loads the workload's records into store `store` of `stores` (a StoreSet). Resolves to the
 * load's figures, as loadRecords does; an abort of `signal` rejects with StepAborted.
 */
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

/** Reads the sample back from store `store` of `stores`: what verifyWrites resolves to. */
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
