// A bound service's credentials turned into the connection an environment variable would give:
// { url, apikey?, ca? }. A problem names fields, never values (util/redact.js masks a URL's password).
import { kindOf } from './kind-of.js';

const decodeBase64 = (text) => Buffer.from(text, 'base64').toString('utf8');

// A number as an API key or password is refused rather than turned into text: 0123 would have lost its 0.
const TEXT_FIELDS = ['url', 'uri', 'hostname', 'host', 'username', 'password', 'apikey'];

function fieldTypeProblem(credentials) {
  for (const field of TEXT_FIELDS) {
    const value = credentials[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return `its ${field} is ${kindOf(value)}, expected text`;
    }
  }
  const { port } = credentials;
  if (port !== undefined && port !== null && typeof port !== 'string' && typeof port !== 'number') {
    return `its port is ${kindOf(port)}, expected a number`;
  }
  return undefined;
}

function withoutCredentials(text) {
  const url = new URL(text);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/$/, '');
}

/**
 * Understands, in this order:
 *   IBM Cloud Databases   connection.<scheme>.composed[0], CA in certificate.certificate_base64
 *   IAM (matcher.iam)     apikey + url or host; the URL's own user:password is dropped
 *   url / uri             as given (user:password inside it, or in username/password fields)
 *   hostname/host + port  (+ password, username): Redis Cloud, Tanzu Redis, `cf cups -p`
 */
export function connectionFromCredentials(credentials = {}, matcher = {}) {
  const schemes = matcher.schemes ?? [];
  if (credentials === null || typeof credentials !== 'object' || Array.isArray(credentials)) {
    return {
      problem: `its credentials are ${kindOf(credentials)}, expected an object with url, uri, or hostname and port`,
    };
  }
  const fields = Object.keys(credentials).sort().join(', ') || 'none';
  const wrongType = fieldTypeProblem(credentials);
  if (wrongType) return { problem: wrongType };
  let connection;

  const scheme = schemes.find((name) =>
    Array.isArray(credentials.connection?.[name]?.composed) && credentials.connection[name].composed.length);
  if (scheme) {
    const databases = credentials.connection[scheme];
    const password = databases.authentication?.password;
    if (typeof databases.composed[0] !== 'string') {
      return { problem: `its connection.${scheme}.composed[0] is ${kindOf(databases.composed[0])}, expected a URL` };
    }
    if (password !== undefined && typeof password !== 'string') {
      return { problem: `its connection.${scheme}.authentication.password is ${kindOf(password)}, expected text` };
    }
    let url = databases.composed[0];
    if (password) url = url.replace('$PASSWORD', encodeURIComponent(password));
    connection = { url };
    const ca = databases.certificate?.certificate_base64;
    if (ca) connection.ca = decodeBase64(ca);
  } else if (matcher.iam && credentials.apikey) {
    const base = credentials.url ?? (credentials.host ? `https://${credentials.host}` : undefined);
    if (!base) return { problem: `it has an apikey but no url or host (fields: ${fields})` };
    try {
      connection = { url: withoutCredentials(base), apikey: credentials.apikey };
    } catch {
      return { problem: 'its url is not a valid URL' };
    }
  } else if (credentials.url || credentials.uri) {
    connection = { url: credentials.url || credentials.uri };
    let parsed;
    try {
      parsed = new URL(connection.url);
    } catch {
      return { problem: `its ${credentials.url ? 'url' : 'uri'} is not a valid URL` };
    }
    if (!parsed.password && credentials.password) {
      if (credentials.username && !parsed.username) parsed.username = encodeURIComponent(credentials.username);
      parsed.password = encodeURIComponent(credentials.password);
      connection.url = parsed.href;
    }
  } else if ((credentials.hostname || credentials.host) && schemes.length) {
    const host = credentials.hostname || credentials.host;
    const port = credentials.port === undefined || credentials.port === null || credentials.port === ''
      ? ''
      : String(credentials.port);
    if (port && !/^\d+$/.test(port)) return { problem: `its port is not a number (fields: ${fields})` };
    const user = credentials.username ? encodeURIComponent(credentials.username) : '';
    const auth = credentials.password ? `${user}:${encodeURIComponent(credentials.password)}@` : user ? `${user}@` : '';
    connection = { url: `${schemes[0]}://${auth}${host}${port ? `:${port}` : ''}` };
  } else {
    const composed = schemes.length ? `, or connection.${schemes[0]}.composed` : '';
    return { problem: `no usable credentials (fields: ${fields}; expected url, uri, hostname and port${composed})` };
  }

  let url;
  try { url = new URL(connection.url); } catch { return { problem: 'its credentials do not make a valid URL' }; }
  const urlScheme = url.protocol.slice(0, -1);
  if (schemes.length && !schemes.includes(urlScheme)) {
    return { problem: `its URL scheme is ${urlScheme}:, expected ${schemes.map((s) => `${s}:`).join(' or ')}` };
  }
  return { connection };
}
