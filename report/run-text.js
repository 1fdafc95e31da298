// The text of a run, in the order node test prints it. A live run and `node test report` both go
// through this one writer, so a saved run re-renders to exactly the text it printed.
import { renderLoadTable, renderSkipped, renderStepTable, renderSystem, renderVerification } from './table.js';
import { renderComparison } from './comparison-table.js';
import { WARNING_MARK } from './table.js';
import { renderRepeatTable } from './repeat-table.js';
import { renderTimelines } from './sparkline.js';
import { renderTierLines } from './tiers-text.js';
import { isMachineWarning, renderMachineLoad, renderMachineWarnings } from './machine-summary.js';
import { renderThresholds } from './assert.js';
import { checkThresholds } from '../result/threshold-check.js';
import { parseThresholds } from '../result/thresholds.js';

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

/** A writer of a run's text: header(), load(), table() per URL as it completes, ending(). */
export function createRunText(write) {
  const printed = new Set();
  const printedLoads = new Set();
  const print = (text) => text && write(`${text}\n`);
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
      // The machine's warnings go in one line under the table, not one per step.
      const quiet = steps.map((step) =>
        ({ ...step, warnings: step.warnings.filter((warning) => !isMachineWarning(warning)) }));
      const busy = renderMachineWarnings(steps);
      print(`\n${repeated ? renderRepeatTable(url, quiet) : renderStepTable(url, quiet)}${busy ? `\n${busy}` : ''}`);
      print(renderTierLines(steps));
      print(renderTimelines(steps));
    }
    if (verification) print(renderVerification(verification));
  };
  return {
    header({ system, settings, skipped }) {
      print(renderSystem(system, settings));
      print(settingsExtra(settings));
      print(renderSkipped(skipped));
    },
    load,
    table,
    /** The tables not printed yet, why it stopped early, the machine's load, comparison, thresholds. */
    ending(result, { thresholds } = {}) {
      for (const target of tableOrder(result)) {
        load(result.loads.find((record) => record.url === target.url));
        const steps = result.steps.filter((step) => step.url === target.url);
        table(target.url, steps, result.verifications.find((record) => record.url === target.url));
      }
      if (result.interrupted) {
        const why = result.appExit ? `app.js exited (${result.appExit}) during the sweep` : 'interrupted';
        print(`\n${why}: ${result.steps.length} step(s) finished; the step in progress was dropped`);
      }
      const machine = renderMachineLoad(result.steps, { peakRss: result.peakRss });
      if (machine) print(`\n${machine}`);
      if (result.control) print(`\n${renderControl(result.control)}`);
      const compared = renderComparison(result.comparison, { drift: result.control?.drift ?? null });
      if (compared) print(`\n${compared}`);
      const checks = checkThresholds(result, thresholds ?? parseThresholds(result.settings.assert).thresholds);
      if (checks.length) print(`\n${renderThresholds(checks)}`);
    },
  };
}

/** The targets in the order a live run printed their tables: the control's target after the control. */
export function tableOrder(result) {
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

export function renderRun(result, { thresholds } = {}) {
  let text = '';
  const writer = createRunText((chunk) => {
    text += chunk;
  });
  writer.header(result);
  writer.ending(result, { thresholds });
  return text;
}
