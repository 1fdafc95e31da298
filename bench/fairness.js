// npm run perf:fairness: whether a comparison depends on when a store ran (a benchmark, not a
// test: it prints figures and targets, and never fails on them).
//
//   npm run perf:fairness -- [--parts cause,servers,orders,newcomer,default] [--rounds 3]
//
// - cause: a freshly started app.js, its first URL measured in 0.5 s windows at concurrency 20
//   for 8 s: how long the app itself takes to warm (the first store of a run used to pay it).
// - servers: what the servers an app just started add: a fresh app with `memory` and one store,
//   its request path warmed on memory/key1 for 3 s, then the store's key1 in 0.5 s windows for
//   8 s. redis (a single redis-server: nothing to settle) shows the adapter's own first
//   requests; what redis-cluster, postgres or tarantool lose beyond that is their servers settling.
// - orders: `--stores memory,redis,postgres` against `--stores postgres,redis,memory`, --rounds
//   each, alternating; each store's median rps in the two orders, and how far apart. Also once
//   with `--order sequential --warmup 0 --warmup-max 0` (how runs went before) for contrast.
//   Target: under 15% apart in the default order.
// - newcomer: `node test --keys key1 -c 5,20 -t 2` (every store the machine can run), --rounds
//   times: memory's rank at each level. Target: first, or tied for first, in every run.
// - default: one plain `node test` and one `node test --quick`, timed. Target: under 10 minutes,
//   and about a minute for --quick.
// Every run prints how busy the machine was (its steps' steal and other processes' CPU): on a
// shared machine, read the figures of a quiet run.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startAppProcess } from '../driver/app-process.js';
import { measureStep } from '../driver/step.js';
import { loadtestEngine } from '../driver/engines/loadtest.js';
import { median } from '../util/stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PARTS = ['cause', 'servers', 'orders', 'newcomer', 'default'];
const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: 'cause,servers,orders,newcomer' },
    rounds: { type: 'string', default: '3' },
  },
});
const parts = new Set(values.parts.split(',').map((part) => part.trim()).filter(Boolean));
const rounds = Number(values.rounds);
if ([...parts].some((part) => !PARTS.includes(part)) || !(rounds > 0)) {
  console.error(`usage: npm run perf:fairness -- [--parts ${PARTS.join(',')}] [--rounds N]`);
  process.exit(2);
}

const percent = (fraction) => `${fraction >= 0 ? '+' : '−'}${Math.abs(fraction * 100).toFixed(0)}%`;

/** Runs `node test ARGS --json FILE -q` and resolves to { result, seconds, status }. */
async function runDriver(args) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-fairness-'));
  const file = join(dir, 'run.json');
  const started = Date.now();
  const status = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['test.js', ...args, '--json', file, '-q'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', resolve);
  });
  const seconds = (Date.now() - started) / 1000;
  let result = null;
  try {
    result = JSON.parse(await readFile(file, 'utf8'));
  } catch {}
  await rm(dir, { recursive: true, force: true });
  return { result, seconds, status };
}

/** "steal 3-12% · others 5-60% of a core": the machine during a run's steps. */
function machineText(result) {
  const range = (pick) => {
    const known = result.steps.map((step) => pick(step.machine)).filter((value) => value !== null);
    return known.length ? `${Math.round(Math.min(...known))}-${Math.round(Math.max(...known))}%` : 'n/a';
  };
  const steal = range((machine) => machine.stealPercent);
  return `steal ${steal} · others ${range((machine) => machine.othersCpuPercent)} of a core`;
}

async function cause() {
  console.log('\n## cause: a fresh app.js, its first URL in 0.5 s windows at concurrency 20');
  for (const store of ['memory', 'redis']) {
    const app = await startAppProcess({
      stores: [store],
      env: { ...process.env, STOREBENCH_WRITE_TOKEN: 'fairness-bench-token-0123456789' },
    });
    try {
      const rates = [];
      for (let window = 0; window < 16; window += 1) {
        const step = await measureStep(loadtestEngine, {
          url: `${app.url}/${store}/key1`,
          concurrency: 20,
          durationSeconds: 0.5,
        });
        rates.push(Math.round(step.rps));
      }
      const settled = median(rates.slice(8));
      console.log(`${store}: ${rates.join(' ')} rps; ` +
        `first window ${percent(rates[0] / settled - 1)} of the last 4 s's median (${settled})`);
    } finally {
      await app.stop();
    }
  }
}

// Resolves to the rps of `count` windows of 0.5 s at concurrency 20 on url.
async function windows(url, count) {
  const rates = [];
  for (let window = 0; window < count; window += 1) {
    const step = await measureStep(loadtestEngine, { url, concurrency: 20, durationSeconds: 0.5 });
    rates.push(Math.round(step.rps));
  }
  return rates;
}

async function servers() {
  console.log('\n## servers: a fresh app, warmed on memory/key1 for 3 s, then the store\'s key1 in 0.5 s windows');
  for (const store of ['redis', 'redis-cluster', 'postgres', 'tarantool']) {
    const app = await startAppProcess({
      stores: ['memory', store],
      env: { ...process.env, STOREBENCH_WRITE_TOKEN: 'fairness-bench-token-0123456789' },
    });
    try {
      const { stores } = await (await fetch(`${app.url}/stores`)).json();
      const entry = stores.find((candidate) => candidate.name === store);
      if (entry?.status !== 'up') {
        console.log(`${store}: not up here (${entry?.reason ?? 'no entry'})`);
        continue;
      }
      await windows(`${app.url}/memory/key1`, 6);
      const rates = await windows(`${app.url}/${store}/key1`, 16);
      const settled = median(rates.slice(8));
      const firstSecond = (rates[0] + rates[1]) / 2;
      console.log(`${store}: ${rates.join(' ')} rps; first second ${percent(firstSecond / settled - 1)} ` +
        `of the last 4 s's median (${settled})`);
    } finally {
      await app.stop();
    }
  }
}

async function orders() {
  console.log(`\n## orders: the same three stores listed both ways, ${rounds} rounds each, ` +
    'alternating (key1, -c 20, -t 2)');
  const lists = ['memory,redis,postgres', 'postgres,redis,memory'];
  const ways = [
    ['default (interleaved, warmed, control)', []],
    ['before: sequential, no warm-up', ['--order', 'sequential', '--warmup', '0']],
  ];
  for (const [label, extra] of ways) {
    const rps = new Map(lists.map((list) => [list, new Map()]));
    for (let round = 1; round <= rounds; round += 1) {
      for (const list of round % 2 ? lists : [...lists].reverse()) {
        const { result, status } = await runDriver([
          '--stores', list, '--keys', 'key1', '-c', '20', '-t', '2', ...extra,
        ]);
        if (!result) {
          console.log(`  ${list}: the run failed (exit ${status})`);
          continue;
        }
        for (const step of result.steps) {
          if (!rps.get(list).has(step.store)) rps.get(list).set(step.store, []);
          rps.get(list).get(step.store).push(step.rps);
        }
        const stepsText = result.steps.map((step) => `${step.store} ${Math.round(step.rps)}`).join(', ');
        console.log(`  round ${round} ${list}: ${stepsText} · ${machineText(result)}`);
      }
    }
    console.log(`${label}:`);
    let worst = 0;
    for (const store of ['memory', 'redis', 'postgres']) {
      const [a, b] = lists.map((list) => median(rps.get(list).get(store) ?? []));
      const apart = Math.abs(a - b) / Math.min(a, b);
      worst = Math.max(worst, apart);
      const placed = (list) => (list.indexOf(store) === 0 ? 'first' : 'later');
      console.log(`  ${store}: median ${Math.round(a)} rps listed ${placed(lists[0])}, ` +
        `${Math.round(b)} listed ${placed(lists[1])}: ${(apart * 100).toFixed(0)}% apart`);
    }
    const target = extra.length ? '' : ` (target under 15%: ${worst < 0.15 ? 'met' : 'NOT met'})`;
    console.log(`  largest gap ${(worst * 100).toFixed(0)}%${target}`);
  }
}

async function newcomer() {
  console.log(`\n## newcomer: node test --keys key1 -c 5,20 -t 2, every store, ${rounds} runs`);
  let firstEveryTime = 0;
  for (let round = 1; round <= rounds; round += 1) {
    const { result, seconds, status } = await runDriver(['--keys', 'key1', '-c', '5,20', '-t', '2']);
    if (!result) {
      console.log(`  run ${round}: failed (exit ${status})`);
      continue;
    }
    const ranks = result.comparison.filter((group) => !group.operation).map((group) => {
      const memory = group.rows.find((row) => row.store === 'memory');
      const tied = group.rows.filter((row) => row.rank === memory?.rank).length;
      const flagged = group.rows
        .filter((row) => row.warnings.includes('FASTER_THAN_BASELINE'))
        .map((row) => row.store);
      return { load: group.load, rank: memory?.rank, tied, of: group.rows.length, flagged };
    });
    const first = ranks.every((entry) => entry.rank === 1);
    if (first) firstEveryTime += 1;
    const drift = result.control ? percent(result.control.drift) : 'n/a';
    const rankText = (entry) => {
      const tied = entry.tied > 1 ? ` (tied with ${entry.tied - 1})` : '';
      const flagged = entry.flagged.length ? `, FASTER_THAN_BASELINE: ${entry.flagged.join(', ')}` : '';
      return `c=${entry.load} memory rank ${entry.rank}${tied} of ${entry.of}${flagged}`;
    };
    console.log(`  run ${round} (${seconds.toFixed(0)} s, ${result.targets.length} stores, control drift ${drift}, ` +
      `${machineText(result)}): ${ranks.map(rankText).join('; ')}`);
  }
  console.log(`memory first or tied for first at every level in ${firstEveryTime} of ${rounds} runs ` +
    '(target: every run)');
}

async function timing() {
  console.log('\n## default: how long the plain run and --quick take here');
  for (const args of [[], ['--quick']]) {
    const { result, seconds, status } = await runDriver(args);
    const machine = result ? ` · ${machineText(result)}` : '';
    console.log(`  node test ${args.join(' ')}: ${(seconds / 60).toFixed(1)} min, exit ${status}, ` +
      `${result?.steps.length ?? 0} steps of ${result?.targets.length ?? 0} URLs${machine}`);
  }
}

console.log(`perf:fairness on ${process.version}, ${new Date().toISOString()}`);
if (parts.has('cause')) await cause();
if (parts.has('servers')) await servers();
if (parts.has('orders')) await orders();
if (parts.has('newcomer')) await newcomer();
if (parts.has('default')) await timing();
