// Reading a configured URL without trusting it. A store URL may hold a password, so a
// problem found here says what is wrong, never what the text is; and the forms clients
// misread (an unencoded / ? # or @ in a password cuts the URL early, so the password's
// tail becomes the host or the path) are refused instead of being guessed at.

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** The scheme of text that starts with scheme://, lower-cased; undefined otherwise. */
export const schemeOf = (text) => SCHEME.exec(String(text).trim())?.[1]?.toLowerCase();

const ENCODE_HINT = 'a / ? # or @ in a user name or password must be percent-encoded (%2F %3F %23 %40)';

/**
 * The user-info part of text as a reader would take it at worst: everything between scheme://
 * and the last @. undefined when text has no @ after its scheme.
 */
export function looseUserinfo(text) {
  const raw = String(text).trim();
  const scheme = schemeOf(raw);
  const rest = scheme ? raw.slice(scheme.length + 3) : raw;
  const at = rest.lastIndexOf('@');
  return at === -1 ? undefined : rest.slice(0, at);
}

/**
 * Parses text as a URL, refusing what a client would misread.
 * @returns {{ url: URL, scheme: string } | { problem: string, scheme?: string }} problem
 *   completes "<where the URL came from> ..." and never quotes the text
 */
export function parseUrl(text) {
  const raw = String(text).trim();
  const scheme = schemeOf(raw);
  if (!scheme) return { problem: 'is not a URL (it does not start with scheme://)' };
  let url;
  try {
    url = new URL(raw);
  } catch {
    return { scheme, problem: `is not a valid ${scheme}:// URL${raw.includes('@') ? `; ${ENCODE_HINT}` : ''}` };
  }
  // An @ after a / ? or #, with no user parsed: a password with one of those unencoded,
  // which the parser cut short (https://u:12/ss@h reads as host "u", port 12).
  const userinfo = looseUserinfo(raw);
  if (userinfo !== undefined && /[/?#]/.test(userinfo) && !url.username && !url.password) {
    return { scheme, problem: `is not a valid ${scheme}:// URL: it has an @ after its host; ${ENCODE_HINT}` };
  }
  return { url, scheme };
}

const HOST_PORT = /^(\[[0-9a-f:.]+\]|[^\s:/@[\]]+)(?::(\d{1,5}))?\/?$/i;

/**
 * memjs's server list, "[user:pass@]host[:port],host[:port]", each item optionally with a
 * memcached:// scheme (MEMCACHED_URL, MEMCACHED_SERVERS).
 * @returns {{ servers: Array<{ host, port? }> } | { problem: string }} never quotes the text
 */
export function parseServerList(text) {
  const items = String(text).split(',').map((item) => item.trim());
  const servers = [];
  for (const [index, item] of items.entries()) {
    const which = items.length > 1 ? `server ${index + 1} of the list` : 'it';
    const scheme = schemeOf(item);
    if (scheme && scheme !== 'memcached' && scheme !== 'memcache') return { problem: `is not a memcached server list: ${which} has scheme ${scheme}://, expected memcached:// or none` };
    const rest = scheme ? item.slice(scheme.length + 3) : item;
    const hostPort = rest.slice(rest.lastIndexOf('@') + 1);
    if (!hostPort || hostPort.startsWith(':')) {
      return { problem: `is not a memcached server list (host:port,host:port): ${which} has no host` };
    }
    const match = HOST_PORT.exec(hostPort);
    if (!match) return { problem: `is not a memcached server list (host:port,host:port): ${which} is not host:port` };
    const port = match[2] === undefined ? undefined : Number(match[2]);
    if (port !== undefined && (port < 1 || port > 65535)) {
      return { problem: `is not a memcached server list: ${which} has a port outside 1-65535` };
    }
    servers.push({ host: match[1], port });
  }
  return { servers };
}
