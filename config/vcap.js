// Cloud Foundry: the app's port and the backing services bound to it (VCAP_SERVICES), read
// with cfenv and turned into the same connections an environment variable gives:
// { url, apikey?, ca? }. Which bound service is whose is declared per service in
// stores/services.js as `vcap: { labels, tags, schemes, iam? }`:
//
//   labels   offering labels, e.g. 'cloudantNoSQLDB', 'rediscloud' (matched first)
//   tags     tags on the binding, e.g. 'redis' (matched next); a service's name made of
//            words such as "my-redis" or "storebench_cloudant" matches a tag word last,
//            which is how user-provided services (`cf cups`) are found
//   schemes  URL schemes the store speaks, e.g. ['redis', 'rediss']: the first builds a URL
//            from hostname/port/password credentials, all are accepted in url/uri
//   iam      true when the store takes an IBM Cloud IAM API key (Cloudant)
//
// Secrets: nothing here puts a credential into an error message, and every password or API
// key found is remembered by util/redact.js so it is masked wherever it might turn up.
import { createRequire } from 'node:module';
import { addSecrets } from '../util/redact.js';

// cfenv is loaded only on Cloud Foundry (VCAP_* set): its `ports` dependency throws at load
// time when HOME is unset, which would take down the app and `npm run seed` everywhere else.
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
  // Never quote the text: VCAP_SERVICES is full of passwords. (cfenv itself would log it.)
  throw new VcapError(`${variable} is set but is not a JSON object (${text.length} characters, not shown: it may hold credentials)`);
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
      application: {
        ...application,
        // cfenv takes PORT from process.env, else from here: give it env's. And never leave
        // it none: cfenv would invent one and record it in ~/.ports.json. 3000 is the app's default.
        port: Number(env.PORT || env.CF_INSTANCE_PORT || env.VCAP_APP_PORT) || application?.port || 3000,
      },
      services: services ?? {},
    },
  });
}

/**
 * When env is Cloud Foundry's (VCAP_APPLICATION set): { name, port, urls }, port being the
 * one the platform routes to (cfenv: PORT, then CF_INSTANCE_PORT, VCAP_APP_PORT). Else null.
 */
export function cloudFoundryApp(env = process.env) {
  let application;
  try {
    application = parseJson(env, 'VCAP_APPLICATION');
  } catch {
    return null;
  }
  if (!application) return null;
  try {
    const appEnv = cloudFoundryEnv(env);
    return { name: appEnv.name, port: appEnv.port, urls: appEnv.urls };
  } catch (error) {
    if (!(error instanceof VcapError)) throw error;
    // A broken VCAP_SERVICES is reported per store; the port does not depend on it, and
    // cfenv would log the broken text: take the port the way cfenv does.
    const port = Number(env.PORT || env.CF_INSTANCE_PORT || env.VCAP_APP_PORT || application.port || 3000);
    return { name: application.name, port, urls: [] };
  }
}

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

const decodeBase64 = (text) => Buffer.from(text, 'base64').toString('utf8');

function withoutCredentials(text) {
  const url = new URL(text);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/$/, '');
}

/**
 * The connection a bound service's credentials describe, for a store declaring matcher.
 * Understands, in this order:
 *   IBM Cloud Databases   connection.<scheme>.composed[0], CA in certificate.certificate_base64
 *   IAM (matcher.iam)     apikey + url or host; the URL's own user:password is dropped
 *   url / uri             as given (user:password inside it, or in username/password fields)
 *   hostname/host + port  (+ password, username): Redis Cloud, Tanzu Redis, `cf cups -p`
 * @returns {{ connection: object } | { problem: string }} problem names fields, never values
 */
export function connectionFromCredentials(credentials = {}, matcher = {}) {
  const schemes = matcher.schemes ?? [];
  const fields = Object.keys(credentials).sort().join(', ') || 'none';
  let connection;

  const databases = schemes.map((scheme) => credentials.connection?.[scheme]).find((block) => block?.composed?.length);
  if (databases) {
    const password = databases.authentication?.password;
    let url = String(databases.composed[0]);
    if (password) url = url.replace('$PASSWORD', encodeURIComponent(password));
    connection = { url };
    const ca = databases.certificate?.certificate_base64;
    if (ca) connection.ca = decodeBase64(ca);
    addSecrets(password);
  } else if (matcher.iam && credentials.apikey) {
    const base = credentials.url ?? (credentials.host ? `https://${credentials.host}` : undefined);
    if (!base) return { problem: `it has an apikey but no url or host (fields: ${fields})` };
    try {
      connection = { url: withoutCredentials(base), apikey: credentials.apikey };
    } catch {
      return { problem: 'its url is not a valid URL' };
    }
  } else if (credentials.url || credentials.uri) {
    connection = { url: String(credentials.url ?? credentials.uri) };
    let parsed;
    try { parsed = new URL(connection.url); } catch { return { problem: `its ${credentials.url ? 'url' : 'uri'} is not a valid URL` }; }
    if (!parsed.password && credentials.password) {
      if (credentials.username && !parsed.username) parsed.username = encodeURIComponent(credentials.username);
      parsed.password = encodeURIComponent(credentials.password);
      connection.url = parsed.href;
    }
  } else if ((credentials.hostname || credentials.host) && schemes.length) {
    const host = credentials.hostname || credentials.host;
    const port = credentials.port === undefined || credentials.port === '' ? '' : String(credentials.port);
    if (port && !/^\d+$/.test(port)) return { problem: `its port is not a number (fields: ${fields})` };
    const user = credentials.username ? encodeURIComponent(credentials.username) : '';
    const auth = credentials.password ? `${user}:${encodeURIComponent(credentials.password)}@` : user ? `${user}@` : '';
    connection = { url: `${schemes[0]}://${auth}${host}${port ? `:${port}` : ''}` };
  } else {
    return { problem: `no usable credentials (fields: ${fields}; expected url, uri, hostname and port${schemes.length ? `, or connection.${schemes[0]}.composed` : ''})` };
  }

  let url;
  try { url = new URL(connection.url); } catch { return { problem: 'its credentials do not make a valid URL' }; }
  const scheme = url.protocol.slice(0, -1);
  if (schemes.length && !schemes.includes(scheme)) {
    return { problem: `its URL scheme is ${scheme}:, expected ${schemes.map((s) => `${s}:`).join(' or ')}` };
  }
  addSecrets(credentials.password, credentials.apikey, decodeURIComponent(url.password));
  return { connection };
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
