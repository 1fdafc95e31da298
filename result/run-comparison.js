// node test compare A.json B.json: steps matched by store, key, mode and load (not URL: an
// embedded app gets a new port every run); steps only one run has are listed, never dropped.
// --fail-on-regression PCT: rps down or p99 up by more than PCT % exits 3.
import { groupRepeats, summarizeCell } from './repeat.js';
import { rangesOverlap } from '../util/stats.js';

// The machine's own warnings (steal, other processes), as steps carry them.
export const MACHINE_CODES = new Set(['CPU_STEAL', 'BUSY_MACHINE']);

const COMPARED_FIGURES = [
  { name: 'rps', pick: (summary) => summary.rps, better: 'higher' },
  { name: 'latency.meanMs', pick: (summary) => summary.latency.meanMs, better: 'lower' },
  { name: 'latency.p50Ms', pick: (summary) => summary.latency.p50Ms, better: 'lower' },
  { name: 'latency.p99Ms', pick: (summary) => summary.latency.p99Ms, better: 'lower' },
];

const identity = (cell) => `${cell.store}\u0000${cell.key}\u0000${cell.model}\u0000${cell.load}`;
const cellName = (cell) =>
  `${cell.store} ${cell.key} ${cell.model === 'open' ? `${cell.load} rps` : `concurrency ${cell.load}`}`;

/** The cells of a Result, merged by identity (store, key, model, load), each with its summary. */
function cellsOf(result) {
  const cells = new Map();
  for (const cell of groupRepeats(result.steps)) {
    const id = identity(cell);
    if (cells.has(id)) cells.get(id).steps.push(...cell.steps);
    else cells.set(id, { ...cell, steps: [...cell.steps] });
  }
  for (const cell of cells.values()) cell.summary = summarizeCell(cell);
  return cells;
}

// What each warning was judged on (CPU_STEAL: the steal of the time wanted; of all CPU time in
// files written before it).
const MACHINE_FIGURES = {
  CPU_STEAL: (machine) => machine.stealOfBusyPercent ?? machine.stealPercent,
  BUSY_MACHINE: (machine) => machine.othersCpuPercent,
};

/** A cell's machine warnings: [{ code, steps, of, peak }], empty when none warned. */
function machineWarningsOf(cell) {
  return [...MACHINE_CODES].map((code) => {
    const warned = cell.steps.filter((step) => step.warnings.some((warning) => warning.code === code));
    const figures = warned.map((step) => MACHINE_FIGURES[code](step.machine)).filter(Number.isFinite);
    return { code, steps: warned.length, of: cell.steps.length, peak: figures.length ? Math.max(...figures) : null };
  }).filter((entry) => entry.steps > 0);
}

// Two Results that hold the same steps, timestamps and histograms included, are one run.
const sameRun = (a, b) => a.steps.length > 0 && JSON.stringify(a.steps) === JSON.stringify(b.steps);

// The settings that change what a step measures; orderSeed, assert and the like do not.
const COMPARED_SETTINGS = ['concurrency', 'rps', 'requests', 'duration', 'warmup', 'keepAlive', 'timeoutMs', 'repeat',
  'engine', 'pipeline', 'workload', 'records', 'valueSizeMin', 'valueSizeMax', 'distribution', 'workers', 'storeDelay'];
// Added to the format later: a file without one says nothing about it, so it is not compared.
const LATER_SETTINGS = ['valueShape', 'appWorkers'];
// Files without --engine were sent by loadtest (direct: by neither); without --pipeline, one call at a
// time; without storeDelay, no network was emulated.
const BEFORE = { engine: 'loadtest', pipeline: 1, storeDelay: null };

/** "name: A vs B" for each setting two Results differ in. */
export function settingsDiffer(a, b) {
  const lines = [];
  const valueOf = (run, name) => run.settings[name] ?? BEFORE[name];
  for (const name of [...COMPARED_SETTINGS, ...LATER_SETTINGS]) {
    const [x, y] = [valueOf(a, name), valueOf(b, name)];
    if (LATER_SETTINGS.includes(name) && (x === undefined || y === undefined)) continue;
    if (JSON.stringify(x) !== JSON.stringify(y)) lines.push(`${name}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
  }
  return lines;
}

/**
 * Compares two Results. withinNoise: null with a single run on either side. With ignoreBusy a
 * regression whose step in B carried a machine warning is `ignored`: a busy A can hide a
 * regression but never make one, so only B's warnings excuse it. identical: the same steps.
 */
export function compareRuns(a, b, { failOnRegression = null, ignoreBusy = false } = {}) {
  const cellsA = cellsOf(a);
  const cellsB = cellsOf(b);
  const rows = [];
  const regressions = [];
  const ignored = [];
  for (const [id, cellA] of cellsA) {
    const cellB = cellsB.get(id);
    if (!cellB) continue;
    const machine = { a: machineWarningsOf(cellA), b: machineWarningsOf(cellB) };
    const excused = ignoreBusy && machine.b.length > 0;
    const figures = COMPARED_FIGURES.map((figure) => {
      const [x, y] = [figure.pick(cellA.summary), figure.pick(cellB.summary)];
      const changePercent = x.median === null || y.median === null || x.median === 0
        ? null
        : ((y.median - x.median) / x.median) * 100;
      const judged = cellA.summary.repeats > 1 && cellB.summary.repeats > 1 && x.median !== null && y.median !== null;
      const withinNoise = judged ? rangesOverlap(x, y) : null;
      let regression = false;
      if (failOnRegression !== null && changePercent !== null) {
        if (figure.name === 'rps' && changePercent < -failOnRegression) regression = true;
        if (figure.name === 'latency.p99Ms' && changePercent > failOnRegression) regression = true;
      }
      const counted = { regression: regression && !excused, ignored: regression && excused };
      return { name: figure.name, a: x.median, b: y.median, changePercent, withinNoise, ...counted };
    });
    const repeats = [cellA.summary.repeats, cellB.summary.repeats];
    const row = { store: cellA.store, key: cellA.key, model: cellA.model, load: cellA.load, repeats, machine, figures };
    rows.push(row);
    for (const figure of figures) {
      if (figure.regression) regressions.push({ row, figure });
      if (figure.ignored) ignored.push({ row, figure });
    }
  }
  const onlyA = [...cellsA.keys()].filter((id) => !cellsB.has(id)).map((id) => cellName(cellsA.get(id)));
  const onlyB = [...cellsB.keys()].filter((id) => !cellsA.has(id)).map((id) => cellName(cellsB.get(id)));
  const settings = settingsDiffer(a, b);
  return { rows, onlyA, onlyB, settings, regressions, ignored, failOnRegression, ignoreBusy, identical: sameRun(a, b) };
}
