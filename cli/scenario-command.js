// node test --scenario list | NAME: the CLI side of studies/ (which never prints). Prints
// the list, or runs the scenario with a progress line on stderr, prints its text and writes the
// --json/--csv/--html files. Throws what test.js turns into an exit code.
import { listScenarios, runScenario } from '../studies/index.js';
import { checkOutputPaths, writeResults } from './results-files.js';
import { renderScenario } from '../report/scenario.js';
import { RunError } from '../util/errors.js';

/** One line per scenario: its name and summary. */
async function renderScenarioList() {
  const scenarios = await listScenarios();
  const width = Math.max(...scenarios.map((scenario) => scenario.name.length));
  return `${scenarios.map((scenario) => `${scenario.name.padEnd(width)}  ${scenario.summary}`).join('\n')}\n`;
}

function progressLine(event) {
  if (event.type === 'app-starting') return `starting app.js with ${event.stores.join(', ')}…`;
  if (event.type === 'counter-run') return `counter-run ${event.index}/${event.total}: ${event.change}`;
  if (event.type === 'scenario-step') {
    return `step ${event.index}/${event.total}: ${event.label} at concurrency ${event.concurrency}`;
  }
  return null;
}

/** Resolves to the scenario's Result (or null for list); `interrupted` tells the caller to exit 130. */
export async function scenarioCommand(options, { signal, stdout = process.stdout, stderr = process.stderr } = {}) {
  if (options.scenario === 'list') {
    stdout.write(await renderScenarioList());
    return null;
  }
  await checkOutputPaths(options);
  const out = options.json === '-' ? stderr : stdout;
  const onProgress = (event) => {
    const line = progressLine(event);
    if (line && !options.quiet) stderr.write(`${line}\n`);
  };
  const { scale, cloudantPlan, storeDelay, clientDelay, counter, verdicts } = options;
  const flags = { scale, cloudantPlan, storeDelay, clientDelay, counter, verdicts };
  const outcome = await runScenario(options.scenario, flags, {
    signal,
    onProgress,
  });
  const [result] = outcome.results;
  const { system, settings, steps } = result ?? {};
  const engine = { engine: settings?.engine, choice: settings?.engineChoice };
  out.write(renderScenario(outcome.scenario, { system, ...engine, steps }));
  if (!result) throw new RunError(`scenario ${options.scenario}: nothing was measured`);
  await writeResults(options, result, stdout);
  // A store that was down: its figures are missing, so the run failed (exit 1), as node test's does.
  if (outcome.failures.length && !result.interrupted) throw new RunError(outcome.failures.join('\n'));
  return result;
}
