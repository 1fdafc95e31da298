// The Result's settings are made once, by normalizeOptions, from the options: every default
// applied there, frozen, and named as result/fields.js declares them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeOptions } from '../../options/normalize.js';
import { RESULT_FIELDS } from '../../result/fields.js';
import { defaultOf } from '../../options/table.js';

const declared = new Set(RESULT_FIELDS.map(({ path }) => path)
  .filter((path) => /^settings\.[^.]+$/.test(path)).map((path) => path.slice('settings.'.length)));

const settingsOf = (object, env = {}) => {
  const { options, problems } = normalizeOptions(object, env);
  assert.deepEqual(problems, []);
  return options.settings;
};

test('the embedded default: frozen, every default from the table, each key one the Result declares', () => {
  const settings = settingsOf({});
  assert.ok(Object.isFrozen(settings));
  for (const key of Object.keys(settings)) {
    assert.ok(declared.has(key), `settings.${key} is declared in result/fields.js`);
  }
  assert.deepEqual(settings.concurrency, defaultOf('concurrency'));
  assert.equal(settings.duration, defaultOf('duration'));
  assert.equal(settings.requests, null);
  assert.equal(settings.warmup, defaultOf('warmup'));
  assert.equal(settings.warmupMaxSeconds, defaultOf('warmupMax'));
  assert.equal(settings.engine, defaultOf('engine'));
  assert.equal(settings.appWorkers, defaultOf('appWorkers'), 'the run starts its app');
  assert.equal(settings.workload, 'read');
  assert.deepEqual(settings.mix, { read: 1 });
  assert.equal(settings.records, null);
  assert.equal(typeof settings.orderSeed, 'number');
});

test('what the options decide is in the settings: direct, a target, the open model, a key space', () => {
  const direct = settingsOf({ direct: true, stores: ['memory'], requests: 50 });
  assert.equal(direct.engine, 'direct');
  assert.equal(direct.appWorkers, null, '--direct starts no app');
  assert.equal(direct.requests, 50);
  assert.equal(direct.duration, null);

  const target = settingsOf({ target: 'http://127.0.0.1:1', rps: [100, 200] }, { STOREBENCH_STORE_RTT_MS: '10' });
  assert.equal(target.appWorkers, null, 'a running app has its own workers');
  assert.equal(target.concurrency, null);
  assert.deepEqual(target.rps, [100, 200]);
  assert.equal(target.storeDelay, undefined, 'a running app has its own network emulation');

  const keySpace = settingsOf({ workload: 'ycsb-a', records: 1000, valueSize: '100-200', seed: 7, workers: 2 });
  assert.equal(keySpace.workload, 'ycsb-a');
  assert.deepEqual(keySpace.mix, { read: 0.5, update: 0.5 });
  assert.equal(keySpace.records, 1000);
  assert.deepEqual([keySpace.valueSizeMin, keySpace.valueSizeMax], [100, 200]);
  assert.equal(keySpace.seed, 7);
  assert.equal(keySpace.orderSeed, 7, 'one seed for the order and the workload');
  assert.equal(keySpace.verify, false, 'two workers cannot read their updates back soundly');
  assert.equal(settingsOf({ workload: 'ycsb-a', records: 1000 }).verify, true);
});

test('options with problems carry no settings', () => {
  const { options, problems } = normalizeOptions({ concurrency: [0] }, {});
  assert.ok(problems.length > 0);
  assert.equal(options.settings, undefined);
});
