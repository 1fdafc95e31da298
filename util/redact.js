// Secrets never reach a log, an error message, /stores, /healthz or the page. They are masked where
// they sit (a URL's password, what precedes the @ of a URL in text, secret query parameters, a
// binding's credential fields), never by searching all text for their values: that would rewrite
// every name containing one (a Redis password "memory" turned the store memory into ***) and tell
// whoever chooses a name what the secret is. A URL that does not parse is never shown.
import { parseServerList, parseUrl } from './urls.js';

const secretParams = /^(password|pass|pwd|apikey|api_key|key|token|access_token|secret|auth)$/i;
const secretFields = /pass|pwd|secret|token|apikey|api_key|private|certificate|^key$/i;
// A binding's names and labels: never masked, whatever they contain.
const nameFields = /^(name|label|plan|tags|instance_name|binding_name|provider|instance_guid|binding_guid)$/i;
const MIN_SECRET_LENGTH = 4; // shorter values would mask innocent text

const splitUrlList = (text) => text.split(/,(?=\s*[a-z][a-z0-9+.-]*:\/\/)|,(?=\s*$)/i);

// serverList: text may also be memjs's "user:pass@host:port,host:port".
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

// Ends at a space, quote or bracket, or a comma starting the next URL of a list.
const URL_IN_TEXT = /([a-z][a-z0-9+.-]*:\/\/)((?:[^\s"'<>(){},]|,(?![a-z][a-z0-9+.-]*:\/\/))*)/gi;

// Everything before a URL's last @ counts as its credentials, so a password holding an unencoded / or
// @ is masked whole. Nothing else is touched: no name, key or route has a scheme:// in it.
export function redactText(text) {
  return String(text).replace(URL_IN_TEXT, (whole, scheme, rest) => {
    const at = rest.lastIndexOf('@');
    if (at === -1) return whole;
    const userinfo = rest.slice(0, at);
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon === -1 ? '***' : `${userinfo.slice(0, colon)}:***`}${rest.slice(at)}`;
  });
}

export function redactDeep(value) {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object') return mapEntries(value, (v) => redactDeep(v));
  return value;
}

function mapEntries(object, change) {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, change(v, k)]));
}

// Secret fields become ***, and each secret value found is masked wherever else it appears in the
// binding's credentials (a composed command line, a query string), but never in a name, label or tag.
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
  const maskOrKeep = (node, key) => {
    if (nameFields.test(key ?? '')) return node;
    if (Array.isArray(node)) return node.map((item) => maskOrKeep(item, key));
    if (node && typeof node === 'object') return mapEntries(node, maskOrKeep);
    return mask(node, key);
  };
  return maskOrKeep(value);
}
