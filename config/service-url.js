// Whether a configured server location can be used, checked before any client sees it: a
// client handed a URL it cannot read does something worse than failing (node-postgres
// resolves "garbage" as a host name, memjs falls back to 127.0.0.1:11211, tarantool-driver
// connects as guest when the password is missing). Each backing service declares its form as
// `url` in config/services.js:
//
//   schemes     the URL schemes its clients speak, e.g. ['redis', 'rediss']
//   list        a comma-separated list of such URLs (REDIS_CLUSTER_URLS)
//   serverList  memjs's "[user:pass@]host[:port],..." list, each item may start memcached://
//   socket      a URL without a host is fine when it names one in ?host= (PostgreSQL's Unix socket)
//   password    a URL naming a user must give a password (Tarantool: none means guest)
//
// A problem completes "<where the value came from> ..." and never quotes the value.
import { parseServerList, parseUrl } from '../util/urls.js';

const orList = (schemes) => schemes.map((scheme) => `${scheme}://`).join(' or ');

/** The problem with one URL of rules' form, or undefined. */
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

/**
 * The problem with a configured location (a URL, a list of URLs, a server list) of a service
 * whose form is rules, or undefined when it can be handed to the service's clients.
 */
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
