// Where each backing server comes from, decided in one place, first match wins:
//   1. an explicit option (the CLI's flags pass these),
//   2. an environment variable (REDIS_URL, CLOUDANT_URL, ...),
//   3. a service bound on Cloud Foundry (VCAP_SERVICES, matched as config/cf-binding.js says),
//   4. the embedded default: a server started here, if it can be.
import { services } from './services.js';
import { addConnectionSecrets, redactUrl } from '../util/redact.js';
import { resolveFromVcap } from './cf-binding.js';

/**
 * Resolves one backing service.
 * @returns {Promise<{ connection: object, stop?: () => Promise<void> } | { unavailable: string, code: string }>}
 *   code: NOT_CONFIGURED, NOT_INSTALLED, START_FAILED or BAD_BINDING (util/errors.js)
 *   connection: { url, source, display (redacted url), ...extras }
 */
export async function resolveService(name, { env = process.env, overrides = {}, embedded = true } = {}) {
  const service = services[name];
  if (!service) throw new Error(`unknown backing service "${name}"`);
  const extras = Object.fromEntries(
    Object.entries(service.extras ?? {})
      .filter(([, variable]) => env[variable])
      .map(([field, variable]) => [field, env[variable]]),
  );

  if (overrides[name]) return { connection: describe({ url: overrides[name], ...extras }, 'option') };
  const variable = service.env.find((candidate) => env[candidate]);
  if (variable) return { connection: describe({ url: env[variable], ...extras }, variable) };
  const bound = resolveFromVcap(name, service.vcap, env);
  if (bound?.unavailable) return { unavailable: bound.unavailable, code: 'BAD_BINDING' };
  if (bound) return { connection: describe({ ...bound.connection, ...extras }, bound.source) };

  if (!embedded) return { unavailable: `not configured: set ${service.env.join(' or ')}${service.vcap ? ' or bind a service on Cloud Foundry' : ''}`, code: 'NOT_CONFIGURED' };
  try {
    const server = await service.startEmbedded(env);
    return { connection: describe({ url: server.url, ...extras }, 'embedded'), stop: server.stop };
  } catch (error) {
    return { unavailable: error.message, code: error.code === 'NOT_INSTALLED' ? 'NOT_INSTALLED' : 'START_FAILED' };
  }
}

function describe(connection, source) {
  addConnectionSecrets(connection);
  return { ...connection, source, display: redactUrl(connection.url) };
}
