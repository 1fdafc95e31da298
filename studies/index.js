// Scenarios: the published studies as data files in studies/scenarios/, each run by its kind
// (studies/kinds/<kind>.js) and judged against its conclusions. Never prints.
//
// A kind exports run(scenario, scaleSettings, context) -> { measured, results, runs?, notes,
// failures? } and subset(scenario, scaleSettings, uses) -> { scenario, scale }.
// A counter-run changes the system so the claim comes out the other way in fact; a conclusion
// with `setBy` is decided by an emulation constant and is never printed as holding.
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { UsageError } from '../util/errors.js';
import { SCALES, scaleProblems, suggestion } from '../options/scenario-scales.js';
import { KINDS } from './kinds/index.js';
import { HOLDS, judge } from '../result/scenarios/verdicts.js';
import { publishedTable } from './tables.js';
import {
  delayActive, delayText, storeDelayActive, storeDelayEnv, storeDelayText,
} from '../config/network-delay.js';
import { verdictDoubts } from '../result/scenarios/doubts.js';

export { SCALES };
const SCENARIO_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));
// A published table with no table of ours to match (none was measured): its own columns.
const shapeOf = (table) => ({
  id: table.id,
  title: table.title,
  rowHeader: table.rowHeader ?? '',
  columns: [...new Set(Object.values(table.rows).flatMap(Object.keys))].map((id) => ({ id, label: id, unit: '' })),
});

export async function listScenarios() {
  const files = (await readdir(SCENARIO_DIR)).filter((file) => file.endsWith('.js')).sort();
  const scenarios = [];
  for (const file of files) scenarios.push((await import(pathToFileURL(join(SCENARIO_DIR, file)).href)).default);
  return scenarios;
}

/** The scenario called name, or UsageError (exit 2) with the names there are. */
async function findScenario(name) {
  const scenarios = await listScenarios();
  const found = scenarios.find((scenario) => scenario.name === name);
  if (found) return found;
  const names = scenarios.map((scenario) => scenario.name);
  throw new UsageError([`unknown scenario "${name}"${suggestion(name, names)}; ` +
    `node test --scenario list shows them (${names.join(', ')})`]);
}

// The client link's bandwidth is per connection: a long path's window limits a connection, not
// the path (docs/scenarios.md).
function clientNetwork(scenario, flags) {
  const network = { ...(scenario.clientDelay ?? {}), ...(flags ?? {}) };
  return delayActive(network) ? { ...network, perConnection: true } : null;
}

function networkNotes(scenario, { clientDelay, storeDelay }, given) {
  if (scenario.kind !== 'sweep') return [];
  const whose = (flagged, why) => (flagged ? 'as the flags asked' : `the scenario's: ${why ?? 'the study\'s'}`);
  const asked = (flagged) => (flagged ? ', as the flags asked' : '');
  return [
    clientDelay
      ? `network between the driver and the app: ${delayText(clientDelay)}, through a delaying proxy ` +
        `(${whose(given.clientDelay, scenario.clientDelayWhy)}; --client-rtt and --client-bandwidth change it)`
      : `network between the driver and the app: none emulated (loopback)${asked(given.clientDelay)}`,
    storeDelayActive(storeDelay)
      ? `network between the app and each store: ${storeDelayText(storeDelay)}, through a delaying proxy ` +
        `(${whose(given.storeDelay, scenario.storeDelayWhy)}; --store-rtt changes it)`
      : `network between the app and each store: none emulated (loopback)${asked(given.storeDelay)}`,
  ];
}

function chosenConclusions(scenario, ids) {
  if (!ids) return scenario.conclusions;
  const known = scenario.conclusions.map((conclusion) => conclusion.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length) {
    throw new UsageError(unknown.map((id) => `--verdicts: ${scenario.name} has no conclusion "${id}"` +
      `${suggestion(id, known)} (its conclusions: ${known.join(', ')})`));
  }
  return scenario.conclusions.filter((conclusion) => ids.includes(conclusion.id));
}

function usesOf(conclusions) {
  if (conclusions.some((conclusion) => !conclusion.uses)) return null;
  return [...new Set(conclusions.flatMap((conclusion) => conclusion.uses))];
}

/** The system one run measures: the flags' over the scenario's, a counter-run's change over both. */
export function systemOf(scenario, flags, change = {}) {
  const plan = change.cloudantPlan ?? flags.cloudantPlan ?? scenario.cloudantPlan;
  // --store-rtt replaces the scenario's store network whole (--store-rtt 0 turns it off).
  const storeDelay = change.storeDelay ?? flags.storeDelay ?? scenario.storeDelay ?? null;
  const clientDelay = clientNetwork(scenario, { ...(flags.clientDelay ?? {}), ...(change.clientDelay ?? {}) });
  return { plan, storeDelay, clientDelay, env: change.env ?? {}, kind: change.kind ?? {} };
}

async function runSystem(scenario, settings, system, { signal, onProgress }) {
  const kind = KINDS[scenario.kind];
  const appEnv = {
    ...(system.plan ? { STOREBENCH_CLOUDANT_PLAN: system.plan } : {}),
    ...storeDelayEnv(system.storeDelay),
    ...system.env,
  };
  const outcome = await kind.run(scenario, settings, {
    appEnv, clientDelay: system.clientDelay, system: system.kind, signal, onProgress,
  });
  return { runs: [], notes: [], failures: [], ...outcome };
}

const counterFor = (conclusion, verdict) => (conclusion.counter.ifHolds
  ? conclusion.counter[verdict === HOLDS ? 'ifHolds' : 'ifFails']
  : conclusion.counter);

/** The counter-runs, one per distinct change (conclusions sharing a change share its run). */
export function counterPlans(conclusions, judged) {
  const plans = [];
  for (const conclusion of conclusions.filter((candidate) => candidate.counter && !candidate.setBy)) {
    const counter = counterFor(conclusion, judged.find((entry) => entry.id === conclusion.id).verdict);
    const key = JSON.stringify(counter.system ?? {});
    const plan = plans.find((candidate) => candidate.key === key);
    if (plan) plan.conclusions.push(conclusion);
    else plans.push({ key, counter, conclusions: [conclusion] });
  }
  return plans;
}

/**
 * Runs scenario `name` at `scale` and judges it: { scenario, results, failures }.
 * @param {string} name
 * @param {{ scale?: string, cloudantPlan?: string, storeDelay?: object|null, clientDelay?: object|null,
 *   counter?: boolean, verdicts?: string[] }} flags
 *   storeDelay and clientDelay replace the scenario's own (--store-rtt, --client-rtt and kin).
 * @param {{ signal?: AbortSignal, onProgress?: (event) => void }} [hooks]
 */
export async function runScenario(
  name,
  { scale = 'default', cloudantPlan, storeDelay, clientDelay, counter = false, verdicts: ids } = {},
  { signal, onProgress = () => {} } = {},
) {
  const scenario = await findScenario(name);
  const problems = scaleProblems(scale);
  if (clientDelay && scenario.kind !== 'sweep') {
    problems.push('--client-rtt and --client-bandwidth apply to the scenarios that run over HTTP, ' +
      `not to ${scenario.name} (direct mode)`);
  }
  // The phases kind starts each store's servers itself, around the stores' own network.
  if (storeDelay && !['sweep', 'serial', 'batch'].includes(scenario.kind)) {
    problems.push(`--store-rtt, --store-jitter and --store-bandwidth do not apply to ${scenario.name}`);
  }
  if (problems.length) throw new UsageError(problems);
  const conclusions = chosenConclusions(scenario, ids);
  const kind = KINDS[scenario.kind];
  const uses = ids ? usesOf(conclusions) : null;
  const { scenario: run, scale: settings } = uses && kind.subset
    ? kind.subset(scenario, scenario.scales[scale], uses)
    : { scenario, scale: scenario.scales[scale] };
  const flags = { cloudantPlan, storeDelay, clientDelay };
  const system = systemOf(scenario, flags);
  const normal = await runSystem(run, settings, system, { signal, onProgress });
  const { measured, results, runs, notes, failures } = normal;
  // A published table takes the shape of our table of the same id; one matching none of ours
  // (client-libraries: other clients) keeps its own.
  const sharesColumns = (ours, table) =>
    Object.values(table.rows).some((cells) => ours.columns.some((column) => column.id in cells));
  const shapeFor = (table) => {
    const ours = measured.find((candidate) => candidate.id === table.id);
    if (ours && sharesColumns(ours, table)) return ours;
    return (settings.tables ?? scenario.tables ?? []).find((spec) => spec.id === table.id) ?? shapeOf(table);
  };
  const published = (scenario.published ?? []).map((table) => publishedTable(shapeFor(table), table));
  const judged = judge(conclusions, measured);
  const counterRuns = [];
  if (counter) {
    const plans = counterPlans(conclusions, judged);
    for (const [i, plan] of plans.entries()) {
      if (signal?.aborted || results.at(-1)?.interrupted) break;
      onProgress({ type: 'counter-run', change: plan.counter.change, index: i + 1, total: plans.length });
      // A counter-run runs only what its verdicts use, whether or not --verdicts chose them.
      const planUses = usesOf(plan.conclusions.map((conclusion) =>
        ({ uses: plan.counter.uses ?? conclusion.uses })));
      const { scenario: counterScenario, scale: counterScale } = planUses && kind.subset
        ? kind.subset(scenario, scenario.scales[scale], planUses)
        : { scenario, scale: scenario.scales[scale] };
      const changed = systemOf(scenario, flags, plan.counter.system);
      const outcome = await runSystem(counterScenario, counterScale, changed, { signal, onProgress });
      const against = judge(plan.conclusions.map(({ setBy: _setBy, ...conclusion }) => conclusion), outcome.measured);
      const steps = outcome.results[0]?.steps ?? [];
      const record = { measured: outcome.measured, expectedWarnings: scenario.expectedWarnings };
      for (const entry of against) {
        const verdict = judged.find((candidate) => candidate.id === entry.id);
        verdict.counter = {
          change: plan.counter.change,
          ...(plan.counter.how ? { how: plan.counter.how } : {}),
          verdict: entry.verdict,
          explanation: entry.explanation,
          figures: entry.figures,
          doubts: verdictDoubts(record, steps, entry),
        };
      }
      counterRuns.push({
        change: plan.counter.change,
        ...(plan.counter.how ? { how: plan.counter.how } : {}),
        verdicts: plan.conclusions.map((conclusion) => conclusion.id),
        measured: outcome.measured,
        notes: [...networkNotes(scenario, changed, flags), ...outcome.notes],
        runs: outcome.runs,
        interrupted: Boolean(outcome.results.some((result) => result.interrupted)),
      });
      failures.push(...outcome.failures.map((failure) => `counter-run (${plan.counter.change}): ${failure}`));
    }
  }
  const record = {
    name: scenario.name,
    title: scenario.title,
    summary: scenario.summary,
    study: scenario.study,
    scale,
    scaleNote: settings.note ?? null,
    cloudantPlan: system.plan ?? null,
    storeDelay: storeDelayActive(system.storeDelay) ? system.storeDelay : null,
    clientDelay: system.clientDelay,
    measured,
    published,
    verdicts: judged,
    notes: [...networkNotes(scenario, system, flags), ...(scenario.notes ?? []), ...notes],
    runs,
    ...(ids ? { only: ids } : {}),
    ...(counter ? { counterRuns } : {}),
    // Warnings that are what the study measured here, not a flaw of the figures (report/scenario.js).
    ...(scenario.expectedWarnings ? { expectedWarnings: scenario.expectedWarnings } : {}),
  };
  const saved = JSON.parse(JSON.stringify(record));
  return { scenario: saved, results: results.map((result) => ({ ...result, scenario: saved })), failures };
}
