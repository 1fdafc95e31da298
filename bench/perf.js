// npm run perf: what the app and each store cost, measured with wrk at concurrency 20 in one
// run, as ratios against a bare node:http server sending the same bytes. Targets from the
// app issue are printed beside the figures; this is a benchmark, not a test: it never fails
// on speed, it reports.
import { startAppProcess } from '../driver/app-process.js';
import { which } from '../util/which.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { wrk } from './wrk.js';
import { startBareServer } from './bare-server-process.js';
import { resolveSetting } from '../config/precedence.js';

const { value: seconds, problem } = resolveSetting('perfSeconds'); // PERF_SECONDS, default 10
if (problem) {
  console.error(`perf: ${problem}`);
  process.exit(2);
}
const connections = 20;

async function main() {
  if (!which('wrk')) {
    console.error('perf: wrk is not installed (apt-get install wrk)');
    process.exit(1);
  }
  const app = await startAppProcess({ stores: ['memory', 'redis'] });
  const bare = await startBareServer();
  try {
    const { stores } = await (await fetch(`${app.url}/stores`)).json();
    const redis = stores.find((s) => s.name === 'redis');
    console.log(renderSystemLine(systemInfo({ loadtest: false })));
    console.log(`wrk -t1 -c${connections} -d${seconds}s; redis: ${redis.status}${redis.reason ? ` (${redis.reason})` : ` (${Object.values(redis.servers).join(', ')})`}\n`);

    const measure = async (label, url) => {
      await wrk(url, { connections, seconds: 1 }); // warm-up: JIT, connection pools
      const result = await wrk(url, { connections, seconds });
      console.log(`${label.padEnd(22)} ${result.rps.toFixed(0).padStart(8)} rps  mean ${result.meanLatencyMs.toFixed(2).padStart(6)} ms${result.errors ? `  ${result.errors} errors` : ''}`);
      return result;
    };
    const bareKey1 = await measure('bare node:http key1', `${bare.url}/key1`);
    const memoryKey1 = await measure('/memory/key1', `${app.url}/memory/key1`);
    const bareKey3 = await measure('bare node:http key3', `${bare.url}/key3`);
    const memoryKey3 = await measure('/memory/key3', `${app.url}/memory/key3`);
    let redisKey1;
    let redisKey3;
    if (redis.status === 'up') {
      redisKey1 = await measure('/redis/key1', `${app.url}/redis/key1`);
      redisKey3 = await measure('/redis/key3', `${app.url}/redis/key3`);
    }

    const ratio = (label, a, b, target) => {
      const value = a.rps / b.rps;
      const verdict = target === undefined ? '' : value >= target ? `  (target >= ${target}: met)` : `  (target >= ${target}: NOT met)`;
      console.log(`${label.padEnd(44)} ${value.toFixed(2)}${verdict}`);
    };
    console.log('\nRatios (rps / rps):');
    ratio('/memory/key1 / bare key1 (what Express costs)', memoryKey1, bareKey1);
    ratio('/memory/key3 / bare key3', memoryKey3, bareKey3);
    if (redisKey1) {
      ratio('/redis/key1 / /memory/key1', redisKey1, memoryKey1, 0.8);
      ratio('/redis/key3 / bare key3 (200 KB)', redisKey3, bareKey3, 0.25);
    } else {
      console.log('redis ratios skipped: redis is not up');
    }
  } finally {
    await bare.stop();
    await app.stop();
  }
}

await main();
