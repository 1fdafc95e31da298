// Whether a configured server location can be used, checked before any client sees it: a client
// handed a URL it cannot read does worse than fail (node-postgres resolves "garbage" as a host,
// memjs falls back to 127.0.0.1:11211, tarantool-driver connects as guest without a password).
// Rules: each service's `url` in config/services.js. A problem never quotes the value.
import { parseServerList, parseUrl } from '../util/urls.js';

const orList = (schemes) => schemes.map((scheme) => `${scheme}://`).join(' or ');

function urlProblem(rules, text) {
  const parsed = parseUrl(text);
  if (parsed.problem) return parsed.problem;
  const { url, scheme } = parsed;
  if (!rules.schemes.includes(scheme)) return `has scheme ${scheme}://, expected ${orList(rules.schemes)}`;
  if (!url.hostname && !(rules.socket && url.searchParams.get('host'))) {
    return `names no host (${orList(rules.schemes.slice(0, 1))}host:port)`;
  }
  if (rules.password && url.username && !url.password) {
    return `names user "${decodeURIComponent(url.username)}" but no password, ` +
      'and the server would take it as guest: put user:password@ in the URL, or no user at all to connect as guest';
  }
  return undefined;
}

export function locationProblem(rules, text) {
  if (!rules) return undefined;
  if (typeof text !== 'string' || !text.trim()) return 'is empty';
  if (rules.serverList) return parseServerList(text).problem;
  if (!rules.list) return urlProblem(rules, text);
  const items = text.split(',').map((item) => item.trim()).filter(Boolean);
  for (const [index, item] of items.entries()) {
    const problem = urlProblem(rules, item);
    if (problem) return items.length > 1 ? `item ${index + 1} of the list ${problem}` : problem;
  }
  return undefined;
}
