// The answer a sweep ends with, as claims drawn from its Result: per key, the stores in order of
// their own time (the comparison's storeRank) with their rps at the level where the stores were
// best told apart, the tier that limited most of its steps, and what would tell them apart
// better where something applies. Every figure is one the comparison already holds, so the
// summary can never say other than the tables above it (report/summary.js renders it).
import { compareStores } from './comparison.js';
import { MACHINE_CODES } from './run-comparison.js';
import { loadOf } from './repeat.js';
import { median } from '../util/stats.js';

// A step or target without `framework` was served by the Express app (files from before --framework).
const DEFAULT_FRAMEWORK = 'express';
export const frameworkOf = (record) => record.framework ?? DEFAULT_FRAMEWORK;

const present = (value) => value !== null && value !== undefined;
const distinct = (rows, pick) => new Set(rows.filter((row) => !row.failed && present(pick(row))).map(pick)).size;

/**
 * The level whose group tells the stores apart best: the most distinct rps ranks, then the
 * most distinct store-time ranks, then the lowest load.
 */
export function bestGroup(groups) {
  const ranked = groups.filter((group) => group.rows.some((row) => !row.failed));
  if (!ranked.length) return groups[0] ?? null;
  const score = (group) => [distinct(group.rows, (row) => row.rank), distinct(group.rows, (row) => row.storeRank)];
  return ranked.reduce((best, group) => {
    const [a, b] = [score(group), score(best)];
    return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]) ? group : best;
  });
}

/** Comparison rows by the rank in use ('store-time' or 'rps'), then by its figure; failed rows last. */
export function orderRows(rows, by) {
  const rankOf = (row) => (by === 'store-time' ? row.storeRank : row.rank);
  const figure = (row) => (by === 'store-time' ? row.storeTime?.p50Ms ?? Infinity : -(row.rps ?? 0));
  return [...rows].sort((a, b) => a.failed - b.failed ||
    (rankOf(a) ?? Infinity) - (rankOf(b) ?? Infinity) || figure(a) - figure(b));
}

/** The tier most steps were limited by: { tier, servers, steps, of }, or null when none was told. */
export function mostLimitedBy(steps) {
  const counts = new Map();
  for (const step of steps) {
    const tier = step.bottleneck?.tier;
    if (tier) counts.set(tier, (counts.get(tier) ?? 0) + 1);
  }
  if (!counts.size) return null;
  const [tier, count] = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  const servers = tier === 'server'
    ? [...new Set(steps.filter((step) => step.bottleneck?.tier === 'server').map((step) => step.bottleneck.server))]
    : [];
  return { tier, servers, steps: count, of: steps.length };
}

const machineBusy = (step) => step.warnings.some((warning) => MACHINE_CODES.has(warning.code));

/** What would tell the stores apart better, where it applies: [{ flag, ... }]. */
function hintsFor(result, steps, limiter, { frameworks }) {
  const hints = [];
  const { settings, system } = result;
  const busy = steps.filter(machineBusy).length;
  const drift = result.control?.warnings?.some((warning) => warning.code === 'DRIFT') ? result.control.drift : null;
  const noisy = busy * 2 >= steps.length && busy > 0;
  if (limiter?.tier === 'app' && settings.appWorkers === 1 && system.cpuCount > 1) {
    hints.push({ flag: '--app-workers auto', limiter });
  }
  // Offered only by a storebench that records frameworks (its steps or settings carry one).
  const knowsFrameworks = present(settings.framework) || steps.some((step) => present(step.framework));
  if (limiter?.tier === 'app' && frameworks.length === 1 && knowsFrameworks) {
    hints.push({ flag: '--framework', limiter, framework: frameworks[0] });
  }
  if (settings.repeat === 1 && (noisy || drift !== null)) {
    hints.push({ flag: '--repeat 3', busy, of: steps.length, drift });
  }
  if (limiter?.tier === 'machine' || (settings.repeat > 1 && noisy)) {
    hints.push({ flag: null, machine: true, busy, of: steps.length, limiter });
  }
  return hints;
}

/** The levels (loads) at which some store's storeRank differs from its rank at `chosen`. */
function rankChanges(groups, chosen) {
  const at = new Map(chosen.rows.map((row) => [row.store, row.storeRank]));
  const moved = (row) => at.has(row.store) && row.storeRank !== at.get(row.store);
  return groups.filter((group) => group !== chosen && group.rows.some(moved)).map((group) => group.load);
}

/** One key's claims from its comparison groups (operation null) and its steps. */
function summarizeKey(key, groups, steps) {
  const chosen = bestGroup(groups);
  const by = chosen.rows.some((row) => present(row.storeRank)) ? 'store-time' : 'rps';
  const stores = orderRows(chosen.rows, by).map((row) => ({
    store: row.store,
    rank: row.rank,
    storeRank: row.storeRank ?? null,
    storeP50Ms: row.storeTime?.p50Ms ?? null,
    rps: row.failed ? null : row.rps,
    failed: row.failed,
    warned: row.warnings.length > 0,
  }));
  const ranked = stores.filter((row) => !row.failed);
  return {
    key,
    model: chosen.model,
    load: chosen.load,
    loads: groups.map((group) => group.load),
    by,
    stores,
    apart: {
      ranked: ranked.length,
      rpsRanks: distinct(ranked, (row) => row.rank),
      storeRanks: distinct(ranked, (row) => row.storeRank),
    },
    // Only said when store time ranks; the levels where a store's storeRank was not the same.
    storeRankChanges: by === 'store-time' ? rankChanges(groups, chosen) : [],
    limiter: mostLimitedBy(steps),
  };
}

// rps of each (store, key, load) cell under one framework: the median of its repeats.
function rpsCells(steps) {
  const cells = new Map();
  for (const step of steps) {
    const id = `${step.store}\u0000${step.key}\u0000${step.model}\u0000${loadOf(step)}`;
    if (!cells.has(id)) cells.set(id, []);
    cells.get(id).push(step.rps);
  }
  return new Map([...cells].map(([id, values]) => [id, median(values)]));
}

/**
 * What switching framework changed, from a Result whose steps ran on more than one: for each
 * other framework, its rps over the baseline's for every store, key and level both ran (the
 * median ratio and its range), and the tier that limited most steps under each.
 */
function frameworkSwitch(steps, frameworks) {
  const baseline = frameworks.includes(DEFAULT_FRAMEWORK) ? DEFAULT_FRAMEWORK : frameworks[0];
  const stepsOf = (framework) => steps.filter((step) => frameworkOf(step) === framework);
  const base = rpsCells(stepsOf(baseline));
  const others = frameworks.filter((framework) => framework !== baseline).map((framework) => {
    const cells = rpsCells(stepsOf(framework));
    const ratios = [...cells]
      .filter(([id, rps]) => base.get(id) > 0 && rps !== null)
      .map(([id, rps]) => rps / base.get(id));
    return {
      framework,
      cells: ratios.length,
      ratio: ratios.length ? median(ratios) : null,
      low: ratios.length ? Math.min(...ratios) : null,
      high: ratios.length ? Math.max(...ratios) : null,
      limiter: mostLimitedBy(stepsOf(framework)),
    };
  });
  return { baseline, limiter: mostLimitedBy(stepsOf(baseline)), others };
}

/**
 * The summary's claims: { frameworks, framework (the one the stores were ranked under), keys,
 * hints, switching }. A run of several frameworks ranks its stores under the baseline's
 * (express, or the first) and says in `switching` what the others changed.
 */
export function summarizeRun(result) {
  const frameworks = [...new Set(result.steps.map(frameworkOf))];
  const multi = frameworks.length > 1;
  const switching = multi ? frameworkSwitch(result.steps, frameworks) : null;
  const framework = switching?.baseline ?? frameworks[0] ?? DEFAULT_FRAMEWORK;
  const steps = multi ? result.steps.filter((step) => frameworkOf(step) === framework) : result.steps;
  const comparison = multi ? compareStores(steps, { drift: result.control?.drift ?? null }) : result.comparison;
  const totals = comparison.filter((group) => group.operation === null);
  const keys = [...new Set(totals.map((group) => group.key))].map((key) => summarizeKey(
    key,
    totals.filter((group) => group.key === key),
    steps.filter((step) => step.key === key),
  ));
  const limiter = mostLimitedBy(steps);
  return { frameworks, framework, keys, limiter, hints: hintsFor(result, steps, limiter, { frameworks }), switching };
}
