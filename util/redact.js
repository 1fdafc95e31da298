// Secrets never reach a log, an error message, /stores, /healthz or the page: every URL
// shown goes through here first. Passwords and API keys the app was configured with are
// also remembered, so they are masked even where they turn up outside a URL (a driver's
// error message, a CLI command line in a service binding). A URL that does not parse is
// never shown: which part of it is the password cannot be known.
import { looseUserinfo, parseServerList, parseUrl } from './urls.js';

const secretParams = /^(password|pass|pwd|apikey|api_key|key|token|access_token|secret|auth)$/i;
// Credential fields whose values are secret, wherever they sit in a VCAP_SERVICES entry.
const secretFields = /pass|pwd|secret|token|apikey|api_key|private|certificate|^key$/i;
const MIN_SECRET_LENGTH = 4; // shorter values would mask innocent text

const knownSecrets = new Set();

/** Remembers values that must never be shown; redactText and redactUrl mask them from now on. */
export function addSecrets(...values) {
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) continue;
    knownSecrets.add(value);
    knownSecrets.add(encodeURIComponent(value)); // as it appears inside a URL
  }
}

/**
 * Remembers the secrets of a resolved connection: URL passwords, password, API key. Of a URL
 * that does not parse, the whole text and whatever stands before its last @ are remembered.
 */
export function addConnectionSecrets(connection) {
  const { url, password, apikey } = connection;
  addSecrets(password, apikey);
  for (const item of splitUrlList(String(url ?? ''))) {
    const parsed = parseUrl(item);
    if (parsed.url) {
      addSecrets(safeDecode(parsed.url.password));
      continue;
    }
    // memjs's "user:pass@host,host" list: each password; anything else unparseable: the
    // loose reading, and all of it
    const list = !parseServerList(item).problem;
    for (const part of list ? item.split(',') : [item]) {
      const userinfo = looseUserinfo(part);
      if (userinfo !== undefined) addSecrets(userinfo, userinfo.slice(userinfo.indexOf(':') + 1));
    }
    if (!list) addSecrets(item.trim());
  }
}

const safeDecode = (text) => {
  try { return decodeURIComponent(text); } catch { return text; }
};

/** "redis://a,redis://b" (REDIS_CLUSTER_URLS) as its URLs; anything else as itself. */
const splitUrlList = (text) => text.split(/,(?=\s*[a-z][a-z0-9+.-]*:\/\/)|,(?=\s*$)/i);

const maskKnown = (text) => {
  let masked = text;
  // Longest first, so a secret containing another is masked whole.
  for (const secret of [...knownSecrets].sort((a, b) => b.length - a.length)) masked = masked.replaceAll(secret, '***');
  return masked;
};

/**
 * The URL with any password (and secret-looking query parameters) replaced by ***. A list of
 * URLs is redacted URL by URL. A URL that does not parse shows only its scheme:
 * "redis://… (unparseable, not shown)".
 * @param {object} [options]
 * @param {boolean} [options.serverList]  text may also be memjs's "user:pass@host:port,host:port"
 *   (memcached), shown with every user:pass@ masked
 */
export function redactUrl(value, { serverList = false } = {}) {
  const text = String(value);
  if (!text.trim()) return text;
  const items = splitUrlList(text);
  if (items.length > 1) return items.map((item) => redactUrl(item, { serverList })).join(',');
  const parsed = parseUrl(text);
  if (parsed.problem) {
    if (serverList && !parseServerList(text).problem) {
      return maskKnown(text.split(',').map((item) => item.replace(/^(\s*(?:[a-z]+:\/\/)?).*@/i, '$1***@')).join(','));
    }
    return parsed.scheme ? `${parsed.scheme}://… ${UNPARSEABLE}` : UNPARSEABLE;
  }
  const { url } = parsed;
  if (url.password) url.password = '***';
  else if (url.username) url.username = '***'; // a lone user part is often a token (https://TOKEN@host)
  for (const name of [...url.searchParams.keys()]) {
    if (secretParams.test(name)) url.searchParams.set(name, '***');
  }
  return maskKnown(url.href.replaceAll('%2A%2A%2A', '***'));
}

const UNPARSEABLE = '(unparseable, not shown)';

// A URL in free text: its scheme, then everything to the next space, quote or bracket, or to a
// comma that starts the next URL of a list.
const URL_IN_TEXT = /([a-z][a-z0-9+.-]*:\/\/)((?:[^\s"'<>(){},]|,(?![a-z][a-z0-9+.-]*:\/\/))*)/gi;

/**
 * Free text (an error message, say) with any credentials inside URLs in it replaced by ***.
 * Everything before a URL's last @ counts as its credentials, so a password holding an
 * unencoded / or @ is masked whole.
 */
export function redactText(text) {
  const withoutUrlCredentials = String(text).replace(URL_IN_TEXT, (whole, scheme, rest) => {
    const at = rest.lastIndexOf('@');
    if (at === -1) return whole;
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon === -1 ? '***' : `${userinfo.slice(0, colon)}:***`}${rest.slice(at)}`;
  });
  return maskKnown(withoutUrlCredentials);
}

/** A copy of value (an answer body, say) with every string in it through redactText. */
export function redactDeep(value) {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  return value;
}

/**
 * A deep copy of service credentials (a VCAP_SERVICES object, say) that is safe to print:
 * secret fields become ***, URLs lose their passwords, and every secret value found is
 * masked wherever else it appears (a composed command line, a URL's query string).
 */
export function maskCredentials(value) {
  const secrets = new Set();
  const collect = (node, key) => {
    if (Array.isArray(node)) node.forEach((item) => collect(item, key));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) collect(v, k);
    else if (typeof node === 'string' && secretFields.test(key ?? '') && node.length >= MIN_SECRET_LENGTH) secrets.add(node);
  };
  collect(value);
  const ordered = [...secrets].flatMap((s) => [s, encodeURIComponent(s)]).sort((a, b) => b.length - a.length);
  const maskString = (text) => {
    let masked = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? redactUrl(text) : redactText(text);
    for (const secret of ordered) masked = masked.replaceAll(secret, '***');
    return masked;
  };
  const mask = (node, key) => {
    if (Array.isArray(node)) return node.map((item) => mask(item, key));
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, mask(v, k)]));
    if (typeof node === 'string') return secretFields.test(key ?? '') ? '***' : maskString(node);
    return node;
  };
  return mask(value);
}
