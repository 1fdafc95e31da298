// Cloud Foundry's environment: VCAP_APPLICATION (the app itself, its port) and VCAP_SERVICES
// (the services bound to it), read without ever logging their content: VCAP_SERVICES is full
// of passwords. The app reads both itself; cfenv's AppEnv is for the scripts. Matching a bound
// service to a store is config/cf-binding.js's job; turning its credentials into a connection
// is config/cf-credentials.js's.
import { createRequire } from 'node:module';

// cfenv is loaded only when VCAP_* is set: its `ports` dependency throws at load time when
// HOME is unset, which would take down the app and `npm run seed` everywhere else.
const loadCfenv = () => createRequire(import.meta.url)('cfenv');

/** VCAP_SERVICES or VCAP_APPLICATION that is not JSON: reported without its content. */
export class VcapError extends Error {}

function parseJson(env, variable) {
  const text = env[variable];
  if (text === undefined || text === '') return undefined;
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {}
  // Never quote the text. (cfenv itself would log it.)
  throw new VcapError(`${variable} is set but is not a JSON object ` +
    `(${text.length} characters, not shown: it may hold credentials)`);
}

/**
 * VCAP_SERVICES as an object (label -> list of bound services), or undefined when it is not
 * set. Throws VcapError when it is not a JSON object. Read without cfenv: its getServices()
 * throws on a null entry, and loading it at all throws when HOME is unset.
 */
export const vcapServices = (env = process.env) => parseJson(env, 'VCAP_SERVICES');

/**
 * VCAP_APPLICATION as an object when env is Cloud Foundry's, else null (also when it is not
 * JSON: an app that cannot tell where it runs behaves as it does off the platform).
 */
export function cloudFoundryApplication(env = process.env) {
  try {
    return parseJson(env, 'VCAP_APPLICATION') ?? null;
  } catch {
    return null;
  }
}

/**
 * The port the platform gives the app, beyond PORT (the environment tier of the port
 * setting): CF_INSTANCE_PORT, then VCAP_APP_PORT, then VCAP_APPLICATION's port, which is
 * cfenv's order after PORT. undefined off Cloud Foundry or when it names none.
 * @returns {{ value: string|number, source: string } | undefined}
 */
export function cloudFoundryPort(env = process.env) {
  const application = cloudFoundryApplication(env);
  if (!application) return undefined;
  for (const variable of ['CF_INSTANCE_PORT', 'VCAP_APP_PORT']) {
    if (env[variable]) return { value: env[variable], source: variable };
  }
  if (application.port !== undefined && application.port !== null && application.port !== '') {
    return { value: application.port, source: 'VCAP_APPLICATION' };
  }
  return undefined;
}

/**
 * cfenv's AppEnv for env, or null when env has neither VCAP_SERVICES nor VCAP_APPLICATION.
 * Throws VcapError when one of them is not JSON, before cfenv could log its content.
 *
 * cfenv reads process.env when VCAP_APPLICATION is set there (on Cloud Foundry, where env is
 * process.env anyway); otherwise it takes what we pass, which lets tests hand it any env.
 */
export function cloudFoundryEnv(env = process.env) {
  const services = parseJson(env, 'VCAP_SERVICES');
  const application = parseJson(env, 'VCAP_APPLICATION');
  if (!services && !application) return null;
  if (env !== process.env && process.env.VCAP_APPLICATION !== undefined) {
    // cfenv will read process.env's instead: check those before it can log them
    parseJson(process.env, 'VCAP_SERVICES');
    parseJson(process.env, 'VCAP_APPLICATION');
  }
  return loadCfenv().getAppEnv({
    name: application?.name ?? 'storebench',
    vcap: {
      // cfenv works out a port of its own, which nothing here uses (config/settings.js decides
      // the port). Never leave it none: cfenv would invent one and record it in ~/.ports.json.
      application: { ...application, port: application?.port || 3000 },
      services: services ?? {},
    },
  });
}
