// The comparison: for each key and load level, every store's figures side by side and how
// its rps compares with the fastest store's at that same level. Like is compared with like:
// a step's totals with other steps' totals, and, for a workload of several operations, each
// operation with the same operation of the other stores.

const rowOf = (store, figures, warnings) => ({
  store,
  rps: figures.rps,
  meanMs: figures.latency.meanMs,
  p99Ms: figures.latency.p99Ms,
  errors: figures.errors.total,
  ratio: null,
  warnings,
});

/**
 * Groups steps by key, load and operation: [{ key, mode, load, operation, rows: [{store, rps,
 * meanMs, p99Ms, errors, ratio, warnings}] }]; operation null for the steps' totals, and one
 * group per operation besides when the steps mix several. A row's warnings are the codes of
 * its step's warnings, so a report can mark the row.
 */
export function compareStores(steps) {
  const groups = new Map();
  const add = (step, operation, figures) => {
    const load = step.mode === 'open' ? step.targetRps : step.concurrency;
    const id = `${step.key}\u0000${step.mode}\u0000${load}\u0000${operation ?? ''}`;
    if (!groups.has(id)) groups.set(id, { key: step.key, mode: step.mode, load, operation, rows: [] });
    groups.get(id).rows.push(rowOf(step.store, figures, step.warnings.map((warning) => warning.code)));
  };
  for (const step of steps) {
    add(step, null, step);
    if ((step.operations?.length ?? 0) > 1) for (const figures of step.operations) add(step, figures.operation, figures);
  }
  const result = [...groups.values()];
  for (const group of result) {
    const fastest = Math.max(...group.rows.map((row) => row.rps));
    group.rows.sort((a, b) => b.rps - a.rps);
    for (const row of group.rows) row.ratio = fastest > 0 ? row.rps / fastest : null;
  }
  // Keys in the order first seen, then the totals before each operation, then by load level.
  const keyOrder = [...new Set(steps.map((step) => step.key))];
  const operationOrder = [null, ...new Set(steps.flatMap((step) => (step.operations ?? []).map((figures) => figures.operation)))];
  return result.sort((a, b) => keyOrder.indexOf(a.key) - keyOrder.indexOf(b.key) ||
    operationOrder.indexOf(a.operation) - operationOrder.indexOf(b.operation) ||
    a.load - b.load);
}
