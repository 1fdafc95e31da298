// Listening on the app's port and saying where it is reached: by app.js alone, or by the primary of
// app.js --workers N, which owns the one listener and hands each connection to a worker.

/** Listens on port and host; resolves to the URL to reach it at, its port and its bound address. */
export async function listen(server, { port, host }) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = boundAddress(server.address());
  // A wildcard address is not one to connect to: from here, loopback reaches it (:: is dual-stack).
  const reachAt = bound.allInterfaces ? '127.0.0.1' : bound.address;
  const url = `http://${reachAt.includes(':') ? `[${reachAt}]` : reachAt}:${bound.port}`;
  return { url, port: bound.port, bound };
}

function boundAddress({ address, port, family }) {
  return { address, port, family, allInterfaces: address === '0.0.0.0' || address === '::' };
}

/** The line saying where a listener is reached; `framework` named when it is not the only default. */
export function listeningLine({ url, bound }, framework) {
  const on = framework ? ` (${framework})` : '';
  if (!bound.allInterfaces) return `storebench app${on} listening on ${url}`;
  const which = bound.address === '::' ? 'all interfaces, IPv6 and IPv4 (::)' : 'all IPv4 interfaces (0.0.0.0)';
  return `storebench app${on} listening on ${which}, port ${bound.port}: ${url} from this machine`;
}
