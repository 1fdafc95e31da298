// npm run perf:load-rate: how fast each store takes the load phase, for the driver's time
// estimate (driver/estimate.js LOAD_RATES). app.js with every store (the embedded servers),
// then for each store that is up: LOAD_RECORDS records of 100 bytes, and LOAD_RECORDS / 50 of
// 10,000 bytes, loaded as `node test --records N` loads them (driver/workloads/load.js: the
// bulk route, 8 MB batches, 2 in flight). It prints each store's records/s and MB/s and the
// LOAD_RATES entries they give. A benchmark, not a test: it reports, never fails on speed.
//
//   npm run perf:load-rate   (LOAD_RECORDS, default 50000; STORES, default all)
import { startAppProcess } from '../driver/app-process.js';
import { createWorkload } from '../driver/workloads/workload.js';
import { loadRecords } from '../driver/workloads/load.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';

const records = Number(process.env.LOAD_RECORDS ?? 50_000);
const chosen = process.env.STORES?.split(',');
const SMALL = 100;
const LARGE = 10_000;
const LARGE_SHARE = 50;

// As the driver's embedded app has it: the operation deadline is the run's --timeout (10 s).
const env = { ...process.env, STOREBENCH_OP_TIMEOUT_MS: process.env.STOREBENCH_OP_TIMEOUT_MS || '10000' };
const app = await startAppProcess({ stores: chosen, env });
/** Seconds to load `count` records of `size` bytes into `store` (a fresh seed: fresh keys' values). */
async function loadSeconds(store, count, size) {
  const spec = {
    name: 'update',
    mix: [{ operation: 'update', share: 1 }],
    distribution: { name: 'uniform' },
    records: count,
    valueSize: { min: size, max: size },
    seed: Date.now() % 1e9,
    load: true,
  };
  const workload = createWorkload(spec, { basePath: `/${store}` });
  const load = await loadRecords({ url: `${app.url}/${encodeURIComponent(store)}`, workload, timeoutMs: 600_000 });
  if (load.errors.total) throw new Error(`${JSON.stringify(load.errors.byKind)} loading ${count} x ${size} B`);
  return load.seconds;
}

try {
  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  const up = stores.filter((store) => store.status === 'up').map((store) => store.name);
  console.log(renderSystemLine(systemInfo()));
  const large = records / LARGE_SHARE;
  console.log(`load phase through app.js: ${records} records of ${SMALL} B, then ${large} of ${LARGE} B, per store\n`);
  const rates = {};
  await loadSeconds(up[0], records / 5, SMALL); // the app's own warm-up: its first load is slower
  for (const store of up) {
    let small;
    let large;
    try {
      small = await loadSeconds(store, records, SMALL);
      large = await loadSeconds(store, records / LARGE_SHARE, LARGE);
    } catch (error) {
      console.log(`${store.padEnd(16)} not measured: ${error.message}`);
      continue;
    }
    // time = records / recordsPerSecond + bytes / bytesPerSecond, solved from the two loads; when
    // the noise makes the bytes' share come out negative, all of the large load's time is theirs.
    const perRecord = small / records;
    const largeBytes = (records / LARGE_SHARE) * LARGE;
    const solved = (large - (records / LARGE_SHARE) * perRecord) / largeBytes;
    const perByte = solved > 0 ? solved : large / largeBytes;
    rates[store] = {
      recordsPerSecond: Math.round(1 / perRecord),
      bytesPerSecond: Math.round(1 / perByte),
    };
    console.log(`${store.padEnd(16)} ${(records / small).toFixed(0).padStart(8)} records/s at ${SMALL} B; ` +
      `${(records / LARGE_SHARE / large).toFixed(0).padStart(7)} records/s, ` +
      `${((records / LARGE_SHARE) * LARGE / large / 1e6).toFixed(1)} MB/s at ${LARGE} B`);
  }
  console.log('\nLOAD_RATES entries (driver/estimate.js):');
  for (const [store, rate] of Object.entries(rates)) console.log(`  '${store}': ${JSON.stringify(rate)},`);
} finally {
  await app.stop();
}
