// The comparison: for each key and load level, every store's figures side by side and how
// its rps compares with the fastest store's at that same level.

/**
 * Groups steps by key and load: [{ key, mode, load, rows: [{store, rps, meanMs, p99Ms, errors, ratio, warnings}] }];
 * a row's warnings are the codes of its step's warnings, so a report can mark the row.
 */
export function compareStores(steps) {
  const groups = new Map();
  for (const step of steps) {
    const load = step.mode === 'open' ? step.targetRps : step.concurrency;
    const id = `${step.key}\u0000${step.mode}\u0000${load}`;
    if (!groups.has(id)) groups.set(id, { key: step.key, mode: step.mode, load, rows: [] });
    groups.get(id).rows.push({
      store: step.store,
      rps: step.rps,
      meanMs: step.latency.meanMs,
      p99Ms: step.latency.p99Ms,
      errors: step.errors.total,
      ratio: null,
      warnings: step.warnings.map((warning) => warning.code),
    });
  }
  const result = [...groups.values()];
  for (const group of result) {
    const fastest = Math.max(...group.rows.map((row) => row.rps));
    group.rows.sort((a, b) => b.rps - a.rps);
    for (const row of group.rows) row.ratio = fastest > 0 ? row.rps / fastest : null;
  }
  // Keys in the order first seen, then by load level.
  const keyOrder = [...new Set(steps.map((step) => step.key))];
  return result.sort((a, b) => keyOrder.indexOf(a.key) - keyOrder.indexOf(b.key) || a.load - b.load);
}
