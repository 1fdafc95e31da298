// --repeat N on real steps: the order steps run in, as the server sees their requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { runSweep } from '../../driver/sweep.js';
import { sweepSettings } from '../helpers/sweep-settings.js';
import { runBenchmark } from '../../driver/run.js';
import { parseArguments } from '../../cli/options.js';
import { fromJson, toJson } from '../../result/format.js';
import { renderRun } from '../../report/run-text.js';

async function recordingServer(t) {
  const paths = [];
  const server = createServer((request, response) => {
    paths.push(request.url);
    response.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
  return { url: `http://127.0.0.1:${server.address().port}`, paths };
}

// Consecutive requests to the same path, as one run of it: ['/a', '/a', '/b'] -> ['/a', '/b'].
const runs = (paths) => paths.filter((path, index) => path !== paths[index - 1]);

test('with --repeat 2 the server sees A B C, A B C at each load level, ' +
  'each URL primed before the first step', async (t) => {
  const server = await recordingServer(t);
  const targets = ['a', 'b', 'c'].map((store) => ({ url: `${server.url}/${store}/k`, store, key: 'k' }));
  const seen = [];
  const settings = sweepSettings({
    concurrency: [1, 2],
    requests: 6,
    warmup: 3,
    warmupMaxSeconds: 0,
    order: 'sequential',
    keepAlive: true,
    timeoutMs: 5000,
    repeat: 2,
  });
  const { steps } = await runSweep(targets, settings, {
    emit: ({ type, index, total, target, load }) => {
      if (type !== 'step') return;
      const what = load.warmup ? 'warm-up' : `c${load.concurrency} r${load.repeat}/${load.repeats}`;
      seen.push(`${index}/${total} ${target.store} ${what}`);
    },
  });
  assert.deepEqual(steps.map((step) => `${step.store} c${step.concurrency} r${step.repeat}`), [
    'a c1 r1', 'b c1 r1', 'c c1 r1', 'a c1 r2', 'b c1 r2', 'c c1 r2',
    'a c2 r1', 'b c2 r1', 'c c2 r1', 'a c2 r2', 'b c2 r2', 'c c2 r2',
  ]);
  assert.deepEqual(seen.slice(0, 5),
    ['1/12 a warm-up', '1/12 b warm-up', '1/12 c warm-up', '1/12 a c1 r1/2', '2/12 b c1 r1/2']);
  assert.equal(seen.length, 12 + 3, 'with repeats there is no control step: the repeats are the control');
  // The priming of a, b and c; then a's first step, b's, c's; then the second round...
  assert.deepEqual(runs(server.paths), [
    '/a/k', '/b/k', '/c/k', '/a/k', '/b/k', '/c/k', '/a/k', '/b/k', '/c/k',
    '/a/k', '/b/k', '/c/k', '/a/k', '/b/k', '/c/k',
  ]);
  assert.equal(server.paths.length, 3 * 3 + 12 * 6, 'every priming and step request reached the server');
  for (const step of steps) assert.equal(step.responses, 6);
});

test('a run with --repeat keeps every repeat\'s step, says how many in settings, ' +
  'and prints the repeats together', async (t) => {
  const server = await recordingServer(t);
  const { options } = parseArguments([
    '--url', `${server.url}/memory/key1`, '--url', `${server.url}/redis/key1`, '-c', '1', '-n', '20', '--warmup', '0',
    '--repeat', '3', '--order', 'sequential',
  ]);
  const events = [];
  const result = await runBenchmark(options, { onProgress: (event) => events.push(event) });
  assert.equal(result.settings.repeat, 3);
  assert.equal(events[0].totalSteps, 6);
  assert.deepEqual(result.steps.map((step) => `${step.store} ${step.repeat}`),
    ['memory 1', 'redis 1', 'memory 2', 'redis 2', 'memory 3', 'redis 3']);
  assert.deepEqual(result.comparison[0].rows.map((row) => row.repeats), [3, 3]);
  assert.deepEqual(fromJson(toJson(result)), result);
  const text = renderRun(result);
  assert.match(text, /\nRepeats: {2}each step 3 times, interleaved across the URLs at each load level\n/);
  assert.match(text, /\nconcurrency {2}repeats {2}rps +rps min-max {2}meanLatencyMs {2}mean min-max {2}p99 +p99 min-max( {2}bottleneck)? {2}errors\n/);
});
