// Limits the phases kind puts on servers this run started (never a configured one, which is
// someone else's): memory on each Redis node with no maxmemory, so it fails as study 002's did
// (OS-killed, a replica taking over); CPU for a counter-run that makes the servers the limit.
import { readFileSync } from 'node:fs';
import { createClient } from 'redis';
import { limitProcesses, processTree } from '../embedded/resource-limits.js';
import { listeningPids } from '../driver/machine-load.js';
import { parseClusterNodes } from '../embedded/redis-cluster.js';

const REDIS = new Set(['redis', 'redis-cluster']);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Whether process `pid` is running (not gone, and not a zombie waiting for its parent). */
function isAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

async function onEachNode(url, use) {
  const answers = [];
  for (const node of url.split(',')) {
    const client = createClient({ url: node, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    try {
      await client.connect();
      answers.push(await use(client, node));
    } finally {
      await client.close().catch(() => {});
    }
  }
  return answers;
}

const field = (info, name) => info.match(new RegExp(`^${name}:(\\S+)`, 'm'))?.[1];

async function redisNodes(url) {
  return onEachNode(url, async (client, node) => {
    const info = String(await client.sendCommand(['INFO', 'server'])) +
      String(await client.sendCommand(['INFO', 'replication']));
    return { url: node, pid: Number(field(info, 'process_id')), role: field(info, 'role') };
  });
}

// Each Redis node's process, or the tree under whatever listens on its port.
async function serverPids(service, url) {
  if (REDIS.has(service)) return (await redisNodes(url)).map((node) => node.pid);
  const port = Number(new URL(url).port);
  const pids = [];
  for (const pid of listeningPids(port)) pids.push(...await processTree(pid));
  return [...new Set(pids)];
}

/** Each server this run started held to `cores` of CPU (a cgroup): { notes, release() }. */
export async function limitServersCpu(store, servers, cores) {
  const notes = [];
  const held = [];
  for (const { service, url } of servers.started) {
    const limit = await limitProcesses(await serverPids(service, url), { cpuCores: cores });
    if (limit.unavailable) notes.push(`${store}: the ${service} server's CPU not limited: ${limit.unavailable}`);
    else held.push(limit);
  }
  for (const { service } of servers.configured) {
    notes.push(`${store}: the ${service} server is a configured one, not this run's: its CPU was not limited`);
  }
  return { notes, release: () => Promise.allSettled(held.map((limit) => limit.release())) };
}

/**
 * Every Redis node this run started held to its share of `room` bytes beyond what it holds, no
 * maxmemory. after() lifts the limits and resolves to { dead, notes }.
 */
export async function limitRedisMemory(store, servers, { fill, bytes }, { nodeTimeoutMs } = {}) {
  const notes = [];
  const held = [];
  const watched = [];
  for (const { service, url } of servers.started.filter((server) => REDIS.has(server.service))) {
    const nodes = await redisNodes(url);
    const masters = nodes.filter((node) => node.role === 'master').length || 1;
    const share = Math.ceil(bytes / fill / masters);
    const timeouts = await onEachNode(url, async (client) => {
      await client.sendCommand(['CONFIG', 'SET', 'maxmemory', '0']);
      if (service !== 'redis-cluster' || !nodeTimeoutMs) return null;
      const answer = await client.sendCommand(['CONFIG', 'GET', 'cluster-node-timeout']);
      // A list [name, value] (RESP2) or a map (RESP3), as the client gives it.
      const before = Array.isArray(answer)
        ? answer[1]
        : answer instanceof Map ? answer.get('cluster-node-timeout') : answer?.['cluster-node-timeout'];
      await client.sendCommand(['CONFIG', 'SET', 'cluster-node-timeout', String(nodeTimeoutMs)]);
      return String(before);
    });
    const hows = new Set();
    for (const node of nodes) {
      const limit = await limitProcesses([node.pid], { memoryBytes: share });
      if (limit.unavailable) {
        notes.push(`${store}: node ${node.url} of the ${service} server not limited: ${limit.unavailable}`);
        continue;
      }
      hows.add(limit.how);
      held.push({ node, limit });
    }
    watched.push({ service, nodes, timeouts });
    const timeout = timeouts.some((value) => value !== null) ? `, cluster-node-timeout ${nodeTimeoutMs} ms` : '';
    const how = [...hows].join(', ') || 'no limit could be set';
    notes.push(`${store}: no maxmemory; each of the ${nodes.length} node(s) of the ${service} server this run ` +
      `started held to ${mb(share)} more than it held (${how})${timeout}: its share of ${mb(bytes / fill)}, ` +
      `so the phase's ${mb(bytes)} of values is ${Number(fill.toFixed(2))}x the room`);
  }
  for (const { service } of servers.configured.filter((server) => REDIS.has(server.service))) {
    notes.push(`${store}: no memory limit (its ${service} is a configured server, not one this run started)`);
  }
  const after = async () => {
    const dead = [];
    const seen = [];
    const killed = new Map();
    for (const { node, limit } of held) {
      if (!isAlive(node.pid)) {
        dead.push(node);
        killed.set(node, await limit.oomKills());
      }
      await limit.release();
    }
    for (const { service, nodes, timeouts } of watched) {
      const living = nodes.filter((node) => isAlive(node.pid));
      const lost = nodes.filter((node) => !living.includes(node));
      if (lost.length) {
        // The kernel says how many it killed for memory in a cgroup; under prlimit, Redis itself
        // stops when an allocation fails at the limit.
        const cause = (node) => {
          const kills = killed.get(node);
          if (kills === null || kills === undefined) return 'its allocation failed at its memory limit';
          return kills > 0 ? 'killed by the kernel\'s OOM killer at its memory limit' : 'not by the OOM killer';
        };
        const how = lost.map((node) => `${node.role} ${node.url}: ${cause(node)}`).join('; ');
        seen.push(`${store}: ${lost.length} of the ${nodes.length} node(s) of the ${service} server stopped during ` +
          `the phase (${how})`);
      }
      if (service === 'redis-cluster' && living.length) {
        const promoted = await failover(living, nodes).catch(() => null);
        if (promoted) seen.push(`${store}: ${promoted}`);
      }
      const restore = living.filter((node) => timeouts[nodes.indexOf(node)] !== null).map((node) =>
        onEachNode(node.url, (client) =>
          client.sendCommand(['CONFIG', 'SET', 'cluster-node-timeout', timeouts[nodes.indexOf(node)]])));
      await Promise.allSettled(restore);
    }
    return { dead: dead.map((node) => node.url), notes: seen };
  };
  return { notes, after };
}

// A replica that became a master during the phase: what the study saw as a failover.
async function failover(living, before) {
  const [text] = await onEachNode(living[0].url, (client) => client.sendCommand(['CLUSTER', 'NODES']));
  const now = parseClusterNodes(String(text));
  const address = (node) => node.url.replace(/^redis:\/\//, '');
  const wasReplica = new Set(before.filter((node) => node.role !== 'master').map(address));
  const promoted = now.filter((node) => node.role === 'master' && wasReplica.has(node.address));
  if (!promoted.length) return null;
  return `failover: replica(s) ${promoted.map((node) => node.address).join(', ')} became master(s) during the phase`;
}
