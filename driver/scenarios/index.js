// Scenarios: the published studies as data files in scenarios/, each run by the kind it names
// (driver/scenarios/kinds/<kind>.js) and judged against its conclusions. A library: it
// returns an outcome and never prints (report/scenario.js renders one).
//
// A kind is a module exporting
//   async run(scenario, scaleSettings, context)
//     -> { measured: [Table], results: [Result], runs?: [...], notes: [string], failures?: [string] }
// (failures: what kept figures from being measured, such as a store that was down; the CLI exits 1 on any)
// where context is { appEnv, signal, onProgress } and a Table is described in tables.js.
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { UsageError } from '../../util/errors.js';
import { SCALES, CLOUDANT_PLANS, scaleProblems, suggestion } from './scales.js';
import { KINDS } from './kinds/index.js';
import { judge } from '../../result/scenarios/verdicts.js';
import { publishedTable } from './tables.js';
import { storeDelayActive, storeDelayEnv, storeDelayText } from '../store-delay-options.js';
import { delayActive, delayText } from '../../embedded/delay-proxy.js';

export { SCALES, CLOUDANT_PLANS, scaleProblems };
export const SCENARIO_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));
// A published table with no table of ours to match (none was measured): its own columns.
const shapeOf = (table) => ({
  id: table.id,
  title: table.title,
  rowHeader: table.rowHeader ?? '',
  columns: [...new Set(Object.values(table.rows).flatMap(Object.keys))].map((id) => ({ id, label: id, unit: '' })),
});

/** Every scenario file, by name order. */
export async function listScenarios() {
  const files = (await readdir(SCENARIO_DIR)).filter((file) => file.endsWith('.js')).sort();
  const scenarios = [];
  for (const file of files) scenarios.push((await import(pathToFileURL(join(SCENARIO_DIR, file)).href)).default);
  return scenarios;
}

/** The scenario called name, or UsageError (exit 2) with the names there are. */
export async function findScenario(name) {
  const scenarios = await listScenarios();
  const found = scenarios.find((scenario) => scenario.name === name);
  if (found) return found;
  const names = scenarios.map((scenario) => scenario.name);
  throw new UsageError([`unknown scenario "${name}"${suggestion(name, names)}; ` +
    `node test --scenario list shows them (${names.join(', ')})`]);
}

/** Problems with a scale name, for the flag parser. */

/**
 * Runs scenario `name` at `scale` and judges it. Resolves to
 * { scenario: { name, title, study, summary, scale, scaleNote, measured, published, verdicts, notes, runs },
 *   results: [Result, each with that `scenario` record attached], failures: [string] }.
 * @param {string} name
 * @param {{ scale?: string, cloudantPlan?: string, storeDelay?: object|null }} flags
 *   storeDelay: { rttMs?, jitterMs?, bandwidth? } from --store-rtt and its kin, in place of the
 *   scenario's own `storeDelay`; clientDelay: { rttMs } from --client-rtt, in place of the
 *   scenario's `clientDelay` (the network between the driver and the app, where study 000's
 *   was). Both only for the kinds over HTTP
 * @param {{ signal?: AbortSignal, onProgress?: (event) => void }} [hooks]
 */
export async function runScenario(
  name,
  { scale = 'default', cloudantPlan, storeDelay, clientDelay } = {},
  { signal, onProgress = () => {} } = {},
) {
  const scenario = await findScenario(name);
  const problems = scaleProblems(scale);
  // The delay goes to the app a sweep starts; the direct kinds open their stores their own way.
  if ((storeDelay || clientDelay) && scenario.kind !== 'sweep') {
    problems.push('--store-rtt, --store-jitter, --store-bandwidth and --client-rtt apply to the scenarios ' +
      `that run over HTTP, not to ${scenario.name} (direct mode)`);
  }
  if (problems.length) throw new UsageError(problems);
  const settings = scenario.scales[scale];
  const kind = KINDS[scenario.kind];
  const plan = cloudantPlan ?? scenario.cloudantPlan;
  // The flags' network replaces the scenario's whole (--store-rtt 0 turns the scenario's off).
  const delay = storeDelay ?? scenario.storeDelay ?? null;
  const overClient = clientDelay ?? scenario.clientDelay ?? null;
  const appEnv = { ...(plan ? { STOREBENCH_CLOUDANT_PLAN: plan } : {}), ...storeDelayEnv(delay) };
  const { measured, results, runs = [], notes = [], failures = [] } = await kind.run(scenario, settings, {
    appEnv, clientDelay: overClient && delayActive(overClient) ? overClient : null, signal, onProgress,
  });
  const whose = (given, why) => (given ? 'as the flags asked' : `the scenario's: ${why ?? 'the study\'s'}`);
  const networks = [
    overClient && delayActive(overClient)
      ? `network between the driver and the app: ${delayText(overClient)}, through a delaying proxy ` +
        `(${whose(clientDelay, scenario.clientDelayWhy)}; --client-rtt changes it)`
      : `network between the driver and the app: none emulated (loopback)${clientDelay ? ', as the flags asked' : ''}`,
    storeDelayActive(delay)
      ? `network between the app and each store: ${storeDelayText(delay)}, through a delaying proxy ` +
        `(${whose(storeDelay, scenario.storeDelayWhy)}; --store-rtt changes it)`
      : `network between the app and each store: none emulated (loopback)${storeDelay ? ', as the flags asked' : ''}`,
  ].filter(() => scenario.kind === 'sweep');
  // Each published table takes the shape of our table of the same id (its columns, labels, units);
  // one whose columns are none of ours (a study of other clients: client-libraries) keeps its
  // own, from the scenario's table spec of that id when there is one.
  const sharesColumns = (ours, table) =>
    Object.values(table.rows).some((cells) => ours.columns.some((column) => column.id in cells));
  const shapeFor = (table) => {
    const ours = measured.find((candidate) => candidate.id === table.id);
    if (ours && sharesColumns(ours, table)) return ours;
    return (settings.tables ?? scenario.tables ?? []).find((spec) => spec.id === table.id) ?? shapeOf(table);
  };
  const published = (scenario.published ?? []).map((table) => publishedTable(shapeFor(table), table));
  const record = {
    name: scenario.name,
    title: scenario.title,
    summary: scenario.summary,
    study: scenario.study,
    scale,
    scaleNote: settings.note ?? null,
    cloudantPlan: plan ?? null,
    storeDelay: storeDelayActive(delay) ? delay : null,
    clientDelay: overClient && delayActive(overClient) ? overClient : null,
    measured,
    published,
    verdicts: judge(scenario.conclusions, measured),
    notes: [...networks, ...(scenario.notes ?? []), ...notes],
    runs,
    // Warnings that are what the study measured here, not a flaw of the figures (report/scenario.js).
    ...(scenario.expectedWarnings ? { expectedWarnings: scenario.expectedWarnings } : {}),
  };
  // As JSON holds it: no undefined anywhere (an optional study field left out stays out).
  const saved = JSON.parse(JSON.stringify(record));
  return { scenario: saved, results: results.map((result) => ({ ...result, scenario: saved })), failures };
}
