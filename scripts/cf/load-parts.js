// npm run load:cf -- --parts N <driver flags>: one run split over N Cloud Foundry tasks of the
// pushed app (its droplet holds the driver), against the pushed app itself, all with one
// --start-at and one --seed. Each task puts its results file into the app's results area
// (routes/results.js) through scripts/cf/send-result.js; this side polls for the N results,
// merges them (result/merge.js) and hands the merged Result back. Never prints but through
// the `log` it is given (progress); the entry (load.js) prints the tables.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { driverArgv, launcherSpec, partFlags } from '../../cli/part-argv.js';
import { parseArguments } from '../../cli/options.js';
import { MAX_PARTS, parseStartAt } from '../../options/parts.js';
import { randomSeed } from '../../util/random.js';
import { fromJson } from '../../result/format.js';
import { mergeResults } from '../../result/merge.js';
import { CfScriptError, optionalSetting, parseVars, writeTokenFile } from './cf.js';

const CF_LEAD_SECONDS = 90;
const CF_WAIT_SECONDS = 1800;

const LOAD_FLAGS = launcherSpec(
  'parts', 'app', 'memory', 'disk', 'wait', 'start-at', 'seed', 'json', 'csv', 'html', 'assert', 'quiet', 'help',
);

export const LOAD_USAGE = `Usage: npm run load:cf -- --parts N <driver flags> [--app NAME] [--memory SIZE] [--disk SIZE]
       [--start-at TIME] [--seed N] [--wait SECS] [--json FILE] [--csv FILE] [--html FILE]

Runs part I of N of one run as N cf run-task tasks of the pushed app, against the app's route
(from cf app NAME; --target or --url to load something else), all with one --start-at (default
+${CF_LEAD_SECONDS}s) and one --seed. Each task puts its result into the app's results area
(PUT /_results/RUN/I, with the app's write token); this command waits for the N results, at
most --wait SECS after the start (default ${CF_WAIT_SECONDS}), merges them and prints the merged run.
  --app NAME      the app (default: CF_APP, else app_name in vars.yml)
  --memory SIZE   each task's memory, cf run-task -m (default: the app's)
  --disk SIZE     each task's disk, cf run-task -k (default: the app's)
The write token: STOREBENCH_WRITE_TOKEN, else write_token in vars.yml or vars.write-token.yml.`;

const SIZE = /^\d+(M|G|MB|GB)$/i;

/** Parses load:cf argv: { help, options, problems }. */
export function parseLoadArguments(argv, { now = Date.now(), env = process.env } = {}) {
  const { values } = parseArgs({ args: argv, options: LOAD_FLAGS, strict: false, allowPositionals: true });
  const problems = [];
  const text = (name) => (typeof values[name] === 'string' ? values[name] : undefined);
  const parts = /^\d+$/.test(text('parts') ?? '') ? Number(text('parts')) : null;
  if (parts === null || parts < 1 || parts > MAX_PARTS) {
    const given = text('parts') ? `, not "${text('parts')}"` : '';
    problems.push(`npm run load:cf needs --parts N (1 to ${MAX_PARTS})${given}`);
  }
  const seedText = text('seed');
  const seed = seedText === undefined ? randomSeed() : Number(seedText);
  if (seedText !== undefined && !(/^\d+$/.test(seedText) && seed <= 4294967295)) {
    problems.push(`--seed must be a whole number from 0 to 4294967295, not "${seedText}"`);
  }
  let startAt = new Date(now + CF_LEAD_SECONDS * 1000);
  if (text('start-at') !== undefined) {
    const parsed = parseStartAt(text('start-at'), now);
    if (parsed.problem) problems.push(parsed.problem);
    else startAt = parsed.value;
  }
  const wait = text('wait') === undefined ? CF_WAIT_SECONDS : Number(text('wait'));
  if (!(Number.isFinite(wait) && wait > 0 && wait <= 86400)) {
    problems.push(`--wait must be seconds from 1 to 86400, not "${text('wait')}"`);
  }
  for (const flag of ['memory', 'disk']) {
    if (text(flag) !== undefined && !SIZE.test(text(flag))) {
      problems.push(`--${flag} must be a size cf takes (512M, 1G), not "${text(flag)}"`);
    }
  }
  let app = text('app');
  try {
    app ??= optionalSetting({ env, vars: readVarsQuietly(env) }, 'cfApp');
  } catch (error) {
    if (!(error instanceof CfScriptError)) throw error;
    problems.push(error.message);
  }
  if (!app) problems.push('which app? give --app NAME, or set CF_APP, or app_name in vars.yml');
  const driver = driverArgv(argv);
  // Checked here as part 1 would read them, so the tasks do not all fail alike.
  const ownTarget = driver.some((arg) => /^(--target|--url|-u)(=|$)/.test(arg));
  const placeholder = ownTarget ? [] : ['--target', 'https://app.example.com'];
  const checked = parseArguments([...driver, ...placeholder, '--part', `1/${parts ?? 1}`, '--seed', String(seed)], {});
  problems.push(...checked.problems.filter((problem) => !problems.includes(problem)));
  if (!checked.problems.length && checked.options.direct) {
    problems.push('npm run load:cf loads the app over HTTP: --direct would open the stores from each task');
  }
  return {
    help: values.help === true,
    options: {
      parts,
      app,
      seed,
      startAt,
      wait,
      driver,
      ownTarget,
      memory: text('memory'),
      disk: text('disk'),
      json: text('json'),
      csv: text('csv'),
      html: text('html'),
      assert: values.assert ?? [],
      quiet: values.quiet === true,
    },
    problems,
  };
}

function readVarsQuietly(env) {
  try {
    return parseVars(readFileSync(resolve(optionalSetting({ env }, 'cfVarsFile')), 'utf8'));
  } catch {
    return {};
  }
}

/** The app's write token: STOREBENCH_WRITE_TOKEN, else the vars file's, else the one npm run push kept. */
export function loadToken(env = process.env) {
  if (env.STOREBENCH_WRITE_TOKEN) return env.STOREBENCH_WRITE_TOKEN;
  const vars = readVarsQuietly(env);
  if (vars.write_token) return vars.write_token;
  try {
    const file = writeTokenFile(optionalSetting({ env }, 'cfVarsFile'));
    return parseVars(readFileSync(resolve(file), 'utf8')).write_token;
  } catch {
    return undefined;
  }
}

/** The app's first route out of `cf app NAME` output, as a URL (http:// only for a loopback host). */
export function routeOf(text) {
  const route = /^routes:\s*([^\s,]+)/m.exec(text)?.[1];
  if (!route) {
    throw new CfScriptError(
      'cf app shows no route for the app: map one (cf map-route), or give --target URL',
    );
  }
  if (/^https?:\/\//.test(route)) return route;
  return /^(localhost|127\.[\d.]+|\[::1\])(:\d+)?(\/|$)/.test(route) ? `http://${route}` : `https://${route}`;
}

const shellQuote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

/**
 * The shell command of task `index`: the driver as part index/parts, its results file and
 * log in the task's TMPDIR, then send-result.js putting one or the other into the results
 * area. No secret in it: the token is in the task's environment (the app's).
 */
export function taskCommand({ index, parts, seed, startAt, driver, target, url, run, guid }) {
  // Named by run and part: a task has a TMPDIR of its own, but tasks run side by side on one
  // machine (the stand-in cf, a test) would overwrite each other's files.
  const file = `"\${TMPDIR:-/tmp}/storebench-${run}-${index}.json"`;
  const log = `"\${TMPDIR:-/tmp}/storebench-${run}-${index}.log"`;
  const args = [
    ...driver.map(shellQuote), ...(target ? ['--target', shellQuote(target)] : []),
    ...partFlags({ index, count: parts, seed, startAt }),
  ];
  return [
    `node test.js ${args.join(' ')} --json ${file} 2>${log}`,
    `code=$?; cat ${log} >&2`,
    `node scripts/cf/send-result.js ${[url, run, String(index), guid].map(shellQuote).join(' ')} ${file} $code ${log}`,
    `rm -f ${file} ${log}`,
    'exit $code',
  ].join('; ');
}

/** A new run id: where the run's results go in the results area. */
export const newRunId = () => randomBytes(9).toString('base64url');

/**
 * Polls GET url/_results/run/I for parts 1..parts until all are in or `deadline` passes.
 * Resolves to { results: Map(index -> text), failed: Map(index -> line), missing: [index] }.
 */
export async function collectResults({
  url, run, parts, guid, token, deadline, intervalMs = 2000, log = () => {}, now = Date.now,
}) {
  const results = new Map();
  const failed = new Map();
  const headers = { 'x-cf-app-instance': `${guid}:0`, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const base = url.replace(/\/+$/, '');
  let told = -1;
  let lastTold = 0;
  for (;;) {
    for (let index = 1; index <= parts; index += 1) {
      if (results.has(index) || failed.has(index)) continue;
      const response = await fetch(`${base}/_results/${run}/${index}`, { headers }).catch((error) => ({ error }));
      if (response.status === 200) {
        const text = await response.text();
        const failure = /^\{"partFailed":/.test(text) ? JSON.parse(text).partFailed : null;
        if (failure) failed.set(index, failure.line);
        else results.set(index, text);
      } else if (response.status === 401 || response.status === 403) {
        const body = await response.json().catch(() => ({}));
        const why = body.code ?? `HTTP ${response.status}`;
        throw new CfScriptError(`the app refused to show the results (${why}): give its write token as ` +
          'STOREBENCH_WRITE_TOKEN');
      } else if (response.body) {
        await response.body.cancel();
      }
    }
    const done = results.size + failed.size;
    if (done === parts) return { results, failed, missing: [] };
    if (now() >= deadline) {
      const missing = [];
      for (let index = 1; index <= parts; index += 1) {
        if (!results.has(index) && !failed.has(index)) missing.push(index);
      }
      return { results, failed, missing };
    }
    if (done !== told || now() - lastTold >= 30_000) {
      log(`${done} of ${parts} parts in; waiting until ${new Date(deadline).toISOString()} at the latest`);
      told = done;
      lastTold = now();
    }
    await new Promise((resolve) => { setTimeout(resolve, intervalMs); });
  }
}

/** The merged Result of the parts' texts; a CfScriptError (exit 1) naming each part missing or failed. */
export function mergeCollected({ results, failed, missing }, { parts, app }) {
  const lines = [
    ...[...failed].map(([index, line]) => `part ${index} of ${parts} failed: ${line}`),
    ...missing.map((index) => `part ${index} of ${parts}: no result by the deadline (cf tasks ${app}; ` +
      `cf logs ${app} --recent)`),
  ];
  if (lines.length) throw new CfScriptError(lines.join('\n'), 1);
  const inputs = [...results].sort(([a], [b]) => a - b)
    .map(([index, text]) => ({ file: `part-${index}-of-${parts}`, result: fromJson(text) }));
  return inputs.length === 1 ? inputs[0].result : mergeResults(inputs);
}
