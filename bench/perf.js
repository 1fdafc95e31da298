// npm run perf: what the app and each store cost, measured with wrk at concurrency 20 in one
// run, as ratios against a bare node:http server sending the same bytes; then the workload
// figures: a write against a read in the app, in the driver, the bulk-load rate,
// the driver's memory over 10,000,000 records. Targets from the issues are printed beside
// the figures; this is a benchmark, not a test: it never fails on speed, it reports.
//
//   npm run perf -- [--parts reads,writes,cpu,load,memory]   (default: all)
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startAppProcess } from '../driver/app-process.js';
import { which } from '../util/which.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { wrk } from './wrk.js';
import { startBareServer } from './bare-server-process.js';
import { resolveSetting } from '../config/precedence.js';
import {
  CPU_SINK_HOLD_MS, bulkLoad, driverCpu, driverMemory, putVersusGet, startSinkServer, writeRoutesMissing,
} from './workload-perf.js';

const { value: seconds, problem } = resolveSetting('perfSeconds'); // PERF_SECONDS, default 10
if (problem) {
  console.error(`perf: ${problem}`);
  process.exit(2);
}
const connections = 20;
const PARTS = ['reads', 'writes', 'cpu', 'load', 'memory'];
const { values: flags } = parseArgs({ options: { parts: { type: 'string', default: PARTS.join(',') } } });
const parts = new Set(flags.parts.split(',').map((part) => part.trim()).filter(Boolean));
const unknownParts = [...parts].filter((part) => !PARTS.includes(part));
if (unknownParts.length || !parts.size) {
  const not = unknownParts.length ? `, not ${unknownParts.join(', ')}` : '';
  console.error(`perf: --parts takes a list of ${PARTS.join(', ')}${not}`);
  process.exit(2);
}

async function main() {
  if (!which('wrk')) {
    console.error('perf: wrk is not installed (apt-get install wrk)');
    process.exit(1);
  }
  // The app's write token, made up here and never shown (the wrk script that sends it lives in a private temp file).
  const token = randomBytes(24).toString('base64url');
  const stores = ['memory', 'redis', ...(parts.has('load') ? ['postgres'] : [])];
  const app = await startAppProcess({ stores, env: { ...process.env, STOREBENCH_WRITE_TOKEN: token } });
  const bare = await startBareServer();
  try {
    const { stores: listed } = await (await fetch(`${app.url}/stores`)).json();
    const redis = listed.find((s) => s.name === 'redis');
    console.log(renderSystemLine(systemInfo()));
    const redisText = redis.reason ? ` (${redis.reason})` : ` (${Object.values(redis.servers).join(', ')})`;
    console.log(`wrk -t1 -c${connections} -d${seconds}s; redis: ${redis.status}${redisText}\n`);

    const measure = async (label, url) => {
      await wrk(url, { connections, seconds: 1 }); // warm-up: JIT, connection pools
      const result = await wrk(url, { connections, seconds });
      const errors = result.errors ? `  ${result.errors} errors` : '';
      console.log(`${label.padEnd(22)} ${result.rps.toFixed(0).padStart(8)} rps  ` +
        `mean ${result.meanLatencyMs.toFixed(2).padStart(6)} ms${errors}`);
      return result;
    };
    const ratio = (label, a, b, target) => {
      const value = a.rps / b.rps;
      const verdict = target === undefined
        ? ''
        : value >= target ? `  (target >= ${target}: met)` : `  (target >= ${target}: NOT met)`;
      console.log(`${label.padEnd(44)} ${value.toFixed(2)}${verdict}`);
    };
    let memoryKey1;
    if (parts.has('reads')) {
      const bareKey1 = await measure('bare node:http key1', `${bare.url}/key1`);
      memoryKey1 = await measure('/memory/key1', `${app.url}/memory/key1`);
      const bareKey3 = await measure('bare node:http key3', `${bare.url}/key3`);
      const memoryKey3 = await measure('/memory/key3', `${app.url}/memory/key3`);
      let redisKey1;
      let redisKey3;
      if (redis.status === 'up') {
        redisKey1 = await measure('/redis/key1', `${app.url}/redis/key1`);
        redisKey3 = await measure('/redis/key3', `${app.url}/redis/key3`);
      }

      console.log('\nRatios (rps / rps):');
      ratio('/memory/key1 / bare key1 (what Express costs)', memoryKey1, bareKey1);
      ratio('/memory/key3 / bare key3', memoryKey3, bareKey3);
      if (redisKey1) {
        ratio('/redis/key1 / /memory/key1', redisKey1, memoryKey1, 0.8);
        ratio('/redis/key3 / bare key3 (200 KB)', redisKey3, bareKey3, 0.25);
      } else {
        console.log('redis ratios skipped: redis is not up');
      }
    }

    if (parts.has('writes') || parts.has('cpu') || parts.has('load') || parts.has('memory')) {
      console.log(`${parts.has('reads') ? '\n' : ''}Workloads:`);
    }
    if (parts.has('writes')) {
      const missing = await writeRoutesMissing(app.url, token);
      if (!memoryKey1 && !missing) memoryKey1 = await measure('/memory/key1', `${app.url}/memory/key1`);
      const lines = await putVersusGet({ appUrl: app.url, token, connections, seconds, getKey1: memoryKey1, missing });
      for (const line of lines) console.log(line);
    }
    const driverParts = [['cpu', driverCpu, ['--hold-ms', String(CPU_SINK_HOLD_MS)]], ['memory', driverMemory, []]];
    for (const [part, measure, args] of driverParts) {
      if (!parts.has(part)) continue;
      const sink = await startSinkServer(args);
      try {
        for (const line of await measure({ sinkUrl: sink.url })) console.log(line);
      } finally {
        await sink.stop();
      }
    }
    if (parts.has('load')) {
      for (const [store, targetSeconds] of [['redis', 30], ['postgres', 60]]) {
        const status = listed.find((s) => s.name === store)?.status;
        for (const line of await bulkLoad({ appUrl: app.url, store, token, targetSeconds, status })) console.log(line);
      }
    }
  } finally {
    await bare.stop();
    await app.stop();
  }
}

await main();
