// npm run perf:frameworks: what the app costs per request on each framework, against the same
// framework serving one route with nothing else, and bare node:http (a benchmark, not a test: it
// prints figures and never fails on speed). docs/measurement.md, "What the app costs", holds its
// figures; --write-docs puts this run's there.
//
//   npm run perf:frameworks -- [-c 20] [-t 3] [--rounds 5] [--write-docs]
//
// Six servers, each its own process: one route (/:store/:key, key1's bytes) on node:http, Express
// 5 and fastify 5 (bench/one-route-server.js), and `node app.js --stores memory --no-embedded` on
// each framework. wrk -t1 loads GET /memory/key1 on each in turn, the order rotating each round;
// the server's CPU comes from /proc. Where two or more CPUs exist, wrk runs on CPU 0 and the
// servers on CPU 1 (taskset), so neither takes the other's core. Per round, side by side: the app
// on express against one-route express, and on fastify against bare node:http (CPU µs per
// response, steadier than rps on a shared machine); the medians of those ratios are the figures.
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { forkListening } from '../util/fork-child.js';
import { startAppProcess } from '../driver/app-process.js';
import { wrk } from './wrk.js';
import { median } from '../util/stats.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', short: 'c', default: '20' },
    duration: { type: 'string', short: 't', default: '3' },
    rounds: { type: 'string', default: '5' },
    'write-docs': { type: 'boolean', default: false },
  },
});
const [connections, seconds, rounds] = [values.concurrency, values.duration, values.rounds].map(Number);
if (![connections, seconds, rounds].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('usage: npm run perf:frameworks -- [-c N] [-t SECONDS] [--rounds N] [--write-docs]');
  process.exit(2);
}
const TARGETS = { express: 1.3, fastify: 1.5 };
const DOC = new URL('../docs/measurement.md', import.meta.url);
const [START, END] = ['<!-- perf:frameworks:start -->', '<!-- perf:frameworks:end -->'];
const pin = availableParallelism() >= 2 && hasTaskset();

function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// The CPU seconds of pid and its threads, from /proc (utime + stime, in clock ticks of 10 ms).
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function oneRoute(framework) {
  const script = fileURLToPath(new URL('./one-route-server.js', import.meta.url));
  const child = await forkListening(script, ['--framework', framework], { name: `one-route ${framework}` });
  return { url: child.message.url, pid: child.child.pid, stop: child.stop };
}

async function appOn(framework) {
  const app = await startAppProcess({ stores: ['memory'], args: ['--no-embedded', '--framework', framework] });
  return { url: app.url, pid: app.child.pid, stop: app.stop };
}

const SERVERS = [
  { name: 'node:http, one route', start: () => oneRoute('node') },
  { name: 'fastify 5, one route', start: () => oneRoute('fastify') },
  { name: 'Express 5, one route', start: () => oneRoute('express') },
  { name: 'app.js --framework node', start: () => appOn('node') },
  { name: 'app.js --framework fastify', start: () => appOn('fastify') },
  { name: 'app.js --framework express', start: () => appOn('express') },
];

async function measure(server) {
  const url = `${server.url}/memory/key1`;
  const before = cpuSeconds(server.pid);
  const figures = await wrk(url, { connections, seconds, ...(pin ? { cpu: 0 } : {}) });
  const cpu = cpuSeconds(server.pid) - before;
  return { rps: figures.rps, micros: figures.requests > 0 ? (cpu * 1e6) / figures.requests : null };
}

const running = [];
try {
  for (const server of SERVERS) {
    const started = await server.start();
    if (pin) execFileSync('taskset', ['-a', '-pc', '1', String(started.pid)], { stdio: 'ignore' });
    running.push({ ...server, ...started, rounds: [] });
  }
  console.log(renderSystemLine(systemInfo({ target: 'the six servers above, each its own process' })));
  console.log(`wrk -t1 -c${connections} -d${seconds}s on GET /memory/key1, ${rounds} rounds` +
    `${pin ? '; wrk on CPU 0, the servers on CPU 1' : ''}`);
  for (const server of running) await wrk(`${server.url}/memory/key1`, { connections, seconds: 1 }); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    const order = running.map((_, i) => running[(i + round) % running.length]);
    for (const server of order) server.rounds[round] = await measure(server);
    const line = running.map((s) => `${s.name} ${Math.round(s.rounds[round].micros)} µs`).join(', ');
    console.log(`round ${round + 1}: ${line}`);
  }
} finally {
  await Promise.allSettled(running.map((server) => server.stop()));
}

const byName = Object.fromEntries(running.map((server) => [server.name, server]));
const ratios = (app, reference) => byName[app].rounds.map((r, i) => r.micros / byName[reference].rounds[i].micros);
const whole = (n) => Math.round(n).toLocaleString('en-US');
const spread = (values) => `${whole(median(values))} (${whole(Math.min(...values))}-${whole(Math.max(...values))})`;
const rows = running.map((server) => {
  const rps = server.rounds.map((r) => r.rps);
  const micros = server.rounds.map((r) => r.micros);
  return `| ${server.name} | ${spread(rps)} | ${spread(micros)} |`;
});
const express = ratios('app.js --framework express', 'Express 5, one route');
const fastify = ratios('app.js --framework fastify', 'node:http, one route');
const ratioLine = (label, values, target) => `| ${label} | ${median(values).toFixed(2)} ` +
  `(${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}) | ${target} | ` +
  `${median(values) <= target ? 'met' : 'not met'} |`;
const block = [
  `${renderSystemLine(systemInfo({ target: 'npm run perf:frameworks' }))};`,
  `wrk -t1 -c${connections} -d${seconds}s on GET /memory/key1, ${rounds} interleaved rounds` +
    `${pin ? ', wrk on CPU 0 and the servers on CPU 1' : ''}; CPU from /proc:`,
  '',
  '| server | rps, median (range) | CPU µs per response, median (range) |',
  '| --- | --- | --- |',
  ...rows,
  '',
  '| ratio of CPU per response, per round side by side | median (range) | target | |',
  '| --- | --- | --- | --- |',
  ratioLine('the app on express / one-route Express 5', express, TARGETS.express),
  ratioLine('the app on fastify / bare node:http', fastify, TARGETS.fastify),
].join('\n');
console.log(`\n${block}`);

if (values['write-docs']) {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end === -1) {
    console.error(`docs/measurement.md has no ${START} ... ${END} block to write into`);
    process.exit(1);
  }
  writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${block}\n${doc.slice(end)}`);
  console.log('\nwritten to docs/measurement.md');
}
