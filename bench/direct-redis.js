// The direct engine's speed (a benchmark, not a test), two parts (--parts, default both):
//
// benchmark: GET key1 on redis through the redis adapter (node-redis) at concurrency 50, against
// redis-benchmark -c 50 -t get on the same server in the same run, taking turns; then the same
// pipelined, --pipeline 16 against redis-benchmark -c 50 -P 16 -t get. Target, each: the direct
// mode reaches at least 0.5 of redis-benchmark's rps.
//
// pipeline: the direct mode's --pipeline 1 and --pipeline 16 (-P) beside the Redis clients' own
// pipelined rate with no driver around them (bench/redis-floor.js: node-redis's auto-pipelining
// and multi().execAsPipeline(), ioredis's pipeline()), each round all five, the order turning
// by one; rps and CPU µs per command of this thread. Targets (bench/verdicts.js, medians of
// each round's ratio): --pipeline 16 at least 3x --pipeline 1, and at least 0.7 of node-redis's
// own faster pipelined way.
//
//   npm run perf:direct -- [--parts benchmark,pipeline] [-t 5] [--rounds 3] [-c 50] [-P 16]
//
// The server is a redis-server started for the run (nothing else on it), or REDIS_URL's.
// redis-benchmark GETs the key `key:__rand_int__`; it is set to key1's bytes first, so both
// read a value of the same size. Where the rest goes: redis-benchmark is C with one event
// loop writing raw RESP; the direct mode pays, per call, node-redis's command encoding and
// reply parsing (it pipelines the 50 callers' commands on one connection), a promise, the
// step's own accounting (an hrtime, a deadline timer, a histogram record). The adapter turns
// node-redis's own per-command timeout off (stores/clients/redis-options.js): a third line
// measures the same step with node-redis's default of 5 s on (an AbortSignal.timeout and its
// listener for every command, and the garbage they make), to show what that default costs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { measureStep } from '../driver/step.js';
import { directEngine } from '../driver/engines/direct.js';
import * as redisAdapter from '../stores/redis.js';
import { redisClientOptions } from '../stores/clients/redis-options.js';
import { startRedisServer } from '../embedded/redis-server.js';
import { payloads } from '../stores/payloads.js';
import { findTool } from '../util/which.js';
import { median } from '../util/stats.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { redactUrl } from '../util/redact.js';
import { threadCpuMicros } from '../driver/thread-cpu.js';
import { BARE_WAYS, bareRate, openBareClients } from './redis-floor.js';
import { PIPELINE_TARGETS, pipelineVerdict } from './verdicts.js';

const TARGET_RATIO = 0.5;
const WARMUP_SECONDS = 1;
const run = promisify(execFile);
const PARTS = ['benchmark', 'pipeline'];

const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: PARTS.join(',') },
    duration: { type: 'string', short: 't', default: '5' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', short: 'c', default: '50' },
    pipeline: { type: 'string', short: 'P', default: '16' },
  },
});
const seconds = Number(values.duration);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const pipeline = Number(values.pipeline);
const parts = new Set(values.parts.split(',').map((part) => part.trim()).filter(Boolean));
const wholeFrom = (value, least) => Number.isInteger(value) && value >= least;
const knownParts = parts.size && [...parts].every((part) => PARTS.includes(part));
if (!knownParts || !(seconds > 0) || !(rounds > 0) || !wholeFrom(concurrency, 1) || !wholeFrom(pipeline, 2)) {
  console.error(`usage: node bench/direct-redis.js [--parts ${PARTS.join(',')}] [-t SECONDS] [--rounds N] [-c N] ` +
    '[-P N (2 or more)]');
  process.exit(2);
}
const redisBenchmark = findTool('redis-benchmark');
if (parts.has('benchmark') && !redisBenchmark) {
  console.error('bench/direct-redis.js needs redis-benchmark (Debian: apt-get install redis-tools)');
  process.exit(1);
}

/** redis-benchmark's --csv line for GET: its rps. */
export function parseRedisBenchmark(output) {
  const line = output.split('\n').find((text) => text.startsWith('"GET'));
  const rps = Number(line?.split(',')[1]?.replaceAll('"', ''));
  if (!Number.isFinite(rps)) throw new Error(`cannot read redis-benchmark's output:\n${output}`);
  return rps;
}

// redis-benchmark for `requests` GETs (it runs by count, not time), `depth` at a time on each connection (-P).
async function benchmarkRound(url, requests, depth = 1) {
  const { hostname, port, password, pathname } = new URL(url);
  const db = pathname.replace(/^\//, '') || '0';
  const args = [
    '-h', hostname, '-p', port || '6379', '--dbnum', db,
    '-c', String(concurrency), '-t', 'get', '-n', String(requests), '--csv',
  ];
  if (depth > 1) args.push('-P', String(depth));
  if (password) args.push('-a', decodeURIComponent(password), '--no-auth-warning');
  const { stdout } = await run(redisBenchmark, args, { maxBuffer: 1024 * 1024 });
  return parseRedisBenchmark(stdout);
}

const owned = process.env.REDIS_URL ? null : await startRedisServer();
const url = process.env.REDIS_URL ?? owned.url;
const store = await redisAdapter.open({ redis: { url } });
const step = (durationSeconds, through = store, depth = 1) => measureStep(directEngine, {
  url: 'direct://redis/key1', store: through, key: 'key1', concurrency, durationSeconds, pipeline: depth,
});
let exitCode = 0;
try {
  await store.set('key1', payloads.key1);
  const target = `redis ${redactUrl(url)}${owned ? ' (started for this run)' : ''}`;
  console.log(renderSystemLine(systemInfo({ target, engine: 'direct' }), { engine: 'direct' }));
  if (parts.has('benchmark') && !(await againstRedisBenchmark())) exitCode = 3;
  if (parts.has('pipeline') && !(await pipelinePart())) exitCode = 3;
} finally {
  await store.close();
  await owned?.stop();
}
process.exitCode = exitCode;

// The direct mode beside redis-benchmark, unpipelined and at -P; true when both ratios met the target.
async function againstRedisBenchmark() {
  // The adapter's client with node-redis's default per-command timeout (5 s) back on: only to show what it costs.
  const { createClient, RESP_TYPES } = await import('redis');
  const timed = createClient({ ...redisClientOptions({ url }), commandOptions: { timeout: 5000 } });
  await timed.connect();
  const timedBytes = timed.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const timedStore = { get: (key) => timedBytes.get(key) };
  try {
    await store.set('key:__rand_int__', payloads.key1);
    console.log(`\nGET key1 (${payloads.key1.length} bytes) at concurrency ${concurrency}, then pipelined ` +
      `${pipeline} deep, beside redis-benchmark: ${rounds} round(s) of ${seconds} s each, taking turns\n`);
    await step(WARMUP_SECONDS);
    await step(WARMUP_SECONDS, timedStore);
    await step(WARMUP_SECONDS, store, pipeline);
    const direct = [];
    const theirs = [];
    const withTimeout = [];
    const pipelined = [];
    const theirsPipelined = [];
    for (let round = 1; round <= rounds; round += 1) {
      const ours = await step(seconds);
      const defaulted = await step(seconds, timedStore);
      for (const figures of [ours, defaulted]) {
        if (figures.errors.total) throw new Error(`a direct step had errors: ${JSON.stringify(figures.errors.byKind)}`);
      }
      withTimeout.push(defaulted.rps);
      // As many requests as the direct mode did, times two: redis-benchmark is faster.
      const rps = await benchmarkRound(url, Math.max(10_000, Math.round(ours.rps * seconds * 2)));
      direct.push(ours.rps);
      theirs.push(rps);
      console.log(`round ${round}: direct ${Math.round(ours.rps)} rps ` +
        `(p50 ${ours.latency.p50Ms} ms, driver CPU ${Math.round(ours.cpuPercent)}%) · ` +
        `redis-benchmark ${Math.round(rps)} rps · ratio ${(ours.rps / rps).toFixed(2)} · ` +
        `with node-redis's default 5 s command timeout ${Math.round(defaulted.rps)} rps`);
      // Pipelined: as many GETs for redis-benchmark as it did in its last pipelined round's
      // `seconds` (a first guess of 8 times the direct mode's rate: -P is far faster in C).
      const oursPipelined = await step(seconds, store, pipeline);
      if (oursPipelined.errors.total) {
        throw new Error(`a pipelined direct step had errors: ${JSON.stringify(oursPipelined.errors.byKind)}`);
      }
      const guess = theirsPipelined.at(-1) ?? oursPipelined.rps * 8;
      const rpsPipelined = await benchmarkRound(url, Math.max(100_000, Math.round(guess * seconds)), pipeline);
      pipelined.push(oursPipelined.rps);
      theirsPipelined.push(rpsPipelined);
      console.log(`         --pipeline ${pipeline}: direct ${Math.round(oursPipelined.rps)} rps ` +
        `(p50 ${oursPipelined.latency.p50Ms} ms, driver CPU ${Math.round(oursPipelined.cpuPercent)}%) · ` +
        `redis-benchmark -P ${pipeline} ${Math.round(rpsPipelined)} rps · ` +
        `ratio ${(oursPipelined.rps / rpsPipelined).toFixed(2)}`);
    }
    const verdict = (ratio) => `ratio ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}) ` +
      `${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}`;
    const ratio = median(direct) / median(theirs);
    const pipelinedRatio = median(pipelined) / median(theirsPipelined);
    console.log(`\nmedian: direct ${Math.round(median(direct))} rps, ` +
      `redis-benchmark ${Math.round(median(theirs))} rps: ${verdict(ratio)}`);
    console.log('with node-redis\'s default per-command timeout (the adapter turns it off): ' +
      `${Math.round(median(withTimeout))} rps, ratio ${(median(withTimeout) / median(theirs)).toFixed(2)}`);
    console.log(`pipelined ${pipeline} deep: direct ${Math.round(median(pipelined))} rps, ` +
      `redis-benchmark -P ${pipeline} ${Math.round(median(theirsPipelined))} rps: ${verdict(pipelinedRatio)}`);
    return ratio >= TARGET_RATIO && pipelinedRatio >= TARGET_RATIO;
  } finally {
    await timed.close();
  }
}

// --pipeline 1 and N beside the clients' own pipelined rate, the order turning by one each
// round; true when both targets were met.
async function pipelinePart() {
  console.log(`\n--pipeline 1 and ${pipeline} at concurrency ${concurrency}, beside the clients alone ` +
    `(${pipeline} GETs at a time per caller): ${rounds} round(s) of ${seconds} s each, the order turning\n`);
  const bare = await openBareClients(url);
  const driverRun = async (depth, runSeconds = seconds) => {
    const before = threadCpuMicros();
    const figures = await step(runSeconds, store, depth);
    if (figures.errors.total) throw new Error(`a direct step had errors: ${JSON.stringify(figures.errors.byKind)}`);
    const cpu = before === null ? null : threadCpuMicros() - before;
    return { rps: figures.rps, cpuUs: cpu === null ? null : cpu / figures.responses, meanMs: figures.latency.meanMs };
  };
  const load = { key: 'key1', callers: concurrency, depth: pipeline };
  const runs = [
    ['p1', (runSeconds) => driverRun(1, runSeconds)],
    ['pN', (runSeconds) => driverRun(pipeline, runSeconds)],
    ...BARE_WAYS.map((way) => [way, (runSeconds = seconds) =>
      bareRate(bare.ways[way], { ...load, seconds: runSeconds })]),
  ];
  const label = (name) => ({ p1: 'direct --pipeline 1', pN: `direct --pipeline ${pipeline}` }[name] ?? name);
  const figures = [];
  try {
    for (const [, measure] of runs) await measure(WARMUP_SECONDS);
    for (let round = 1; round <= rounds; round += 1) {
      const shift = (round - 1) % runs.length;
      const order = [...runs.slice(shift), ...runs.slice(0, shift)];
      const figure = {};
      for (const [name, measure] of order) figure[name] = await measure();
      figures.push(figure);
      console.log(`round ${round} (${order.map(([name]) => label(name)).join(', ')})`);
      for (const [name] of runs) {
        const { rps, cpuUs } = figure[name];
        console.log(`  ${label(name).padEnd(22)} ${Math.round(rps).toString().padStart(8)} rps, ` +
          `${cpuUs === null ? 'n/a' : cpuUs.toFixed(2)} µs of CPU per command`);
      }
    }
  } finally {
    await bare.close();
  }
  // Judged against node-redis's faster pipelined way in each round: the client's own best.
  const verdict = pipelineVerdict(figures, ['node-redis auto', 'node-redis pipeline']);
  const medianOf = (name, pick) => median(figures.map((figure) => pick(figure[name])));
  console.log(`\nmedians over ${rounds} round(s):`);
  for (const [name] of runs) {
    console.log(`  ${label(name).padEnd(22)} ${Math.round(medianOf(name, (f) => f.rps)).toString().padStart(8)} rps, ` +
      `${medianOf(name, (f) => f.cpuUs ?? NaN).toFixed(2)} µs of CPU per command`);
  }
  const ofWay = (way) => (median(figures.map((figure) => figure.pN.rps / figure[way].rps))).toFixed(2);
  console.log(`--pipeline ${pipeline} / --pipeline 1 = ${verdict.overUnpipelined.toFixed(2)} ` +
    `(target at least ${PIPELINE_TARGETS.overUnpipelined}: ${verdict.overMet ? 'met' : 'NOT met'})`);
  console.log(`--pipeline ${pipeline} / node-redis's faster pipelined way = ${verdict.ofBareClient.toFixed(2)} ` +
    `(target at least ${PIPELINE_TARGETS.ofBareClient}: ${verdict.bareMet ? 'met' : 'NOT met'}); ` +
    `against each: ${BARE_WAYS.map((way) => `${way} ${ofWay(way)}`).join(', ')}`);
  return verdict.met;
}
