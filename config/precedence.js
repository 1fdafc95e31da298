// The one rule that answers every setting in config/settings.js; the first tier with a value wins:
// an explicit option (a flag, or passed to startApp/openStores), an environment variable, Cloud
// Foundry, the default. An empty environment variable counts as unset; an explicit option does not
// (`--stores ""` is a mistake to report, not a request for the default).
import { settings } from './settings.js';
import { SettingValueError } from './setting-values.js';

const isGiven = (value) => value !== undefined && value !== null;
const isSet = (value) => isGiven(value) && value !== '';

/**
 * @param {string} key  a key of config/settings.js
 * @param {{ options?: object, env?: object, vars?: object }} [sources]  vars: the Cloud Foundry scripts' vars file
 * @returns {{ value: *, source: string } | { problem: string, source: string }}  value undefined when
 *   nothing gives one (a store's location: the embedded default). A problem quotes the value unless
 *   the setting is secret.
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

// Every setting of the given scopes, with every problem at once.
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
