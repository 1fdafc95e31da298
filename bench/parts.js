// npm run perf:parts: the targets of a split run (docs/merge.md), measured on this machine.
// 1. Parts started with one --start-at begin their first measured request within 20 ms of each
//    other (--warmup-max 0, so the first request after the barrier is measured).
// 2. Four local parts against one server give the same total rps (within 10%) as one driver
//    with the same total concurrency. The server (bench/sink-server.js) holds each request
//    HOLD_MS, so the rate is set by the clients, not by how the 2 cores are shared out.
// Prints the figures with the machine's load; exits 1 when a target is missed.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkListening } from '../util/fork-child.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const HOLD_MS = Number(process.env.HOLD_MS ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 40);
const SECONDS = Number(process.env.SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const driver = (args) => new Promise((resolve) => {
  const child = spawn(process.execPath, ['test.js', ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.on('close', (code) => resolve({ code, stderr }));
});

const sinkServer = fileURLToPath(new URL('./sink-server.js', import.meta.url));
const { message, stop } = await forkListening(sinkServer, ['--hold-ms', String(HOLD_MS)], { name: 'sink server' });
const dir = await mkdtemp(join(tmpdir(), 'storebench-perf-parts-'));
const url = `${message.url}/sink/key1`;
const common = [
  '--url', url, '-c', String(CONCURRENCY), '-t', String(SECONDS),
  '--warmup', '200', '--warmup-max', '0', '--engine', 'fast', '--seed', '1',
];
let failed = false;
try {
  console.log(`System: Node ${process.version}, ${cpus().length} x ${cpus()[0].model}, ` +
    `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (before)`);
  console.log(`Server: sink holding each request ${HOLD_MS} ms; ${CONCURRENCY} clients in all, ${SECONDS} s steps, ` +
    `${ROUNDS} rounds, --engine fast`);
  const spreads = [];
  const ratios = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const partsFile = join(dir, `parts-${round}.json`);
    const singleFile = join(dir, `single-${round}.json`);
    const parts = await driver([...common, '--parts', '4', '--local', '--start-at', '+6s', '--json', partsFile]);
    if (parts.code !== 0) throw new Error(`the parts failed: ${parts.stderr.trim().split('\n').at(-1)}`);
    const single = await driver([...common, '-q', '--json', singleFile]);
    if (single.code !== 0) throw new Error(`the single driver failed: ${single.stderr.trim().split('\n').at(-1)}`);
    const merged = JSON.parse(await readFile(partsFile, 'utf8'));
    const one = JSON.parse(await readFile(singleFile, 'utf8'));
    // The first measured request of each part: its first step's start (no warm-up after the barrier).
    const firsts = merged.steps[0].machines.map((machine) => Date.parse(machine.startedAt));
    const spread = Math.max(...firsts) - Math.min(...firsts);
    const ratio = merged.steps[0].rps / one.steps[0].rps;
    spreads.push(spread);
    ratios.push(ratio);
    console.log(`round ${round}: first measured requests ${spread} ms apart ` +
      `(barrier release ${merged.start.spreadMs} ms, clocks ${merged.start.clockSpreadMs} ms by the Date header); ` +
      `4 parts ${merged.steps[0].rps.toFixed(0)} rps vs one driver ${one.steps[0].rps.toFixed(0)} rps ` +
      `(${((ratio - 1) * 100).toFixed(1)}%)`);
  }
  const worstSpread = Math.max(...spreads);
  const worstRatio = ratios.reduce((a, b) => (Math.abs(b - 1) > Math.abs(a - 1) ? b : a));
  console.log(`Target 1 (within 20 ms): worst ${worstSpread} ms: ${worstSpread <= 20 ? 'met' : 'MISSED'}`);
  console.log(`Target 2 (within 10%): worst ${((worstRatio - 1) * 100).toFixed(1)}%: ` +
    (Math.abs(worstRatio - 1) <= 0.1 ? 'met' : 'MISSED'));
  console.log(`Load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  failed = worstSpread > 20 || Math.abs(worstRatio - 1) > 0.1;
} finally {
  await stop();
  await rm(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
