// The one rule that answers every setting in config/settings.js, as node-postgres's
// connection-parameters.js answers each field with val(key, config, envVar). First tier that
// has a value wins:
//   1. an explicit option: a command-line flag, or the setting passed to startApp/openStores
//   2. an environment variable (the first of the setting's that is set)
//   3. Cloud Foundry: VCAP_APPLICATION / VCAP_SERVICES, for settings the platform gives
//   4. the default (for the Cloud Foundry scripts: their vars file)
// An empty environment variable counts as unset, as an empty PORT= does in a shell; an explicit
// option does not (`--stores ""` is a mistake to report, not a request for the default).
import { settings } from './settings.js';
import { SettingValueError } from './setting-values.js';

const isGiven = (value) => value !== undefined && value !== null;
const isSet = (value) => isGiven(value) && value !== '';

/**
 * One setting's value and where it came from.
 * @param {string} key  a key of config/settings.js
 * @param {object} [sources]
 * @param {object} [sources.options]  explicit options, by setting key
 * @param {object} [sources.env]  the environment (default process.env)
 * @param {object} [sources.vars]  the Cloud Foundry scripts' vars file
 * @returns {{ value: *, source: string } | { problem: string, source: string }}
 *   source: 'option', an environment variable's name, a Cloud Foundry source such as
 *   'VCAP_SERVICES storebench-redis', 'vars file' or 'default'. value is undefined when no
 *   tier gives one and there is no default (a store's location: the embedded default).
 *   A problem names where the bad value came from, and quotes it unless the setting is secret.
 */
export function resolveSetting(key, { options = {}, env = process.env, vars } = {}) {
  const setting = settings[key];
  if (!setting) throw new TypeError(`unknown setting "${key}"`);
  const parse = (raw, source, where) => {
    try {
      return { value: setting.parse(raw), source };
    } catch (error) {
      if (!(error instanceof SettingValueError)) throw error;
      const shown = setting.secret || raw === '' ? '' : `, not "${raw}"`;
      return { problem: `${where} ${error.message}${shown}`, source };
    }
  };

  if (isGiven(options[key])) return parse(options[key], 'option', setting.flag?.split(' ')[0] ?? `option ${key}`);
  const variable = setting.env.find((name) => isSet(env[name]));
  if (variable) return parse(env[variable], variable, variable);
  const platform = setting.cloudFoundry?.(env);
  if (platform?.problem) return { problem: platform.problem, source: 'Cloud Foundry' };
  if (platform) return parse(platform.value, platform.source, platform.source);
  if (setting.varsFile && isSet(vars?.[setting.varsFile])) {
    return parse(vars[setting.varsFile], 'vars file', `${setting.varsFile} in the vars file`);
  }
  return { value: setting.default, source: 'default' };
}

/**
 * Every setting of the given scopes (config/settings.js), with every problem at once.
 * @param {object} sources  as resolveSetting's
 * @param {string[]} scopes  e.g. ['app', 'store']
 * @returns {{ settings: object, sources: object, problems: string[] }} by setting key
 */
export function resolveSettings(sources, scopes) {
  const resolved = { settings: {}, sources: {}, problems: [] };
  for (const [key, setting] of Object.entries(settings)) {
    if (!scopes.includes(setting.scope)) continue;
    const { value, source, problem } = resolveSetting(key, sources);
    if (problem) resolved.problems.push(problem);
    else resolved.settings[key] = value;
    resolved.sources[key] = source;
  }
  return resolved;
}
