// node test --scenario NAME|list [--scale S] [--cloudant-plan P] [--json F] [--html F] [--csv F]:
// its flags, which normalizeOptions reads first. A scenario sets its own load
// (stores, steps, workloads), so any load or target flag beside it is a problem.
import { CLOUDANT_PLANS, scaleProblems } from './scenario-scales.js';
import { parseStoreDelay } from './store-delay.js';
import { byteSize, delayMs, SettingValueError } from '../config/setting-values.js';
import { OPTION_NAMED, defaultOf } from './table.js';

// What may go with --scenario: where the results go, and the scenario's own knobs.
const ALLOWED = new Set([
  'scenario', 'scale', 'cloudantPlan', 'clientRtt', 'clientBandwidth', 'storeRtt', 'storeJitter',
  'storeBandwidth', 'counter', 'verdicts', 'json', 'csv', 'html', 'quiet', 'help',
]);
// What --scenario list takes none of.
const NOT_FOR_LIST = [
  'scale', 'cloudantPlan', 'clientRtt', 'clientBandwidth', 'storeRtt', 'storeJitter', 'storeBandwidth',
  'counter', 'verdicts', 'json', 'csv', 'html',
];
const flagOf = (name) => OPTION_NAMED.get(name).flag;

// --client-bandwidth: a size a second, or 0 for none.
const bandwidthOrNone = (raw) => (raw === 0 || /^\s*0+\s*$/.test(raw) ? 0 : byteSize(raw));

/**
 * { scenario, scale, cloudantPlan, storeDelay, clientDelay, counter, verdicts, json, csv, html, quiet } when
 * --scenario was given (problems pushed), else null.
 */
export function parseScenarioFlags(values, problems) {
  // Each as normalizeOptions read it: text, or a number for --client-rtt and --client-bandwidth.
  const given = (name) => values[name];
  const plan = given('cloudantPlan');
  if (plan !== undefined && !CLOUDANT_PLANS.includes(plan)) {
    problems.push(`--cloudant-plan must be one of ${CLOUDANT_PLANS.join(', ')}, not "${plan}"`);
  }
  if (values.scenario === undefined) {
    problems.push(...scenarioFlagsAlone(values));
    return null;
  }
  // null when none of the three was given: the scenario's own network then.
  const storeDelay = parseStoreDelay(values, problems);
  const clientDelay = parseClientDelay(values, problems);
  const scale = given('scale') ?? defaultOf('scale');
  problems.push(...scenarioProblems(values, scale));
  return {
    scenario: given('scenario'),
    scale,
    cloudantPlan: plan,
    storeDelay,
    clientDelay,
    counter: values.counter === true,
    // Which conclusions to judge (and run what they need): ids, checked against the scenario's when it is loaded.
    verdicts: given('verdicts')?.split(',').map((id) => id.trim()).filter(Boolean),
    json: given('json'),
    csv: given('csv'),
    html: given('html'),
    quiet: values.quiet === true,
  };
}

// The scenario's flags given without --scenario.
function scenarioFlagsAlone(values) {
  const problems = [];
  if (values.scale !== undefined) problems.push('--scale goes with --scenario NAME');
  if (values.cloudantPlan !== undefined) {
    problems.push('--cloudant-plan goes with --scenario NAME (or set STOREBENCH_CLOUDANT_PLAN for the app)');
  }
  if (values.counter !== undefined) problems.push('--counter goes with --scenario NAME');
  if (values.verdicts !== undefined) problems.push('--verdicts goes with --scenario NAME');
  for (const name of ['clientRtt', 'clientBandwidth'].filter((option) => values[option] !== undefined)) {
    problems.push(`--${flagOf(name)} goes with --scenario NAME ` +
      '(for a run of your own, --store-rtt delays the stores)');
  }
  return problems;
}

// Each of --client-rtt and --client-bandwidth replaces its part of the scenario's client network:
// { rttMs?, bandwidth? }, or null when neither was given.
function parseClientDelay(values, problems) {
  const client = {};
  const clientOptions = [['clientRtt', 'rttMs', delayMs], ['clientBandwidth', 'bandwidth', bandwidthOrNone]];
  for (const [name, key, parse] of clientOptions) {
    if (values[name] === undefined) continue;
    try {
      client[key] = parse(values[name]);
    } catch (error) {
      if (!(error instanceof SettingValueError)) throw error;
      problems.push(`--${flagOf(name)} ${error.message}, not "${values[name]}"`);
    }
  }
  return Object.keys(client).length ? client : null;
}

// What --scenario NAME cannot go with, and its own flags' problems.
function scenarioProblems(values, scale) {
  const problems = [];
  const name = values.scenario;
  if (name === undefined || !name) problems.push('--scenario needs a name (or list)');
  if (name === 'list') {
    for (const option of NOT_FOR_LIST.filter((each) => values[each] !== undefined)) {
      problems.push(`--${flagOf(option)} does not apply to --scenario list`);
    }
  }
  problems.push(...scaleProblems(scale));
  const conflicting = Object.keys(values).filter((option) => !ALLOWED.has(option));
  for (const option of conflicting) {
    problems.push(`--${flagOf(option)} conflicts with --scenario: the scenario sets its own load and targets`);
  }
  if (values.verdicts !== undefined && !values.verdicts.split(',').some((id) => id.trim())) {
    problems.push('--verdicts needs at least one verdict id (the scenario\'s conclusions)');
  }
  if (values.csv === '-') problems.push('--csv needs a file name ("-" is only for --json)');
  if (values.html !== undefined && (values.html === '-' || values.html === '')) {
    problems.push('--html needs a file name');
  }
  return problems;
}
