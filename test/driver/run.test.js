import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runBenchmark, resultError } from '../../driver/run.js';
import { parseArguments } from '../../cli/options.js';
import { renderRun } from '../../report/run-text.js';
import { estimateLine } from '../../report/progress.js';
import { fromJson, toJson } from '../../result/format.js';
import { RunError } from '../../util/errors.js';
import { startTestServer } from '../helpers/driver-servers.js';

test('if the embedded app dies mid-sweep the finished steps are kept and the run fails with the reason', async () => {
  const { options, problems } = parseArguments([
    '--stores', 'memory', '--keys', 'key1,key2', '-c', '1,1,1,1', '-t', '0.3', '--warmup', '0', '-q',
  ]);
  assert.deepEqual(problems, []);
  let killed = false;
  const result = await runBenchmark(options, {
    onProgress: (event) => {
      // After the first key's four steps (~1.2 s), kill the app as a crash would.
      if (event.type === 'app-started') setTimeout(() => { killed = event.app.child.kill('SIGKILL'); }, 1800);
    },
  });
  assert.ok(killed);
  assert.equal(result.interrupted, true);
  assert.equal(result.appExit, 'SIGKILL');
  assert.ok(result.steps.length >= 4 && result.steps.length < 8, `${result.steps.length} steps finished`);
  const error = resultError(result);
  assert.ok(error instanceof RunError);
  assert.match(error.message, /^app\.js exited \(SIGKILL\) during the sweep; the \d+ finished step\(s\) are above and in the results file$/);
  const text = renderRun(result);
  assert.match(text, /## http:\/\/127\.0\.0\.1:\d+\/memory\/key1\n/);
  assert.match(text, /\napp\.js exited \(SIGKILL\) during the sweep: \d+ step\(s\) finished; the step in progress was dropped/);
});

test('a normal run stops the app without calling that a crash', async () => {
  const { options } = parseArguments([
    '--stores', 'memory', '--keys', 'key1', '-c', '1', '-n', '20', '--warmup', '0', '-q',
  ]);
  let app;
  const result = await runBenchmark(options, {
    onProgress: (event) => { if (event.type === 'app-started') app = event.app; },
  });
  assert.equal(result.interrupted, false);
  assert.equal(result.appExit, null);
  assert.equal(resultError(result), null);
  assert.ok(app.child.exitCode !== null || app.child.signalCode !== null, 'the app was stopped');
  assert.doesNotMatch(renderRun(result), /exited/);
});

test('runBenchmark resolves to a Result and reports its progress as events', async (t) => {
  const server = await startTestServer(t);
  const { options } = parseArguments([
    '--url', `${server.url}/a/key1`, '--url', `${server.url}/b/key1`, '-c', '1,2', '-n', '20', '--warmup', '5',
    '--warmup-max', '0', '--order', 'sequential',
  ]);
  const events = [];
  const result = await runBenchmark(options, { onProgress: (event) => events.push(event) });
  const named = (event) => {
    return `step ${event.index}${event.load.warmup ? ' warm-up' : ''}${event.load.control ? ' control' : ''}`;
  };
  assert.deepEqual(events.map((event) => (event.type === 'step' ? named(event) : event.type)), [
    'start', 'step 1 warm-up', 'step 1 warm-up', 'step 1', 'step-done', 'step 2', 'step-done',
    'step 3', 'step-done', 'step 4', 'step-done', 'target-done', 'step 4 control', 'target-done',
  ]);
  assert.equal(events[0].totalSteps, 4);
  assert.ok(events[0].estimateSeconds === null, 'no estimate for counted (-n) steps');
  assert.deepEqual(events[11].steps, result.steps.slice(2, 4), 'target-done carries that URL\'s steps');
  assert.deepEqual(events[13].steps, result.steps.slice(0, 2), 'the control\'s URL is done after the control');
  assert.deepEqual(Object.keys(result), [
    'format', 'interrupted', 'appExit', 'settings', 'system', 'targets', 'skipped', 'loads', 'order', 'steps',
    'control', 'appWarmup', 'verifications', 'comparison', 'merged', 'peakRss',
  ]);
  assert.deepEqual(result.settings, options.settings, 'the settings are those normalizeOptions made');
  assert.equal(result.appWarmup, null, '--warmup-max 0: no warm-up of the app either');
  assert.equal(result.format, 'storebench-results/6');
  assert.deepEqual(result.targets.map((target) => target.store), ['a', 'b']);
  assert.deepEqual(result.steps.map((step) => [step.store, step.concurrency, step.responses]),
    [['a', 1, 20], ['a', 2, 20], ['b', 1, 20], ['b', 2, 20]]);
  assert.equal(result.comparison.length, 2);
  assert.deepEqual(fromJson(toJson(result)), result, 'a real Result survives the round trip');
});

test('an abort (Ctrl-C) resolves with the finished steps and interrupted: true', async (t) => {
  const server = await startTestServer(t, { sleepMs: 20 });
  const { options } = parseArguments(['--url', `${server.url}/a/key1`, '-c', '1,1,1,1', '-n', '15', '--warmup', '0']);
  const controller = new AbortController();
  const result = await runBenchmark(options, {
    signal: controller.signal,
    onProgress: (event) => { if (event.type === 'step-done') controller.abort(); },
  });
  assert.equal(result.interrupted, true);
  assert.equal(result.appExit, null);
  assert.equal(result.steps.length, 1);
  assert.equal(resultError(result), null, 'an interruption is not a failure');
});

test('a run with a large load phase announces the load in its estimate', async () => {
  // Pins #30.4: --records 10000000 announced "about 10 s"; the load alone took 96 s.
  const { options, problems } = parseArguments([
    '--direct', '--stores', 'memory', '--records', '10000000', '-c', '1', '-t', '2', '--warmup', '0', '-q',
  ]);
  assert.deepEqual(problems, []);
  const controller = new AbortController();
  let start;
  const result = await runBenchmark(options, {
    signal: controller.signal,
    onProgress: (event) => {
      if (event.type !== 'start') return;
      start = event;
      controller.abort(); // the estimate is all this test wants: no load, no step
    },
  });
  assert.equal(result.interrupted, true);
  assert.equal(start.estimateLoad.records, 10_000_000);
  assert.deepEqual(start.estimateLoad.unknown, []);
  const { seconds } = start.estimateLoad;
  assert.ok(seconds > 10, `the load of 10,000,000 records is estimated at ${seconds} s`);
  assert.ok(start.estimateSeconds >= seconds + 2, 'the run\'s estimate includes the load and the step');
  assert.match(estimateLine(start), /the control and loading 10,000,000 records \(about .+\) included/);
});
