// What kept a direct-mode kind (batch, serial) from measuring a store: each line goes in the
// notes under the tables and in `failures` (the run exits 1 on any), and the store is skipped
// in the Result, so a cell left empty is always explained.
import { StepAborted } from '../driver/step.js';
import { reasonOf } from '../stores/store-set.js';

/** "N of M operations failed (404: n, ...); its time is not shown" for an outcome of op-source. */
export const failedOperations = (label, { failed, operations, byStatus }) => {
  const statuses = Object.entries(byStatus).map(([status, n]) => `${status}: ${n}`).join(', ');
  return `${label}: ${failed} of ${operations} operations failed (${statuses}); its time is not shown`;
};

/** { notes, failures, fail(line), unavailable(list, steps), forStore(name, steps, work), stopped } */
export function createStoreFailures() {
  const notes = [];
  const failures = [];
  const stopped = new Set(); // stores whose server failed outside a measured operation
  const fail = (line) => {
    notes.push(line);
    failures.push(line);
  };
  return {
    notes,
    failures,
    stopped,
    fail,
    /** The stores openDirectStores could not open ([{ name, reason }]). */
    unavailable(list, steps) {
      for (const { name, reason } of list) {
        fail(`${name} did not run: ${reason}`);
        steps.skip(name, reason);
      }
    },
    /**
     * Runs `work` for store `name`, resolving to what it returns; a store error stops that store
     * (said in the notes, the store skipped in `steps`' Result) and Ctrl-C (StepAborted) both
     * resolve to null.
     */
    async forStore(name, steps, work) {
      try {
        return await work();
      } catch (error) {
        if (error instanceof StepAborted) return null;
        fail(`${name} stopped: ${reasonOf(error)}`);
        steps.skip(name, reasonOf(error));
        stopped.add(name);
        return null;
      }
    },
  };
}
