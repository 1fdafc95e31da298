// The tiers' CPU from /proc as the kernel writes it (a /proc made here, with figures whose
// answer is known), and the plan that finds which processes are the app and each server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMachineMonitor, listeningPidsByPort, treePids, readProcessTable } from '../../driver/machine-load.js';
import { createTierSampler } from '../../driver/tier-cpu.js';
import { planTiers, serverAddresses, serverCores, servicesFromListing } from '../../driver/tier-plan.js';
import { metricsFigures, redisInfoCpuSeconds } from '../../driver/tier-remote.js';

// cpu fields: user nice system idle iowait irq softirq steal; two CPUs.
const procStat = (busy, idle) =>
  `cpu  ${busy} 0 0 ${idle} 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\n`;
const pidStat = (pid, ppid, ticks, comm) =>
  `${pid} (${comm}) S ${ppid} 1 1 0 -1 0 0 0 0 0 ${ticks} 0 0 0 20 0 1 0 0 0 0\n`;

/**
 * A /proc of these processes [pid, ppid, ticks, exe] (their comm: the exe's base name), with
 * `listening` { port: pid } sockets in /proc/net/tcp and the owners' fds. write() rewrites the
 * CPU counts and ticks for the second reading.
 */
async function fakeProc(t, { processes, listening = {} }) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-tiers-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'net'));
  const rows = Object.keys(listening).map((port, index) =>
    `   ${index}: 0100007F:${Number(port).toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A ` +
    '00000000:00000000 ' +
    `00:00000000 00000000     0        0 ${9000 + index} 1 0000000000000000 100 0 0 10 0`);
  await writeFile(join(dir, 'net', 'tcp'), `  sl  local_address rem_address   st\n${rows.join('\n')}\n`);
  await writeFile(join(dir, 'net', 'tcp6'), '  sl  local_address\n');
  for (const [pid, ppid, ticks, exe] of processes) {
    await mkdir(join(dir, String(pid), 'fd'), { recursive: true });
    await writeFile(join(dir, String(pid), 'stat'), pidStat(pid, ppid, ticks, exe.split('/').at(-1)));
    await symlink(exe, join(dir, String(pid), 'exe'));
  }
  for (const [index, [, pid]] of Object.entries(listening).entries()) {
    await symlink(`socket:[${9000 + index}]`, join(dir, String(pid), 'fd', '3'));
  }
  const write = async ({ busy, idle, ticks }) => {
    await writeFile(join(dir, 'stat'), procStat(busy, idle));
    await writeFile(join(dir, 'loadavg'), '0.5 0.5 0.5 1/100 1\n');
    for (const [pid, ppid, , exe] of processes) {
      if (ticks[pid] === undefined) continue;
      await writeFile(join(dir, String(pid), 'stat'), pidStat(pid, ppid, ticks[pid], exe.split('/').at(-1)));
    }
  };
  await write({ busy: 0, idle: 0, ticks: Object.fromEntries(processes.map(([pid, , ticks]) => [pid, ticks])) });
  return { dir, write };
}

// The embedded app: node (10) -> guard sh (11) -> redis-server (12, listening on 6400), and a
// node:cluster worker of the app (13); a postgres postmaster (20) with a backend (21) elsewhere.
const PROCESSES = [
  [10, 1, 1000, '/usr/bin/node'], [11, 10, 0, '/bin/sh'], [12, 11, 500, '/usr/bin/redis-server'],
  [13, 10, 300, '/usr/bin/node'], [20, 1, 100, '/usr/lib/postgresql/bin/postgres'],
  [21, 20, 50, '/usr/lib/postgresql/bin/postgres'],
];

test('listening pids by port in one pass; a tree less the trees under excluded pids', async (t) => {
  const proc = await fakeProc(t, { processes: PROCESSES, listening: { 6400: 12, 5432: 20, 8080: 10 } });
  const found = listeningPidsByPort([6400, 5432, 8080, 9999], proc.dir);
  assert.deepEqual([...found], [[6400, [12]], [5432, [20]], [8080, [10]], [9999, []]]);
  const table = readProcessTable(proc.dir);
  assert.deepEqual(treePids(table, [10], [12]).sort(), [10, 11, 13]);
  assert.deepEqual(treePids(table, [20]).sort(), [20, 21]);
});

test('the app\'s CPU is its tree less the servers it started, in % of one core and µs per response', async (t) => {
  const proc = await fakeProc(t, { processes: PROCESSES, listening: { 6400: 12, 5432: 20, 8080: 10 } });
  const sampler = createTierSampler({
    app: { source: 'proc', roots: [10], exclude: [12] },
    servers: [
      { name: 'redis', stores: ['redis', 'ioredis'], cores: 1, pids: [12], redisUrl: null },
      { name: 'postgres', stores: ['postgres'], cores: 2, pids: [20], redisUrl: null },
    ],
    cpus: 2,
    procDir: proc.dir,
  });
  const monitor = createMachineMonitor({ rootPids: [10, 12, 20], procDir: proc.dir, tiers: sampler });
  const sample = monitor.start();
  // 200 ticks of wall time on each of 2 CPUs (400 in all): the app's node used 150 ticks and its
  // worker 30 (90% of a core together), redis 100 (50%), postgres 0.
  await proc.write({ busy: 300, idle: 100, ticks: { 10: 1150, 13: 330, 12: 600 } });
  const machine = sample.stop();
  assert.equal(machine.treeCpuPercent, 140, 'app 90% + redis 50%');
  const redisStep = await sample.tiers(1000, 'redis');
  assert.equal(redisStep.app.cpuPercent, 90);
  assert.equal(redisStep.app.source, 'proc');
  assert.equal(redisStep.app.processes, 2, 'a cluster primary and its one worker: both are the app');
  assert.equal(redisStep.app.cores, 2);
  assert.deepEqual(redisStep.app.detail.map(({ pid, role, cpuPercent }) => [pid, role, cpuPercent]),
    [[10, 'primary', 75], [11, 'other', 0], [13, 'worker', 15]], 'each process of the tree, a server less');
  assert.equal(redisStep.app.busiestPercent, 75);
  // CPU seconds over responses: 90% of the step's time (as hrtime measured it) over 1000.
  const seconds = redisStep.app.microsPerResponse * 1000 / 1e6 / 0.9;
  assert.ok(seconds > 0 && seconds < 5, `the step's time: ${seconds} s`);
  assert.deepEqual(redisStep.servers.map((server) => [server.name, server.cpuPercent, server.cores, server.source]),
    [['redis', 50, 1, 'proc']], 'only the servers behind the step\'s store');
  assert.ok(Math.abs(redisStep.servers[0].microsPerResponse / redisStep.app.microsPerResponse - 50 / 90) < 1e-9,
    'µs per response in proportion to CPU: both are CPU over the same responses');
  const memoryStep = await sample.tiers(1000, 'memory');
  assert.deepEqual(memoryStep.servers, []);
});

test('a step too short for /proc/stat\'s ticks, or an app that is gone, reads null, never 0', async (t) => {
  const proc = await fakeProc(t, { processes: PROCESSES });
  const sampler = createTierSampler({
    app: { source: 'proc', roots: [10], exclude: [12] },
    servers: [{ name: 'redis', stores: ['redis'], cores: 1, pids: [12], redisUrl: null }],
    cpus: 2,
    procDir: proc.dir,
  });
  const monitor = createMachineMonitor({ rootPids: [10], procDir: proc.dir, tiers: sampler });
  const sample = monitor.start();
  await proc.write({ busy: 5, idle: 5, ticks: { 10: 1005 } });
  sample.stop();
  const figures = await sample.tiers(10, 'redis');
  assert.deepEqual(figures.app, {
    cpuPercent: null,
    microsPerResponse: null,
    processes: null,
    cores: null,
    busiestPercent: null,
    detail: null,
    source: null,
  });
  assert.deepEqual(figures.servers[0].cpuPercent, null);
  assert.equal(figures.servers[0].source, null);
  const unplaced = createTierSampler({ app: { source: null }, servers: [], cpus: 2, procDir: proc.dir });
  const other = createMachineMonitor({ rootPids: [10], procDir: proc.dir, tiers: unplaced }).start();
  other.stop();
  assert.equal((await other.tiers(10, 'redis')).app.cpuPercent, null, 'an app nowhere to be read');
});

test('the plan: servers by their loopback ports, the app less them; a remote app by /metrics', async (t) => {
  const proc = await fakeProc(t, { processes: PROCESSES, listening: { 6400: 12, 5432: 20, 8080: 10 } });
  const listing = [
    { name: 'redis', servers: { redis: 'embedded: redis://127.0.0.1:6400 (delayed: rtt 20 ms)' } },
    { name: 'postgres+redis', servers: { postgres: 'POSTGRES_URL: postgres://u:***@localhost/db', redis: 'embedded: redis://127.0.0.1:6400' } },
    { name: 'memory', servers: {} },
    { name: 'cloudant', servers: { couchdb: 'CLOUDANT_URL: https://acct.cloudant.com' } },
  ];
  const services = servicesFromListing(listing, ['redis', 'postgres+redis', 'memory']);
  assert.deepEqual([...services.keys()], ['redis', 'postgres', 'couchdb'],
    'every server: a child of the app is not the app');
  assert.deepEqual(services.get('redis').stores, ['redis', 'postgres+redis']);
  assert.deepEqual(services.get('couchdb').stores, [], 'not swept: never in a step\'s tiers');
  const plan = planTiers({
    appPid: null, appUrls: ['http://127.0.0.1:8080/redis/key1'], services, procDir: proc.dir, cpus: 2, env: {},
  });
  assert.deepEqual(plan.app, { source: 'proc', roots: [10], exclude: [12, 20], ports: [8080] });
  assert.deepEqual(plan.servers.map(({ name, pids, cores }) => [name, pids, cores]),
    [['redis', [12], 1], ['postgres', [20], 2], ['couchdb', [], 1]]);
  // A --url has no listing: a process below the app that listens elsewhere is a server it started.
  const unlisted = planTiers({
    appUrls: ['http://127.0.0.1:8080/redis/key1'], services: new Map(), procDir: proc.dir, cpus: 2,
  });
  assert.deepEqual(unlisted.app, { source: 'proc', roots: [10], exclude: [12], ports: [8080] });
  assert.deepEqual(unlisted.servers, []);
  const remote = planTiers({
    appUrls: ['http://10.0.0.9:8080/redis/key1'],
    metricsUrl: 'http://10.0.0.9:8080/metrics',
    services: new Map(),
    procDir: proc.dir,
    cpus: 2,
  });
  assert.deepEqual(remote.app, { source: 'metrics', metricsUrl: 'http://10.0.0.9:8080/metrics' });
  assert.equal(planTiers({ services: new Map(), direct: true, procDir: proc.dir, cpus: 2 }).app, null);
});

test('a configured Redis\'s own URL is used for INFO only when it names the server the listing shows', () => {
  const services = new Map([['redis', { display: 'redis://:***@10.1.2.3:6380', url: null, stores: ['redis'] }]]);
  const env = { REDIS_URL: 'redis://:secret@10.1.2.3:6380' };
  const [server] = planTiers({ services, env, procDir: '/nonexistent', cpus: 2 }).servers;
  assert.deepEqual([server.pids, server.redisUrl], [[], 'redis://:secret@10.1.2.3:6380']);
  const other = planTiers({ services, env: { REDIS_URL: 'redis://:secret@10.9.9.9:6380' }, procDir: '/nonexistent', cpus: 2 });
  assert.equal(other.servers[0].redisUrl, null);
});

test('server addresses: a URL, a cluster\'s list, memcached\'s host:port list, a delayed one', () => {
  assert.deepEqual(serverAddresses('redis://127.0.0.1:6379'), [{ host: '127.0.0.1', port: 6379 }]);
  assert.deepEqual(serverAddresses('redis://127.0.0.1:7001,redis://127.0.0.1:7002'),
    [{ host: '127.0.0.1', port: 7001 }, { host: '127.0.0.1', port: 7002 }]);
  assert.deepEqual(serverAddresses('127.0.0.1:11211,10.0.0.2'),
    [{ host: '127.0.0.1', port: 11211 }, { host: '10.0.0.2', port: 11211 }]);
  assert.deepEqual(serverAddresses('postgres://***@127.0.0.1/db (delayed: rtt 20 ms)'), [{ host: '127.0.0.1', port: 5432 }]);
  assert.deepEqual(serverAddresses('tarantool://***:***@127.0.0.1:3302'), [{ host: '127.0.0.1', port: 3302 }]);
  assert.deepEqual([serverCores('redis', 8), serverCores('postgres', 8), serverCores('memcached', 2)], [1, 8, 2]);
});

test('CPU seconds from what a tier says: Prometheus text and Redis INFO', () => {
  const text = '# HELP storebench_app_process_cpu_seconds_total Total user and system CPU time\n' +
    '# TYPE storebench_app_process_cpu_seconds_total counter\nstorebench_app_process_cpu_seconds_total 12.5\n' +
    'storebench_app_process_cpu_user_seconds_total 10\nother_metric 3\n';
  assert.deepEqual(metricsFigures(text), { cpuSeconds: 12.5, processes: null, cpus: null });
  const labelled = 'process_cpu_seconds_total{worker="1"} 1.5\nprocess_cpu_seconds_total{worker="2"} 2 1700000000\n';
  assert.equal(metricsFigures(labelled).cpuSeconds, 3.5);
  assert.equal(metricsFigures('nothing here 1\n'), null);
  const cluster = `${text}storebench_app_processes 5\nstorebench_app_cpus 16\n`;
  assert.deepEqual(metricsFigures(cluster), { cpuSeconds: 12.5, processes: 5, cpus: 16 });
  const info = '# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:2.500000\r\nused_cpu_sys_children:9\r\n';
  assert.equal(redisInfoCpuSeconds(info), 3.75);
  assert.equal(redisInfoCpuSeconds('# CPU\r\n'), null);
});

test('a cgroup CPU quota caps a server\'s cores, shared by use among the servers in that cgroup', async (t) => {
  // Two nodes of a cluster (30, 31) held together to a twentieth of a core; postgres (20) free.
  const processes = [[20, 1, 0, '/usr/lib/postgresql/bin/postgres'],
    [30, 1, 0, '/usr/bin/redis-server'], [31, 1, 0, '/usr/bin/redis-server']];
  const proc = await fakeProc(t, { processes });
  const cgroupRoot = join(proc.dir, 'cgroup');
  await mkdir(join(cgroupRoot, 'held'), { recursive: true });
  await writeFile(join(cgroupRoot, 'held', 'cpu.max'), '5000 100000\n');
  for (const pid of [30, 31]) await writeFile(join(proc.dir, String(pid), 'cgroup'), '0::/held\n');
  await writeFile(join(proc.dir, '20', 'cgroup'), '0::/\n');
  const node = (port, pid) => ({
    name: `redis-cluster@127.0.0.1:${port}`,
    stores: ['redis-cluster'],
    cores: 1,
    pids: [pid],
    redisUrl: null,
  });
  const sampler = createTierSampler({
    app: null,
    servers: [node(7001, 30), node(7002, 31), { name: 'postgres', stores: ['redis-cluster'], cores: 2, pids: [20] }],
    cpus: 2,
    procDir: proc.dir,
    cgroupRoot,
  });
  const sample = createMachineMonitor({ rootPids: [20, 30, 31], procDir: proc.dir, tiers: sampler }).start();
  // 200 ticks of wall time on each CPU: node 30 used 6 ticks (3% of a core), node 31 4 (2%), postgres 20 (10%).
  await proc.write({ busy: 30, idle: 370, ticks: { 30: 6, 31: 4, 20: 20 } });
  sample.stop();
  const { servers } = await sample.tiers(1000, 'redis-cluster');
  assert.deepEqual(servers.map((server) => [server.name, server.cpuPercent, server.cores]), [
    ['redis-cluster@127.0.0.1:7001', 3, 0.03],
    ['redis-cluster@127.0.0.1:7002', 2, 0.02],
    ['postgres', 10, 2],
  ], 'each node at 100% of its share of the quota: the group is at its limit');
});
