import { test } from 'node:test';
import { createServer } from 'node:http';
import assert from 'node:assert/strict';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startTestServer } from '../helpers/driver-servers.js';
import { fromJson } from '../../result/format.js';

test('node test --workers 2 -n 400: the step holds 400 requests, the workers\' shares add up to it, ' +
  'the settings say 2', async (t) => {
  const server = await startTestServer(t, { sleepMs: 1 });
  const result = await runDriverCli([
    '--url', `${server.url}/x/key1`, '--threads', '2', '-c', '4,5', '-n', '400', '--warmup', '20', '--warmup-max', '0',
    '--order', 'sequential', '--json', '-',
  ]);
  assert.equal(result.status, 0, result.stderr);
  const run = fromJson(result.stdout);
  assert.equal(run.settings.workers, 2);
  assert.match(result.stderr, /Workers: {2}each step in 2 worker threads/);
  for (const step of run.steps) {
    assert.equal(step.requests, 400);
    assert.equal(step.workers.length, 2);
    assert.equal(step.workers.reduce((sum, worker) => sum + worker.requests, 0), 400);
  }
  // Each worker's -n share follows its clients (c=5: 3 and 2 clients, so 240 and 160), so they end together.
  assert.deepEqual(run.steps.map((step) => step.workers.map((worker) => worker.requests)), [[200, 200], [240, 160]]);
  // Every request of the reachability check, the priming, the steps and the control (the first
  // step again) reached the server, each once.
  assert.equal(run.control.step.requests, 400);
  assert.equal(server.heldMs.length, 1 + 20 + 800 + 400);
});

test('--threads 0 and --threads 257 are one line each and exit 2, before any load', async () => {
  for (const value of ['0', '257']) {
    const result = await runDriverCli(['--url', 'http://127.0.0.1:9/x/key1', '--threads', value]);
    assert.equal(result.status, 2);
    assert.equal(result.stderr.split('\n')[0],
      `node test: --threads must be a whole number from 1 to 256 or auto, not "${value}"`);
    assert.match(result.stderr, /^[^\n]+\nRun node test --help for usage\.\n$/);
  }
});

// Ctrl-C must end the worker threads' requests at once: here every request after the driver's
// reachability check hangs for good (4 clients over 2 workers: 4 requests) and the step would
// last 60 s, so only an abort that ends the threads lets the run end (exit 130).
test('Ctrl-C during a step of 2 workers stops them at once: exit 130, ' +
  'the step in progress dropped', { timeout: 30_000 }, async (t) => {
  const hanging = new Set();
  let served = 0;
  const server = createServer((request, response) => {
    served += 1;
    if (served === 1) return response.end('ok');
    hanging.add(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    server.close();
  });
  const url = `http://127.0.0.1:${server.address().port}/x/key1`;
  const args = ['--url', url, '--threads', '2', '-c', '4', '-t', '60', '--timeout', '60000', '--warmup', '0'];
  const result = await runDriverCli(args, {
    // Interrupted once both workers' requests are at the server.
    onSpawn: (child) => {
      const poll = setInterval(() => {
        if (hanging.size < 4) return;
        clearInterval(poll);
        child.kill('SIGINT');
      }, 20);
      child.once('exit', () => clearInterval(poll));
    },
  });
  assert.equal(result.status, 130, result.stderr);
  assert.match(result.stdout, /interrupted: 0 step\(s\) finished; the step in progress was dropped/);
});

test('a key-space workload that writes, over 2 workers: exact counts, no 404 (each worker reads loaded keys), ' +
  'no read-back, and a note saying why', { timeout: 120_000 }, async () => {
  const result = await runDriverCli([
    '--stores', 'memory', '-w', 'ycsb-a', '--records', '500', '-c', '4', '-n', '600', '--warmup', '50',
    '--threads', '2', '-q', '--json', '-',
  ]);
  assert.equal(result.status, 0, result.stderr);
  const run = fromJson(result.stdout);
  assert.equal(run.settings.workers, 2);
  assert.equal(run.settings.verify, false);
  assert.deepEqual(run.verifications, []);
  assert.match(result.stderr, /note: the written values are not read back after the run: 2 workers write side by side/);
  const [step] = run.steps;
  assert.equal(step.requests, 600);
  assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
  assert.deepEqual(step.workers.map((worker) => worker.requests), [300, 300]);
  assert.equal(step.operations.reduce((sum, operation) => sum + operation.requests, 0), 600);
});
