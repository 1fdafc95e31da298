// Reading a configured URL without trusting it: a problem never quotes the text (it may hold a
// password), and the forms clients misread (an unencoded / ? # or @ in a password) are refused.

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

export const schemeOf = (text) => SCHEME.exec(String(text).trim())?.[1]?.toLowerCase();

const ENCODE_HINT = 'a / ? # or @ in a user name or password must be percent-encoded (%2F %3F %23 %40)';

// Everything between scheme:// and the last @, as a reader would take it at worst.
function looseUserinfo(text) {
  const raw = String(text).trim();
  const scheme = schemeOf(raw);
  const rest = scheme ? raw.slice(scheme.length + 3) : raw;
  const at = rest.lastIndexOf('@');
  return at === -1 ? undefined : rest.slice(0, at);
}

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
  // An @ after a / ? or # with no user parsed: a password cut short (https://u:12/ss@h reads as host "u").
  const userinfo = looseUserinfo(raw);
  if (userinfo !== undefined && /[/?#]/.test(userinfo) && !url.username && !url.password) {
    return { scheme, problem: `is not a valid ${scheme}:// URL: it has an @ after its host; ${ENCODE_HINT}` };
  }
  return { url, scheme };
}

const HOST_PORT = /^(\[[0-9a-f:.]+\]|[^\s:/@[\]]+)(?::(\d{1,5}))?\/?$/i;

// memjs's "[user:pass@]host[:port],..." list, each item optionally memcached://.
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
