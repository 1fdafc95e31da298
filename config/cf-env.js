// Cloud Foundry's environment (VCAP_APPLICATION, VCAP_SERVICES), read without ever logging it:
// VCAP_SERVICES is full of passwords. The app reads both itself; cfenv's AppEnv is for the scripts.
import { createRequire } from 'node:module';

// cfenv loads only when VCAP_* is set: its `ports` dependency throws at load time when HOME is unset.
const require = createRequire(import.meta.url);
const loadCfenv = () => require('cfenv');

export class VcapError extends Error {}

function parseJson(env, variable) {
  const text = env[variable];
  if (text === undefined || text === '') return undefined;
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {}
  // Never quote the text (cfenv itself would log it).
  throw new VcapError(`${variable} is set but is not a JSON object ` +
    `(${text.length} characters, not shown: it may hold credentials)`);
}

// Read without cfenv: its getServices() throws on a null entry.
export const vcapServices = (env = process.env) => parseJson(env, 'VCAP_SERVICES');

// null also when not JSON: an app that cannot tell where it runs behaves as off the platform.
export function cloudFoundryApplication(env = process.env) {
  try {
    return parseJson(env, 'VCAP_APPLICATION') ?? null;
  } catch {
    return null;
  }
}

// Beyond PORT: CF_INSTANCE_PORT, VCAP_APP_PORT, then VCAP_APPLICATION's port (cfenv's order).
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

// Throws VcapError when VCAP_* is not JSON, before cfenv could log it. cfenv reads process.env when
// VCAP_APPLICATION is set there, else what we pass (which lets tests hand it any env).
export function cloudFoundryEnv(env = process.env) {
  const services = parseJson(env, 'VCAP_SERVICES');
  const application = parseJson(env, 'VCAP_APPLICATION');
  if (!services && !application) return null;
  if (env !== process.env && process.env.VCAP_APPLICATION !== undefined) {
    parseJson(process.env, 'VCAP_SERVICES');
    parseJson(process.env, 'VCAP_APPLICATION');
  }
  return loadCfenv().getAppEnv({
    name: application?.name ?? 'storebench',
    vcap: {
      // Never leave cfenv without a port: it would invent one and record it in ~/.ports.json.
      application: { ...application, port: application?.port || 3000 },
      services: services ?? {},
    },
  });
}
