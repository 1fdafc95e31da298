// The sweep kind of studies/ with a run in direct mode (no app): one run() call
// per key and concurrency, exact -n counts, the table built from those steps, one merged Result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../../studies/kinds/sweep.js';

test('a direct run of the sweep kind measures each key and concurrency once with exact counts, ' +
  'and merges them into one Result', async () => {
  const scenario = {
    name: 'direct-memory',
    app: { stores: ['memory'] },
    tables: [{
      id: 't',
      title: 'T',
      rowHeader: 'url',
      row: '{store}/{key} c={concurrency}',
      columns: [
        { id: 'n', label: 'n', unit: '', metric: 'requests' },
        { id: 'c', label: 'c', unit: '', metric: 'concurrency' },
      ],
    }],
  };
  const events = [];
  const options = {
    direct: true, stores: 'memory', keys: ['key1', 'key2'], requests: 300, concurrency: [1, 3], warmup: 0,
  };
  const out = await run(scenario, { runs: [{ id: 'd', label: 'memory', options }] }, {
    onProgress: (event) => events.push(event),
  });
  const [table] = out.measured;
  assert.deepEqual(table.rows, ['memory/key1 c=1', 'memory/key1 c=3', 'memory/key2 c=1', 'memory/key2 c=3']);
  for (const row of table.rows) assert.equal(table.cells[row].n, 300);
  assert.equal(table.cells['memory/key2 c=3'].c, 3);
  assert.equal(out.results.length, 1);
  const [result] = out.results;
  assert.equal(result.steps.length, 4);
  assert.ok(result.steps.every((step) => step.mode === 'direct' && step.errors.total === 0));
  assert.deepEqual(result.settings.concurrency, [1, 3]);
  assert.equal(events.filter((event) => event.type === 'app-starting').length, 0, 'no app for a direct run');
  assert.deepEqual(events.filter((event) => event.type === 'scenario-step').map((event) => event.index), [1, 2, 3, 4]);
  assert.deepEqual(out.failures, []);
});
