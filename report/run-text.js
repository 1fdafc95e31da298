// The text of a run, in the order node test prints it: the header (System, Target, Date,
// Settings, skipped stores), each URL's table, then how the run ended and the comparison.
// A live run writes it piece by piece as the events come (live.js); `node test report`
// writes it from a saved Result (renderRun). Both go through this one writer, so a saved
// run re-renders to exactly the text it printed.
import { renderComparison, renderSkipped, renderStepTable, renderSystem } from './table.js';

/** A writer of a run's text to write(chunk): header(), table() per URL as it completes, ending(). */
export function createRunText(write) {
  const printed = new Set();
  const print = (text) => text && write(`${text}\n`);
  const table = (url, steps) => {
    if (!steps.length || printed.has(url)) return;
    printed.add(url);
    print(`\n${renderStepTable(url, steps)}`);
  };
  return {
    header({ system, settings, skipped }) {
      print(renderSystem(system, settings));
      print(renderSkipped(skipped));
    },
    table,
    /** The tables not printed yet (an interrupted run's last URL), why it stopped early, the comparison. */
    ending(result) {
      for (const target of result.targets) table(target.url, result.steps.filter((step) => step.url === target.url));
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
