// --store-rtt, --store-jitter and --store-bandwidth on node test and on app.js: parsed as the
// settings table says, refused with a running app, and handed on as the app's environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArguments } from '../../cli/options.js';
import { parseAppArgs } from '../../cli/app-options.js';
import {
  delayText, effectiveStoreDelay, storeDelayActive, storeDelayEnv, storeDelaySettings, storeDelayText,
} from '../../config/network-delay.js';

test('node test --store-rtt 50 --store-jitter 2.5 --store-bandwidth 1MB is read as a delay', () => {
  const { options, problems } = parseArguments(
    ['--store-rtt', '50', '--store-jitter', '2.5', '--store-bandwidth', '1MB'],
    {},
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(options.storeDelay, { rttMs: 50, jitterMs: 2.5, bandwidth: 1024 ** 2 });
  assert.deepEqual(
    storeDelayEnv(options.storeDelay),
    { STOREBENCH_STORE_RTT_MS: '50', STOREBENCH_STORE_JITTER_MS: '2.5', STOREBENCH_STORE_BANDWIDTH: '1048576' },
  );
  assert.deepEqual(
    storeDelaySettings(options.storeDelay),
    { storeRtt: 50, storeJitter: 2.5, storeBandwidth: 1024 ** 2 },
  );
  assert.equal(delayText(options.storeDelay), 'RTT 50 ms ± 2.5 ms, 1 MB/s each way');
});

test('a bad --store-rtt, or one with --target, is a problem line', () => {
  assert.deepEqual(
    parseArguments(['--store-rtt', 'fast'], {}).problems,
    ['--store-rtt must be a number of milliseconds from 0 to 60000, not "fast"'],
  );
  assert.deepEqual(parseArguments(['--store-rtt', '-5'], {}).problems.length, 1);
  assert.deepEqual(parseArguments(['--store-bandwidth', '0'], {}).problems.length, 1);
  assert.deepEqual(parseArguments(['--target', 'http://127.0.0.1:3000', '--store-rtt', '50'], {}).problems, [
    '--store-rtt applies to the app node test starts (or to --direct): a running app (--target, --url) ' +
    'takes its own --store-rtt',
  ]);
});

test('the flag beats the environment, and the environment alone gives a delay too', () => {
  assert.deepEqual(effectiveStoreDelay({ rttMs: 0 }, { STOREBENCH_STORE_RTT_MS: '80' }), null);
  assert.deepEqual(
    effectiveStoreDelay(null, { STOREBENCH_STORE_RTT_MS: '80' }),
    { rttMs: 80, jitterMs: 0, bandwidth: 0 },
  );
  assert.deepEqual(
    effectiveStoreDelay({ rttMs: 20 }, { STOREBENCH_STORE_RTT_MS: '80' }),
    { rttMs: 20, jitterMs: 0, bandwidth: 0 },
  );
});

test('app.js takes the same settings as flags, and checks the environment\'s', () => {
  const { options, problems } = parseAppArgs(['--store-rtt', '50', '--store-bandwidth', '100KB'], {});
  assert.deepEqual(problems, []);
  assert.equal(options.storeRtt, '50');
  assert.equal(options.storeBandwidth, '100KB');
  const bad = parseAppArgs([], { STOREBENCH_STORE_JITTER_MS: 'lots' });
  assert.equal(bad.problems.length, 1);
  assert.match(bad.problems[0], /STOREBENCH_STORE_JITTER_MS must be a number of milliseconds/);
});

test('--store-rtt takes store=ms items beside a plain value: named stores get their own, the rest the plain one',
  () => {
    const { options, problems } = parseArguments([
      '--store-rtt', '10,redis=40', '--store-bandwidth', 'cloudant-legacy=1MB',
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(options.storeDelay, {
      rttMs: { all: 10, stores: { redis: 40 } },
      bandwidth: { stores: { 'cloudant-legacy': 1024 ** 2 } },
    });
    // Handed on as the same text, which the app reads back to the same values.
    assert.deepEqual(storeDelayEnv(options.storeDelay), {
      STOREBENCH_STORE_RTT_MS: '10,redis=40', STOREBENCH_STORE_BANDWIDTH: 'cloudant-legacy=1048576',
    });
    assert.deepEqual(effectiveStoreDelay(null, storeDelayEnv(options.storeDelay)), {
      rttMs: 10,
      jitterMs: 0,
      bandwidth: 0,
      stores: {
        redis: { rttMs: 40, jitterMs: 0, bandwidth: 0 },
        'cloudant-legacy': { rttMs: 10, jitterMs: 0, bandwidth: 1024 ** 2 },
      },
    });
    assert.equal(storeDelayText(options.storeDelay),
      'RTT 10 ms; redis: RTT 40 ms; cloudant-legacy: RTT 10 ms, 1 MB/s each way');
    assert.equal(storeDelayText({ rttMs: { stores: { redis: 40 } } }), 'redis: RTT 40 ms (the other stores: none)');
    assert.equal(storeDelayActive({ rttMs: { stores: { redis: 0 } } }), false);
    assert.equal(storeDelayActive({ rttMs: { stores: { redis: 40 } } }), true);
  });

test('a store list with an unknown store, two plain values or a name twice is one problem line each', () => {
  const problem = (value) => parseArguments(['--store-rtt', value]).problems;
  assert.match(problem('reddis=40')[0], /^--store-rtt: unknown store "reddis" \(known: memory, redis, /);
  assert.deepEqual(problem('10,20'), ['--store-rtt takes one value for every store, or name=value items, not "10,20"']);
  assert.deepEqual(problem('redis=1,redis=2'), ['--store-rtt names store redis twice, not "redis=1,redis=2"']);
  assert.deepEqual(problem('=5'), ['--store-rtt needs a store name before each "=" (redis=40), not "=5"']);
  assert.deepEqual(problem('redis=far'),
    ['--store-rtt must be a number of milliseconds from 0 to 60000, not "redis=far"']);
});
