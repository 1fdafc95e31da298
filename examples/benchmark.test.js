// A benchmark inside a node:test suite: the run resolves to a Result, and the test asserts on
// its figures. Run it with `node --test examples/benchmark.test.js`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, run } from 'storebench';

test('the in-process memory store serves key1 at concurrency 5 with no error and p99 under 50 ms', async () => {
  const events = [];
  const result = await run(
    { direct: true, stores: ['memory'], keys: ['key1'], concurrency: [5], requests: 500, warmup: 0 },
    { onProgress: (event) => events.push(event.type) },
  );
  assert.equal(result.steps.length, 1);
  const [step] = result.steps;
  assert.equal(step.responses, 500);
  assert.equal(step.errors.total, 0);
  assert.ok(events.includes('step-done'));
  const gate = check(result, ['memory:p99<50ms']);
  assert.ok(gate.pass, gate.text);
});
