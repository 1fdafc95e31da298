// Secrets never reach a log, an error message, /stores, /healthz or the page. They are masked
// where they are, never by searching all text for their values:
//   - a URL's password field (redactUrl), and whatever stands before the @ of a URL inside free
//     text (redactText), wherever the URL came from;
//   - secret query parameters (?apikey=, ?token=, ...);
//   - credential fields of a service binding (maskCredentials), and those values inside that
//     binding only, never in its names;
//   - settings the code knows to be secret (config/settings.js `secret`) are never quoted.
// Masking a value wherever it turns up in text would rewrite every name, key and route that
// happens to contain it (a Redis password "memory" turned the store memory into ***), and
// would tell anyone who can choose a name or a key what the secret is. A URL that does not
// parse is never shown: which part of it is the password cannot be known.
import { parseServerList, parseUrl } from './urls.js';

const secretParams = /^(password|pass|pwd|apikey|api_key|key|token|access_token|secret|auth)$/i;
// Credential fields whose values are secret, wherever they sit in a VCAP_SERVICES entry.
const secretFields = /pass|pwd|secret|token|apikey|api_key|private|certificate|^key$/i;
// A binding's names and labels: never masked, whatever they contain.
const nameFields = /^(name|label|plan|tags|instance_name|binding_name|provider|instance_guid|binding_guid)$/i;
const MIN_SECRET_LENGTH = 4; // shorter values would mask innocent text

/** "redis://a,redis://b" (REDIS_CLUSTER_URLS) as its URLs; anything else as itself. */
const splitUrlList = (text) => text.split(/,(?=\s*[a-z][a-z0-9+.-]*:\/\/)|,(?=\s*$)/i);

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
      return text.split(',').map((item) => item.replace(/^(\s*(?:[a-z]+:\/\/)?).*@/i, '$1***@')).join(',');
    }
    return parsed.scheme ? `${parsed.scheme}://… ${UNPARSEABLE}` : UNPARSEABLE;
  }
  const { url } = parsed;
  if (url.password) url.password = '***';
  else if (url.username) url.username = '***'; // a lone user part is often a token (https://TOKEN@host)
  for (const name of [...url.searchParams.keys()]) {
    if (secretParams.test(name)) url.searchParams.set(name, '***');
  }
  return url.href.replaceAll('%2A%2A%2A', '***');
}

const UNPARSEABLE = '(unparseable, not shown)';

// A URL in free text: its scheme, then everything to the next space, quote or bracket, or to a
// comma that starts the next URL of a list.
const URL_IN_TEXT = /([a-z][a-z0-9+.-]*:\/\/)((?:[^\s"'<>(){},]|,(?![a-z][a-z0-9+.-]*:\/\/))*)/gi;

/**
 * Free text (an error message, say) with any credentials inside URLs in it replaced by ***.
 * Everything before a URL's last @ counts as its credentials, so a password holding an
 * unencoded / or @ is masked whole. Nothing else is touched: no name, key or route has a
 * scheme:// in it.
 */
export function redactText(text) {
  return String(text).replace(URL_IN_TEXT, (whole, scheme, rest) => {
    const at = rest.lastIndexOf('@');
    if (at === -1) return whole;
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon === -1 ? '***' : `${userinfo.slice(0, colon)}:***`}${rest.slice(at)}`;
  });
}

/** A copy of value (an answer body, say) with every string in it through redactText. */
export function redactDeep(value) {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') return mapEntries(value, (v) => redactDeep(v));
  return value;
}

// An object with each value through change(value, key).
function mapEntries(object, change) {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, change(v, k)]));
}

/**
 * A deep copy of service credentials (a VCAP_SERVICES object, say) that is safe to print:
 * secret fields become ***, URLs lose their passwords, and every secret value found is
 * masked wherever else it appears in the binding's credentials (a composed command line, a
 * CLI's argument list, a URL's query string), but never in a name, label, plan or tag.
 */
export function maskCredentials(value) {
  const secrets = new Set();
  const collect = (node, key) => {
    if (Array.isArray(node)) {
      node.forEach((item) => collect(item, key));
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) collect(v, k);
    } else if (typeof node === 'string' && secretFields.test(key ?? '') && node.length >= MIN_SECRET_LENGTH) {
      secrets.add(node);
    }
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
    if (node && typeof node === 'object') return mapEntries(node, mask);
    if (typeof node === 'string') return secretFields.test(key ?? '') ? '***' : maskString(node);
    return node;
  };
  // A name field's value is kept as it is, and so is everything under it (a list of tags).
  const maskOrKeep = (node, key) => {
    if (nameFields.test(key ?? '')) return node;
    if (Array.isArray(node)) return node.map((item) => maskOrKeep(item, key));
    if (node && typeof node === 'object') return mapEntries(node, maskOrKeep);
    return mask(node, key);
  };
  return maskOrKeep(value);
}
