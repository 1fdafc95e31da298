// Which service bound on Cloud Foundry (VCAP_SERVICES) is whose. Each backing service
// declares in config/services.js how its bindings look, as `vcap: { labels, tags, schemes, iam? }`:
//
//   labels   offering labels, e.g. 'cloudantNoSQLDB', 'rediscloud' (matched first)
//   tags     tags on the binding, e.g. 'redis' (matched next); a service's name made of
//            words such as "my-redis" or "storebench_cloudant" matches a tag word last,
//            which is how user-provided services (`cf cups`) are found
//   schemes  URL schemes the service speaks, e.g. ['redis', 'rediss'] (config/cf-credentials.js)
//   iam      true when it takes an IBM Cloud IAM API key (Cloudant)
import { cloudFoundryEnv, VcapError } from './cf-env.js';
import { connectionFromCredentials } from './cf-credentials.js';

const words = (text) => String(text ?? '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
const lower = (list) => (list ?? []).map((item) => String(item).toLowerCase());

/**
 * The bound service matcher picks, by label, then tag, then a word of its name, or null.
 * @returns {{ service: object, how: 'label'|'tag'|'name' } | null}
 */
export function findBinding(bound, matcher) {
  const labels = lower(matcher.labels);
  const tags = lower(matcher.tags);
  const rules = [
    ['label', (service) => labels.includes(String(service.label ?? '').toLowerCase())],
    ['tag', (service) => lower(service.tags).some((tag) => tags.includes(tag))],
    ['name', (service) => words(service.name).some((word) => tags.includes(word))],
  ];
  for (const [how, matches] of rules) {
    const service = bound.find(matches);
    if (service) return { service, how };
  }
  return null;
}

/**
 * The connection for backing service `name` from the services bound in env's VCAP_SERVICES:
 *   null                          nothing bound matches (or no VCAP_SERVICES)
 *   { connection, source }        source: "VCAP_SERVICES <instance name>"
 *   { unavailable: reason }       VCAP_SERVICES is broken, or the match has no usable credentials
 */
export function resolveFromVcap(name, matcher, env = process.env) {
  if (!matcher || !env.VCAP_SERVICES) return null;
  let appEnv;
  try {
    appEnv = cloudFoundryEnv(env);
  } catch (error) {
    if (error instanceof VcapError) return { unavailable: error.message };
    throw error;
  }
  const found = findBinding(Object.values(appEnv.getServices()), matcher);
  if (!found) return null;
  const { service, how } = found;
  const result = connectionFromCredentials(service.credentials ?? {}, matcher);
  const what = `bound service "${service.name}" (${service.label ?? 'no label'}, matched by ${how})`;
  if (result.problem) return { unavailable: `${what} cannot be used for ${name}: ${result.problem}` };
  return { connection: result.connection, source: `VCAP_SERVICES ${service.name}` };
}
