// The text of a run, in the order node test prints it. A live run and `node test report` both go
// through this one writer, so a saved run re-renders to exactly the text it printed. By default
// each URL's table carries its bottleneck in a word, the legends come once, the comparison is one
// row per store, and the summary ends it; `verbose` adds under each table its legends, machine
// warnings, bottleneck evidence and timelines, and the comparison's row per store and level.
import {
  renderLoadTable, renderSkipped, renderStepTable, renderSystem, renderVerification, stepTableLegends,
} from './table.js';
import { renderComparison } from './comparison-table.js';
import { renderCompactComparison } from './comparison-compact.js';
import { WARNING_MARK } from './table.js';
import { renderRepeatTable, repeatTableLegends } from './repeat-table.js';
import { renderSummary } from './summary.js';
import { summarizeRun } from '../result/summary.js';
import { renderTimelines } from './sparkline.js';
import { renderTierLines } from './tiers-text.js';
import { renderProfileLines } from './profile-text.js';
import { isMachineWarning, renderMachineLoad, renderMachineWarnings } from './machine-summary.js';
import { renderThresholds } from './assert.js';
import { checkThresholds } from '../result/threshold-check.js';
import { parseThresholds } from '../config/thresholds.js';

function settingsExtra(settings) {
  const lines = [];
  if (settings.repeat > 1) {
    lines.push(`Repeats:  each step ${settings.repeat} times, interleaved across the URLs at each load level`);
  }
  if (settings.assert?.length) lines.push(`Assert:   ${settings.assert.join(', ')}`);
  if (settings.workers > 1) {
    lines.push(`Workers:  each step in ${settings.workers} worker threads, their histograms added and counts summed`);
  }
  const depth = settings.pipeline;
  if (depth > 1) {
    lines.push(`Pipeline: each caller sends ${depth} calls at once, the next ${depth} when all are back ` +
      `(redis-benchmark -P ${depth}); each call timed and counted`);
  }
  return lines.join('\n');
}

/**
 * A writer of a run's text: header(), load(), table() per URL as it completes, ending().
 * `verbose`: every line under every table, and the comparison's row per store and level.
 */
export function createRunText(write, { verbose = false } = {}) {
  const printed = new Set();
  const printedLoads = new Set();
  let lastWasTable = false; // the default text runs its URLs' tables together, without a blank line
  let frameworks = 1; // several (--framework a,b): each table says which served it
  const print = (text) => {
    if (!text) return;
    write(`${text}\n`);
    lastWasTable = false;
  };
  const load = (record) => {
    if (!record || printedLoads.has(record.url)) return;
    printedLoads.add(record.url);
    print(`\n${renderLoadTable(record)}`);
  };
  const table = (url, steps, verification = null) => {
    if (printed.has(url) || (!steps.length && !verification)) return;
    printed.add(url);
    if (steps.length) {
      const repeated = steps.some((step) => step.repeat > 1);
      // The machine's warnings go in one line under the table (--verbose), not one per step.
      const quiet = steps.map((step) =>
        ({ ...step, warnings: step.warnings.filter((warning) => !isMachineWarning(warning)) }));
      const options = { legends: verbose, framework: frameworks > 1 ? steps[0].framework ?? null : null };
      const rendered = repeated ? renderRepeatTable(url, quiet, options) : renderStepTable(url, quiet, options);
      if (verbose) {
        const busy = renderMachineWarnings(steps);
        print(`\n${rendered}${busy ? `\n${busy}` : ''}`);
        print(renderTierLines(steps));
        print(renderProfileLines(steps));
        print(renderTimelines(steps));
      } else {
        print(`${lastWasTable ? '' : '\n'}${rendered}`);
        // --profile: where the app's CPU went, a line per step, under its table.
        const profiled = renderProfileLines(steps);
        print(profiled);
        lastWasTable = !profiled;
      }
    }
    if (verification) print(renderVerification(verification));
  };
  return {
    header({ system, settings, skipped }) {
      frameworks = settings.framework?.length ?? 1;
      print(renderSystem(system, settings));
      print(settingsExtra(settings));
      print(renderSkipped(skipped));
    },
    load,
    table,
    /**
     * The tables not printed yet, their legends, why it stopped early, the machine's load, the
     * control, the comparison, thresholds, and the summary last (with `against`: the lines that
     * set it against the last saved run, result/against-last.js).
     */
    ending(result, { thresholds, against = null } = {}) {
      for (const target of tableOrder(result)) {
        load(result.loads.find((record) => record.url === target.url));
        const steps = result.steps.filter((step) => step.url === target.url);
        table(target.url, steps, result.verifications.find((record) => record.url === target.url));
      }
      if (!verbose) {
        const repeated = result.steps.some((step) => step.repeat > 1);
        const legends = repeated ? repeatTableLegends(result.steps) : stepTableLegends(result.steps);
        if (legends.length) print(`\n${legends.join('\n')}`);
      }
      if (result.interrupted) {
        const why = result.appExit ? `app.js exited (${result.appExit}) during the sweep` : 'interrupted';
        print(`\n${why}: ${result.steps.length} step(s) finished; the step in progress was dropped`);
      }
      const machine = renderMachineLoad(result.steps, { peakRss: result.peakRss });
      if (machine) print(`\n${machine}`);
      if (result.control) print(`\n${renderControl(result.control)}`);
      const drift = result.control?.drift ?? null;
      const compared = verbose
        ? renderComparison(result.comparison, { drift })
        : renderCompactComparison(result.comparison, { drift });
      if (compared) print(`\n${compared}`);
      const checks = checkThresholds(result, thresholds ?? parseThresholds(result.settings.assert).thresholds);
      if (checks.length) print(`\n${renderThresholds(checks)}`);
      const summary = renderSummary(summarizeRun(result), { against });
      if (summary) print(`\n${summary}`);
    },
  };
}

/** The targets in the order a live run printed their tables: the control's target after the control. */
function tableOrder(result) {
  const lastStep = new Map(result.steps.map((step, index) => [step.url, index]));
  const { repeat, concurrency, rps } = result.settings;
  // An interrupted run never measured the control, but printed that URL's table last all the same.
  const planned = result.targets.length * ((rps ?? concurrency)?.length ?? 0);
  const deferred = result.control?.url ?? (repeat === 1 && planned > 1 ? result.order?.[0]?.urls[0] : undefined);
  const at = (target) => (target.url === deferred ? result.steps.length : lastStep.get(target.url) ?? Infinity);
  return [...result.targets].sort((a, b) => at(a) - at(b));
}

/** The control line, and DRIFT when it moved too far. */
export function renderControl(control) {
  const percent = control.drift === null ? null : Math.round(control.drift * 100);
  const signed = percent === null
    ? 'no drift read: a step in which no request succeeded'
    : `${percent >= 0 ? '+' : '−'}${Math.abs(percent)}%`;
  const at = control.step.model === 'open' ? `${control.load} rps` : `concurrency ${control.load}`;
  const lines = [`control: ${control.store} ${control.key} at ${at} measured ` +
    `${Math.round(control.rpsBefore)} then ${Math.round(control.rpsAfter)} rps (${signed}), ` +
    'first and last in this run'];
  for (const warning of control.warnings) lines.push(`${WARNING_MARK} ${warning.code}: ${warning.message}`);
  return lines.join('\n');
}

export function renderRun(result, { thresholds, verbose = false } = {}) {
  let text = '';
  const writer = createRunText((chunk) => {
    text += chunk;
  }, { verbose });
  writer.header(result);
  writer.ending(result, { thresholds });
  return text;
}
