// The text of a run, in the order node test prints it: the header (System, Target, Date,
// Settings, Workload, skipped stores), for each URL its load table (a key-space workload),
// its steps' table and its verification, then how the run ended and the comparison.
// A live run writes it piece by piece as the events come (live.js); `node test report`
// writes it from a saved Result (renderRun). Both go through this one writer, so a saved
// run re-renders to exactly the text it printed.
import { renderComparison, renderLoadTable, renderSkipped, renderStepTable, renderSystem, renderVerification } from './table.js';

/**
 * A writer of a run's text to write(chunk): header(), load() when a store's records are
 * loaded, table() per URL as it completes (with its verification), ending().
 */
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
    if (steps.length) print(`\n${renderStepTable(url, steps)}`);
    if (verification) print(renderVerification(verification));
  };
  return {
    header({ system, settings, skipped }) {
      print(renderSystem(system, settings));
      print(renderSkipped(skipped));
    },
    load,
    table,
    /** The tables not printed yet (an interrupted run's last URL), why it stopped early, the comparison. */
    ending(result) {
      for (const target of result.targets) {
        load(result.loads.find((record) => record.url === target.url));
        table(target.url, result.steps.filter((step) => step.url === target.url), result.verifications.find((record) => record.url === target.url));
      }
      if (result.interrupted) {
        const why = result.appExit ? `app.js exited (${result.appExit}) during the sweep` : 'interrupted';
        print(`\n${why}: ${result.steps.length} step(s) finished; the step in progress was dropped`);
      }
      const compared = renderComparison(result.comparison);
      if (compared) print(`\n${compared}`);
    },
  };
}

/** Everything a run printed, from its Result. */
export function renderRun(result) {
  let text = '';
  const writer = createRunText((chunk) => {
    text += chunk;
  });
  writer.header(result);
  writer.ending(result);
  return text;
}
