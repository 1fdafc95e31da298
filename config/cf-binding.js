// Which service bound on Cloud Foundry (VCAP_SERVICES) is whose, by each service's `vcap` in
// config/services.js: its offering labels first, then binding tags, then a word of the service's name
// (how `cf cups` services such as "my-redis" are found); schemes and iam: config/cf-credentials.js.
import { vcapServices, VcapError } from './cf-env.js';
import { connectionFromCredentials } from './cf-credentials.js';
import { kindOf } from './kind-of.js';

const words = (text) => String(text ?? '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
const lower = (list) => (Array.isArray(list) ? list : []).map((item) => String(item).toLowerCase());
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// Every service bound in VCAP_SERVICES, read so that a malformed one still finds its store and makes
// only that store unavailable: { service, what: 'bound service "x"', problem? }.
export function boundServices(vcapServices) {
  const bound = [];
  for (const [key, list] of Object.entries(vcapServices ?? {})) {
    if (!Array.isArray(list)) {
      bound.push({
        service: { name: key, label: key, tags: [] },
        what: `VCAP_SERVICES's "${key}"`,
        problem: `it is ${kindOf(list)}, expected a list of services`,
      });
      continue;
    }
    list.forEach((entry, index) => {
      const position = `entry ${index + 1} of VCAP_SERVICES's "${key}"`;
      if (!isObject(entry)) {
        bound.push({
          service: { name: position, label: key, tags: [] },
          what: position,
          problem: `it is ${kindOf(entry)}, expected a service object`,
        });
        return;
      }
      const problems = [];
      const check = (field, expected, ok) => {
        const value = entry[field];
        if (value === undefined || ok(value)) return value;
        problems.push(`its ${field} is ${kindOf(value)}, expected ${expected}`);
        return undefined;
      };
      const name = check('name', 'text', (v) => typeof v === 'string');
      const label = check('label', 'text', (v) => typeof v === 'string') ?? key;
      const isText = (tag) => typeof tag === 'string';
      let tags = check('tags', 'a list of text, e.g. ["redis"]', (v) => Array.isArray(v) && v.every(isText));
      if (tags === undefined) {
        tags = typeof entry.tags === 'string'
          ? words(entry.tags)
          : Array.isArray(entry.tags) ? entry.tags.filter(isText) : [];
      }
      const service = { ...entry, name: name ?? position, label, tags };
      const what = name === undefined ? position : `bound service "${name}"`;
      bound.push(problems.length ? { service, what, problem: problems.join('; ') } : { service, what });
    });
  }
  return bound;
}

/** @returns {{ service: object, how: 'label'|'tag'|'name' } | null} */
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

// null when nothing bound matches; { connection, source } or { unavailable: reason }.
export function resolveFromVcap(name, matcher, env = process.env) {
  if (!matcher || !env.VCAP_SERVICES) return null;
  let services;
  try {
    services = vcapServices(env);
  } catch (error) {
    if (error instanceof VcapError) return { unavailable: error.message };
    throw error;
  }
  const bound = boundServices(services);
  const found = findBinding(bound.map((entry) => entry.service), matcher);
  if (!found) return null;
  const { service, how } = found;
  const entry = bound.find((candidate) => candidate.service === service);
  const cannot = `${entry.what} (${service.label}, matched by ${how}) cannot be used for ${name}`;
  if (entry.problem) return { unavailable: `${cannot}: ${entry.problem}` };
  const result = connectionFromCredentials(service.credentials, matcher);
  if (result.problem) return { unavailable: `${cannot}: ${result.problem}` };
  return { connection: result.connection, source: `VCAP_SERVICES ${service.name}` };
}
