// Holds a local Redis Cluster for other programs (a benchmark of an app run by hand, say).
//
//   npm run cluster:start   # starts 3 masters + 3 replicas, prints REDIS_CLUSTER_URLS=..., runs until stopped
//   npm run cluster:stop    # stops the cluster that cluster:start holds (from another terminal)
//
// The servers live exactly as long as the `start` process: stopping it (Ctrl-C, SIGTERM,
// cluster:stop, or a crash) stops them, so no cluster is ever left behind. `start` writes its
// pid and URLs to a state file for `stop` (setting clusterStateFile: STOREBENCH_CLUSTER_STATE,
// default in the temp dir).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRedisCluster } from '../embedded/redis-cluster.js';
import { resolveSetting } from '../config/precedence.js';

const { value: stateFile } = resolveSetting('clusterStateFile');
const usage = 'Usage: node scripts/redis-cluster.js start|stop';

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const readState = () => readFile(stateFile, 'utf8').then(JSON.parse, () => null);

async function start() {
  const running = await readState();
  if (running && isAlive(running.pid)) {
    console.error(`a cluster is already held by pid ${running.pid} (REDIS_CLUSTER_URLS=${running.url}); ` +
      'run cluster:stop first');
    return 1;
  }
  const cluster = await startRedisCluster();
  await writeFile(stateFile, JSON.stringify({ pid: process.pid, url: cluster.url }));
  console.log(`REDIS_CLUSTER_URLS=${cluster.url}`);
  console.error('redis cluster: 3 masters + 3 replicas up; Ctrl-C or `npm run cluster:stop` stops it');
  await new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, resolve);
  });
  await cluster.stop();
  await rm(stateFile, { force: true });
  console.error('redis cluster: stopped');
  return 0;
}

async function stop() {
  const running = await readState();
  if (!running || !isAlive(running.pid)) {
    await rm(stateFile, { force: true });
    console.error('no cluster is running');
    return 0;
  }
  process.kill(running.pid, 'SIGTERM');
  for (let i = 0; i < 100 && isAlive(running.pid); i++) await sleep(100);
  if (isAlive(running.pid)) {
    console.error(`pid ${running.pid} did not stop within 10 s`);
    return 1;
  }
  console.error('redis cluster: stopped');
  return 0;
}

const commands = { start, stop };
const command = commands[process.argv[2]];
if (!command) {
  console.error(usage);
  process.exitCode = 2;
} else {
  process.exitCode = await command().catch((error) => {
    console.error(error.message);
    return 1;
  });
}
