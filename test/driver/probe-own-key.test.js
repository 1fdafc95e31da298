// Pins the bug where the direct probe read record 0, which a 10 KB write phase rewrites, so
// "10 KB writes slow the probe" compared a 10 KB read with a 100 B one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArguments } from '../../cli/options.js';
import { openDirectTargets, PROBE_KEY, PROBE_VALUE_SIZE } from '../../driver/direct-targets.js';
import { openProbeTarget } from '../../driver/probe/requests.js';
import { startSampling } from '../../driver/probe/sampler.js';
import { keyOf } from '../../driver/workloads/values.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';

async function probeOf(t, workload, extra = []) {
  const { options, problems } = parseArguments([
    '--direct', '--stores', 'redis', '--workload', workload, '--records', '10', '--value-size', '10KB', ...extra,
  ]);
  assert.deepEqual(problems, []);
  const { targets, stores } = await openDirectTargets(options, { env: { ...process.env, REDIS_URL: testRedisUrl } });
  t.after(() => stores.close());
  const [target] = targets;
  const opened = await openProbeTarget(target.probeTarget, { timeoutMs: 2000 });
  t.after(() => opened.close());
  return { target, store: stores.entry('redis').raw, figures: await startSampling(opened.send, { maxCount: 20 }).done };
}

test('a key-space workload\'s direct probe uses a 100-byte key of its own: ' +
  'it reads it under a read workload, writes it under a write workload', async (t) => {
  if (!(await reachable(testRedisUrl))) return unavailable(t, `no Redis at ${testRedisUrl}`);
  const { options } = parseArguments(['--direct', '--stores', 'redis']);
  const plain = await openDirectTargets(options, { env: { ...process.env, REDIS_URL: testRedisUrl } });
  const recordZero = await plain.stores.entry('redis').raw.get(keyOf(0));
  await plain.stores.close();
  const writing = await probeOf(t, 'write');
  assert.equal(writing.target.probeTarget.key, PROBE_KEY);
  assert.equal(writing.target.probeTarget.writes, true);
  assert.equal(writing.figures.count, 20);
  assert.equal(writing.figures.errors, 0);
  assert.equal((await writing.store.get(PROBE_KEY)).length, PROBE_VALUE_SIZE);
  assert.deepEqual(await writing.store.get(keyOf(0)), recordZero, 'the probe never writes a record of the key space');
  const reading = await probeOf(t, 'read');
  assert.equal(reading.target.probeTarget.key, PROBE_KEY);
  assert.equal(reading.target.probeTarget.writes, false);
  assert.equal(reading.figures.count, 20);
  assert.equal((await reading.store.get(PROBE_KEY)).length, PROBE_VALUE_SIZE);
});

test('--probe-size 10KB: the probe\'s own key holds 10 KB, which a read probe reads (study 002\'s 10 KB read probe)',
  async (t) => {
    if (!(await reachable(testRedisUrl))) return unavailable(t, `no Redis at ${testRedisUrl}`);
    const reading = await probeOf(t, 'read', ['--probe', '--probe-size', '10KB', '-n', '1000']);
    assert.equal(reading.target.probeTarget.valueSize, 10 * 1024);
    assert.equal(reading.figures.count, 20);
    assert.equal(reading.figures.errors, 0);
    assert.equal((await reading.store.get(PROBE_KEY)).length, 10 * 1024);
    // Its noise: two standard errors by batch means, one batch of 20 answers being too few.
    assert.equal(reading.figures.noiseMs, null);
  });

test('--probe-size goes with --probe, --direct and a key-space workload, and is a size', () => {
  const problem = (args) => parseArguments(args).problems;
  assert.deepEqual(problem(['--probe', '--probe-size', '10KB', '--workload', 'read']),
    ['--probe-size goes with --probe, --direct and a key-space --workload (the probe\'s own key)']);
  assert.deepEqual(problem(['--direct', '--probe', '--probe-size', '10KB', '-n', '1000']),
    ['--probe-size goes with --probe, --direct and a key-space --workload (the probe\'s own key)']);
  const args = ['--direct', '--probe', '--probe-size', 'big', '--workload', 'read', '--records', '10', '-n', '1000'];
  assert.match(problem(args)[0], /^--probe-size must be a size .*, not "big"$/);
});
