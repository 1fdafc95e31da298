// A run set against the last saved run of the same target kind and stores: whether the two can
// be compared (their settings the same, else which differ), and what changed beyond noise by the
// rule of `node test compare` (result/run-comparison.js), with how the stores' order by their own
// time moved (result/summary.js). Pure: the caller finds and reads the saved runs.
import { compareRuns, settingsDiffer } from './run-comparison.js';
import { summarizeRun } from './summary.js';
import { median } from '../util/stats.js';

const EMBEDDED = 'app.js started as a child process';

/** What a run swept: 'embedded app.js', 'direct', or the --target/--url it names. */
function targetKind(result) {
  if (result.settings.engine === 'direct') return 'direct';
  if (result.system.target.startsWith(EMBEDDED)) return 'embedded app.js';
  return result.system.target;
}

/** The stores a run swept (its targets'), sorted. */
export const storesOf = (result) => [...new Set(result.targets.map((target) => target.store))].sort();
const keysOf = (result) => [...new Set(result.targets.map((target) => target.key))].sort();

/** Whether `earlier` is a run of the same kind of target and the same stores as `run`. */
const sameTargets = (earlier, run) => targetKind(earlier) === targetKind(run) &&
  JSON.stringify(storesOf(earlier)) === JSON.stringify(storesOf(run));

/** The settings (the keys among them) two runs differ in, as `node test compare` words them. */
function runSettingsDiffer(earlier, run) {
  const lines = settingsDiffer(earlier, run);
  const [a, b] = [keysOf(earlier), keysOf(run)];
  if (JSON.stringify(a) !== JSON.stringify(b)) lines.push(`keys: ${a.join(',')} vs ${b.join(',')}`);
  return lines;
}

// Each key's stores and their rank by store time (or rps) in the summary, to say who moved.
function ranksOf(result) {
  return new Map(summarizeRun(result).keys.map((key) => [key.key, new Map(key.stores
    .filter((entry) => !entry.failed)
    .map((entry) => [entry.store, key.by === 'store-time' ? entry.storeRank : entry.rank]))]));
}

/**
 * The saved runs to set `run` against, from `saved` (newest first): `last`, the newest of the
 * same targets and settings, and `differing`, a newer one of the same targets whose settings
 * differ (never compared, only named). Either may be null.
 */
export function pickLast(saved, run) {
  const same = saved.filter((earlier) => sameTargets(earlier, run));
  const last = same.find((earlier) => !runSettingsDiffer(earlier, run).length) ?? null;
  const newer = last ? same.slice(0, same.indexOf(last)) : same;
  return { last, differing: newer[0] ?? null };
}

/**
 * `run` against the saved runs pickLast chose: { last, differing }, each null or, for `last`,
 * { date, compared, judged, beyond, changes, moves }: the steps compared, those with repeats on
 * both sides (the only ones noise can be judged on), the figures beyond noise (largest first),
 * the rps changes' range (low, median, high) and the stores whose summary rank moved; for
 * `differing`, { date, settings } (the settings that differ, as node test compare words them).
 * null when there is neither.
 */
export function againstLast(run, { last = null, differing = null } = {}) {
  if (!last && !differing) return null;
  return {
    last: last ? changesSince(last, run) : null,
    differing: differing ? { date: differing.system.date, settings: runSettingsDiffer(differing, run) } : null,
  };
}

function changesSince(last, run) {
  const comparison = compareRuns(last, run);
  const beyond = comparison.rows.flatMap((row) => row.figures
    .filter((figure) => figure.withinNoise === false)
    .map((figure) => ({
      store: row.store,
      key: row.key,
      model: row.model,
      load: row.load,
      name: figure.name,
      changePercent: figure.changePercent,
    })))
    .sort((x, y) => Math.abs(y.changePercent ?? 0) - Math.abs(x.changePercent ?? 0));
  const rpsChanges = comparison.rows
    .map((row) => row.figures.find((figure) => figure.name === 'rps').changePercent)
    .filter((change) => change !== null);
  const changes = rpsChanges.length
    ? { low: Math.min(...rpsChanges), median: median(rpsChanges), high: Math.max(...rpsChanges) }
    : null;
  const [before, now] = [ranksOf(last), ranksOf(run)];
  const moves = [];
  for (const [key, ranks] of now) {
    for (const [store, rank] of ranks) {
      const was = before.get(key)?.get(store);
      if (was !== undefined && was !== rank) moves.push({ key, store, from: was, to: rank });
    }
  }
  return {
    date: last.system.date,
    compared: comparison.rows.length,
    judged: comparison.rows.filter((row) => row.repeats[0] > 1 && row.repeats[1] > 1).length,
    beyond,
    changes,
    moves,
  };
}
