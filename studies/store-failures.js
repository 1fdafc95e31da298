// What kept a direct-mode kind from measuring a store: a line in the notes and `failures` (exit
// 1), so a cell left empty is always explained.
import { StepAborted } from '../driver/step.js';
import { reasonOf } from '../stores/store-set.js';

/** "N of M operations failed (404: n, ...); its time is not shown" for an outcome of op-source. */
export const failedOperations = (label, { failed, operations, byStatus }) => {
  const statuses = Object.entries(byStatus).map(([status, n]) => `${status}: ${n}`).join(', ');
  return `${label}: ${failed} of ${operations} operations failed (${statuses}); its time is not shown`;
};

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
    unavailable(list, steps) {
      for (const { name, reason } of list) {
        fail(`${name} did not run: ${reason}`);
        steps.skip(name, reason);
      }
    },
    /** Runs `work` for store `name`; a store error (said in the notes) and Ctrl-C resolve to null. */
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
