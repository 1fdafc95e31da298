// A backing server's connection moved behind a delaying proxy: the same URL with the proxy's host and
// port. Not possible for TLS (its certificate names the server's host), a Unix socket, or a Redis
// Cluster (its nodes send clients to their own addresses, around the proxy).
import { startDelayProxy } from './delay-proxy.js';
import { parseServerList, schemeOf } from '../util/urls.js';

const DEFAULT_PORTS = { redis: 6379, http: 80, postgres: 5432, postgresql: 5432, tarantool: 3301, memcached: 11211 };
const TLS_SCHEMES = new Set(['rediss', 'https']);

export async function delayConnection(service, connection, delay) {
  const why = (reason) => ({ unavailable: `the network emulation (--store-rtt) cannot delay ${reason}` });
  if (service === 'redis-cluster') {
    return why('a Redis Cluster: its nodes redirect clients to their own addresses, around a proxy');
  }
  if (service === 'memcached') return delayServerList(connection, delay, why);
  const scheme = schemeOf(connection.url);
  if (TLS_SCHEMES.has(scheme) || connection.ca) return why(`a TLS connection (${scheme}://): its certificate names the server's host, not the proxy's`);
  const url = new URL(connection.url);
  const sslmode = url.searchParams.get('sslmode') ?? url.searchParams.get('ssl');
  if (sslmode && !['disable', 'false', '0'].includes(sslmode)) {
    return why('a PostgreSQL connection with TLS (sslmode): its certificate names the server\'s host');
  }
  if (!url.hostname || url.searchParams.get('host')) return why('a Unix socket: only a TCP connection can be proxied');
  const proxy = await startDelayProxy({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) || DEFAULT_PORTS[scheme] }, delay);
  url.hostname = proxy.host;
  url.port = String(proxy.port);
  return { connection: { ...connection, url: String(url) }, stop: proxy.stop };
}

// memjs's "[user:pass@]host[:port],..." list: a proxy per server.
async function delayServerList(connection, delay, why) {
  const parsed = parseServerList(connection.url);
  if (parsed.problem) return why('a memcached server list it cannot read');
  const items = connection.url.split(',').map((item) => item.trim());
  const proxies = [];
  const moved = [];
  for (const [index, { host, port }] of parsed.servers.entries()) {
    const proxy = await startDelayProxy({ host: host.replace(/^\[|\]$/g, ''), port: port ?? DEFAULT_PORTS.memcached }, delay);
    proxies.push(proxy);
    const item = items[index].replace(/^memcached?:\/\//i, '');
    const at = item.lastIndexOf('@');
    moved.push(`${at === -1 ? '' : item.slice(0, at + 1)}${proxy.host}:${proxy.port}`);
  }
  return {
    connection: { ...connection, url: moved.join(',') },
    stop: async () => { await Promise.all(proxies.map((proxy) => proxy.stop())); },
  };
}
