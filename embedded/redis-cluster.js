// A local Redis Cluster of 3 masters + 3 replicas on free loopback ports, in a temp directory removed on stop.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startServer } from './child-process.js';
import { notOnPathReason, which } from '../util/which.js';
import { ServerUnavailableError } from '../util/errors.js';

const run = promisify(execFile);
const missingReason =
  'no REDIS_CLUSTER_URLS and no redis-server and redis-cli on PATH; install redis-server or set REDIS_CLUSTER_URLS';

// Each node needs a client port and a cluster-bus port.
async function freePorts(count) {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

export function parseClusterNodes(text) {
  return text.trim().split('\n').filter(Boolean).map((line) => {
    const [id, address, flags, masterId, , , , linkState] = line.split(' ');
    const flagList = flags.split(',');
    return {
      id,
      address: address.split('@')[0],
      role: flagList.includes('master') ? 'master' : 'replica',
      masterId: masterId === '-' ? null : masterId,
      connected: linkState === 'connected',
    };
  });
}

// Waits until every node says cluster_state:ok and sees the full topology.
export async function startRedisCluster({
  path = process.env.PATH, masters = 3, replicasPerMaster = 1, timeoutMs = 30_000,
} = {}) {
  const redisServer = which('redis-server', path);
  const redisCli = which('redis-cli', path);
  if (!redisServer || !redisCli) {
    const command = redisServer ? 'redis-cli' : 'redis-server';
    const reason = notOnPathReason({ command, variable: 'REDIS_CLUSTER_URLS', missing: missingReason, path });
    throw new ServerUnavailableError('NOT_INSTALLED', reason);
  }
  const count = masters * (1 + replicasPerMaster);
  const servers = [];
  const dirs = [];
  let stopping;
  const stop = () => (stopping ??= Promise.allSettled(servers.map((server) => server.stop()))
    .then(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))));

  try {
    const ports = await freePorts(count * 2);
    const nodes = Array.from({ length: count }, (_, i) => ({ port: ports[2 * i], busPort: ports[2 * i + 1] }));
    const started = await Promise.allSettled(nodes.map(async ({ port, busPort }) => {
      // nodes.conf's directory, deleted by its guard even if we crash.
      const dir = await mkdtemp(join(tmpdir(), 'storebench-redis-cluster-'));
      dirs.push(dir);
      servers.push(await startServer({
        name: `redis-server (cluster node ${port})`,
        command: redisServer,
        args: [
          '--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1',
          '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000',
          '--dir', dir, '--save', '', '--appendonly', 'no', '--logfile', '',
        ],
        port,
        cwd: dir,
        removeDir: dir,
      }));
    }));
    // Settled first, so every node that did start is in `servers` for stop() to stop.
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;

    const addresses = nodes.map(({ port }) => `127.0.0.1:${port}`);
    const create = [
      '--cluster', 'create', ...addresses, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes',
    ];
    await run(redisCli, create, { timeout: timeoutMs }).catch((error) => {
      const said = (error.stderr || error.stdout || error.message).trim().split('\n').pop();
      throw new Error(`redis-cli --cluster create failed: ${said}`);
    });
    await waitUntilFormed(redisCli, nodes.map((node) => node.port), { masters, count, timeoutMs });
    const urls = addresses.map((address) => `redis://${address}`);
    return { url: urls.join(','), urls, ports: nodes.map((node) => node.port), stop };
  } catch (error) {
    await stop();
    throw new Error(`the embedded Redis Cluster did not start: ${error.message}`);
  }
}

async function waitUntilFormed(redisCli, ports, { masters, count, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const states = await Promise.all(ports.map(async (port) => {
      const cli = (...args) => run(redisCli, ['-h', '127.0.0.1', '-p', String(port), ...args]).then((r) => r.stdout);
      const info = await cli('cluster', 'info');
      const nodes = parseClusterNodes(await cli('cluster', 'nodes'));
      const masterCount = nodes.filter((n) => n.role === 'master').length;
      const connected = nodes.every((n) => n.connected);
      return { ok: /cluster_state:ok/.test(info) && nodes.length === count && masterCount === masters && connected, port, masterCount, nodes: nodes.length };
    }));
    const waiting = states.filter((s) => !s.ok);
    if (!waiting.length) return;
    last = waiting.map((s) => `${s.port}: ${s.nodes} nodes, ${s.masterCount} masters`).join('; ');
    if (Date.now() > deadline) throw new Error(`not formed within ${timeoutMs} ms (${last})`);
    await sleep(200);
  }
}
