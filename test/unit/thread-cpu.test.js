// The calling thread's own CPU time (driver/thread-cpu.js): what DRIVER_CPU and each worker's
// cpuPercent rest on. Checked against CPU burned on purpose, on this thread and on another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { threadCpuMicros } from '../../driver/thread-cpu.js';

// Spins until the process has used `micros` more CPU: this thread's, when nothing else runs.
function burn(micros) {
  const cpu = () => { const { user, system } = process.cpuUsage(); return user + system; };
  const start = cpu();
  let spins = 0;
  while (cpu() - start < micros) spins += 1;
  return spins;
}

test('a thread\'s CPU counts what it burned itself', (t) => {
  if (threadCpuMicros() === null) return t.skip('this platform cannot read a thread\'s own CPU');
  const before = threadCpuMicros();
  burn(200_000);
  const used = threadCpuMicros() - before;
  // The process's clock also holds V8's own helper threads (a few ms at most here); the
  // thread's is read at 1 µs (schedstat) or 10 ms (ticks).
  assert.ok(used > 150_000 && used < 230_000, `200 ms burned, ${Math.round(used / 1000)} ms counted`);
});

test('and not what another thread of the same process burned meanwhile', async (t) => {
  if (threadCpuMicros() === null) return t.skip('this platform cannot read a thread\'s own CPU');
  const before = threadCpuMicros();
  const worker = new Worker(`
    const { parentPort } = require('node:worker_threads');
    const start = Date.now();
    while (Date.now() - start < 300) {}
    parentPort.postMessage('done');
  `, { eval: true });
  await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  await worker.terminate();
  const used = threadCpuMicros() - before;
  assert.ok(used < 100_000, `the worker spun 300 ms; this thread counted ${Math.round(used / 1000)} ms`);
});
