// The options about the app node test runs against rather than the load: its processes
// (--app-workers), what serves it (--framework), where its CPU goes (--profile), and what the app
// it starts is handed (the write token, the stores' network, Server-Timing). Each returns its
// value and adds a problem for what it cannot be combined with.
import { FRAMEWORK_NAMES, TOKEN_ENV } from '../config/settings.js';
import { SettingValueError, workerCount } from '../config/setting-values.js';
import { parseServerTiming } from './server-timing.js';
import { parseStoreDelay } from './store-delay.js';
import { defaultOf } from './table.js';

/**
 * { appWorkers, framework, profile } of the app node test runs against. `stores`: --stores as
 * given; `workload`: the workload's options (memory refuses writes in an app of several workers).
 */
export function appSideOptions(values, problems, { direct, target, urls, stores, workload }) {
  const appWorkers = parseAppWorkers(values.appWorkers, { direct, target, urls }, problems);
  const framework = parseFramework(values.framework, { direct, target, urls }, problems);
  const profile = parseProfile(values.profile, { direct, urls }, problems);
  if (appWorkers > 1 && workload.keySpace && stores?.includes('memory')) {
    problems.push(`--app-workers ${appWorkers}: memory refuses writes in an app of several workers (each has its ` +
      `own copy), and the ${workload.workload.name} workload writes or loads records: leave memory out of ` +
      '--stores, or use --app-workers 1');
  }
  return { appWorkers, framework, profile };
}

/** { token, storeDelay, serverTiming? }: what the app node test starts is handed. */
export function startedAppOptions({ text }, values, problems, { env, direct, target, urls }) {
  const token = text('token') ?? (env[TOKEN_ENV] || undefined);
  const overRunningApp = urls.length > 0 || target !== undefined;
  const storeDelay = parseStoreDelay(values, problems, { overRunningApp });
  const serverTiming = parseServerTiming(values, problems, { overRunningApp, direct });
  return { token, storeDelay, ...(serverTiming === undefined ? {} : { serverTiming }) };
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

/** --framework LIST: the frameworks of the app node test starts, or null where it starts none. */
function parseFramework(items, { direct, target, urls }, problems) {
  if (items === undefined) return direct || target !== undefined || urls.length ? null : [FRAMEWORK_NAMES[0]];
  const unknown = items.filter((name) => !FRAMEWORK_NAMES.includes(name));
  for (const name of unknown) problems.push(`--framework must be ${FRAMEWORK_NAMES.join(', ')}, not "${name}"`);
  if (!items.length) problems.push(`--framework needs at least one of ${FRAMEWORK_NAMES.join(', ')}`);
  if (direct || target !== undefined || urls.length) {
    const why = direct
      ? '--direct calls the stores in this process, with no app'
      : 'a running app (--target, --url) serves on its own: start it with node app.js --framework NAME';
    problems.push(`--framework chooses what serves the app.js node test starts: ${why}`);
  }
  return [...new Set(items)];
}

/** --profile: on, or off; not where there is no app of ours to profile. */
function parseProfile(given, { direct, urls }, problems) {
  if (given !== true) return false;
  if (direct) problems.push('--profile profiles the app: --direct has none (the stores are called in this process)');
  if (urls.length) {
    problems.push('--profile asks a storebench app to profile itself: --url names any URLs; use --target ' +
      'with an app started with --allow-profiling');
  }
  return true;
}
