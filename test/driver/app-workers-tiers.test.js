// Regression (issue 35): with app.js --workers N and a global --store-rtt, the delaying proxy runs
// in the cluster primary and relays every worker's store traffic, but the app's tier counted the
// primary out of its processes, and no one looked at it alone. A real run of the embedded app with
// --app-workers 2 and --store-rtt 1 against redis: the app's processes are its primary and two
// workers, each with its own CPU, the primary's counted in the app's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runBenchmark } from '../../driver/run.js';
import { parseArguments } from '../../cli/options.js';
import { which } from '../../util/which.js';
import { unavailable } from '../helpers/services.js';

const noProc = () => {
  try {
    readFileSync('/proc/stat');
    return false;
  } catch {
    return true;
  }
};

test('node test --app-workers 2 --store-rtt 1: the primary, which relays the store traffic, is the app\'s too',
  { timeout: 120_000 }, async (t) => {
    if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
    if (!process.env.REDIS_URL && !which('redis-server')) {
      return unavailable(t, 'neither REDIS_URL nor redis-server for the embedded app');
    }
    const { options, problems } = parseArguments([
      '--stores', 'redis', '--keys', 'key1', '-c', '20', '-t', '2', '--warmup', '200', '--warmup-max', '0',
      '--no-control', '--app-workers', '2', '--store-rtt', '1', '-q',
    ]);
    assert.deepEqual(problems, []);
    const [step] = (await runBenchmark(options)).steps;
    const { app } = step.tiers;
    t.diagnostic(`app ${JSON.stringify(app)}; bottleneck ${step.bottleneck.evidence}`);
    assert.equal(app.source, 'proc');
    assert.deepEqual(app.detail.filter((entry) => entry.role !== 'other').map((entry) => entry.role).sort(),
      ['primary', 'worker', 'worker']);
    assert.equal(app.processes, 3);
    const own = app.detail.reduce((sum, entry) => sum + entry.cpuPercent, 0);
    assert.ok(Math.abs(app.cpuPercent - own) < 1e-6 * Math.max(1, own), 'the app\'s figure is its processes\' sum');
    const primary = app.detail.find((entry) => entry.role === 'primary');
    const workers = app.detail.filter((entry) => entry.role === 'worker');
    // Every store command and reply of both workers passes through the primary's proxy: it works
    // for every request, as the workers do (an idle primary, handing out 20 kept-alive
    // connections once, reads under a tick in 2 s).
    assert.ok(primary.cpuPercent > 0, `the primary used ${primary.cpuPercent}% of a core`);
    assert.ok(primary.cpuPercent >= 0.1 * Math.min(...workers.map((entry) => entry.cpuPercent)),
      `the primary ${primary.cpuPercent.toFixed(1)}% against its workers ` +
      `${workers.map((entry) => entry.cpuPercent.toFixed(1)).join(', ')}%`);
    assert.equal(app.busiestPercent, Math.max(...app.detail.filter((entry) => entry.role !== 'other')
      .map((entry) => entry.cpuPercent)));
  });
