// A run's options, checked and completed as options/table.js says: pure, so it is unit-tested
// without spawning anything. Every problem is collected (not just the first); the CLI prints
// them all and exits 2.
import { nearestName } from '../util/flags.js';
import { parseFramework, parseProfile } from './app-side.js';
import { runReportOptions } from './run-report.js';
import { OPTION_NAMED, defaultOf, takesNumber } from './table.js';
import {
  LIMITS, MAX_WORKERS, ORDERS, PROBE_MIN_REQUESTS_PER_CLIENT, PROBE_MIN_SECONDS, QUICK, autoWorkers,
} from './defaults.js';
import { listItems, positiveInteger, shown } from './values.js';
import { OPERATIONS, VALUE_SHAPES } from '../config/workloads.js';
import { parseDistribution, parseValueSize, parseWorkload } from './workload.js';
import { randomSeed } from '../util/random.js';
import { parseScenarioFlags } from './scenario.js';
import { unmeasuredStoreProblems } from '../config/thresholds.js';
import { targetFromUrl } from '../util/url-target.js';
import { TOKEN_ENV } from '../config/settings.js';
import { HTTP_ENGINE_NAMES } from '../config/run-defaults.js';
import { parseStoreDelay } from './store-delay.js';
import { parseServerTiming } from './server-timing.js';
import { parsePartFlags, partRunOptions } from './parts.js';
import { resultSettings } from './result-settings.js';
import { byteSize, SettingValueError, workerCount } from '../config/setting-values.js';

// How problems name an option: by its flag, with its short form when it has one.
const labelOf = ({ flag, short }) => (short ? `-${short}/--${flag}` : `--${flag}`);
const flagLabel = (name) => labelOf(OPTION_NAMED.get(name));

function httpUrl(text) {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function described(value) {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

// One option as its kind takes it: a boolean; a number or its text (takesNumber); text (a number
// given is written as its text: a URL or a name is text); a list's items, from comma-separated
// text or an array. Returns undefined, a problem pushed, when the value is none of these.
function optionValue(option, value, problems) {
  const { list, multiple, type } = option;
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    problems.push(`${labelOf(option)} is true or false, not ${described(value)}`);
    return undefined;
  }
  const numeric = takesNumber(option);
  const item = (one) => {
    if (typeof one === 'string') return one;
    if (typeof one !== 'number') return undefined;
    return numeric ? one : String(one);
  };
  const items = Array.isArray(value) ? value.map(item) : [item(value)];
  if (items.includes(undefined) || (Array.isArray(value) && !multiple && !list)) {
    const what = multiple || list
      ? 'a string, a number or an array of them'
      : 'a string or a number';
    problems.push(`${labelOf(option)} takes ${what}, not ${described(value)}`);
    return undefined;
  }
  if (list) return listItems(items);
  return multiple ? items : items[0];
}

/**
 * A run's options from a plain object whose names are the long flags' in camelCase
 * ({ concurrency: [5, 10], requests: 200, stores: ['memory'], direct: true, warmup: 0 }), or the
 * command line's text for each (cli/options.js). Returns { command, help, options, problems }: the
 * options driver/run.js takes (frozen) and every problem, in the command line's words. command is 'run',
 * 'parts' (--parts N: the run split over N drivers), 'scenario' (a scenario was named) or 'list'
 * (workload: 'list').
 */
export function normalizeOptions(object = {}, env = process.env) {
  const problems = [];
  // The options given, by their camelCase names, each as optionValue reads it.
  const values = {};
  for (const [name, value] of Object.entries(object ?? {})) {
    if (value === undefined) continue;
    const option = OPTION_NAMED.get(name);
    if (!option) {
      const near = nearestName(name, [...OPTION_NAMED.keys()]);
      problems.push(`unknown option ${name}${near ? ` (did you mean ${near}?)` : ''}`);
      continue;
    }
    const read = optionValue(option, value, problems);
    if (read !== undefined) values[name] = read;
  }
  const scenario = parseScenarioFlags(values, problems);
  if (scenario) return { command: 'scenario', help: values.help === true, options: Object.freeze(scenario), problems };

  const text = (name) => (typeof values[name] === 'string' ? values[name] : undefined);
  // [min, max, unit]: a parsed value outside is a problem that names the bound.
  const outside = (value, [min, max]) => value !== null && (value > max || value < min);
  const boundText = ([min, max, unit = '']) => (value) =>
    (value > max ? `at most ${shown(max)}${unit}` : `at least ${shown(min)}${unit}`);
  // A number option, as the table says: its parse, what it takes and its bounds.
  const boundsOf = ({ bounds: [min, max], unit }) => [min, max, unit];
  const listOf = (name) => {
    const { parse, what } = OPTION_NAMED.get(name);
    const bounds = boundsOf(OPTION_NAMED.get(name));
    const items = values[name];
    if (items === undefined) return undefined;
    if (!items.length) problems.push(`${flagLabel(name)} needs at least one ${what}`);
    if (items.length > LIMITS.steps) {
      problems.push(`${flagLabel(name)} has ${items.length} values; at most ${LIMITS.steps}`);
    }
    const parsed = items.map((item) => {
      const value = parse(item);
      if (value === null) problems.push(`${flagLabel(name)}: "${item}" is not a ${what}`);
      else if (outside(value, bounds)) {
        problems.push(`${flagLabel(name)}: "${item}" is out of range: each must be ${boundText(bounds)(value)}`);
      }
      return value;
    });
    return parsed;
  };
  const single = (name) => {
    const { parse, what } = OPTION_NAMED.get(name);
    const bounds = boundsOf(OPTION_NAMED.get(name));
    const raw = values[name];
    if (raw === undefined) return undefined;
    const value = parse(raw);
    if (value === null) problems.push(`${flagLabel(name)} must be a ${what}, not "${raw}"`);
    else if (outside(value, bounds)) {
      problems.push(`${flagLabel(name)} must be ${boundText(bounds)(value)}, not "${raw}"`);
    }
    return value ?? undefined;
  };

  const urls = [].concat(values.url ?? []).filter((value) => typeof value === 'string');
  for (const url of urls) if (!httpUrl(url)) problems.push(`--url "${url}" is not an http:// or https:// URL`);
  const target = text('target');
  if (target !== undefined && !httpUrl(target)) problems.push(`--target "${target}" is not an http:// or https:// URL`);
  if (urls.length && target !== undefined) problems.push('use either --url or --target, not both');
  const direct = values.direct === true;
  if (direct && urls.length) {
    problems.push('--direct calls the stores in this process: it takes no --url (choose stores with --stores)');
  }
  if (direct && target !== undefined) {
    problems.push('--direct calls the stores in this process: it takes no --target (choose stores with --stores)');
  }
  const engine = text('engine') ?? defaultOf('engine');
  if (!HTTP_ENGINE_NAMES.includes(engine)) {
    problems.push(`--engine must be ${HTTP_ENGINE_NAMES.join(' or ')}, not "${engine}"`);
  } else if (direct && text('engine') !== undefined) {
    problems.push('--engine chooses what sends HTTP requests: ' +
      '--direct sends none (it calls the stores in this process)');
  }
  if (direct && values.noKeepalive) {
    problems.push('--no-keepalive is about HTTP connections: ' +
      '--direct makes none (each store keeps its client\'s own connections)');
  }

  const concurrency = listOf('concurrency');
  const requests = single('requests');
  const duration = single('duration');
  const rps = listOf('rps');
  const warmup = single('warmup');
  const warmupMax = single('warmupMax');
  const order = text('order');
  if (order !== undefined && !ORDERS.includes(order)) {
    problems.push(`--order must be ${ORDERS.join(' or ')}, not "${order}"`);
  }
  const quick = values.quick === true;
  const timeout = single('timeout');
  if (requests !== undefined && duration !== undefined) {
    problems.push('use either -n/--requests or -t/--duration, not both');
  }
  if (rps && concurrency) problems.push('--rps replaces the concurrency sweep: drop -c/--concurrency');
  const pipelineGiven = single('pipeline');
  const pipeline = parsePipeline(pipelineGiven, { direct, rps }, problems);
  const probe = values.probe === true;
  if (probe) {
    const levels = concurrency ?? defaultOf('concurrency');
    problems.push(...probeProblems({ requests, duration, rps, concurrency: levels, pipeline }));
  }

  const { stores, keys } = values;
  if (stores && !stores.length) problems.push('--stores needs at least one store name');
  if (keys && !keys.length) problems.push('--keys needs at least one key');
  if (urls.length && (stores || keys)) {
    problems.push('--stores and --keys choose from a /stores listing; with --url, list the URLs you want');
  }

  const json = text('json');
  const csv = text('csv');
  if (csv === '-') problems.push('--csv needs a file name ("-" is only for --json)');

  const seed = single('seed') ?? randomSeed();
  const workload = parseWorkloadFlags(text, values, problems, { single, keys, seed });
  const workers = parseWorkers(values.workers, problems);
  const appWorkers = parseAppWorkers(values.appWorkers, { direct, target, urls }, problems);
  const framework = parseFramework(values.framework, { direct, target, urls }, problems);
  const profile = parseProfile(values.profile, { direct, urls }, problems);
  const memoryWrites = workload.options?.keySpace && stores?.includes('memory');
  if (appWorkers > 1 && memoryWrites) {
    problems.push(`--app-workers ${appWorkers}: memory refuses writes in an app of several workers (each has its ` +
      `own copy), and the ${workload.options.workload.name} workload writes or loads records: leave memory out of ` +
      '--stores, or use --app-workers 1');
  }
  const valueShape = parseValueShape(text('valueShape'), { direct, ...workload.options }, problems);
  const keySpace = Boolean(workload.options?.keySpace);
  const probeSize = parseProbeSize(values.probeSize, { probe, direct, keySpace }, problems);
  if (workers > 1 && workload.options?.workload.mix.some(({ operation }) => operation === 'insert')) {
    problems.push(`--workers ${workers}: ${workload.options.workload.name} inserts, ` +
      'and each insert takes the next new key in turn, which only one worker can do: use --workers 1');
  }
  if (workload.list) return { command: 'list', help: values.help === true, options: Object.freeze({}), problems: [] };
  const token = text('token') ?? (env[TOKEN_ENV] || undefined);
  const storeDelay = parseStoreDelay(values, problems, { overRunningApp: urls.length > 0 || target !== undefined });
  const serverTiming = parseServerTiming(values, problems, {
    overRunningApp: urls.length > 0 || target !== undefined, direct,
  });

  const options = {
    urls,
    target,
    concurrency: concurrency ?? (quick && !rps ? QUICK.concurrency : defaultOf('concurrency')),
    requests,
    duration: requests === undefined ? duration ?? (quick ? QUICK.duration : defaultOf('duration')) : undefined,
    rps,
    warmup: warmup ?? defaultOf('warmup'),
    warmupMaxSeconds: warmupMax ?? defaultOf('warmupMax'),
    order: order ?? defaultOf('order'),
    control: values.noControl !== true,
    keepAlive: !values.noKeepalive,
    timeoutMs: timeout ?? defaultOf('timeout'),
    stores,
    keys: keys ?? (quick && !urls.length && !workload.options?.keySpace ? QUICK.keys : undefined),
    json,
    csv,
    quiet: Boolean(values.quiet),
    verbose: values.verbose === true,
    save: values.noSave !== true,
    direct,
    pipeline,
    probe,
    ...(probeSize === undefined ? {} : { probeSize }),
    engine,
    // Why: the System line and settings.engineChoice say whether --engine (or run()'s `engine`) named it.
    engineChoice: text('engine') === undefined ? 'default' : 'option',
    ...runReportOptions(values, problems),
    ...workload.options,
    // One seed for the run: the order's shuffles and, with a key space, the workload's.
    seed,
    token,
    workers,
    appWorkers,
    framework,
    profile,
    valueShape,
    storeDelay,
    ...(serverTiming === undefined ? {} : { serverTiming }),
    ...parsePartFlags(values, problems, { seedGiven: values.seed !== undefined }),
  };
  // A threshold naming a store this run cannot measure is found now, before app.js starts.
  if (stores?.length) problems.push(...unmeasuredStoreProblems(options.assert, stores, { source: '--stores' }));
  const urlStore = (url) => targetFromUrl(url, options.keySpace ? options.workload.name : null).store;
  if (urls.length) {
    const urlStores = urls.filter(httpUrl).map(urlStore);
    problems.push(...unmeasuredStoreProblems(options.assert, urlStores, { source: 'the --url list' }));
  }
  const command = options.parts ? 'parts' : 'run';
  const runOptions = partRunOptions(options, problems);
  // The Result's settings, made once from the options, when they can run.
  const settings = problems.length ? {} : { settings: resultSettings(runOptions, env) };
  return { command, help: values.help === true, options: Object.freeze({ ...runOptions, ...settings }), problems };
}

// --value-shape bytes|hash: 'bytes' when not given; problems pushed. Direct mode only: the
// app's routes store the bytes a request carries, so over HTTP there is no shape to choose.
function parseValueShape(raw, { direct, keySpace, workload }, problems) {
  if (raw === undefined) return defaultOf('valueShape');
  if (!VALUE_SHAPES.includes(raw)) {
    problems.push(`--value-shape must be ${VALUE_SHAPES.join(' or ')}, not "${raw}"`);
    return defaultOf('valueShape');
  }
  if (raw !== 'bytes' && !direct) {
    problems.push(`--value-shape ${raw} needs --direct: over HTTP the app stores the bytes each request carries`);
  } else if (raw !== 'bytes' && keySpace === false) {
    problems.push(`--value-shape ${raw} applies to a key space: add --records N (or a --workload other than read)`);
  } else if (raw !== 'bytes' && workload?.mix.some(({ operation }) => operation === 'append')) {
    problems.push(`--value-shape ${raw}: ${workload.name} appends, and a hash has nothing to append to`);
  }
  return raw;
}

// --pipeline N: 1 when not given; problems pushed. Direct mode's closed loop only: over HTTP
// each request waits for its answer on its connection, and the open model starts each call at
// its own scheduled time, which a batch of N sent at once would not keep (docs/direct.md).
function parsePipeline(pipeline = defaultOf('pipeline'), { direct, rps }, problems) {
  if (pipeline === 1) return 1;
  if (!direct) {
    problems.push(`--pipeline ${pipeline} needs --direct: over HTTP every request waits for its answer ` +
      'before its connection sends the next');
  } else if (rps) {
    problems.push(`--pipeline ${pipeline} sends ${pipeline} calls at once from each caller of the closed loop (-c); ` +
      'the open model (--rps) starts each call at its own scheduled time: drop one of them');
  }
  return pipeline;
}

// --workers N|auto: 1 when not given; problems pushed.
function parseWorkers(raw, problems) {
  if (raw === undefined) return defaultOf('workers');
  if (raw === 'auto') return autoWorkers();
  const value = positiveInteger(raw);
  if (value === null || value > MAX_WORKERS) {
    problems.push(`--workers must be a whole number from 1 to ${MAX_WORKERS} or auto, not "${raw}"`);
    return 1;
  }
  return value;
}

// --app-workers N|auto: the processes of the app.js this run starts (app.js --workers); 1 when
// not given, problems pushed. A running app (--target, --url) was started with its own.
function parseAppWorkers(raw, { direct, target, urls }, problems) {
  if (raw === undefined) return defaultOf('appWorkers');
  if (direct || target !== undefined || urls.length) {
    const why = direct
      ? '--direct calls the stores in this process, with no app'
      : 'a running app (--target, --url) has its own: start it with node app.js --workers N';
    problems.push(`--app-workers sets the workers of the app.js node test starts: ${why}`);
    return 1;
  }
  try {
    return workerCount(raw);
  } catch (error) {
    if (!(error instanceof SettingValueError)) throw error;
    problems.push(`--app-workers ${error.message}, not "${raw}"`);
    return 1;
  }
}

// --probe-size SIZE: the value of the probe's own key, which it has only in direct mode with a
// key-space workload (a study's probing client read values of the load's size).
function parseProbeSize(raw, { probe, direct, keySpace }, problems) {
  if (raw === undefined) return undefined;
  if (!probe || !direct || !keySpace) {
    problems.push('--probe-size goes with --probe, --direct and a key-space --workload (the probe\'s own key)');
    return undefined;
  }
  try {
    return byteSize(raw);
  } catch (error) {
    if (!(error instanceof SettingValueError)) throw error;
    problems.push(`--probe-size ${error.message}, not "${raw}"`);
    return undefined;
  }
}

// --probe needs steps long enough to probe: a probe request takes about as long as one of the
// step's, so a step of N requests at concurrency C lasts about N / C of them.
function probeProblems({ requests, duration, rps, concurrency, pipeline = 1 }) {
  if (requests !== undefined && requests !== null) {
    if (rps) {
      const fastest = Math.max(...rps.filter(Number.isFinite));
      const least = Math.ceil(fastest * PROBE_MIN_SECONDS);
      if (requests >= least) return [];
      return [`--probe: -n ${requests} at ${fastest} rps lasts under ${PROBE_MIN_SECONDS} s, ` +
        `too short to probe: use -n ${least} or more`];
    }
    // --pipeline N: each client's N calls at a time take about one call's time.
    const clients = Math.max(...concurrency.filter(Number.isFinite));
    const widest = clients * pipeline;
    const least = widest * PROBE_MIN_REQUESTS_PER_CLIENT;
    const lasts = Math.round((requests / widest) * 10) / 10;
    const level = pipeline > 1 ? `concurrency ${clients} x --pipeline ${pipeline}` : `concurrency ${clients}`;
    if (requests >= least) return [];
    return [`--probe: -n ${requests} is too few to probe at ${level} (a step lasts about ${lasts} requests' time; ` +
      `the probe needs ${PROBE_MIN_REQUESTS_PER_CLIENT}): use -n ${least} or more`];
  }
  if (duration !== undefined && duration !== null && duration < PROBE_MIN_SECONDS) {
    return [`--probe: steps of ${duration} s are too short to probe: use -t ${PROBE_MIN_SECONDS} or more`];
  }
  return [];
}

// The workload's flags: { list } for --workload list, else { options } (problems pushed).
function parseWorkloadFlags(text, values, problems, { single, keys, seed }) {
  const name = text('workload');
  if (name === 'list') return { list: true };
  let workload = { name: 'read', mix: [{ operation: 'read', share: 1 }], distribution: 'uniform', load: true };
  if (name !== undefined) {
    const parsed = parseWorkload(name);
    if (parsed.problem) problems.push(parsed.problem);
    else workload = parsed.value;
  }
  const records = single('records');
  // The seeded read of key1..key3 is today's run; any other workload, or --records, is a key space.
  const keySpace = (name !== undefined && name !== 'read') || values.records !== undefined;
  const given = ['valueSize', 'distribution'].filter((name) => values[name] !== undefined)
    .concat(['noLoad', 'noVerify'].filter((name) => values[name] === true));
  if (!keySpace) {
    for (const name of given) {
      problems.push(`--${OPTION_NAMED.get(name).flag} applies to a key space: ` +
        'add --records N (or a --workload other than read)');
    }
  } else if (keys) {
    problems.push('--keys picks among the seeded keys; a workload over --records picks its own keys');
  }
  let valueSize = { min: defaultOf('valueSize'), max: defaultOf('valueSize') };
  if (values.valueSize !== undefined) {
    const parsed = parseValueSize(values.valueSize);
    if (parsed.problem) problems.push(parsed.problem);
    else valueSize = parsed.value;
  }
  let distribution = workload.distribution ? { name: workload.distribution } : null;
  if (text('distribution') !== undefined) {
    const parsed = parseDistribution(text('distribution'));
    if (parsed.problem) {
      problems.push(parsed.problem);
    } else if (!distribution) {
      const inserts = OPERATIONS.insert.about.replace('writes a new key', 'writes new keys');
      problems.push(`--distribution does not apply to ${workload.name}: it ${inserts}`);
    } else {
      distribution = parsed.value;
    }
  }
  if (distribution?.name === 'hotspot' && distribution.hotFraction === undefined) {
    distribution = parseDistribution('hotspot').value;
  }
  return {
    options: {
      workload,
      keySpace,
      records: keySpace ? records ?? defaultOf('records') : undefined,
      valueSize: keySpace ? valueSize : undefined,
      distribution: keySpace ? distribution : null,
      seed: keySpace ? seed : undefined,
      load: keySpace && workload.load && values.noLoad !== true,
      verify: keySpace && values.noVerify !== true,
    },
  };
}
