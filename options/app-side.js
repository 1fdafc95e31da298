// The options about the app node test runs against rather than the load: --framework (what serves
// the app it starts) and --profile (where that app's CPU goes). Each returns its value and adds a
// problem for what it cannot be combined with.
import { FRAMEWORK_NAMES } from '../config/settings.js';

/** --framework LIST: the frameworks of the app node test starts, or null where it starts none. */
export function parseFramework(items, { direct, target, urls }, problems) {
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
export function parseProfile(given, { direct, urls }, problems) {
  if (given !== true) return false;
  if (direct) problems.push('--profile profiles the app: --direct has none (the stores are called in this process)');
  if (urls.length) {
    problems.push('--profile asks a storebench app to profile itself: --url names any URLs; use --target ' +
      'with an app started with --allow-profiling');
  }
  return true;
}
